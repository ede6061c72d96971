// A ParsePool worker: block BoCs in, rows out (./parse-pool.ts).
import { parentPort } from "node:worker_threads";
import { installFastSha256 } from "@tongate/ton";
import { blockRowsAndTops } from "../rows/index.js";
import type { ParseReply, ParseRequest } from "./parse-pool.js";

installFastSha256(); // as the main thread of `tongate` does

const port = parentPort!;
port.on("message", (m: ParseRequest) => {
  let reply: ParseReply;
  try {
    const boc = Buffer.from(m.boc.buffer, m.boc.byteOffset, m.boc.byteLength);
    const id = m.id ? { root_hash: Buffer.from(m.id.root_hash), file_hash: Buffer.from(m.id.file_hash) } : undefined;
    reply = { job: m.job, parsed: blockRowsAndTops(boc, { mcSeqno: m.mcSeqno, id }) };
  } catch (e) {
    reply = { job: m.job, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
