export { decoderService, DECODER_MIGRATIONS } from "./service.js";
/** The decoder's checkpoint: defined with the key-index layouts (@tongate/store) that API v3's readers share. */
export { DECODER_CHECKPOINT } from "@tongate/store";
export type { DecoderStatus } from "./run.js";
export { DECODER_KEY_INDEX, rebuildDecodedKeys } from "./keys.js";
