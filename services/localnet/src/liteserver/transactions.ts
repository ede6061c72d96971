// The transactions of a block: getOneTransaction, and listBlockTransactions / listBlockTransactionsExt
// sharing one paging walk over ShardAccountBlocks (TON's finish_listBlockTransactions[Ext]): accounts
// in key order (or reverse), each account's transactions in lt order, starting after `after`, with a
// Merkle proof of the block keeping the dictionary edges the walk read.
import type { Cell, Slice } from "@ton/core";
import { loadMsgEnvelope } from "@tongate/block";
import type { TlObject } from "@tongate/tl";
import type { BlockRecord } from "../chain/chain.js";
import { cellEdge, dictGet, dictNearest, inlineEdge, skipCurrencyCollection, unpackBlock, unpackBlockExtra, Usage } from "./cells.js";
import { type Ctx, boc, blockName, fatal, multiBoc, tlId, type TlAccountId, type TlBlockId } from "./context.js";
import type { LiteHandler } from "./dispatch.js";
import { notInDb } from "./errors.js";

const MAX_ANSWER_TRANSACTIONS = 256;
const U64_MAX = (1n << 64n) - 1n;
const U256_MAX = (1n << 256n) - 1n;

export interface ListedTransaction {
  account: Buffer;
  lt: bigint;
  /** The Transaction cell (complete, from the block). */
  cell: Cell;
  metadata: TlObject | null;
}

export interface TransactionPage {
  transactions: ListedTransaction[];
  /** The walk ran out of accounts (TON answers incomplete = !eof). */
  eof: boolean;
  /** MERKLE_PROOF of the block keeping what the walk read. */
  proof: Cell;
}

const bufferOf = (v: bigint, bytes: number) => Buffer.from(v.toString(16).padStart(bytes * 2, "0"), "hex");

/** The AccountBlock in a ShardAccountBlocks leaf (after the CurrencyCollection extra): its transactions edge. */
function accountBlockTransactions(leaf: Slice, account: bigint): Slice {
  skipCurrencyCollection(leaf);
  if (leaf.loadUint(4) !== 5 || leaf.loadUintBig(256) !== account) throw fatal(`invalid AccountBlock for account ${account.toString(16).padStart(64, "0")}`);
  return leaf;
}

/** The transactionMetadata of a transaction's inbound message, from its InMsgDescr entry's MsgEnvelope (get_in_msg_metadata). */
function inMsgMetadata(u: Usage, inMsgDescr: Cell, tx: Cell): TlObject | null {
  u.load(tx);
  const msg = u.load(tx.refs[0]!).loadMaybeRef();
  if (!msg) return null;
  const root = u.load(inMsgDescr).loadMaybeRef();
  const leaf = root ? dictGet(u, cellEdge(u, root), 256, BigInt("0x" + msg.hash().toString("hex"))) : null;
  if (!leaf) throw fatal(`no InMsg in InMsgDescr for message with hash ${msg.hash().toString("hex")}`);
  leaf.loadCoins(); // ImportFees: fees_collected, value_imported
  skipCurrencyCollection(leaf);
  const tag = leaf.loadUint(3);
  // msg_import_imm$011, msg_import_fin$100, msg_import_deferred_fin$00100 carry a MsgEnvelope.
  const withEnvelope = tag === 0b011 || tag === 0b100 || (tag === 0b001 && leaf.loadUint(2) === 0b00);
  if (!withEnvelope) return null;
  const env = loadMsgEnvelope(u.load(leaf.loadRef()));
  if (!env.metadata) return null;
  const m = env.metadata;
  return {
    kind: "liteServer.transactionMetadata",
    mode: 0,
    depth: m.depth,
    initiator: { kind: "liteServer.accountId", workchain: m.initiatorAddr.workChain, id: m.initiatorAddr.hash },
    initiator_lt: m.initiatorLt,
  };
}

/**
 * One page of a block's transactions. mode: 32 proof (always built here), 64 reverse order, 128 start
 * after `after` (account, lt), 256 read each inbound message's metadata; at most min(count, 256).
 */
