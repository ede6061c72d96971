// The generated contract (src/gen, written by `npm run generate`; do not edit)
// and where the descriptor set with source comments lives.
import { fileURLToPath } from "node:url";

/** FileDescriptorSet of proto/ with comments, written by `buf build` in `npm run generate`. */
export const descriptorSetPath = fileURLToPath(new URL("./gen/descriptors.binpb", import.meta.url));
