// The indexer's tables of the key index (@tongate/store's LMDB environment): API v3's key lookups
// of the indexed chain.
//
// They hold the rendered API form of every transaction (the tongate.v3.Transaction message, binary)
// under the keys the v3 endpoints look up by: account + lt, hash, message hash, masterchain block,
// address + created_lt; each account's latest state (and code hash, for the address book); and each
// trace's record (the tongate.v3.Trace message without its transactions) with its transactions by
// trace, its traces by account + end_lt and the complete traces by the masterchain block that
// completed them. A page is one range scan.
//
// Written by the indexer in the same step as the ClickHouse rows, before the checkpoint and before
// `blocks.indexed` is published, so a read never answers older than the block a client was told of.
// Every write is a put by key of a value that a block determines: re-indexing writes the same bytes.
// Records that change as later blocks come (an account's latest state, a trace that grows) carry
// their version and are replaced only by the same or a later one, as ClickHouse's
// ReplacingMergeTree keeps them (latest_account_states by lt, traces by mc_seqno_end).
//
// A trace's record here is the indexer's alone and stays `unclassified`: the decoder keeps each
// trace's classification (its state and actions) in its own tables, ClickHouse's
// trace_classifications and actions and its key-index tables (@tongate/store's decoded-keys), and
// API v3 reads the classification_state and the actions from there. Neither writes the other's.
//
// The tables keep the names they had before the key index had owners (unprefixed), so that an index
// written then stays readable. Rebuilt from ClickHouse (./rebuild.ts) when missing or of another
// format; until complete, reads go to ClickHouse.
import { fromBinary } from "@bufbuild/protobuf";
import { type Trace, TraceSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { type Message, type Transaction, TransactionSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { ACCOUNT_BYTES, accountKey, HASH_BYTES, hashKey, type KeyIndexEnv, type KeyTables, type KeyTablesLayout, LT_BYTES, ltBytes, openKeyIndexEnv, prefixEnd, u32Bytes } from "@tongate/store";
import type { Database, RangeOptions } from "lmdb";
import type { AccountStateRow, RenderedTransaction } from "../../rows/types.js";
import { accountTraceKey, addressMessageKey, mcBlockKey, mcBlockTraceKey, messageKey, traceKey, traceTransactionKey, transactionKey } from "./keys.js";

/** Bumped when the stored form changes: an index of another format is rebuilt. */
export const KEY_INDEX_FORMAT = 6;

/** The owner of the indexer's tables in the store. */
export const INDEXER_OWNER = "indexer";

/** transactions and latest states compress ~3× (base64 bodies, repeated field tags); LZ4 costs microseconds */
const COMPRESSED = { compressAbove: 256 };

/** The indexer's tables, unprefixed (their names before the key index had owners). */
export const INDEXER_KEY_TABLES: KeyTablesLayout = {
  format: KEY_INDEX_FORMAT,
  prefix: "",
  tables: {
    transactions: COMPRESSED,
    transactions_by_hash: {},
    transactions_by_message: {},
    transactions_by_mc_block: {},
    code_hashes: {},
    latest_account_states: COMPRESSED,
    messages_by_address: {},
    traces: {},
    trace_transactions: {},
    traces_by_account: {},
    traces_by_mc_block: {},
  },
};

/** One transaction as the index stores it, with the keys it is found by. */
export type KeyIndexTransaction = RenderedTransaction;

/**
 * An account's state after the transaction at `lt` (0: a state without one), as latest_account_states
 * keeps it: the state of the highest lt, the last written on a tie.
 */
export interface KeyIndexState {
  account: string;
  lt: string;
  codeHash: string | null;
  /** the whole row (BoCs included) for /accountStates and /walletStates; absent: only the code hash is known */
  row?: AccountStateRow;
}

/**
 * A trace's record as the traces table has it after a block (or a later writer: the decoder),
 * rendered (./render.ts renderTrace): replaced only by one of the same or a later mc_seqno_end.
 */
export interface KeyIndexTrace {
  traceId: string;
  mcSeqnoEnd: number;
  endLt: string;
  /** the trace is complete (the traces table's state): listed under its masterchain block */
  complete: boolean;
  /** the tongate.v3.Trace message without transactions, binary */
  value: Uint8Array;
}

/** A page in lt order within inclusive lt bounds. */
interface LtPageOptions {
  asc: boolean;
  limit: number;
  offset: number;
  /** inclusive lt bounds */
  startLt?: bigint;
  endLt?: bigint;
}

export interface AccountPageOptions extends LtPageOptions {
  /** continue after this lt (a cursor): exclusive, in the page's order */
  afterLt?: bigint;
}

/** A page of (lt, hash) keys: ordered by lt, then the hash as base64 text (ClickHouse's (UInt64, String) order). */
export interface LtHashPageOptions extends LtPageOptions {
  /** continue after this (lt, hash) (a cursor), in the page's order */
  after?: [bigint, string];
}

const EMPTY = Buffer.alloc(0);
const MAX_LT = (1n << 64n) - 1n;

export class KeyIndex {
  private readonly transactions: Database<Buffer, Buffer>;
  private readonly byHash: Database<Buffer, Buffer>;
  private readonly byMessage: Database<Buffer, Buffer>;
  private readonly byMcBlock: Database<Buffer, Buffer>;
  private readonly codes: Database<Buffer, Buffer>;
  private readonly latest: Database<Buffer, Buffer>;
  private readonly byAddress: Database<Buffer, Buffer>;
  private readonly traces: Database<Buffer, Buffer>;
  private readonly byTrace: Database<Buffer, Buffer>;
  private readonly tracesByAccount: Database<Buffer, Buffer>;
  private readonly tracesByMcBlock: Database<Buffer, Buffer>;
  private closed = false;

  private constructor(
    /** the indexer's tables in the store's key index */
    readonly tables: KeyTables,
    /** the environment this index opened itself (KeyIndex.open, openReader), closed with it */
    private readonly own?: KeyIndexEnv,
  ) {
    this.transactions = tables.table("transactions");
    this.byHash = tables.table("transactions_by_hash");
    this.byMessage = tables.table("transactions_by_message");
    this.byMcBlock = tables.table("transactions_by_mc_block");
    this.codes = tables.table("code_hashes");
    this.byAddress = tables.table("messages_by_address");
    this.latest = tables.table("latest_account_states");
    this.traces = tables.table("traces");
    this.byTrace = tables.table("trace_transactions");
    this.tracesByAccount = tables.table("traces_by_account");
    this.tracesByMcBlock = tables.table("traces_by_mc_block");
  }

  /** The index over the indexer's tables of the store's key index (registered: ../index-store.ts). */
  static of(tables: KeyTables): KeyIndex {
    return new KeyIndex(tables);
  }

  /** Opens (creating) an index of its own in `dir`. An index of another format is emptied (and must be rebuilt). */
  static async open(dir: string): Promise<KeyIndex> {
    const env = openKeyIndexEnv(dir);
    try {
      return new KeyIndex(await env.open(INDEXER_OWNER, INDEXER_KEY_TABLES), env);
    } catch (e) {
      await env.close();
      throw e;
    }
  }

  /**
   * Opens the index another thread of this process keeps (a key reader's view): no format check, no
   * write. LMDB shares the environment between the threads of a process.
   */
  static openReader(dir: string): KeyIndex {
    const env = openKeyIndexEnv(dir);
    return new KeyIndex(env.tables(INDEXER_OWNER, INDEXER_KEY_TABLES), env);
  }

  /** the key index's directory: a key reader (api/key-readers) opens it again in its thread */
  get dir(): string {
    return this.tables.dir;
  }

  /** Reads after this see every write committed before it (KeyIndexEnv.refresh). */
  refresh(): void {
    this.tables.refresh();
  }

  /** Every ClickHouse transaction is here: reads may use the index. */
  get complete(): boolean {
    return this.tables.complete;
  }

  async markComplete(): Promise<void> {
    await this.tables.markComplete();
  }

  /** Empties the index (a format change; a rebuild from scratch). */
  async clear(): Promise<void> {
    await this.tables.clear();
  }

  /**
   * Writes transactions, account states and trace records in one LMDB transaction (all or nothing).
   * A state is replaced only by one of the same or a later lt, a trace record by one of the same or
   * a later mc_seqno_end, so writing an older block again never hides a newer one.
   */
  async write(transactions: readonly KeyIndexTransaction[], states: readonly KeyIndexState[], traces: readonly KeyIndexTrace[] = []): Promise<void> {
    if (!transactions.length && !states.length && !traces.length) return;
    // encode outside the write transaction: LMDB has one writer at a time
    const entries = transactions.map((t) => ({ t, key: transactionKey(t.account, t.lt), value: Buffer.from(t.value.buffer, t.value.byteOffset, t.value.byteLength) }));
    const stateEntries = states.map((c) => {
      const lt = ltBytes(c.lt);
      return { key: accountKey(c.account), code: Buffer.concat([lt, c.codeHash === null ? EMPTY : hashKey(c.codeHash)]), row: c.row && Buffer.concat([lt, Buffer.from(JSON.stringify(c.row))]) };
    });
    // a trace record: mc_seqno_end (its version) + end_lt (its traces_by_account keys) + the Trace message
    const traceEntries = traces.map((r) => ({
      key: traceKey(r.traceId),
      version: r.mcSeqnoEnd,
      complete: r.complete,
      value: Buffer.concat([u32Bytes(r.mcSeqnoEnd), ltBytes(r.endLt), r.value]),
    }));
    await this.tables.transaction(() => {
      // traces first: a replaced record moves the traces_by_account keys of its stored transactions
      // to its end_lt; the transactions after it file their accounts under their record's end_lt
      // (whichever of a trace's record and transactions comes first — a rebuild writes transactions
      // first — each account of a trace is listed once, at the record's end_lt)
      for (const { key, version, complete, value } of traceEntries) {
        const had = this.traces.get(key);
        if (had && had.readUInt32BE(0) > version) continue;
        this.traces.put(key, value);
        const endLt = value.subarray(4, 4 + LT_BYTES);
        const oldEndLt = had && Buffer.from(had.subarray(4, 4 + LT_BYTES));
        // listed under the block that completed it, and only while complete (a record replaced by one
        // of a later block, or not complete, leaves its old block's list)
        if (had && oldEndLt) this.tracesByMcBlock.remove(mcBlockTraceKey(had.readUInt32BE(0), oldEndLt, key));
        if (complete) this.tracesByMcBlock.put(mcBlockTraceKey(version, Buffer.from(endLt), key), EMPTY);
        if (oldEndLt?.equals(endLt)) continue;
        const accounts: Buffer[] = [];
        for (const k of this.byTrace.getKeys({ start: key, end: prefixEnd(key) })) accounts.push(Buffer.from(k.subarray(HASH_BYTES + LT_BYTES)));
        for (const account of accounts) {
          if (oldEndLt) this.tracesByAccount.remove(accountTraceKey(account, oldEndLt, key));
          this.tracesByAccount.put(accountTraceKey(account, endLt, key), EMPTY);
        }
      }
      const traceEndLt = new Map<string, Buffer | undefined>();
      for (const { t, key, value } of entries) {
        this.transactions.put(key, value);
        this.byHash.put(hashKey(t.hash), key);
        this.byMcBlock.put(mcBlockKey(t.mcSeqno, t.lt, t.account), EMPTY);
        for (const m of t.messages) {
          this.byMessage.put(messageKey(m.hash, m.direction, t.account, t.lt), EMPTY);
          if (m.hashNorm && m.hashNorm !== m.hash) this.byMessage.put(messageKey(m.hashNorm, m.direction, t.account, t.lt), EMPTY);
          // as messages_by_source / _destination: every message with that address, created_lt 0 for inbound external ones
          if (m.source !== null) this.byAddress.put(addressMessageKey(m.source, "source", m.createdLt ?? 0n, m.hash), EMPTY);
          if (m.destination !== null) this.byAddress.put(addressMessageKey(m.destination, "destination", m.createdLt ?? 0n, m.hash), EMPTY);
        }
        if (t.traceId) {
          const id = traceKey(t.traceId);
          this.byTrace.put(traceTransactionKey(t.traceId, t.lt, t.account), EMPTY);
          if (!traceEndLt.has(t.traceId)) {
            const record = this.traces.get(id);
            traceEndLt.set(t.traceId, record && Buffer.from(record.subarray(4, 4 + LT_BYTES)));
          }
          const endLt = traceEndLt.get(t.traceId);
          if (endLt) this.tracesByAccount.put(accountTraceKey(key.subarray(0, ACCOUNT_BYTES), endLt, id), EMPTY);
        }
      }
      for (const { key, code, row } of stateEntries) {
        const had = this.codes.get(key);
        if (had && Buffer.compare(had.subarray(0, LT_BYTES), code.subarray(0, LT_BYTES)) > 0) continue;
        this.codes.put(key, code);
        if (row) this.latest.put(key, row);
      }
    });
  }

  private decode(value: Buffer): Transaction {
    return fromBinary(TransactionSchema, value);
  }

  /** One page of an account's transactions in lt order (lt is unique per account). */
  accountPage(account: string, o: AccountPageOptions): Transaction[] {
    let low = o.startLt ?? 0n;
    let high = o.endLt ?? MAX_LT;
    if (o.afterLt !== undefined) {
      if (o.asc) low = o.afterLt + 1n > low ? o.afterLt + 1n : low;
      else high = o.afterLt - 1n < high ? o.afterLt - 1n : high;
    }
    const range = ltRange(accountKey(account), o.asc, low, high);
    const out: Transaction[] = [];
    if (range) for (const { value } of this.transactions.getRange({ ...range, offset: o.offset, limit: o.limit })) out.push(this.decode(value));
    return out;
  }

  /** The transaction of this hash, if indexed. */
  byTransactionHash(hash: string): Transaction | undefined {
    const key = this.byHash.get(hashKey(hash));
    const value = key && this.transactions.get(key);
    return value ? this.decode(value) : undefined;
  }

  /**
   * The transactions that received (in) or sent (out) a message of this hash or normalised hash,
   * newest first (lt descending, then account), as toncenter orders transactionsByMessage.
   */
  byMessageHash(msgHash: string, direction: "in" | "out" | undefined): Transaction[] {
    const hash = hashKey(msgHash);
    const prefix = direction === undefined ? hash : Buffer.concat([hash, Buffer.of(direction === "in" ? 0 : 1)]);
    const keys: Buffer[] = [];
    for (const key of this.byMessage.getKeys({ start: prefix, end: prefixEnd(prefix) })) keys.push(Buffer.from(key.subarray(HASH_BYTES + 1)));
    const txs = this.transactionsAt(keys);
    return sortByLt(txs, false);
  }

  /**
   * The stored sides of a message: its object (as the sending transaction shows it, else the
   * receiving one) with the hashes of both transactions. Undefined when no transaction has it.
   */
  message(msgHash: string): { message: Message; inTx?: string; outTx?: string } | undefined {
    const hash = hashKey(msgHash);
    let message: Message | undefined;
    let inTx: string | undefined;
    let outTx: string | undefined;
    for (const key of this.byMessage.getKeys({ start: hash, end: prefixEnd(hash) })) {
      const value = this.transactions.get(Buffer.from(key.subarray(HASH_BYTES + 1)));
      if (!value) continue;
      const tx = this.decode(value);
      // the same key space holds normalised hashes: only the message of exactly this hash
      if (key[HASH_BYTES] === 0) {
        if (tx.inMsg?.hash !== msgHash) continue;
        inTx = tx.hash;
        message ??= tx.inMsg;
      } else {
        const m = tx.outMsgs.find((x) => x.hash === msgHash);
        if (!m) continue;
        outTx = tx.hash;
        message = m;
      }
    }
    return message && { message, inTx, outTx };
  }

  /**
   * Message hashes of an address's side (source or destination) in created_lt order, then hash
   * (as base64 text, the order of ClickHouse's String): the `limit` after `offset`, within the inclusive lt
   * bounds, after a cursor's (lt, hash).
   */
  addressMessages(account: string, side: "source" | "destination", o: LtHashPageOptions): { hash: string; lt: bigint }[] {
    return ltHashPage(this.byAddress, Buffer.concat([accountKey(account), Buffer.of(side === "source" ? 0 : 1)]), o);
  }

  /** An account's traces in (end_lt, trace_id as text) order, as /traces pages them: ids (`hash`) and end_lt. */
  accountTraces(account: string, o: LtHashPageOptions): { hash: string; lt: bigint }[] {
    return ltHashPage(this.tracesByAccount, accountKey(account), o);
  }

  /** The complete traces a masterchain block completed (mc_seqno_end), in (end_lt, trace_id as text) order: ids (`hash`) and end_lt. */
  mcBlockTraces(mcSeqno: number, o: LtHashPageOptions): { hash: string; lt: bigint }[] {
    return ltHashPage(this.tracesByMcBlock, u32Bytes(mcSeqno), o);
  }

  /** A trace's record (the Trace message without transactions), if indexed. */
  trace(traceId: string): Trace | undefined {
    const value = this.traces.get(traceKey(traceId));
    return value ? fromBinary(TraceSchema, value.subarray(4 + LT_BYTES)) : undefined;
  }

  /** A trace's transactions in (lt, account) order. */
  traceTransactions(traceId: string): Transaction[] {
    const prefix = traceKey(traceId);
    const keys: Buffer[] = [];
    for (const key of this.byTrace.getKeys({ start: prefix, end: prefixEnd(prefix) })) {
      // the transaction key (account + lt) from (trace + lt + account)
      keys.push(Buffer.concat([key.subarray(HASH_BYTES + LT_BYTES), key.subarray(HASH_BYTES, HASH_BYTES + LT_BYTES)]));
    }
    // an entry of a trace the transaction no longer belongs to (a re-index from an earlier block joined it to another) is not its
    return this.transactionsAt(keys).filter((t) => t.traceId === traceId);
  }

  /**
   * A masterchain block's transactions in lt order (then account ascending), as a page; undefined
   * when none of the block's transactions is indexed.
   */
  mcBlockPage(mcSeqno: number, asc: boolean, limit: number, offset: number): Transaction[] | undefined {
    const prefix = u32Bytes(mcSeqno);
    const keys: Buffer[] = [];
    // ties of lt (other shards) must come account-ascending in both orders: read whole lt groups
    const range = asc ? this.byMcBlock.getKeys({ start: prefix, end: prefixEnd(prefix) }) : this.byMcBlock.getKeys({ start: prefixEnd(prefix), end: prefix, reverse: true });
    let lastLt: string | undefined;
    let any = false;
    for (const key of range) {
      any = true;
      const lt = key.subarray(4, 4 + LT_BYTES).toString("hex");
      if (keys.length >= offset + limit && lt !== lastLt) break;
      lastLt = lt;
      keys.push(Buffer.concat([key.subarray(4 + LT_BYTES, 4 + LT_BYTES + ACCOUNT_BYTES), key.subarray(4, 4 + LT_BYTES)]));
    }
    return any ? sortByLt(this.transactionsAt(keys), asc).slice(offset, offset + limit) : undefined;
  }

  private transactionsAt(keys: readonly Buffer[]): Transaction[] {
    const out: Transaction[] = [];
    for (const key of keys) {
      const value = this.transactions.get(key);
      if (value) out.push(this.decode(value));
    }
    return out;
  }

  /** The latest code hash of each account (null: no code, or not indexed). */
  codeHashes(accounts: Iterable<string>): Map<string, string | null> {
    const out = new Map<string, string | null>();
    for (const a of accounts) {
      if (out.has(a)) continue;
      const v = this.codes.get(accountKey(a));
      out.set(a, v && v.length > LT_BYTES ? v.toString("base64", LT_BYTES) : null);
    }
    return out;
  }

  /** The latest state of each account that has one here (as latest_account_states FINAL). */
  latestStates(accounts: Iterable<string>): Map<string, AccountStateRow> {
    const out = new Map<string, AccountStateRow>();
    for (const a of accounts) {
      const v = this.latest.get(accountKey(a));
      if (v) out.set(a, JSON.parse(v.toString("utf8", LT_BYTES)) as AccountStateRow);
    }
    return out;
  }

  /** Every entry of every table, in key order, then the meta (the crash test compares two indexes whole). */
  contents(): Generator<{ table: string; key: string; value: string }> {
    return this.tables.contents();
  }

  /** Closes the environment it opened itself; the store's is the store's to close. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.own?.close();
  }
}

/**
 * The range of the keys `prefix` + lt (8 bytes) + … with low ≤ lt ≤ high, in ascending or
 * descending lt order (getRange/getKeys options); undefined when it is empty.
 */
function ltRange(prefix: Buffer, asc: boolean, low: bigint, high: bigint): RangeOptions | undefined {
  if (low > high || high < 0n) return undefined;
  const lowKey = Buffer.concat([prefix, ltBytes(low)]);
  // the end of a range is exclusive: one past `high` (the prefix's end past the last lt)
  const highKey = high === MAX_LT ? prefixEnd(prefix) : Buffer.concat([prefix, ltBytes(high + 1n)]);
  return asc ? { start: lowKey, end: highKey } : { start: highKey, end: lowKey, reverse: true, exclusiveStart: true, inclusiveEnd: true };
}

/**
 * A page of the keys `prefix` + lt + 32-byte hash in (lt, hash as base64 text) order — the order of
 * ClickHouse's (UInt64, String), which is not the hashes' byte order: each lt's keys are read whole
 * and sorted.
 */
function ltHashPage(db: Database<Buffer, Buffer>, prefix: Buffer, o: LtHashPageOptions): { hash: string; lt: bigint }[] {
  let low = o.startLt ?? 0n;
  let high = o.endLt ?? MAX_LT;
  if (o.after) {
    if (o.asc && o.after[0] > low) low = o.after[0];
    if (!o.asc && o.after[0] < high) high = o.after[0];
  }
  const range = ltRange(prefix, o.asc, low, high);
  if (!range) return [];
  const at = prefix.length;
  const out: { hash: string; lt: bigint }[] = [];
  let lastLt: bigint | undefined;
  for (const key of db.getKeys(range)) {
    const lt = Buffer.from(key.buffer, key.byteOffset, key.byteLength).readBigUInt64BE(at);
    if (out.length >= o.offset + o.limit && lt !== lastLt) break;
    lastLt = lt;
    const hash = Buffer.from(key.subarray(at + LT_BYTES)).toString("base64");
    if (o.after && lt === o.after[0] && (o.asc ? hash <= o.after[1] : hash >= o.after[1])) continue;
    out.push({ hash, lt });
  }
  return out.sort(byLtThenHash(o.asc)).slice(o.offset, o.offset + o.limit);
}

/** Messages in (created_lt, hash as text) order, as ClickHouse orders them; both the same way. */
export const byLtThenHash =
  (asc: boolean) =>
  (a: { lt: bigint; hash: string }, b: { lt: bigint; hash: string }): number => {
    const sign = asc ? 1 : -1;
    return a.lt === b.lt ? (a.hash < b.hash ? -sign : a.hash > b.hash ? sign : 0) : a.lt < b.lt ? -sign : sign;
  };

/** lt order, ties (other accounts at the same lt) by account ascending in either direction. */
export function sortByLt(txs: Transaction[], asc: boolean): Transaction[] {
  return txs.sort((a, b) => (a.lt === b.lt ? (a.account < b.account ? -1 : a.account > b.account ? 1 : 0) : (a.lt < b.lt) === asc ? -1 : 1));
}