export function pageBlockTransactions(rec: BlockRecord, mode: number, count: number, after: { account: Buffer; lt: bigint } | undefined): TransactionPage {
  const u = new Usage(rec.root);
  const reverse = (mode & 64) !== 0;
  const withMetadata = (mode & 256) !== 0;
  let startAddr = mode & 128 && after ? BigInt("0x" + after.account.toString("hex")) : 0n;
  let transLt = mode & 128 && after ? BigInt.asUintN(64, after.lt) : 0n;
  if ((mode & 192) === 64) {
    startAddr = U256_MAX;
    transLt = U64_MAX;
  }
  const blk = unpackBlock(u, rec.root);
  const extra = unpackBlockExtra(u, blk.extra);
  const accountsRoot = u.load(extra.accountBlocks).loadMaybeRef();
  const out: ListedTransaction[] = [];
  const limit = Math.min(count, MAX_ANSWER_TRANSACTIONS);
  let eof = false;
  let allowSame = true;
  let cur = startAddr;
  while (!eof && out.length < limit) {
    const acc = accountsRoot ? dictNearest(u, cellEdge(u, accountsRoot), 256, cur, !reverse, allowSame) : null;
    if (!acc) {
      eof = true;
      break;
    }
    allowSame = false;
    cur = acc.key;
    if (cur !== startAddr) transLt = reverse ? U64_MAX : 0n;
    const txEdge = inlineEdge(accountBlockTransactions(acc.value, cur));
    let curTrans = transLt;
    while (out.length < limit) {
      const t = dictNearest(u, txEdge, 64, curTrans, !reverse, false);
      if (!t) {
        transLt = reverse ? U64_MAX : 0n;
        break;
      }
      curTrans = t.key;
      skipCurrencyCollection(t.value);
      const cell = t.value.loadRef();
      out.push({ account: bufferOf(cur, 32), lt: t.key, cell, metadata: withMetadata ? inMsgMetadata(u, extra.inMsgDescr, cell) : null });
    }
  }
  return { transactions: out, eof, proof: u.proof() };
}

/** get_block_transaction: the transaction of `account` with `lt` in a block, with the proof of the path to it. */
export function blockTransactionProof(rec: BlockRecord, account: Buffer, lt: bigint): { proof: Cell; transaction: Cell | null } {
  const u = new Usage(rec.root);
  const extra = unpackBlockExtra(u, unpackBlock(u, rec.root).extra);
  const root = u.load(extra.accountBlocks).loadMaybeRef();
  const key = BigInt("0x" + account.toString("hex"));
  const leaf = root ? dictGet(u, cellEdge(u, root), 256, key) : null;
  let transaction: Cell | null = null;
  if (leaf) {
    const t = dictGet(u, inlineEdge(accountBlockTransactions(leaf, key)), 64, BigInt.asUintN(64, lt));
    if (t) {
      skipCurrencyCollection(t);
      transaction = t.loadRef();
    }
  }
  return { proof: u.proof(), transaction };
}

export function transactionHandlers(ctx: Ctx): Record<string, LiteHandler> {
  const after = (q: TlObject) => q.after as { account: Buffer; lt: bigint } | undefined;
  return {
    "liteServer.getOneTransaction": (q) => {
      const acc = q.account as TlAccountId;
      const id = q.id as TlBlockId;
      const rec = ctx.findBlock(id);
      if (acc.workchain !== rec.id.workchain) throw fatal("requested account id is not contained in the shard of the specified block");
      const { proof, transaction } = blockTransactionProof(rec, acc.id, q.lt as bigint);
      if (!transaction) throw notInDb(`transaction ${q.lt} of account ${acc.workchain}:${acc.id.toString("hex")} in ${blockName(rec.id)}`);
      return { kind: "liteServer.transactionInfo", id: tlId(rec), proof: boc(proof), transaction: boc(transaction) };
    },

    "liteServer.listBlockTransactions": (q) => {
      const rec = ctx.findBlock(q.id as TlBlockId);
      const mode = q.mode as number;
      const page = pageBlockTransactions(rec, mode, q.count as number, after(q));
      const idMode = mode & ~256;
      return {
        kind: "liteServer.blockTransactions",
        id: tlId(rec),
        req_count: q.count as number,
        incomplete: !page.eof,
        ids: page.transactions.map((t) => ({
          kind: "liteServer.transactionId",
          mode: idMode | (t.metadata ? 256 : 0),
          ...(idMode & 1 ? { account: t.account } : {}),
          ...(idMode & 2 ? { lt: t.lt } : {}),
          ...(idMode & 4 ? { hash: t.cell.hash() } : {}),
          ...(t.metadata ? { metadata: t.metadata } : {}),
        })),
        proof: mode & 32 ? boc(page.proof) : Buffer.alloc(0),
      };
    },

    "liteServer.listBlockTransactionsExt": (q) => {
      const rec = ctx.findBlock(q.id as TlBlockId);
      let mode = q.mode as number;
      if (mode & 256) mode |= 32; // the messages' metadata goes into the proof
      const page = pageBlockTransactions(rec, mode, q.count as number, after(q));
      return {
        kind: "liteServer.blockTransactionsExt",
        id: tlId(rec),
        req_count: q.count as number,
        incomplete: !page.eof,
        transactions: multiBoc(page.transactions.map((t) => t.cell)),
        proof: mode & 32 ? boc(page.proof) : Buffer.alloc(0),
      };
    },
  };
}
