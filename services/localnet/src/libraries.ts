// Public libraries, as on mainnet: a masterchain account publishes a cell by holding it in its
// StateInit `library` dictionary with public = true (simple_lib$_ public:Bool root:^Cell), and
// the masterchain state's `libraries` (HashmapE 256 LibDescr) lists every such cell with the
// accounts that publish it. localnet's publisher is the "library keeper" (assets/library-keeper.fc),
// a masterchain account owned by the faucet wallet: the faucet sends it publish_library messages
// and the keeper's SETLIBCODE puts the cell in its StateInit. Publication is thereby an ordinary
// transaction — journaled, replayed and proven like any other — and the state's dictionary is
// derived from the accounts, so it is consistent as a validator would require.
import { beginCell, Cell, CellType, contractAddress, Dictionary, loadShardAccount, type Address, type StateInit } from "@ton/core";
import { BocError, MAX_EMULATED_CELL_DEPTH, MAX_LIBRARY_CELLS, MAX_VM_DATA_DEPTH, readBoc, type BocLimits } from "@tongate/ton";
import { KEY_256, libDescr, libDescrValue, loadShardStateUnsplitHeader, type Libraries, emptyLibraries } from "@tongate/block";

/** assets/library-keeper.fc, compiled with FunC 0.4.6 (a test checks the source still compiles to it). */
export const LIBRARY_KEEPER_CODE = Cell.fromBase64(
  "te6ccgEBAgEARQABFP8A9KQT9LzyyAsBAGzTMzHQ0wMBcbCRW+D6QDDtRND6QDDHBfLhkSDXSsAAkTDg0x+EDwKCEDMQB6K6EvL01DBy+wY=",
);

/** publish_library#331007a2 lib:^Cell = InternalMsgBody; */
export const OP_PUBLISH_LIBRARY = 0x331007a2;

/** The keeper's initial StateInit: its code and its owner (data: owner:MsgAddressInt), no libraries yet. */
export function libraryKeeperInit(owner: Address): StateInit {
  return { code: LIBRARY_KEEPER_CODE, data: beginCell().storeAddress(owner).endCell() };
}

/** The keeper's masterchain address: fixed by its owner, hence by the seed (the faucet wallet derives from it). */
export function libraryKeeperAddress(owner: Address): Address {
  return contractAddress(-1, libraryKeeperInit(owner));
}

export function publishLibraryBody(lib: Cell): Cell {
  return beginCell().storeUint(OP_PUBLISH_LIBRARY, 32).storeRef(lib).endCell();
}

/**
 * What may be published: an ordinary cell (a library cell standing for another library, or a
 * pruned branch, could never be resolved by the emulator). Throws with the reason.
 */
export function checkLibraryCell(lib: Cell): void {
  if (lib.type !== CellType.Ordinary) throw new RangeError(`a library must be an ordinary cell, not an exotic ${CellType[lib.type]} cell`);
}

/**
 * What a library may be, as the chain checks it when an account sets one (config param 43: its
 * cells when the keeper's SETLIBCODE adds it); its depth, where config param 43 allows an account
 * state max_vm_data_depth, as deep as the emulator that runs the localnet can store it.
 */
const LIBRARY_BOC: BocLimits = {
  cells: { max: MAX_LIBRARY_CELLS, why: "config param 43 max_library_cells" },
  depth: { max: Math.min(MAX_VM_DATA_DEPTH, MAX_EMULATED_CELL_DEPTH), why: "the depth TON's emulator, which runs the localnet, can store; config param 43 max_vm_data_depth allows 512" },
};

/** The library cell of a one-root BoC (`--library FILE`, POST /localnet/libraries); RangeError when it is none. */
export function libraryFromBoc(boc: Buffer): Cell {
  let roots: Cell[];
  try {
    roots = readBoc(boc, LIBRARY_BOC);
  } catch (e) {
    if (!(e instanceof BocError)) throw e;
    throw new RangeError(e.bound ? e.message : `not a valid BoC (${e.message.replace(/^not a valid bag of cells: /, "")})`);
  }
  checkLibraryCell(roots[0]!);
  return roots[0]!;
}

/**
 * The masterchain state's `libraries`: every public library in the StateInit of `accounts`
 * (ShardAccount cells by account id, hex), with the accounts that publish it
 * (shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True)).
 */
export function publicLibraries(accounts: Map<string, Cell>): Libraries {
  const publishers = new Map<bigint, { lib: Cell; by: Buffer[] }>();
  for (const [id, cell] of accounts) {
    const state = loadShardAccount(cell.beginParse()).account?.storage.state;
    if (state?.type !== "active" || !state.state.libraries) continue;
    for (const [hash, simple] of state.state.libraries) {
      if (!simple.public) continue;
      const entry = publishers.get(hash) ?? { lib: simple.root, by: [] };
      entry.by.push(Buffer.from(id, "hex"));
      publishers.set(hash, entry);
    }
  }
  const out = emptyLibraries();
  for (const [hash, e] of publishers) out.set(hash, libDescr(e.lib, e.by));
  return out;
}

/**
 * The libraries as the emulator takes them (HashmapE 256 ^Cell keyed by the library's hash) in a
 * masterchain state, or null when it has none. The last answer is kept while the state's
 * dictionary is the same, so the emulator inputs (boc-cache.ts, the worker pool) stay unchanged.
 */
export class EmulatorLibraries {
  private root: Cell | null = null;
  private cell: Cell | null = null;

  of(mcStateRoot: Cell): Cell | null {
    const root = loadShardStateUnsplitHeader(mcStateRoot.beginParse()).other?.libraries ?? null;
    if (root === this.root || (root && this.root && root.hash().equals(this.root.hash()))) return this.cell;
    this.root = root;
    this.cell = root ? emulatorLibrariesOf(Dictionary.loadDirect(KEY_256, libDescrValue, root)) : null;
    return this.cell;
  }
}

/** HashmapE 256 ^Cell of these libraries (null when none). */
export function emulatorLibrariesOf(libs: Libraries): Cell | null {
  if (libs.size === 0) return null;
  const d = Dictionary.empty(KEY_256, Dictionary.Values.Cell());
  for (const [hash, descr] of libs) d.set(hash, descr.lib);
  return beginCell().storeDictDirect(d).endCell();
}
