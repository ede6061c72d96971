// What every token scenario shares: the genesis wallets that act in them, the transactions a step
// made (found in the sealed block by account and in-message opcode), and get-methods on the
// latest state.
import { beginCell, loadShardAccount, type Address, type Cell, type Transaction, type TupleItem } from "@ton/core";
import { AccountHistory, type Localnet } from "@tongate/localnet";
import { getMethodStack, LocalnetSender } from "../localnet-deploy.js";

/**
 * The wallets that act in the scenarios: genesis wallets 1 to 4 (wallet 0 is the faucet, which
 * publishes libraries). `admin` administers the jettons, owns the collections and is the getgems
 * marketplace; the others hold, buy and bid.
 */
export interface Actors {
  admin: LocalnetSender;
  alice: LocalnetSender;
  bob: LocalnetSender;
  carol: LocalnetSender;
}

export function actorsOf(net: Localnet): Actors {
  // a step seals one block and expects its whole trace in it: messages within one shard are
  // delivered in the same block, across shards only in the next
  const shards = net.chain.shardIdsOf(0).length;
  if (shards !== 1) throw new Error(`the token scenarios need workchain 0 in one shard; this localnet has ${shards}`);
  const w = net.genesis.wallets;
  if (w.length < 5) throw new Error(`the token scenarios need 5 genesis wallets (start the localnet with wallets: 3 or more); it has ${w.length}`);
  const [admin, alice, bob, carol] = [1, 2, 3, 4].map((i) => new LocalnetSender(net, w[i]!));
  return { admin: admin!, alice: alice!, bob: bob!, carol: carol! };
}

/** A transaction as an indexer reports it. */
export interface TxRef {
  account: Address;
  lt: bigint;
  hash: Buffer;
  /** The block's time. */
  utime: number;
  aborted: boolean;
  /** The hash of the trace's first transaction (the wallet's external message): toncenter's trace_id. */
  traceId: Buffer;
  /** The masterchain block that committed it. */
  mcSeqno: number;
}

/** The transactions of one sealed block (what LocalnetSender.send returns). */
export type Block = Transaction[];

const sameAccount = (tx: Transaction, a: Address) => tx.address === BigInt(`0x${a.hash.toString("hex")}`);

/** The opcode of an internal message's body (undefined: shorter than 32 bits). */
function opOf(tx: Transaction): number | undefined {
  const m = tx.inMessage;
  if (!m || m.info.type !== "internal") return undefined;
  const s = m.body.beginParse();
  return s.remainingBits >= 32 ? s.loadUint(32) : undefined;
}

/** The transaction of `account` in `block` whose inbound internal message has opcode `op`; throws if there is none. */
export function txByOp(block: Block, account: Address, op: number): Transaction {
  const tx = block.find((t) => sameAccount(t, account) && opOf(t) === op);
  if (!tx) throw new Error(`no transaction of ${account.toRawString()} on a message with opcode 0x${op.toString(16).padStart(8, "0")} in this block`);
  return tx;
}

/** The transaction of `account` in `block` on an internal message from `from` (a bid: a message without a body). */
export function txByInternalFrom(block: Block, account: Address, from: Address): Transaction {
  const tx = block.find((t) => sameAccount(t, account) && t.inMessage?.info.type === "internal" && t.inMessage.info.src.equals(from));
  if (!tx) throw new Error(`no transaction of ${account.toRawString()} on a message from ${from.toRawString()} in this block`);
  return tx;
}

/** The transaction of `account` in `block` whose inbound message is external. */
export function txByExternal(block: Block, account: Address): Transaction {
  const tx = block.find((t) => sameAccount(t, account) && t.inMessage?.info.type === "external-in");
  if (!tx) throw new Error(`no transaction of ${account.toRawString()} on an external message in this block`);
  return tx;
}

/** The body of a transaction's inbound message. */
export function inBody(tx: Transaction): Cell {
  if (!tx.inMessage) throw new Error(`transaction lt ${tx.lt} has no inbound message`);
  return tx.inMessage.body;
}

