// Entry of a ParsePool worker (./parse-pool.ts): the sources are TypeScript, loaded through tsx as
// the tongate command loads them.
import { register } from "tsx/esm/api";

register();
await import("./parse-worker.ts");
