// A key reader thread: a v3 request in, its whole answer out as toncenter's JSON — the key index
// read, the transactions decoded, the address book filled (the book step's plan, from the index's
// code hashes) and the JSON rendered here, so that the gateway's thread only writes the text.
// Anything it cannot answer from the index (a filter only ClickHouse applies, an index still being
// rebuilt, an error) goes back unanswered and the service answers it on its own thread.
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { renderResult } from "@tongate/proto/json/render.js";
import { installSpeedShims } from "@tongate/ton";
import { DECODED_KEYS, DecodedKeys, DECODER_OWNER, openKeyIndexEnv } from "@tongate/store";
import { INDEXER_KEY_TABLES, INDEXER_OWNER, KeyIndex } from "../../store/key-index/key-index.js";
import { addressBookFromKeys } from "../book.js";
import { type BookSources, fillBook, planOf } from "../book-step.js";
import { tokenMetadataFromKeys } from "../metadata.js";
import { KEY_LOOKUPS, lookupId } from "./lookups.js";
import type { KeyReaderData, KeyReaderReply, KeyReaderRequest } from "./protocol.js";

// a worker thread has its own module graph: install what the composition root installs
installSpeedShims();

const data: KeyReaderData = workerData;
// below the gateway's thread: under a full load the kernel runs that one first, so that cheap calls
// (a cached v2 answer) are not queued behind v3 pages
if (data.nice) setPriority(data.nice);

// the indexer's tables and the decoder's, in one view of the environment
const env = openKeyIndexEnv(data.dir);
const keys = KeyIndex.of(env.tables(INDEXER_OWNER, INDEXER_KEY_TABLES));
const decoded = DecodedKeys.of(env.tables(DECODER_OWNER, DECODED_KEYS));
const source = { keys, decoded };
const book: BookSources = {
  addressBook: (addresses) => Promise.resolve(addressBookFromKeys(keys, addresses, decoded)),
  metadata: (addresses) => tokenMetadataFromKeys(decoded, addresses),
};
const byId = new Map(KEY_LOOKUPS.map((l) => [lookupId(l.method), l]));
const port = parentPort!;

port.on("message", (m: KeyReaderRequest) => {
  void answer(m).then(
    (json) => {
      const reply: KeyReaderReply = { job: m.job, json };
      port.postMessage(reply);
    },
    () => port.postMessage({ job: m.job } satisfies KeyReaderReply),
  );
});

async function answer(m: KeyReaderRequest): Promise<string | undefined> {
  // no answer older than the request: messages taken in one turn would share a read snapshot
  keys.refresh();
  const found = byId.get(m.method)?.answer(source, m.request);
  if (!found) return undefined;
  const plan = planOf(found.desc);
  // metadata comes from the decoder's tables: tables a decoder wrote but no longer keeps current
  // would show older metadata than the service's answer (from ClickHouse), which answers instead
  if (plan?.metadata && !decoded.usable && decoded.decoded() !== undefined) return undefined;
  if (plan) await fillBook(plan, found.message, book);
  return JSON.stringify(renderResult(found.desc, found.message));
}
