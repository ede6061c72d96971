// What running contract code locally needs, read from a liteserver the way tonlib reads it: the
// account (proof-checked), the blockchain config of the block (proof-checked) and the public
// libraries the code refers to (each checked against its hash). A failed check throws
// LiteserverProofError, which each service maps at its boundary; @tongate/emulator runs the code.
import { beginCell, Cell, loadAccount, type Account, type Address, type Dictionary } from "@ton/core";
import { ProofError, type VerifiedAccountState } from "@tongate/proof";
import type { BlockIdExt } from "./block-id.js";
import { checkAnswer, getAccountState, getConfig, type LiteQuerier } from "./verified.js";

export interface AccountAtBlock {
  /** The masterchain block the state was read at. */
  block: BlockIdExt;
  /** Absent: the account does not exist (account_none). */
  account: Account | null;
  /** The ShardAccount cell (account + last transaction), as the emulator takes it. */
  shardAccount: Cell;
  lastTransLt: bigint;
  lastTransHash: Buffer;
  /** gen_utime of the shard state the account was read from. */
  genUtime: number;
}

/** A verified account state at a block: a reader that keeps verified answers (lite-proxy's), or liteclient's getAccountState. */
export type VerifiedAccountReader = (address: Address, block: BlockIdExt) => Promise<VerifiedAccountState>;

/** Parsed once per verified state (a reader that keeps verified answers hands out the same object again). */
const accountsAtBlock = new WeakMap<VerifiedAccountState, AccountAtBlock>();

/** The account at a masterchain block, its proofs checked: read from `lite`, or through `read`. */
export async function readAccount(source: LiteQuerier | VerifiedAccountReader, address: Address, block: BlockIdExt): Promise<AccountAtBlock> {
  const state =
    typeof source === "function" ? await source(address, block) : (await getAccountState(source, block, { workchain: address.workChain, id: address.hash })).state;
  let a = accountsAtBlock.get(state);
  if (!a) accountsAtBlock.set(state, (a = accountAtBlock(block, state)));
  return a;
}

function accountAtBlock(block: BlockIdExt, v: VerifiedAccountState): AccountAtBlock {
  const lastTransLt = v.shardAccount?.lastTransLt ?? 0n;
  const lastTransHash = v.shardAccount?.lastTransHash ?? Buffer.alloc(32);
  const accountCell = v.account ?? beginCell().storeBit(0).endCell();
  const slice = accountCell.beginParse();
  const account = slice.loadBit() ? loadAccount(slice) : null;
  const shardAccount = beginCell().storeRef(accountCell).storeBuffer(lastTransHash).storeUint(lastTransLt, 64).endCell();
  return { block, account, shardAccount, lastTransLt, lastTransHash, genUtime: v.genUtime ?? 0 };
}

// Config per masterchain block (the newest few): every get-method and estimate at one block shares it.
const configs = new Map<string, Promise<string>>();
const CONFIGS_KEPT = 8;

/** The blockchain config (ConfigParams) at a masterchain block, as the base64 BoC the emulator takes. */
export function blockConfig(lite: LiteQuerier, block: BlockIdExt): Promise<string> {
  const key = block.root_hash.toString("hex");
  let config = configs.get(key);
  if (!config) {
    config = getConfig(lite, block, { all: true }).then((v) => beginCell().storeDictDirect(v.params).endCell().toBoc().toString("base64"));
    configs.set(key, config);
    config.catch(() => configs.delete(key));
    if (configs.size > CONFIGS_KEPT) configs.delete(configs.keys().next().value!);
  }
  return config;
}

/** Library queries carry at most this many hashes. */
const LIBRARIES_PER_QUERY = 16;

/** Adds the public libraries with these hashes to `libs` (liteServer.getLibraries; each checked against its hash). */
export async function fetchLibraries(lite: LiteQuerier, hashes: Buffer[], libs: Dictionary<Buffer, Cell>): Promise<void> {
  const missing = hashes.filter((h) => !libs.has(h));
  for (let i = 0; i < missing.length; i += LIBRARIES_PER_QUERY) {
    const query = "liteServer.getLibraries";
    const answer = await lite.query({ kind: query, library_list: missing.slice(i, i + LIBRARIES_PER_QUERY) });
    for (const e of answer.result) {
      const cell = checkAnswer(query, lite, () => {
        const c = Cell.fromBoc(e.data)[0];
        if (!c || !c.hash().equals(e.hash)) throw new ProofError(`library ${e.hash.toString("hex")}: its data does not hash to it`);
        return c;
      });
      libs.set(e.hash, cell);
    }
  }
}