/** The source of a transaction's inbound internal message. */
export function inSource(tx: Transaction): Address {
  const m = tx.inMessage;
  if (!m || m.info.type !== "internal") throw new Error(`transaction lt ${tx.lt} has no inbound internal message`);
  return m.info.src;
}

/** The nanotons a transaction's inbound internal message carried. */
export function inValue(tx: Transaction): bigint {
  const m = tx.inMessage;
  if (!m || m.info.type !== "internal") throw new Error(`transaction lt ${tx.lt} has no inbound internal message`);
  return m.info.value.coins;
}

/**
 * `tx` as a TxRef, with the masterchain block that committed it; the trace root is the block's one
 * transaction on an external message (every step of a scenario is one wallet message, and its
 * trace completes in the block).
 */
export function txRef(net: Localnet, block: Block, tx: Transaction): TxRef {
  const roots = block.filter((t) => t.inMessage?.info.type === "external-in");
  if (roots.length !== 1) throw new Error(`a scenario block holds one external message's trace; this one has ${roots.length}`);
  const account = addressOf(tx);
  const stored = net.chain.transaction(account.workChain, account.hash, tx.lt);
  if (!stored?.hash.equals(tx.hash())) throw new Error(`transaction ${account.toRawString()} lt ${tx.lt} is not the chain's`);
  const d = tx.description;
  return {
    account,
    lt: tx.lt,
    hash: tx.hash(),
    utime: tx.now,
    aborted: d.type === "generic" ? d.aborted : false,
    traceId: roots[0]!.hash(),
    mcSeqno: stored.mcSeqno,
  };
}

function addressOf(tx: Transaction): Address {
  const m = tx.inMessage;
  if (m?.info.type === "internal" || m?.info.type === "external-in") return m.info.dest;
  throw new Error(`transaction lt ${tx.lt} has no inbound message to name its account`);
}

/** A get-method's result stack on the latest state of `address`. */
export const getMethod = (net: Localnet, address: Address, method: string, args: TupleItem[] = []) => getMethodStack(net, address, method, args);

/** A get-method argument: an address as a slice. */
export const addressArg = (a: Address): TupleItem => ({ type: "slice", cell: beginCell().storeAddress(a).endCell() });

/** A get-method argument: an integer. */
export const intArg = (n: bigint): TupleItem => ({ type: "int", value: n });

/** An account's status, balance and code as the chain holds them now. */
export interface AccountNow {
  status: "nonexist" | "uninit" | "active" | "frozen";
  /** nanotons */
  balance: bigint;
  code: Cell | null;
  data: Cell | null;
}

export function accountNow(net: Localnet, a: Address): AccountNow {
  const cell = net.chain.history.latest(AccountHistory.key(a.workChain, a.hash));
  const account = cell ? loadShardAccount(cell.beginParse()).account : null;
  if (!account) return { status: "nonexist", balance: 0n, code: null, data: null };
  const st = account.storage.state;
  const balance = account.storage.balance.coins;
  if (st.type === "active") return { status: "active", balance, code: st.state.code ?? null, data: st.state.data ?? null };
  return { status: st.type, balance, code: null, data: null };
}

/**
 * The hash of a transaction's inbound message as the chain holds it (toncenter's msg_hash): the
 * cell in the transaction's own tree, not a re-serialisation of the parsed message.
 */
export function inMessageHash(tx: Transaction): Buffer {
  // transaction's first ref: ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]
  const s = tx.raw.refs[0]!.beginParse();
  if (!s.loadBit()) throw new Error(`transaction lt ${tx.lt} has no inbound message`);
  return s.loadRef().hash();
}

/** The transaction of `account` in `block` on an internal message whose body is `body` (a text comment, an empty transfer). */
export function txByBody(block: Block, account: Address, body: Cell): Transaction {
  const tx = block.find((t) => sameAccount(t, account) && t.inMessage?.info.type === "internal" && t.inMessage.body.equals(body));
  if (!tx) throw new Error(`no transaction of ${account.toRawString()} on a message with body ${body.hash().toString("hex")} in this block`);
  return tx;
}
