// A ParsePool worker: block BoCs in, rows out (./parse-pool.ts).
import { parentPort } from "node:worker_threads";
import type { Cell } from "@ton/core";
import { installSpeedShims } from "@tongate/ton";
import { blockRowsAndTops } from "../rows/index.js";
import { renderTransactions } from "../store/key-index/render.js";
import type { ParseReply, ParseRequest } from "./parse-pool.js";

// This file is the entry point of a worker thread (its own module graph): it installs what the
// composition root installs in the main thread.
installSpeedShims();

const port = parentPort!;
port.on("message", (m: ParseRequest) => {
  let reply: ParseReply;
  try {
    const boc = Buffer.from(m.boc.buffer, m.boc.byteOffset, m.boc.byteLength);
    const id = m.id ? { root_hash: Buffer.from(m.id.root_hash), file_hash: Buffer.from(m.id.file_hash) } : undefined;
    const bodyCells = new Map<string, Cell>();
    const parsed = blockRowsAndTops(boc, { mcSeqno: m.mcSeqno, id, bodyCells });
    // the key index's form of the transactions too, off the main thread (the store adds trace ids),
    // their bodies decoded from the cells just parsed
    parsed.rows.rendered = renderTransactions(parsed.rows, bodyCells);
    reply = { job: m.job, parsed };
  } catch (e) {
    reply = { job: m.job, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
