// TON's own limits on cells, messages and TVM values, for bounding what clients send before it
// reaches a parser, the emulator or a renderer. The config param 43 values (SizeLimitsConfig)
// are mainnet's; code that has the chain's config at hand should read them from it.

/** The deepest a cell may be (vm::Cell::max_depth in TON's C++ code). */
export const MAX_CELL_DEPTH = 1024;

/** Config param 43 max_msg_cells: the cells of one message. */
export const MAX_MSG_CELLS = 8192;
/** Config param 43 max_library_cells: the cells of one library (checked when it is set). */
export const MAX_LIBRARY_CELLS = 1000;
/** Config param 43 max_vm_data_depth: the depth of the cells of a message or an account state. */
export const MAX_VM_DATA_DEPTH = 512;
/** Config param 43 max_ext_msg_size: the bytes of an external message's BoC. */
export const MAX_EXT_MSG_SIZE = 65535;
/** Config param 43 max_ext_msg_depth: the depth of an external message. */
export const MAX_EXT_MSG_DEPTH = 512;

/** The elements of one TVM tuple (TUPLE's n is 0..255). */
export const MAX_TUPLE_LENGTH = 255;
