// What the decoder reads of one masterchain block from the indexer's tables: the transactions of
// the shard blocks it committed (with each in-message and its body) and, per account, the state
// after its last transaction in the block (code and data as BoCs). Nothing here decodes.
import { Cell } from "@ton/core";
import { select, type Store } from "@tongate/store";

export interface InMessage {
  hash: string;
  /** null for an external message */
  source: string | null;
  value: bigint;
  opcode: number | null;
  /** null when the indexer has no body for it */
  body: Cell | null;
}

export interface BlockTransaction {
  account: string;
  lt: bigint;
  hash: string;
  now: number;
  aborted: boolean;
  traceId: string | null;
  stateAfter: string;
  inMessage: InMessage | null;
}

export interface AccountStateAfter {
  account: string;
  /** the state's hash (an Account cell) */
  hash: string;
  status: string;
  balance: bigint;
  codeHash: string | null;
  dataHash: string | null;
  code: Cell | null;
  data: Cell | null;
  lastLt: bigint;
  lastNow: number;
}

export interface BlockInputs {
  mcSeqno: number;
  /** in lt order */
  transactions: BlockTransaction[];
  /** each account's state after its last transaction of the block */
  states: Map<string, AccountStateAfter>;
}

interface TransactionRow {
  account: string;
  lt: string;
  hash: string;
  now: number;
  aborted: boolean | number;
  trace_id: string | null;
  account_state_hash_after: string;
  in_msg_hash: string | null;
}

interface MessageRow {
  msg_hash: string;
  source: string | null;
  value: string | null;
  opcode: number | null;
  body_hash: string;
}

interface StateRow {
  account: string;
  hash: string;
  account_status: string;
  balance: string;
  code_hash: string | null;
  data_hash: string | null;
  code_boc: string | null;
  data_boc: string | null;
}

/** A BoC the indexer stored; null when it is absent or does not parse (the indexer wrote what the chain had). */
function cellOf(boc: string | null | undefined): Cell | null {
  if (!boc) return null;
  try {
    return Cell.fromBase64(boc);
  } catch {
    return null;
  }
}

/** The masterchain blocks the indexer has stored, up to and including `to`, after `from`. */
export async function indexedBlocksAfter(store: Store, from: number, to: number, limit: number): Promise<number[]> {
  const rows = await select<{ mc_seqno: number }>(
    store,
    "SELECT DISTINCT seqno AS mc_seqno FROM blocks WHERE workchain = -1 AND seqno > {from:UInt32} AND seqno <= {to:UInt32} ORDER BY mc_seqno LIMIT {limit:UInt32}",
    { from, to, limit },
  );
  return rows.map((r) => Number(r.mc_seqno));
}

export async function readBlockInputs(store: Store, mcSeqno: number): Promise<BlockInputs> {
  const txs = await select<TransactionRow>(
    store,
    `SELECT account, lt, hash, now, aborted, trace_id, account_state_hash_after, in_msg_hash
       FROM transactions FINAL
      WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_block WHERE mc_seqno = {mc:UInt32})
      ORDER BY lt, account`,
    { mc: mcSeqno },
  );
  const inHashes = [...new Set(txs.map((t) => t.in_msg_hash).filter((h): h is string => !!h))];
  const messages = new Map<string, MessageRow>();
  const bodies = new Map<string, Cell | null>();
  if (inHashes.length > 0) {
    const rows = await select<MessageRow>(
      store,
      "SELECT msg_hash, source, value, opcode, body_hash FROM messages FINAL WHERE msg_hash IN {hashes:Array(String)} AND direction = 'in'",
      { hashes: inHashes },
    );
    for (const r of rows) messages.set(r.msg_hash, r);
    const bodyHashes = [...new Set(rows.map((r) => r.body_hash).filter((h) => h))];
    if (bodyHashes.length > 0) {
      const contents = await select<{ hash: string; boc: string }>(store, "SELECT hash, boc FROM message_contents FINAL WHERE hash IN {hashes:Array(String)}", { hashes: bodyHashes });
      for (const c of contents) bodies.set(c.hash, cellOf(c.boc));
    }
  }
  // the last transaction of each account in the block: its state after
  const last = new Map<string, TransactionRow>();
  for (const t of txs) last.set(t.account, t);
  const states = new Map<string, AccountStateAfter>();
  if (last.size > 0) {
    const rows = await select<StateRow>(
      store,
      `SELECT account, hash, account_status, balance, code_hash, data_hash, code_boc, data_boc
         FROM account_states FINAL
        WHERE account IN {accounts:Array(String)} AND hash IN {hashes:Array(String)}`,
      { accounts: [...last.keys()], hashes: [...last.values()].map((t) => t.account_state_hash_after) },
    );
    for (const r of rows) {
      const t = last.get(r.account)!;
      states.set(r.account, {
        account: r.account,
        hash: r.hash,
        status: r.account_status,
        balance: BigInt(r.balance),
        codeHash: r.code_hash,
        dataHash: r.data_hash,
        code: cellOf(r.code_boc),
        data: cellOf(r.data_boc),
        lastLt: BigInt(t.lt),
        lastNow: Number(t.now),
      });
    }
  }
  return {
    mcSeqno,
    transactions: txs.map((t) => {
      const m = t.in_msg_hash ? messages.get(t.in_msg_hash) : undefined;
      return {
        account: t.account,
        lt: BigInt(t.lt),
        hash: t.hash,
        now: Number(t.now),
        aborted: Boolean(t.aborted),
        traceId: t.trace_id,
        stateAfter: t.account_state_hash_after,
        inMessage: m
          ? { hash: m.msg_hash, source: m.source, value: BigInt(m.value ?? 0), opcode: m.opcode === null ? null : Number(m.opcode), body: bodies.get(m.body_hash) ?? null }
          : null,
      };
    }),
    states,
  };
}

/** An account's latest state at or before masterchain block `mcSeqno` (a master or collection asked to confirm). */
export async function stateAtBlock(store: Store, account: string, mcSeqno: number): Promise<AccountStateAfter | undefined> {
  const [t] = await select<{ lt: string; now: number; account_state_hash_after: string }>(
    store,
    "SELECT lt, now, account_state_hash_after FROM transactions WHERE account = {account:String} AND mc_seqno <= {mc:UInt32} ORDER BY lt DESC LIMIT 1",
    { account, mc: mcSeqno },
  );
  if (!t) return undefined;
  const [r] = await select<StateRow>(
    store,
    "SELECT account, hash, account_status, balance, code_hash, data_hash, code_boc, data_boc FROM account_states WHERE account = {account:String} AND hash = {hash:String} LIMIT 1",
    { account, hash: t.account_state_hash_after },
  );
  if (!r) return undefined;
  return {
    account: r.account,
    hash: r.hash,
    status: r.account_status,
    balance: BigInt(r.balance),
    codeHash: r.code_hash,
    dataHash: r.data_hash,
    code: cellOf(r.code_boc),
    data: cellOf(r.data_boc),
    lastLt: BigInt(t.lt),
    lastNow: Number(t.now),
  };
}
