// The Streaming API's events (tongate.streaming.v1.StreamEvent), rendered once with API v3's own
// rendering — a transaction as /transactions and /pendingTransactions show it, the trace tree as
// /traces, blocks as /blocks, the address book and metadata as every v3 answer's book step — so a
// stream notification and a v3 answer of the same thing are the same JSON.
import { create, type DescMessage } from "@bufbuild/protobuf";
import { type ActionJson, actionFromJson } from "@tongate/actions";
import { Finality, type PendingTrace } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import {
  AccountStateEventSchema,
  BlockEventSchema,
  JettonsEventSchema,
  type StreamAction,
  StreamActionSchema,
  type StreamEvent,
  StreamEventSchema,
  type StreamTransaction,
  StreamTransactionSchema,
  TraceEventSchema,
} from "@tongate/proto/gen/tongate/streaming/v1/events_pb.js";
import { AddressBookRowSchema, AddressMetadataSchema } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { TraceNodeSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { BlockSchema, type Transaction, TransactionSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { renderResult } from "@tongate/proto/json/render.js";
import type { BlockRow } from "../rows/types.js";
import { traceTree } from "../api/actions/models.js";
import { actionsOfTraces } from "../api/actions/queries.js";
import { blockOf } from "../api/blockchain/models.js";
import { b64, traceTransactions } from "../api/blockchain/pending.js";
import { transactionsResponse } from "../api/blockchain/transactions.js";
import { addressBook, addressBookFromKeys } from "../api/book.js";
import { decodedUpTo } from "../api/decoded.js";
import { tokenMetadataOf } from "../api/metadata.js";
import { select, type Store, type StoredTransaction } from "../api/sql.js";

const json = (desc: DescMessage, msg: unknown): string => JSON.stringify(renderResult(desc, msg));

const event = (e: StreamEvent["event"]): StreamEvent => create(StreamEventSchema, { event: e, renderedAtMs: BigInt(Date.now()) });

/** Raw addresses of a transaction's in message's source and out messages' destinations. */
function peersOf(t: Transaction): string[] {
  const out = new Set<string>();
  if (t.inMsg?.source) out.add(t.inMsg.source);
  for (const m of t.outMsgs) if (m.destination) out.add(m.destination);
  out.delete(t.account);
  return [...out];
}

const byLtDesc = (a: Transaction, b: Transaction): number => (a.lt > b.lt ? -1 : a.lt < b.lt ? 1 : a.account < b.account ? -1 : 1);

function streamTransactions(txs: readonly Transaction[]): StreamTransaction[] {
  return [...txs].sort(byLtDesc).map((t) => create(StreamTransactionSchema, { account: t.account, json: json(TransactionSchema, t), peers: peersOf(t) }));
}

/** The address book and metadata of these addresses, each entry as API v3's JSON. */
async function bookOf(store: Store, addresses: Iterable<string>): Promise<{ book: Record<string, string>; metadata: Record<string, string> }> {
  const list = [...new Set(addresses)].filter((a) => a.length > 0);
  if (!list.length) return { book: {}, metadata: {} };
  // the key index when it is complete (no ClickHouse round trip: a pending trace is rendered as it is emulated)
  const [rows, meta] = await Promise.all([store.keys?.complete ? addressBookFromKeys(store.keys, list, store.decoded) : addressBook(store, list), tokenMetadataOf(store, list)]);
  const book: Record<string, string> = {};
  const metadata: Record<string, string> = {};
  for (const [a, r] of Object.entries(rows)) book[a] = json(AddressBookRowSchema, r);
  for (const [a, m] of Object.entries(meta)) metadata[a] = json(AddressMetadataSchema, m);
  return { book, metadata };
}

const addressesOf = (txs: readonly StreamTransaction[], actions: readonly StreamAction[]): string[] => [...txs.flatMap((t) => [t.account, ...t.peers]), ...actions.flatMap((a) => a.accounts)];

function treeJson(traceId: string, txs: readonly Transaction[]): string {
  const { root } = traceTree(traceId, [...txs].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0)));
  return root ? json(TraceNodeSchema, root) : "";
}

