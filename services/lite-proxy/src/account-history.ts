// An account's transactions, newest first, as getTransactions(Std) and tryLocate* read them: from a
// proven starting point (the account's last transaction in its proven state, or a client's lt + hash)
// back through liteServer.getTransactions pages, each page checked as a hash chain (every transaction
// hashes to the prev_trans_hash of the one after it).
import { verifyTransactionList, type AccountAddress, type VerifiedTransaction } from "@tongate/proof";
import { formatRaw } from "@tongate/ton";
import { orNotFound } from "./block-lookup.js";
import { verified } from "./chain.js";
import { getAccountState, type PoolSession } from "@tongate/liteclient";

/** A transaction reference; lt 0 is "no transaction" (the end of an account's history). */
export interface TxCursor {
  lt: bigint;
  hash: Buffer;
}

/** A liteserver answers at most 16 transactions per getTransactions. */
const PAGE = 16;

const accountId = (a: AccountAddress) => ({ kind: "liteServer.accountId" as const, workchain: a.workchain, id: a.id });

/** The account's last transaction (lt 0 when it has none), from its state at the latest masterchain block, proof checked. */
export async function lastTransaction(s: PoolSession, method: string, account: AccountAddress): Promise<TxCursor> {
  const mc = (await s.query({ kind: "liteServer.getMasterchainInfo" })).last;
  const sa = (await getAccountState(s, mc, account)).state.shardAccount;
  return sa ? { lt: sa.lastTransLt, hash: sa.lastTransHash } : { lt: 0n, hash: Buffer.alloc(32) };
}

/**
 * Up to `limit` transactions of the account from `from` back, stopping before the first with lt <= toLt,
 * and the cursor of the next older transaction (lt 0 at the start of the history).
 */
export async function accountTransactions(
  s: PoolSession,
  method: string,
  account: AccountAddress,
  from: TxCursor,
  limit: number,
  toLt = 0n,
): Promise<{ transactions: VerifiedTransaction[]; next: TxCursor }> {
  const transactions: VerifiedTransaction[] = [];
  let next = from;
  while (transactions.length < limit && next.lt > toLt) {
    const count = Math.min(PAGE, limit - transactions.length);
    const cursor = next;
    const answer = await orNotFound(
      s.query({ kind: "liteServer.getTransactions", count, account: accountId(account), lt: cursor.lt, hash: cursor.hash }),
      `transaction lt ${cursor.lt} hash ${cursor.hash.toString("hex")} of ${formatRaw(account.workchain, account.id)}`,
      " (older transactions are kept by archival liteservers: try archival=true)",
    );
    for (const t of verified(method, () => verifyTransactionList(answer, { account, lt: cursor.lt, hash: cursor.hash, count }))) {
      if (t.lt <= toLt) return { transactions, next };
      transactions.push(t);
      next = { lt: t.prevTransLt, hash: t.prevTransHash };
    }
  }
  return { transactions, next };
}
