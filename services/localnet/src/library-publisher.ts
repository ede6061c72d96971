// Publishing a public library on a running localnet (POST /localnet/libraries, --library): the
// faucet wallet sends the cell to the library keeper (libraries.ts), deploying the keeper with the
// first publication, and seals a block. The keeper's transaction is in that seal's masterchain
// block, and so is the library in the state after it.
import { Dictionary, internal, loadShardAccount, loadTransaction, type Cell } from "@ton/core";
import { KEY_256, libDescrValue, loadShardStateUnsplitHeader } from "@tongate/block";
import { AccountHistory } from "./chain/account-history.js";
import { checkLibraryCell, libraryKeeperAddress, libraryKeeperInit, publishLibraryBody } from "./libraries.js";
import type { Localnet } from "./localnet.js";

/**
 * What each publication sends the keeper, nanotons (100 TON): the masterchain storage fee of a
 * contract-sized library is about 0.015 TON a day, so this pays for years of localnet time.
 */
const KEEPER_VALUE = 100n * 1_000_000_000n;

export interface PublishedLibrary {
  /** The library's hash (its root cell's representation hash): the key of the libraries dictionary. */
  hash: Buffer;
  /** The masterchain block whose state has it first (or the head, when it was published before). */
  mcSeqno: number;
  /** false: the chain had it already; nothing was sent. */
  published: boolean;
}

export async function publishLibrary(net: Localnet, lib: Cell): Promise<PublishedLibrary> {
  checkLibraryCell(lib);
  const owner = net.faucetAddress;
  if (!owner) throw new Error("this localnet has no faucet wallet (started with --wallets 0) to fund the library keeper");
  const hash = lib.hash();
  const head = net.chain.lastMasterchain!;
  if (hasLibrary(head.stateRoot, hash)) return { hash, mcSeqno: head.id.seqno, published: false };

  const keeper = libraryKeeperAddress(owner);
  const state = net.chain.history.latest(AccountHistory.key(-1, keeper.hash));
  const active = state !== undefined && loadShardAccount(state.beginParse()).account?.storage.state.type === "active";
  const { mcSeqno } = await net.sendFromFaucet(
    internal({ to: keeper, value: KEEPER_VALUE, bounce: true, init: active ? undefined : libraryKeeperInit(owner), body: publishLibraryBody(lib) }),
  );
  const mc = net.chain.masterchain.find((b) => b.id.seqno === mcSeqno)!;
  if (!hasLibrary(mc.stateRoot, hash)) {
    const tx = mc.transactions.find((t) => t.cell.beginParse().skip(4).loadBuffer(32).equals(keeper.hash));
    throw new Error(`the library keeper ${keeper.toRawString()} did not publish the library: ${tx ? failureOf(tx.cell) : "the faucet's message did not reach it"}`);
  }
  return { hash, mcSeqno, published: true };
}

/** Whether the masterchain state's libraries dictionary has a library with this hash. */
export function hasLibrary(mcStateRoot: Cell, hash: Buffer): boolean {
  const root = loadShardStateUnsplitHeader(mcStateRoot.beginParse()).other?.libraries;
  return !!root && Dictionary.loadDirect(KEY_256, libDescrValue, root).has(BigInt(`0x${hash.toString("hex")}`));
}

function failureOf(txCell: Cell): string {
  const d = loadTransaction(txCell.beginParse()).description;
  if (d.type !== "generic") return `a ${d.type} transaction`;
  if (d.computePhase.type === "skipped") return `compute phase skipped (${d.computePhase.reason})`;
  if (!d.computePhase.success) return `compute phase exit code ${d.computePhase.exitCode}`;
  if (d.actionPhase && !d.actionPhase.success) return `action phase result code ${d.actionPhase.resultCode}`;
  return "its transaction succeeded without changing the libraries";
}