/** The account state a transaction left, as toncenter's account_state_change shows it. */
function stateJson(t: Transaction): string | undefined {
  const s = t.accountStateAfter;
  // a state known by its hash alone (a confirmed transaction that left another state than the
  // emulated one) tells no balance: no event rather than a wrong one
  if (!s || s.balance === undefined) return undefined;
  return JSON.stringify({ hash: s.hash, balance: s.balance, account_status: s.accountStatus ?? "nonexist", data_hash: s.dataHash ?? null, code_hash: s.codeHash ?? null });
}

/** Per account, the state after its last transaction among `txs`. */
function accountStates(txs: readonly Transaction[], finality: Finality): StreamEvent[] {
  const last = new Map<string, Transaction>();
  for (const t of txs) {
    const seen = last.get(t.account);
    if (!seen || t.lt > seen.lt) last.set(t.account, t);
  }
  return [...last.values()].flatMap((t) => {
    const state = stateJson(t);
    return state ? [event({ case: "accountState", value: create(AccountStateEventSchema, { finality, account: t.account, stateJson: state }) })] : [];
  });
}

/**
 * A pending trace of the send service (emulated, or confirmed: its real transactions): its
 * TraceEvent, and with it confirmed, the account states its transactions left where they are known
 * exactly (the emulated state after is the real one: the same hash; otherwise only the finalized
 * state, from the block, is told).
 */
export async function pendingTraceEvents(store: Store, trace: PendingTrace): Promise<StreamEvent[]> {
  const txs = traceTransactions(trace);
  const transactions = streamTransactions(txs);
  const actions = trace.actionsJson.map((row) => create(StreamActionSchema, { rowJson: row, accounts: actionFromJson(JSON.parse(row) as ActionJson).accounts ?? [] }));
  const { book, metadata } = await bookOf(store, addressesOf(transactions, actions));
  const traceId = txs[0]?.hash ?? b64(trace.traceId);
  const out = [
    event({
      case: "trace",
      value: create(TraceEventSchema, {
        traceExternalHashNorm: b64(trace.externalHashNorm),
        finality: trace.finality,
        traceId,
        transactions,
        traceJson: treeJson(traceId, txs),
        actions,
        addressBookJson: book,
        metadataJson: metadata,
        mcSeqno: trace.mcBlockSeqno,
      }),
    }),
  ];
  if (trace.finality === Finality.CONFIRMED) out.push(...accountStates(txs, Finality.CONFIRMED));
  return out;
}

/** Stored transactions, rendered as /api/v3/transactions renders them. */
async function storedTransactions(store: Store, where: string, params: Record<string, unknown>): Promise<Transaction[]> {
  const rows = await select<StoredTransaction>(store, `SELECT * FROM transactions FINAL WHERE ${where} ORDER BY lt, account`, params);
  return rows.length ? (await transactionsResponse(store, rows)).transactions : [];
}

/** Of a book, the entries of these addresses. */
function subset(all: Record<string, string>, addresses: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of addresses) if (all[a] !== undefined) out[a] = all[a];
  return out;
}

/**
 * The traces the decoder classified in a block (blocks.decoded): their finalized TraceEvents, with
 * the decoder's actions, read together (one query each for the transactions, the actions and the
 * address book of them all). A trace without an external message at its root (a tick-tock's: it
 * has no normalized hash, the stream's identity of a trace) or not stored has none. `failed` is
 * told of a trace that does not render; the others go on.
 */
