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
/** Config param 43 max_acc_state_cells: the cells of an account's state. */
export const MAX_ACC_STATE_CELLS = 65536;

// tongate's bounds of a get-method's stack (API v2 and v3 alike). TON bounds a stack only by
// gas; these keep a request within what the emulator and the renderers handle.

/** The values of a get-method's input stack, the elements of its tuples and lists counted. */
export const MAX_STACK_ENTRIES = 256;
/** Tuples and lists within tuples and lists, in a stack given or returned. */
export const MAX_TUPLE_NESTING = 16;
/**
 * The depth of an input stack as the emulator takes it (a VmStack cell: one level per entry
 * above a value, plus the value's own cells and tuples). TON's emulator, compiled to
 * WebAssembly, fails on deeper ones: measured, a cell 325 deep runs and one 330 deep traps,
 * tuples nested 280 deep run and 300 deep trap.
 */
export const MAX_VM_STACK_DEPTH = 256;
/**
 * The depth of a cell that TON's emulator, compiled to WebAssembly, stores in an account's state or
 * returns without failing (it recurses where the C++ node has a deep native stack): the localnet,
 * whose every transaction it runs, takes nothing deeper that it would have to store.
 */
export const MAX_EMULATED_CELL_DEPTH = MAX_VM_STACK_DEPTH;
/** The cells of all the cell and slice entries of one input stack: as many as a message may carry. */
export const MAX_STACK_CELLS = MAX_MSG_CELLS;
