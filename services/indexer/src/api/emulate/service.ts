// The Emulate API: tongate.emulate.v1.Emulate. The send service emulates the external message into
// its trace (tongate.send.v1.Pending EmulateTrace, sending nothing); this renders it as toncenter's
// ton-emulate-go answers: the tree, the transactions as API v3 renders them, and what was asked
// for (actions, code and data cells, the address book, metadata).
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { type Emulate, type EmulateTraceRequest, type EmulateTraceResponse, EmulateTraceResponseSchema } from "@tongate/proto/gen/tongate/emulate/v1/emulate_pb.js";
import type { AccountStateSummary, PendingTrace } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { pendingActionsOf } from "../actions/pending.js";
import { traceTree } from "../actions/models.js";
import { b64, traceTransactions } from "../blockchain/pending.js";
import { type BookSources, fillBook, planOf } from "../book-step.js";
import { emulateTrace, type PendingSource } from "../pending.js";

export function emulateImpl(pending: PendingSource, book: BookSources): Partial<ServiceImpl<typeof Emulate>> {
  return {
    async emulateTrace(req, ctx) {
      // the send service refuses what is not one inbound external message within config param 43's
      // limits (422 naming boc), an unsigned message without ignore_chksig (409) and a trace past a
      // bound (422), each with its reason
      const r = await emulateTrace(
        pending,
        { boc: req.boc, ignoreChksig: req.ignoreChksig, withActions: req.withActions, includeCodeData: req.includeCodeData, mcBlockSeqno: req.mcBlockSeqno ?? 0 },
        ctx.signal,
      );
      if (!r.trace) throw new Error("the send service answered an emulation without its trace");
      const response = emulatedTraceOf(r.trace, req);
      await withBook(response, req, book);
      return response;
    },
  };
}

/** The emulated trace as toncenter's EmulateTraceResponse. */
export function emulatedTraceOf(trace: PendingTrace, req: Pick<EmulateTraceRequest, "withActions" | "includeCodeData" | "supportedActionTypes">): EmulateTraceResponse {
  const txs = traceTransactions(trace);
  const rootHash = txs[0]?.hash ?? b64(trace.traceId);
  // nothing was sent: the trace has no id yet (toncenter leaves it out of an emulated root's transactions)
  for (const t of txs) t.traceId = undefined;
  const response = create(EmulateTraceResponseSchema, {
    mcBlockSeqno: trace.mcBlockSeqno,
    trace: traceTree(rootHash, txs).root,
    transactions: Object.fromEntries(txs.map((t) => [t.hash, t])),
    actions: req.withActions ? pendingActionsOf(trace, req.supportedActionTypes) : [],
    randSeed: trace.randSeed,
    isIncomplete: trace.isIncomplete,
  });
  if (req.includeCodeData) {
    for (const p of trace.transactions) {
      for (const s of [p.accountStateBefore, p.accountStateAfter]) if (s) addCells(response, s);
    }
  }
  return response;
}

function addCells(response: EmulateTraceResponse, s: AccountStateSummary): void {
  if (s.codeHash.length && s.codeBoc) response.codeCells[b64(s.codeHash)] = s.codeBoc;
  if (s.dataHash.length && s.dataBoc) response.dataCells[b64(s.dataHash)] = s.dataBoc;
}

/** The address book and the metadata, each only when asked for (include_address_book, include_metadata). */
async function withBook(response: EmulateTraceResponse, req: EmulateTraceRequest, sources: BookSources): Promise<void> {
  const plan = planOf(EmulateTraceResponseSchema);
  if (!plan || (!req.includeAddressBook && !req.includeMetadata)) return;
  await fillBook(
    { ...plan, book: req.includeAddressBook ? plan.book : undefined, metadata: req.includeMetadata ? plan.metadata : undefined },
    response,
    sources,
  );
}