export async function finalizedTraceEvents(store: Store, traceIds: readonly string[], mcSeqno: number, failed: (traceId: string, err: unknown) => void): Promise<StreamEvent[]> {
  if (!traceIds.length) return [];
  const all = await storedTransactions(store, "(account, lt) IN (SELECT account, lt FROM transactions_by_trace FINAL WHERE trace_id IN {t:Array(String)})", { t: [...traceIds] });
  const byTrace = new Map<string, Transaction[]>();
  for (const t of all) if (t.traceId !== undefined) byTrace.set(t.traceId, [...(byTrace.get(t.traceId) ?? []), t]);
  const upTo = Math.max((await decodedUpTo(store)) ?? mcSeqno, mcSeqno);
  const actionRows = await actionsOfTraces(store, traceIds, upTo);
  const parts = new Map<string, { norm: string; txs: Transaction[]; transactions: StreamTransaction[]; actions: StreamAction[]; addresses: string[] }>();
  for (const traceId of traceIds) {
    try {
      const txs = byTrace.get(traceId) ?? [];
      const root = txs.find((t) => t.hash === traceId);
      const norm = root?.inMsg && root.inMsg.source === undefined ? root.inMsg.hashNorm : undefined;
      if (!norm) continue;
      const actions = (actionRows.get(traceId) ?? []).map((r) => create(StreamActionSchema, { rowJson: r.row, accounts: [...new Set(r.accounts)] }));
      const transactions = streamTransactions(txs);
      parts.set(traceId, { norm, txs, transactions, actions, addresses: [...new Set(addressesOf(transactions, actions))] });
    } catch (err) {
      failed(traceId, err);
    }
  }
  const { book, metadata } = await bookOf(store, [...parts.values()].flatMap((p) => p.addresses));
  const out: StreamEvent[] = [];
  for (const [traceId, p] of parts) {
    try {
      out.push(
        event({
          case: "trace",
          value: create(TraceEventSchema, {
            traceExternalHashNorm: p.norm,
            finality: Finality.FINALIZED,
            traceId,
            transactions: p.transactions,
            traceJson: treeJson(traceId, p.txs),
            actions: p.actions,
            addressBookJson: subset(book, p.addresses),
            metadataJson: subset(metadata, p.addresses),
            mcSeqno,
          }),
        }),
      );
    } catch (err) {
      failed(traceId, err);
    }
  }
  return out;
}

/** A masterchain block the indexer stored (blocks.indexed): its BlockEvent, then the finalized state of every account it changed. */
export async function blockEvents(store: Store, mcSeqno: number): Promise<StreamEvent[]> {
  const rows = await select<BlockRow>(
    store,
    `SELECT * FROM blocks FINAL
     WHERE (workchain, shard, seqno) IN (SELECT workchain, shard, seqno FROM masterchain_block_shards FINAL WHERE mc_seqno = {mc:UInt32})
     ORDER BY workchain, shard, seqno`,
    { mc: mcSeqno },
  );
  const mc = rows.find((r) => r.workchain === -1 && r.seqno === mcSeqno);
  if (!mc) return [];
  const shards = rows.filter((r) => r !== mc);
  const block = event({
    case: "block",
    value: create(BlockEventSchema, {
      mcSeqno,
      blockJson: json(BlockSchema, blockOf(mc)),
      shardBlocksJson: shards.map((r) => json(BlockSchema, blockOf(r))),
      transactionCount: rows.reduce((n, r) => n + Number(r.tx_count), 0),
    }),
  });
  // each account's last transaction of the block
  const last = await storedTransactions(store, "mc_seqno = {mc:UInt32} AND (account, lt) IN (SELECT account, max(lt) FROM transactions WHERE mc_seqno = {mc:UInt32} GROUP BY account)", { mc: mcSeqno });
  return [block, ...accountStates(last, Finality.FINALIZED)];
}

interface WalletState {
  address: string;
  balance: string;
  owner: string;
  jetton: string;
  last_transaction_lt: string;
}

/** The jetton wallets a decoded block changed (blocks.decoded), as /api/v3/jetton/wallets shows them (confirmed ones). */
export async function jettonEvents(store: Store, wallets: readonly string[], mcSeqno: number): Promise<StreamEvent[]> {
  if (!wallets.length) return [];
  const rows = await select<WalletState & { verdict: string }>(
    store,
    `SELECT address, toString(balance) AS balance, owner, jetton, toString(last_transaction_lt) AS last_transaction_lt, verdict FROM jetton_wallets
     WHERE address IN {a:Array(String)} AND mc_seqno <= {mc:UInt32}
     ORDER BY last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY address`,
    { a: [...wallets], mc: mcSeqno },
  );
  const out: StreamEvent[] = [];
  for (const r of rows) {
    if (r.verdict !== "confirmed") continue;
    const { book, metadata } = await bookOf(store, [r.address, r.owner, r.jetton]);
    out.push(
      event({
        case: "jettons",
        value: create(JettonsEventSchema, {
          finality: Finality.FINALIZED,
          address: r.address,
          owner: r.owner,
          jettonJson: JSON.stringify({ address: r.address, balance: r.balance, owner: r.owner, jetton: r.jetton, last_transaction_lt: r.last_transaction_lt }),
          addressBookJson: book,
          metadataJson: metadata,
        }),
      }),
    );
  }
  return out;
}
