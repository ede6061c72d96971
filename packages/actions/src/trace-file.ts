// A trace file in the format of toncenter's classifier fixtures (../shared/fixtures/
// toncenter_actions, its README): `trace`, `transactions` with their messages, `interfaces` —
// read into the classifier's TraceInput and a lookup over the interfaces. `tongate classify`
// and the replay harness read the same files.
import { readFileSync } from "node:fs";
import { MapInterfaceLookup, type ContractFacts } from "./interfaces.js";
import type { TraceInput, TraceMessage, TraceTransaction, TransactionKind } from "./trace.js";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

function obj(v: Json | undefined): JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {};
}
/** A trace file that lacks a field the classifier needs. */
export class TraceFileError extends Error {}

function need<T>(v: T | null, what: string): T {
  if (v === null) throw new TraceFileError(`trace file: ${what} is missing or not of the expected type`);
  return v;
}

const str = (v: Json | undefined): string | null => (typeof v === "string" ? v : null);
const num = (v: Json | undefined): number | null => (typeof v === "number" ? v : null);
const bool = (v: Json | undefined): boolean | null => (typeof v === "boolean" ? v : null);
const big = (v: Json | undefined): bigint | null => (typeof v === "string" || typeof v === "number" ? BigInt(typeof v === "number" ? Math.trunc(v) : v) : null);

function message(m: JsonObject): TraceMessage {
  const content = obj(m.message_content);
  const init = obj(m.init_state);
  const extra = obj(m.value_extra_currencies);
  const extras: Record<string, string> = {};
  for (const [k, v] of Object.entries(extra)) extras[k] = String(v);
  return {
    hash: need(str(m.msg_hash), "msg_hash"),
    source: str(m.source),
    destination: str(m.destination),
    value: big(m.value),
    valueExtraCurrencies: m.value_extra_currencies === null ? null : extras,
    fwdFee: big(m.fwd_fee),
    ihrFee: big(m.ihr_fee),
    importFee: big(m.import_fee),
    createdLt: big(m.created_lt),
    createdAt: num(m.created_at),
    opcode: num(m.opcode),
    bounce: bool(m.bounce),
    bounced: bool(m.bounced),
    body: str(content.body) ?? "",
    bodyHash: str(m.body_hash) ?? "",
    initState: str(init.body),
    initStateHash: str(m.init_state_hash),
  };
}

const STATUSES = ["active", "uninit", "frozen", "nonexist"] as const;
type Status = (typeof STATUSES)[number];
const status = (v: Json | undefined): Status => STATUSES.find((s) => s === v) ?? "nonexist";
const KINDS: TransactionKind[] = ["ord", "tick_tock", "split_prepare", "split_install", "merge_prepare", "merge_install", "storage", "trans_ord"];

function transaction(t: JsonObject): TraceTransaction {
  const msgs = Array.isArray(t.messages) ? t.messages.map(obj) : [];
  const inMsg = msgs.find((m) => m.direction === "in");
  return {
    hash: need(str(t.hash), "hash"),
    lt: need(big(t.lt), "lt"),
    account: need(str(t.account), "account"),
    now: need(num(t.now), "now"),
    mcBlockSeqno: num(t.mc_block_seqno) ?? 0,
    origStatus: status(t.orig_status),
    endStatus: status(t.end_status),
    totalFees: big(t.total_fees) ?? 0n,
    descr: KINDS.find((k) => k === t.descr) ?? "ord",
    aborted: t.aborted === true,
    destroyed: t.destroyed === true,
    isTock: bool(t.is_tock),
    computeExitCode: num(t.compute_exit_code),
    computeSkipped: t.compute_mode === null,
    actionResultCode: null,
    bounce: str(t.bounce),
    inMsg: inMsg ? message(inMsg) : null,
    outMsgs: msgs.filter((m) => m.direction === "out").map(message),
  };
}

