// Token events from the in-message of a transaction on a decoded contract, as toncenter's worker
// extracts them: transfer#0f8a7ea5 and burn#595f07bc received by a jetton wallet, transfer#5fcc3d14
// received by an NFT item. A body that does not load as its opcode says is not an event.
import type { Cell } from "@ton/core";
import {
  JETTON_OPCODES,
  loadJettonBurn,
  loadJettonTransfer,
  loadNftTransfer,
  loadTextComment,
  NFT_OPCODES,
  type EitherCell,
  type InterfaceState,
} from "@tongate/contracts";
import type { BlockTransaction } from "./inputs.js";
import { bocOf, raw, rawOrNull, type EventTransaction, type JettonBurnRow, type JettonTransferRow, type NftTransferRow, type Verdict } from "./rows.js";

/** The text of a forward payload that is a text comment (opcode 0, UTF-8 snake); null otherwise. */
export function commentOf(payload: EitherCell | null): string | null {
  if (!payload) return null;
  const s = payload.cell.beginParse();
  if (s.remainingBits < 32 || s.preloadUint(32) !== 0) return null;
  try {
    return loadTextComment(s).text;
  } catch {
    return null;
  }
}

function load<T>(body: Cell, loader: (s: ReturnType<Cell["beginParse"]>) => T): T | undefined {
  try {
    return loader(body.beginParse());
  } catch {
    return undefined;
  }
}

const eventTransaction = (t: BlockTransaction, mcSeqno: number, verdict: Verdict): EventTransaction => ({
  transaction_lt: t.lt.toString(),
  transaction_hash: t.hash,
  transaction_now: t.now,
  transaction_aborted: t.aborted,
  mc_seqno: mcSeqno,
  trace_id: t.traceId,
  confirmed: verdict === "confirmed" ? 1 : 0,
});

export interface TokenEvents {
  jettonTransfers: JettonTransferRow[];
  jettonBurns: JettonBurnRow[];
  nftTransfers: NftTransferRow[];
}

/** The event a transaction on an account in `state` is, if any; `verdict`: the account's. */
export function eventsOf(t: BlockTransaction, state: InterfaceState | undefined, verdict: Verdict, mcSeqno: number, into: TokenEvents): void {
  const m = t.inMessage;
  if (!m?.body || m.source === null || !state) return;
  const source = m.source;
  if (state.kind === "jetton_wallet") {
    const jetton = state.walletData.jetton;
    if (!jetton) return;
    if (m.opcode === JETTON_OPCODES.jetton_transfer) {
      const b = load(m.body, loadJettonTransfer);
      if (!b) return;
      into.jettonTransfers.push({
        ...eventTransaction(t, mcSeqno, verdict),
        jetton_master: raw(jetton),
        jetton_wallet: t.account,
        query_id: b.queryId.toString(),
        amount: b.amount.toString(),
        source,
        destination: b.destination ? raw(b.destination) : "",
        response_destination: rawOrNull(b.responseDestination),
        custom_payload: bocOf(b.customPayload),
        forward_ton_amount: b.forwardTonAmount.toString(),
        forward_payload: bocOf(b.forwardPayload?.cell),
        comment: commentOf(b.forwardPayload),
      });
    } else if (m.opcode === JETTON_OPCODES.jetton_burn) {
      const b = load(m.body, loadJettonBurn);
      if (!b) return;
      into.jettonBurns.push({
        ...eventTransaction(t, mcSeqno, verdict),
        jetton_master: raw(jetton),
        jetton_wallet: t.account,
        query_id: b.queryId.toString(),
        owner: source,
        amount: b.amount.toString(),
        response_destination: rawOrNull(b.responseDestination),
        custom_payload: bocOf(b.customPayload),
      });
    }
  } else if (state.kind === "nft_item" && m.opcode === NFT_OPCODES.nft_transfer) {
    const b = load(m.body, loadNftTransfer);
    if (!b) return;
    const d = state.nftData;
    into.nftTransfers.push({
      ...eventTransaction(t, mcSeqno, verdict),
      nft_collection: d.collection ? raw(d.collection) : "",
      nft_address: t.account,
      query_id: b.queryId.toString(),
      nft_index: d.index.toString(),
      old_owner: source,
      new_owner: b.newOwner ? raw(b.newOwner) : "",
      response_destination: rawOrNull(b.responseDestination),
      custom_payload: bocOf(b.customPayload),
      forward_amount: b.forwardAmount.toString(),
      forward_payload: bocOf(b.forwardPayload?.cell),
      comment: commentOf(b.forwardPayload),
    });
  }
}
