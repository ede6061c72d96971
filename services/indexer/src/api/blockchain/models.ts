// Stored rows → the objects of API v3's Blockchain data (proto messages of tongate.v3), as toncenter
// renders them; Actions and traces shows the same transactions.
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import type { Cell } from "@ton/core";
import {
  type Block,
  BlockSchema,
  type BlockId,
  BlockIdSchema,
  type Message,
  MessageSchema,
  type Transaction,
  type TransactionAccountState,
  TransactionAccountStateSchema,
  TransactionDescrSchema,
  TransactionSchema,
} from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { SHARD_FULL, shardToSigned } from "@tongate/block";
import type { BlockRow, MessageRow, PrevBlockRef, TransactionRow, TransactionStateRow } from "../../rows/types.js";
import { opcodeHex, shardHex } from "../params.js";
import { opt, type StoredTransaction } from "../sql.js";
import { decodedBody, decodedOpcode } from "./bodies.js";

const MASTERCHAIN_SHARD = String(shardToSigned(SHARD_FULL));

const blockId = (workchain: number, shard: string, seqno: number): BlockId => create(BlockIdSchema, { workchain, shard: shardHex(shard), seqno });

export function blockOf(r: BlockRow): Block {
  return create(BlockSchema, {
    workchain: r.workchain,
    shard: shardHex(r.shard),
    seqno: r.seqno,
    rootHash: r.root_hash,
    fileHash: r.file_hash,
    globalId: r.global_id,
    version: r.version,
    afterMerge: r.after_merge,
    beforeSplit: r.before_split,
    afterSplit: r.after_split,
    wantMerge: r.want_merge,
    wantSplit: r.want_split,
    keyBlock: r.key_block,
    vertSeqnoIncr: r.vert_seqno_incr,
    flags: r.flags,
    genUtime: BigInt(r.gen_utime),
    startLt: BigInt(r.start_lt),
    endLt: BigInt(r.end_lt),
    validatorListHashShort: r.validator_list_hash_short,
    genCatchainSeqno: r.gen_catchain_seqno,
    minRefMcSeqno: r.min_ref_mc_seqno,
    prevKeyBlockSeqno: r.prev_key_block_seqno,
    vertSeqno: r.vert_seqno,
    masterRefSeqno: r.master_ref_seqno ?? undefined,
    randSeed: r.rand_seed,
    createdBy: r.created_by,
    txCount: r.tx_count,
    masterchainBlockRef: blockId(-1, MASTERCHAIN_SHARD, r.mc_seqno),
    prevBlocks: (r.prev_blocks as PrevBlockRef[]).map((p) => blockId(p.workchain, p.shard, p.seqno)),
  });
}

const big = (v: string | null | undefined): bigint | undefined => (v === null || v === undefined ? undefined : BigInt(v));

/**
 * A message as a transaction's in_msg/out_msgs entry (or a /messages row), with its contents and its
 * decoded body (from its cell when `bodyCells` has it, else from its BoC).
 */
export function messageOf(r: MessageRow, contents: ReadonlyMap<string, string>, bodyCells?: ReadonlyMap<string, Cell>): Message {
  const body = contents.get(r.body_hash);
  const init = r.init_state_hash === null ? undefined : contents.get(r.init_state_hash);
  return create(MessageSchema, {
    hash: r.msg_hash,
    source: opt(r.source),
    destination: opt(r.destination),
    value: opt(r.value),
    valueExtraCurrencies: r.value_extra_currencies,
    fwdFee: opt(r.fwd_fee),
    ihrFee: opt(r.ihr_fee),
    extraFlags: opt(r.extra_flags),
    createdLt: big(r.created_lt),
    createdAt: r.created_at === null ? undefined : BigInt(r.created_at),
    opcode: r.opcode === null ? undefined : opcodeHex(r.opcode),
    decodedOpcode: decodedOpcode(r.opcode),
    ihrDisabled: opt(r.ihr_disabled),
    bounce: opt(r.bounce),
    bounced: opt(r.bounced),
    importFee: opt(r.import_fee),
    messageContent: { hash: r.body_hash, body: body ?? "", decoded: body === undefined ? undefined : decodedBody(r.body_hash, bodyCells?.get(r.body_hash) ?? body) },
    initState: r.init_state_hash === null ? undefined : { hash: r.init_state_hash, body: init ?? "" },
    hashNorm: opt(r.hash_norm),
  });
}

/** The state summary a transaction shows for before/after (no BoCs). */
export function transactionStateOf(hash: string, s: TransactionStateRow | undefined): TransactionAccountState {
  if (!s) return create(TransactionAccountStateSchema, { hash });
  return create(TransactionAccountStateSchema, {
    hash,
    balance: s.balance,
    extraCurrencies: s.balance_extra_currencies,
    accountStatus: s.account_status,
    frozenHash: opt(s.frozen_hash),
    dataHash: opt(s.data_hash),
    codeHash: opt(s.code_hash),
  });
}

export interface TransactionParts {
  /** messages by `${msg_hash}:${direction}:${tx_hash}` */
  messages: ReadonlyMap<string, MessageRow>;
  contents: ReadonlyMap<string, string>;
  states: ReadonlyMap<string, TransactionStateRow>;
  /** the bodies' cells by hash, where the block was just parsed (else bodies are read from their BoCs) */
  bodyCells?: ReadonlyMap<string, Cell>;
}

export const messageKey = (msgHash: string, direction: "in" | "out", txHash: string): string => `${msgHash}:${direction}:${txHash}`;

/** A transaction as stored (description as JSON text) or as parsed from its block (the key index renders those). */
export function transactionOf(t: StoredTransaction | TransactionRow, parts: TransactionParts, opts: { traceId?: boolean } = {}): Transaction {
  const msg = (hash: string, direction: "in" | "out"): Message | undefined => {
    const r = parts.messages.get(messageKey(hash, direction, t.hash));
    return r ? messageOf(r, parts.contents, parts.bodyCells) : undefined;
  };
  return create(TransactionSchema, {
    account: t.account,
    hash: t.hash,
    lt: BigInt(t.lt),
    now: t.now,
    mcBlockSeqno: t.mc_seqno,
    traceId: opts.traceId === false ? undefined : opt(t.trace_id),
    prevTransHash: t.prev_trans_hash,
    prevTransLt: BigInt(t.prev_trans_lt),
    origStatus: t.orig_status,
    endStatus: t.end_status,
    totalFees: t.total_fees,
    totalFeesExtraCurrencies: t.total_fees_extra_currencies,
    description: fromJson(TransactionDescrSchema, (typeof t.description === "string" ? JSON.parse(t.description) : t.description) as JsonValue),
    blockRef: blockId(t.block_workchain, t.block_shard, t.block_seqno),
    inMsg: t.in_msg_hash === null ? undefined : msg(t.in_msg_hash, "in"),
    outMsgs: t.out_msg_hashes.map((h) => msg(h, "out")).filter((m): m is Message => m !== undefined),
    accountStateBefore: transactionStateOf(t.account_state_hash_before, parts.states.get(t.account_state_hash_before)),
    accountStateAfter: transactionStateOf(t.account_state_hash_after, parts.states.get(t.account_state_hash_after)),
    emulated: false,
    finality: "finalized",
  });
}