function facts(v: JsonObject): ContractFacts {
  const f: ContractFacts = {};
  const jw = obj(v.JettonWallet);
  if (v.JettonWallet) f.jettonWallet = { address: need(str(jw.address), "address"), owner: need(str(jw.owner), "owner"), jetton: need(str(jw.jetton), "jetton"), balance: big(jw.balance) ?? 0n };
  const ni = obj(v.NftItem);
  if (v.NftItem) {
    const content: Record<string, string> = {};
    for (const [k, c] of Object.entries(obj(ni.content))) if (typeof c === "string") content[k] = c;
    f.nftItem = {
      address: need(str(ni.address), "address"),
      init: ni.init === true,
      index: big(ni.index) ?? 0n,
      collectionAddress: str(ni.collection_address),
      ownerAddress: str(ni.owner_address),
      content: ni.content ? content : null,
    };
  }
  const ns = obj(v.NftSale);
  if (v.NftSale) {
    f.nftSale = {
      address: need(str(ns.address), "address"),
      marketplaceAddress: str(ns.marketplace_address),
      nftAddress: need(str(ns.nft_address), "nft_address"),
      nftOwnerAddress: str(ns.nft_owner_address),
      fullPrice: big(ns.full_price) ?? 0n,
      isComplete: ns.is_complete === true,
      marketplaceFeeAddress: str(ns.marketplace_fee_address),
      marketplaceFee: big(ns.marketplace_fee),
      royaltyAddress: str(ns.royalty_address),
      royaltyAmount: big(ns.royalty_amount),
    };
  }
  const na = obj(v.NftAuction);
  if (v.NftAuction) {
    f.nftAuction = {
      address: need(str(na.address), "address"),
      marketplaceAddress: str(na.mp_addr),
      nftAddress: need(str(na.nft_addr), "nft_addr"),
      nftOwnerAddress: str(na.nft_owner),
      lastBid: big(na.last_bid) ?? 0n,
      minBid: big(na.min_bid),
      maxBid: big(na.max_bid),
      marketplaceFeeAddress: str(na.mp_fee_addr),
      royaltyAddress: str(na.royalty_fee_addr),
    };
  }
  const dp = obj(v.DedustPool);
  if (v.DedustPool && Array.isArray(dp.assets)) f.dedustPool = { assets: dp.assets.map(obj).map((a) => ({ isTon: a.is_ton === true, address: str(a.address) })) };
  if (v.NominatorPool) f.nominatorPool = { address: str(obj(v.NominatorPool).address) ?? "" };
  const mo = obj(v.MultisigOrder);
  if (v.MultisigOrder) {
    f.multisigOrder = {
      address: need(str(mo.address), "address"),
      multisigAddress: str(mo.multisig_address),
      orderSeqno: big(mo.order_seqno) ?? 0n,
      threshold: num(mo.threshold),
      sentForExecution: mo.sent_for_execution === true,
      approvalsMask: big(mo.approvals_mask) ?? 0n,
      approvalsNum: num(mo.approvals_num) ?? 0,
      expirationDate: num(mo.expiration_date),
      orderBoc: str(mo.order_boc),
      signers: Array.isArray(mo.signers) ? mo.signers.flatMap((x) => (typeof x === "string" ? [x] : [])) : [],
    };
  }
  const db = obj(v.data_boc);
  if (v.data_boc) f.dataBoc = { account: need(str(db.account), "account"), dataBoc: need(str(db.data_boc), "data_boc"), pool: str(db.pool), lockWalletAddress: str(db.lock_wallet_address) };
  return f;
}

export interface TraceFile {
  trace: TraceInput;
  lookup: MapInterfaceLookup;
  raw: JsonObject;
}

/** A trace file's JSON (already parsed) as the classifier's input and facts. */
export function traceFileFromJson(raw: JsonObject): TraceFile {
  if (!Array.isArray(raw.transactions) || raw.transactions.length === 0) throw new TraceFileError("trace file: no transactions");
  const t = obj(raw.trace);
  const txs = (Array.isArray(raw.transactions) ? raw.transactions.map(obj) : []).map(transaction);
  txs.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const trace: TraceInput = {
    traceId: need(str(t.trace_id), "trace_id"),
    externalHash: str(t.external_hash),
    externalHashNorm: str(t.external_hash_norm),
    mcSeqnoStart: num(t.mc_seqno_start) ?? 0,
    mcSeqnoEnd: num(t.mc_seqno_end) ?? 0,
    startLt: big(t.start_lt) ?? 0n,
    endLt: big(t.end_lt) ?? 0n,
    startUtime: num(t.start_utime) ?? 0,
    endUtime: num(t.end_utime) ?? 0,
    transactions: txs,
  };
  const map = new Map<string, ContractFacts>();
  for (const [addr, v] of Object.entries(obj(raw.interfaces))) map.set(addr, facts(obj(v)));
  return { trace, lookup: new MapInterfaceLookup(map), raw };
}

export function readJsonFile(path: string): JsonObject {
  // JSON.parse gives JSON values only
  const parsed: Json = JSON.parse(readFileSync(path, "utf8"));
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new TraceFileError(`${path}: not a JSON object`);
  return parsed;
}

/** A trace file from disk (throws on unreadable JSON). */
export function readTraceFile(path: string): TraceFile {
  return traceFileFromJson(readJsonFile(path));
}
