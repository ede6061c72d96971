// tryLocateTx / tryLocateResultTx / tryLocateSourceTx: the transaction that received (or sent) a message
// known by its source, destination and created_lt. As toncenter does, only the blocks around created_lt
// are searched, never a whole history: for the sending transaction, the source's block holding
// created_lt; for the receiving one, the destination's block holding created_lt and the two after it (a
// message to another shard or workchain lands in a later block).
import { Address, loadTransaction, type Cell, type CommonMessageInfo } from "@ton/core";
import { shardForAccount, shardToSigned } from "@tongate/block";
import { verifyTransactionInfo, type AccountAddress } from "@tongate/proof";
import { apiError } from "@tongate/runtime";
import { formatFriendly } from "@tongate/ton";
import { blockName, findBlock, lookupBlock, type BlockHeader } from "./block-lookup.js";
import { tlBlockId } from "@tongate/liteclient";
import { verified } from "./chain.js";
import { blockTransactionIds } from "./block-transactions.js";
import type { PoolSession } from "@tongate/liteclient";

export type Side = "source" | "destination";

/** A lookupBlock shard of the deepest kind a liteserver accepts (60 prefix bits): it finds the shard holding the account. */
const accountShard = (a: AccountAddress) => shardToSigned(shardForAccount(a.id, 60));

const BLOCKS_SEARCHED: Record<Side, number> = { source: 1, destination: 3 };

/** The transaction of `side` in `block` with this lt, proof checked. */
async function oneTransaction(s: PoolSession, method: string, block: BlockHeader, account: AccountAddress, lt: bigint): Promise<Cell> {
  const answer = await s.query({ kind: "liteServer.getOneTransaction", id: tlBlockId(block.id), account: { kind: "liteServer.accountId", workchain: account.workchain, id: account.id }, lt });
  const v = verified(method, () => verifyTransactionInfo(answer, block.id, { account, lt }));
  if (!v.transaction) throw apiError(502, `${method}: the liteserver listed transaction lt ${lt} in block ${blockName(block.id)} but does not return it`);
  return v.transaction;
}

/** Whether the transaction received (destination side) or sent (source side) the message. */
function handles(side: Side, cell: Cell, source: Address, destination: Address, createdLt: bigint): boolean {
  const tx = loadTransaction(cell.beginParse());
  const isIt = (i: CommonMessageInfo) => i.type === "internal" && i.src.equals(source) && i.dest.equals(destination) && i.createdLt === createdLt;
  if (side === "destination") return !!tx.inMessage && isIt(tx.inMessage.info);
  return tx.outMessages.values().some((m) => isIt(m.info));
}

/** The transaction cell of `side` that handled the message source → destination created at `createdLt`; 404 when there is none. */
export async function locateTransaction(s: PoolSession, method: string, side: Side, source: AccountAddress, destination: AccountAddress, createdLt: bigint): Promise<Cell> {
  const account = side === "source" ? source : destination;
  const [src, dst] = [source, destination].map((a) => new Address(a.workchain, a.id));
  let block: BlockHeader | null = await lookupBlock(s, method, account.workchain, accountShard(account), { lt: createdLt });
  for (let i = 0; block && i < BLOCKS_SEARCHED[side]; i++) {
    const ids = (await blockTransactionIds(s, method, block.id, Number.MAX_SAFE_INTEGER)).items.filter((t) => t.account.equals(account.id));
    // The sender's transaction is its last one before created_lt; the receiver's comes after it.
    const candidates = side === "source" ? ids.filter((t) => t.lt < createdLt).slice(-1) : ids.filter((t) => t.lt > createdLt);
    for (const t of candidates) {
      const cell = await oneTransaction(s, method, block, account, t.lt);
      if (handles(side, cell, src!, dst!, createdLt)) return cell;
    }
    block = await findBlock(s, method, block.id.workchain, block.id.shard, { seqno: block.id.seqno + 1 });
  }
  const name = (a: AccountAddress) => formatFriendly(a.workchain, a.id, { bounceable: true, urlSafe: true });
  throw apiError(
    404,
    `transaction was not found: no transaction of the ${side} ${name(account)} ${side === "source" ? "sent" : "received"} a message from ${name(source)} to ${name(destination)} with created_lt ${createdLt} (searched the ${side}'s blocks from the one holding that lt)`,
  );
}
