// What running contract code locally needs, read from the liteserver the way tonlib reads it: the
// account (proof-verified), the blockchain config of the block (proof-verified), the public
// libraries the code refers to; the emulator itself (@tongate/emulator) runs the get-methods and
// fee estimation with them.
import { beginCell, Cell, CellType, Dictionary, loadAccount, type Account, type Address } from "@ton/core";
import { ProofError, verifyConfig, type VerifiedAccountState } from "@tongate/proof";
import { verified, type BlockIdExt, type ChainReader, type VerifiedAccount } from "./chain.js";
import { tlBlockId, type PoolSession } from "@tongate/liteclient";
import { EmulatorFailure } from "@tongate/emulator";
import { apiError } from "@tongate/runtime";


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

const accountsAtBlock = new WeakMap<VerifiedAccount, AccountAtBlock>();

/** The account at a masterchain block, with its proofs checked (ChainReader.verifiedAccount). */
export async function readAccount(chain: ChainReader, s: PoolSession, method: string, address: Address, block: BlockIdExt): Promise<AccountAtBlock> {
  const verifiedAccount = await chain.verifiedAccount(s, method, address, block);
  let a = accountsAtBlock.get(verifiedAccount);
  if (!a) accountsAtBlock.set(verifiedAccount, (a = accountAtBlock(block, verifiedAccount.state)));
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
export function blockConfig(s: PoolSession, method: string, block: BlockIdExt): Promise<string> {
  const key = block.root_hash.toString("hex");
  let config = configs.get(key);
  if (!config) {
    config = (async () => {
      const answer = await s.query({ kind: "liteServer.getConfigAll", mode: 0, id: tlBlockId(block) });
      const v = verified(method, () => verifyConfig(answer, tlBlockId(block), { all: true }));
      return beginCell().storeDictDirect(v.params).endCell().toBoc().toString("base64");
    })();
    configs.set(key, config);
    config.catch(() => configs.delete(key));
    if (configs.size > CONFIGS_KEPT) configs.delete(configs.keys().next().value!);
  }
  return config;
}

/**
 * Hashes of the library cells in these cell trees (a library cell stands for the code cell with that
 * hash). Each distinct cell is visited once, without recursion: code and data may be 1,024 deep.
 */
export function libraryRefs(roots: (Cell | undefined | null)[]): Buffer[] {
  const seen = new Set<string>();
  const found = new Map<string, Buffer>();
  const todo = roots.filter((r): r is Cell => !!r);
  while (todo.length > 0) {
    const c = todo.pop()!;
    const h = c.hash().toString("latin1");
    if (seen.has(h)) continue;
    seen.add(h);
    if (c.type === CellType.Library) {
      const hash = c.beginParse(true).skip(8).loadBuffer(32);
      found.set(hash.toString("hex"), hash);
    }
    todo.push(...c.refs);
  }
  return [...found.values()];
}

export type Libraries = Dictionary<Buffer, Cell>;

export const emptyLibraries = (): Libraries => Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());

/** Adds the public libraries with these hashes to `libs` (liteServer.getLibraries, 16 per query; each checked against its hash). */
export async function fetchLibraries(s: PoolSession, method: string, hashes: Buffer[], libs: Libraries): Promise<void> {
  const missing = hashes.filter((h) => !libs.has(h));
  for (let i = 0; i < missing.length; i += 16) {
    const answer = await s.query({ kind: "liteServer.getLibraries", library_list: missing.slice(i, i + 16) });
    for (const e of answer.result) {
      const cell = verified(method, () => {
        const c = Cell.fromBoc(e.data)[0];
        if (!c || !c.hash().equals(e.hash)) throw new ProofError(`library ${e.hash.toString("hex")}: its data does not hash to it`);
        return c;
      });
      libs.set(e.hash, cell);
    }
  }
}

/** The libraries dictionary (HashmapE 256 ^Cell) the emulator takes; undefined when empty. */
export const librariesCell = (libs: Libraries): Cell | undefined => (libs.size ? beginCell().storeDictDirect(libs).endCell() : undefined);

/**
 * A run the emulator could not finish within its bounds, as an API error: 504 past its time bound,
 * 503 when too many runs wait, 422 for an input it threw a C++ exception on, else 500 saying what happened to the run (only the run failed: its
 * process was replaced, the service goes on). Anything else is rethrown as it is.
 */
export function emulatorFailed(method: string, e: unknown): never {
  if (!(e instanceof EmulatorFailure)) throw e;
  // An input TON's emulator throws on (an exotic cell in a message body) is the client's to change.
  const status = e.reason === "timeout" ? 504 : e.reason === "busy" || e.reason === "closed" ? 503 : e.reason === "exception" ? 422 : 500;
  throw apiError(status, `${method}: ${e.message}`);
}
