// A transaction cell → TransactionRow (+ its messages and message contents).
import {
  type Cell,
  type CurrencyCollection,
  type TransactionActionPhase,
  type TransactionBouncePhase,
  type TransactionComputePhase,
  type TransactionCreditPhase,
  type TransactionDescription as CoreDescription,
  type TransactionStoragePhase,
  loadAccountStatus,
  loadCurrencyCollection,
  loadTransactionDescription,
} from "@ton/core";
import { messageContents, messageRow, type ParsedMessage, parseMessageCell, transactionMessageCells } from "./message.js";
import type {
  AccountStatus,
  ActionPhase,
  BlockRef,
  BouncePhase,
  ComputePhase,
  CreditPhase,
  MessageContentRow,
  MessageRow,
  StoragePhase,
  TransactionDescription,
  TransactionRow,
} from "./types.js";
import { b64, b64Big, extraCurrencies, rawAddress } from "./util.js";

export interface TransactionContext {
  /** the block that contains the transaction (its workchain is the account's) */
  block: BlockRef;
  mcSeqno: number;
  /** when given, each message body's cell by its hash (rendering decodes them without reading their BoCs again) */
  bodyCells?: Map<string, Cell>;
}

export interface TransactionRows {
  transaction: TransactionRow;
  messages: MessageRow[];
  contents: MessageContentRow[];
}

const STATUS: Record<string, AccountStatus> = { uninitialized: "uninit", frozen: "frozen", active: "active", "non-existing": "nonexist" };

function status(s: string): AccountStatus {
  const v = STATUS[s];
  if (!v) throw new Error(`unknown account status ${s}`);
  return v;
}

function storagePh(p: TransactionStoragePhase): StoragePhase {
  const out: StoragePhase = { storage_fees_collected: p.storageFeesCollected.toString(), status_change: p.statusChange };
  if (p.storageFeesDue == null) return out;
  return { storage_fees_collected: out.storage_fees_collected, storage_fees_due: p.storageFeesDue.toString(), status_change: p.statusChange };
}

function creditPh(p: TransactionCreditPhase): CreditPhase {
  const out: Partial<CreditPhase> = {};
  if (p.dueFeesColelcted != null) out.due_fees_collected = p.dueFeesColelcted.toString();
  out.credit = p.credit.coins.toString();
  const extra = extraCurrencies(p.credit);
  if (Object.keys(extra).length > 0) out.credit_extra_currencies = extra;
  return out as CreditPhase;
}

const SKIP_REASON: Record<string, string> = { "no-state": "no_state", "bad-state": "bad_state", "no-gas": "no_gas" };

function computePh(p: TransactionComputePhase): ComputePhase {
  if (p.type === "skipped") return { skipped: true, reason: SKIP_REASON[p.reason] ?? p.reason };
  const out: ComputePhase = {
    skipped: false,
    success: p.success,
    msg_state_used: p.messageStateUsed,
    account_activated: p.accountActivated,
    gas_fees: p.gasFees.toString(),
    gas_used: p.gasUsed.toString(),
    gas_limit: p.gasLimit.toString(),
  };
  if (p.gasCredit != null) out.gas_credit = p.gasCredit.toString();
  out.mode = p.mode;
  out.exit_code = p.exitCode;
  if (p.exitArg != null) out.exit_arg = p.exitArg;
  out.vm_steps = p.vmSteps;
  out.vm_init_state_hash = b64Big(p.vmInitStateHash);
  out.vm_final_state_hash = b64Big(p.vmFinalStateHash);
  return out;
}

function actionPh(p: TransactionActionPhase): ActionPhase {
  const out: Partial<ActionPhase> = { success: p.success, valid: p.valid, no_funds: p.noFunds, status_change: p.statusChange };
  if (p.totalFwdFees != null) out.total_fwd_fees = p.totalFwdFees.toString();
  if (p.totalActionFees != null) out.total_action_fees = p.totalActionFees.toString();
  out.result_code = p.resultCode;
  if (p.resultArg != null) out.result_arg = p.resultArg;
  out.tot_actions = p.totalActions;
  out.spec_actions = p.specActions;
  out.skipped_actions = p.skippedActions;
  out.msgs_created = p.messagesCreated;
  out.action_list_hash = b64Big(p.actionListHash);
  out.tot_msg_size = { cells: p.totalMessageSize.cells.toString(), bits: p.totalMessageSize.bits.toString() };
  return out as ActionPhase;
}

function bouncePh(p: TransactionBouncePhase): BouncePhase {
  if (p.type === "negative-funds") return { type: "negfunds" };
  const msg_size = { cells: p.messageSize.cells.toString(), bits: p.messageSize.bits.toString() };
  if (p.type === "no-funds") return { type: "nofunds", msg_size, req_fwd_fees: p.requiredForwardFees.toString() };
  return { type: "ok", msg_size, msg_fees: p.messageFees.toString(), fwd_fees: p.forwardFees.toString() };
}

