// Entry of a key reader thread (./pool.ts): the sources are TypeScript, loaded through tsx as the
// tongate command loads them.
import { register } from "tsx/esm/api";

register();
await import("./reader.ts");
