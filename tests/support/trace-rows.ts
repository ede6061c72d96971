// A recorded trace (toncenter's classifier fixtures: ../shared/fixtures/toncenter_actions) as the
// rows tongate's store would hold for it: the indexer's (its transactions with their messages, the
// bodies and StateInits, the trace's record) and the decoder's facts of the contracts it touches,
// as the decoder would have derived them from their states (confirmed jetton wallets and NFT items,
// getgems sales and auctions, DeDust pools, and for the accounts whose data toncenter reads, a
// state with that data after an earlier transaction). The decoder's actions step then reads them
// as it reads a live chain's.
import { Cell } from "@ton/core";
import type { ContractFacts, TraceFile, TraceMessage, TraceTransaction } from "@tongate/actions";
import { loadMigrations, type Store } from "@tongate/store";

const INDEXER_MIGRATIONS = new URL("../../services/indexer/src/store/migrations/", import.meta.url).pathname;
const DECODER_MIGRATIONS = new URL("../../services/decoder/src/store/migrations/", import.meta.url).pathname;

/**
 * The indexer's and the decoder's tables, statement by statement (each is IF NOT EXISTS; both
 * services' migrations would share one version table under `migrate`).
 */
export async function applySchemas(store: Store): Promise<void> {
  for (const dir of [INDEXER_MIGRATIONS, DECODER_MIGRATIONS]) for (const m of loadMigrations(dir)) for (const query of m.statements) await store.client.command({ query });
}

export type TableRows = Record<string, Record<string, unknown>[]>;

const bocHash = (boc: string): string => Cell.fromBase64(boc).hash().toString("base64");
const str = (v: bigint | null | undefined): string | null => (v === null || v === undefined ? null : v.toString());

/** A message as the indexer stores it beside its transaction (transactions.messages). */
function storedMessage(m: TraceMessage, direction: "in" | "out") {
  return {
    msg_hash: m.hash,
    direction,
    source: m.source,
    destination: m.destination,
    value: str(m.value),
    value_extra_currencies: m.valueExtraCurrencies ?? {},
    fwd_fee: str(m.fwdFee),
    ihr_fee: str(m.ihrFee),
    created_lt: str(m.createdLt),
    created_at: m.createdAt,
    opcode: m.opcode,
    bounce: m.bounce,
    bounced: m.bounced,
    import_fee: str(m.importFee),
    body_hash: m.bodyHash || bocHash(m.body),
    init_state_hash: m.initState ? (m.initStateHash ?? bocHash(m.initState)) : null,
    hash_norm: m.hashNorm ?? null,
  };
}

/** The v3 description object of a transaction (the fields the decoder reads back). */
function description(t: TraceTransaction) {
  return {
    type: t.descr,
    aborted: t.aborted,
    destroyed: t.destroyed,
    ...(t.isTock !== null && { is_tock: t.isTock }),
    compute_ph: t.computeSkipped ? { skipped: true, ...(t.computeSkipReason && { reason: t.computeSkipReason }) } : { skipped: false, exit_code: t.computeExitCode },
    ...(t.actionResultCode !== null && { action: { result_code: t.actionResultCode } }),
    ...(t.bounce && { bounce: { type: t.bounce } }),
  };
}

/** A made-up state hash of an account at an lt (the fixtures carry no states). */
const stateHash = (account: string, lt: bigint): string => Buffer.from(`${account}@${lt}`).toString("base64");

function transactionRow(t: TraceTransaction, traceId: string | null) {
  const messages = [...(t.inMsg ? [storedMessage(t.inMsg, "in")] : []), ...t.outMsgs.map((m) => storedMessage(m, "out"))];
  return {
    account: t.account,
    lt: t.lt.toString(),
    hash: t.hash,
    prev_trans_hash: "",
    prev_trans_lt: "0",
    now: t.now,
    mc_seqno: t.mcBlockSeqno,
    block_workchain: Number(t.account.split(":")[0]),
    block_shard: "0",
    block_seqno: 0,
    orig_status: t.origStatus,
    end_status: t.endStatus,
    total_fees: t.totalFees.toString(),
    account_state_hash_before: stateHash(t.account, t.lt - 1n),
    account_state_hash_after: stateHash(t.account, t.lt),
    description: JSON.stringify(description(t)),
    in_msg_hash: t.inMsg?.hash ?? null,
    out_msg_hashes: t.outMsgs.map((m) => m.hash),
    trace_id: traceId,
    messages: JSON.stringify(messages),
  };
}

