export { decoderService, DECODER_MIGRATIONS } from "./service.js";
export { DECODER_CHECKPOINT } from "./write.js";
export type { DecoderStatus } from "./run.js";