/** The v3 `description` object (toncenter ton-index-go models/blockchain.go field names and order). */
export function describe(d: CoreDescription): TransactionDescription {
  switch (d.type) {
    case "generic": {
      const out: TransactionDescription = { type: "ord", aborted: d.aborted, destroyed: d.destroyed, credit_first: d.creditFirst };
      if (d.storagePhase) out.storage_ph = storagePh(d.storagePhase);
      if (d.creditPhase) out.credit_ph = creditPh(d.creditPhase);
      out.compute_ph = computePh(d.computePhase);
      if (d.actionPhase) out.action = actionPh(d.actionPhase);
      if (d.bouncePhase) out.bounce = bouncePh(d.bouncePhase);
      return out;
    }
    case "storage":
      return { type: "storage", storage_ph: storagePh(d.storagePhase) };
    case "tick-tock": {
      const out: TransactionDescription = { type: "tick_tock", aborted: d.aborted, destroyed: d.destroyed, is_tock: d.isTock };
      out.storage_ph = storagePh(d.storagePhase);
      out.compute_ph = computePh(d.computePhase);
      if (d.actionPhase) out.action = actionPh(d.actionPhase);
      return out;
    }
    case "split-prepare": {
      const out: TransactionDescription = { type: "split_prepare", aborted: d.aborted, destroyed: d.destroyed };
      if (d.storagePhase) out.storage_ph = storagePh(d.storagePhase);
      out.compute_ph = computePh(d.computePhase);
      if (d.actionPhase) out.action = actionPh(d.actionPhase);
      out.split_info = splitInfo(d.splitInfo);
      return out;
    }
    case "split-install":
      return { type: "split_install", installed: d.installed, split_info: splitInfo(d.splitInfo) };
    case "merge-prepare":
      return { type: "merge_prepare", aborted: d.aborted, storage_ph: storagePh(d.storagePhase), split_info: splitInfo(d.splitInfo) };
    case "merge-install": {
      const out: TransactionDescription = { type: "merge_install", aborted: d.aborted, destroyed: d.destroyed };
      if (d.storagePhase) out.storage_ph = storagePh(d.storagePhase);
      if (d.creditPhase) out.credit_ph = creditPh(d.creditPhase);
      out.compute_ph = computePh(d.computePhase);
      if (d.actionPhase) out.action = actionPh(d.actionPhase);
      out.split_info = splitInfo(d.splitInfo);
      return out;
    }
  }
}

function splitInfo(s: { currentShardPrefixLength: number; accountSplitDepth: number; thisAddress: bigint; siblingAddress: bigint }) {
  return {
    cur_shard_pfx_len: s.currentShardPrefixLength,
    acc_split_depth: s.accountSplitDepth,
    this_addr: b64Big(s.thisAddress),
    sibling_addr: b64Big(s.siblingAddress),
  };
}

/** The fields of a transaction cell the rows need (@ton/core's loadTransaction also parses every message and copies the cell). */
interface TransactionHeader {
  address: Buffer;
  lt: bigint;
  prevTransactionHash: Buffer;
  prevTransactionLt: bigint;
  now: number;
  oldStatus: string;
  endStatus: string;
  totalFees: CurrencyCollection;
  oldHash: Buffer;
  newHash: Buffer;
  description: CoreDescription;
}

/**
 * transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 now:uint32
 *   outmsg_cnt:uint15 orig_status end_status ^[in_msg out_msgs] total_fees:CurrencyCollection
 *   state_update:^(HASH_UPDATE Account) description:^TransactionDescr
 */
function readTransaction(cell: Cell): TransactionHeader {
  const s = cell.beginParse();
  if (s.loadUint(4) !== 0x07) throw new Error("Transaction: bad tag");
  const address = s.loadBuffer(32);
  const lt = s.loadUintBig(64);
  const prevTransactionHash = s.loadBuffer(32);
  const prevTransactionLt = s.loadUintBig(64);
  const now = s.loadUint(32);
  s.skip(15);
  const oldStatus = loadAccountStatus(s);
  const endStatus = loadAccountStatus(s);
  s.loadRef(); // messages: transactionMessageCells
  const totalFees = loadCurrencyCollection(s);
  const update = s.loadRef().beginParse();
  if (update.loadUint(8) !== 0x72) throw new Error("HASH_UPDATE: bad tag");
  const oldHash = update.loadBuffer(32);
  const newHash = update.loadBuffer(32);
  const description = loadTransactionDescription(s.loadRef().beginParse());
  return { address, lt, prevTransactionHash, prevTransactionLt, now, oldStatus, endStatus, totalFees, oldHash, newHash, description };
}

/** Rows of one transaction cell. */
export function transactionRows(cell: Cell, ctx: TransactionContext): TransactionRows {
  const tx = readTransaction(cell);
  const hash = b64(cell.hash());
  const lt = tx.lt.toString();
  const cells = transactionMessageCells(cell);
  const inMsg = cells.inMsg ? parseMessageCell(cells.inMsg) : null;
  const outMsgs = cells.outMsgs.map(parseMessageCell);
  const ref = { hash, lt };
  const messages: MessageRow[] = [];
  const contents: MessageContentRow[] = [];
  const add = (m: ParsedMessage, direction: "in" | "out"): void => {
    const row = messageRow(m, ref, direction);
    messages.push(row);
    contents.push(...messageContents(m));
    ctx.bodyCells?.set(row.body_hash, m.msg.body);
  };
  if (inMsg) add(inMsg, "in");
  for (const m of outMsgs) add(m, "out");
  const transaction: TransactionRow = {
    account: rawAddress(ctx.block.workchain, tx.address),
    hash,
    lt,
    prev_trans_hash: b64(tx.prevTransactionHash),
    prev_trans_lt: tx.prevTransactionLt.toString(),
    now: tx.now,
    mc_seqno: ctx.mcSeqno,
    block_workchain: ctx.block.workchain,
    block_shard: ctx.block.shard,
    block_seqno: ctx.block.seqno,
    orig_status: status(tx.oldStatus),
    end_status: status(tx.endStatus),
    total_fees: tx.totalFees.coins.toString(),
    total_fees_extra_currencies: extraCurrencies(tx.totalFees),
    account_state_hash_before: b64(tx.oldHash),
    account_state_hash_after: b64(tx.newHash),
    description: describe(tx.description),
    in_msg_hash: inMsg ? messages[0].msg_hash : null,
    out_msg_hashes: messages.filter((m) => m.direction === "out").map((m) => m.msg_hash),
    trace_id: null,
    states: [],
  };
  return { transaction, messages, contents };
}