/** The decoder's rows of one contract's facts, as of the block before the trace (its state then). */
function factRows(address: string, f: ContractFacts, version: { last_transaction_lt: string; last_transaction_now: number; mc_seqno: number }, out: TableRows): void {
  const v = { code_hash: "", data_hash: "", ...version };
  const push = (table: string, row: Record<string, unknown>) => (out[table] ??= []).push(row);
  if (f.jettonWallet) {
    const w = f.jettonWallet;
    push("jetton_wallets", { ...v, address, jetton: w.jetton, owner: w.owner, balance: w.balance.toString(), verdict: "confirmed", mintless_is_claimed: null });
  }
  if (f.nftItem) {
    const n = f.nftItem;
    const owner = n.ownerAddress ?? "";
    push("nft_items", {
      ...v, address, collection_address: n.collectionAddress ?? "", nft_index: n.index.toString(), init: n.init, owner_address: owner,
      content: JSON.stringify(n.content ?? {}), verdict: "confirmed", on_sale: false, sale_contract_address: null, auction_contract_address: null, real_owner: owner,
    });
  }
  if (f.nftSale) {
    const s = f.nftSale;
    push("nft_sales", {
      ...v, address, type: "getgems_sale", nft_address: s.nftAddress, nft_owner_address: s.nftOwnerAddress, marketplace_address: s.marketplaceAddress,
      is_complete: s.isComplete, full_price: s.fullPrice.toString(), marketplace_fee_address: s.marketplaceFeeAddress ?? null, marketplace_fee: str(s.marketplaceFee),
      royalty_address: s.royaltyAddress ?? null, royalty_amount: str(s.royaltyAmount),
    });
  }
  if (f.nftAuction) {
    const a = f.nftAuction;
    push("nft_sales", {
      ...v, address, type: "getgems_auction", nft_address: a.nftAddress, nft_owner_address: a.nftOwnerAddress, marketplace_address: a.marketplaceAddress,
      last_bid: a.lastBid.toString(), min_bid: str(a.minBid), max_bid: str(a.maxBid), mp_fee_address: a.marketplaceFeeAddress ?? null, royalty_fee_address: a.royaltyAddress ?? null,
    });
  }
  if (f.dedustPool) {
    const [a1, a2] = f.dedustPool.assets.map((a) => (a.isTon ? null : a.address));
    push("dedust_pools", { address, asset_1: a1 ?? null, asset_2: a2 ?? null, is_stable: false, last_transaction_lt: version.last_transaction_lt, mc_seqno: version.mc_seqno });
  }
}

/**
 * The rows of a recorded trace: the indexer's (transactions, message_contents, traces) and the
 * decoder's facts of its `interfaces`. A contract whose data toncenter read gets a state with that
 * data after a transaction of its own before the trace (what the index holds of it then).
 */
export function traceRows(file: TraceFile): TableRows {
  const { trace } = file;
  const out: TableRows = { transactions: [], message_contents: [], traces: [], account_states: [] };
  const contents = new Map<string, string>();
  for (const t of trace.transactions) {
    out.transactions!.push(transactionRow(t, trace.traceId));
    for (const m of [t.inMsg, ...t.outMsgs]) {
      if (!m) continue;
      const stored = storedMessage(m, "in");
      if (m.body) contents.set(stored.body_hash, m.body);
      if (m.initState && stored.init_state_hash) contents.set(stored.init_state_hash, m.initState);
    }
  }
  for (const [hash, boc] of contents) out.message_contents!.push({ hash, boc });
  const edges = trace.transactions.reduce((n, t) => n + t.outMsgs.length, 0);
  out.traces!.push({
    trace_id: trace.traceId,
    external_hash: trace.externalHash,
    external_hash_norm: trace.externalHashNorm,
    mc_seqno_start: trace.mcSeqnoStart,
    mc_seqno_end: trace.mcSeqnoEnd,
    start_lt: trace.startLt.toString(),
    start_utime: trace.startUtime,
    end_lt: trace.endLt.toString(),
    end_utime: trace.endUtime,
    state: "complete",
    pending_edges: 0,
    edges,
    nodes: trace.transactions.length,
  });
  // the facts as of the block the trace started in, from the accounts' states before it
  const before = { last_transaction_lt: (trace.startLt - 1n).toString(), last_transaction_now: trace.startUtime - 1, mc_seqno: trace.mcSeqnoStart };
  const raw = file.raw.interfaces;
  const addresses = raw && typeof raw === "object" && !Array.isArray(raw) ? Object.keys(raw) : [];
  for (const address of addresses) {
    const f = file.lookup.facts(address);
    if (!f) continue;
    factRows(address, f, before, out);
    if (f.dataBoc) {
      // an earlier transaction of the account (no trace of this file), and its state after it holding the data
      const lt = trace.startLt - 1n;
      const prior: TraceTransaction = {
        hash: Buffer.from(`prior ${address}`).toString("base64"), lt, account: address, now: trace.startUtime - 1, mcBlockSeqno: trace.mcSeqnoStart,
        origStatus: "active", endStatus: "active", totalFees: 0n, descr: "ord", aborted: false, destroyed: false, isTock: null,
        computeExitCode: 0, computeSkipped: false, actionResultCode: 0, bounce: null, inMsg: null, outMsgs: [],
      };
      out.transactions!.push(transactionRow(prior, null));
      out.account_states!.push({
        hash: stateHash(address, lt), account: address, balance: "0", account_status: "active", code_hash: null, data_hash: bocHash(f.dataBoc.dataBoc),
        data_boc: f.dataBoc.dataBoc, last_trans_hash: prior.hash, last_trans_lt: lt.toString(), timestamp: prior.now,
      });
    }
  }
  return out;
}

/** Inserts each table's rows (JSONEachRow: the columns named, defaults for the rest). */
export async function insertTableRows(store: Store, rows: TableRows): Promise<void> {
  for (const [table, values] of Object.entries(rows)) if (values.length) await store.client.insert({ table, values, format: "JSONEachRow" });
}
