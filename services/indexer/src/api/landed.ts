// What of the send service's pending traces the index already has, as toncenter's pending endpoints
// check it (crud_pending.go): a trace whose external message is in a complete indexed trace is not
// pending any more (/traces and /actions answer it), and a transaction whose message the index has
// delivered is not either. The send service also drops what it learns is final; asking the index
// as well keeps the endpoints right whenever the two learn it at different moments.
import { Finality, type PendingTrace } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { type PendingSource, pendingTraces, type PendingTracesFilter } from "./pending.js";
import { deliveredMessages } from "@tongate/store";
import { select, type Store } from "./sql.js";

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");

/** Of these external message hashes (base64), those that started a trace the index has whole. */
export async function completedExternals(store: Store, externalHashes: readonly string[]): Promise<Set<string>> {
  const delivered = await deliveredMessages(store, externalHashes);
  if (!delivered.size) return new Set();
  // the transaction an external message starts is its trace's root: the trace's id is its hash
  const rows = await select<{ trace_id: string }>(store, "SELECT trace_id FROM traces FINAL WHERE trace_id IN {t:Array(String)} AND state = 'complete'", {
    t: [...delivered.values()],
  });
  const complete = new Set(rows.map((r) => r.trace_id));
  return new Set([...delivered].filter(([, tx]) => complete.has(tx)).map(([msg]) => msg));
}

/**
 * The send service's pending traces of the filter that are not final: neither finalized as it knows,
 * nor complete in the index.
 */
export async function openTraces(store: Store, pending: PendingSource, filter: Partial<PendingTracesFilter>, signal?: AbortSignal): Promise<PendingTrace[]> {
  const traces = (await pendingTraces(pending, filter, signal)).filter((t) => t.finality !== Finality.FINALIZED);
  const indexed = await completedExternals(
    store,
    traces.map((t) => b64(t.externalHash)),
  );
  return traces.filter((t) => !indexed.has(b64(t.externalHash)));
}
