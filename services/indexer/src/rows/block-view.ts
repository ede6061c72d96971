// What the rows need of a block, read from its root cell without parsing the rest: the header, the
// account blocks (transaction cells in (account, lt) order, the accounts' new state hashes), the
// state update's cell (its new ShardAccounts entries are looked up by account in ./account-state.ts)
// and, for a masterchain block, McBlockExtra. The message descriptors, the value flow and the old
// state are never read (their cells, most of a block, are never even made by the lazy BoC reader).
import { type Cell, type Slice } from "@ton/core";
import { type BlockInfo, type McBlockExtra, loadBlockInfo, loadMcBlockExtra } from "@tongate/block";
import { forEachLeaf, skipCurrencyCollection } from "./hashmap.js";

export interface AccountBlockView {
  accountAddr: Buffer;
  /** transaction cells, by lt */
  transactions: Cell[];
  /** hash of the Account after the block (its HASH_UPDATE) */
  newHash: Buffer;
}

export interface BlockView {
  globalId: number;
  info: BlockInfo;
  /** the MERKLE_UPDATE ShardState cell */
  stateUpdate: Cell;
  extra: { randSeed: Buffer; createdBy: Buffer; custom: McBlockExtra | null };
  /** by account id */
  accountBlocks: AccountBlockView[];
}

/** acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection) state_update:^(HASH_UPDATE Account) */
function accountBlock(s: Slice): AccountBlockView {
  if (s.loadUint(4) !== 5) throw new Error("AccountBlock: bad tag");
  const accountAddr = s.loadBuffer(32);
  const transactions: Cell[] = [];
  forEachLeaf(
    s,
    64,
    (leaf) => {
      skipCurrencyCollection(leaf);
      transactions.push(leaf.loadRef());
    },
    skipCurrencyCollection,
  );
  const update = s.loadRef().beginParse();
  if (update.loadUint(8) !== 0x72) throw new Error("HASH_UPDATE: bad tag");
  update.skip(256);
  return { accountAddr, transactions, newHash: update.loadBuffer(32) };
}

export function readBlock(root: Cell): BlockView {
  const s = root.beginParse();
  const tag = s.loadUint(32);
  if (tag !== 0x11ef55aa) throw new Error(`Block: bad tag 0x${tag.toString(16)}`);
  const globalId = s.loadInt(32);
  const info = loadBlockInfo(s.loadRef().beginParse());
  s.loadRef(); // value_flow
  const stateUpdate = s.loadRef();
  const x = s.loadRef().beginParse();
  if (x.loadUint(32) !== 0x4a33f6fd) throw new Error("BlockExtra: bad tag");
  x.loadRef(); // in_msg_descr
  x.loadRef(); // out_msg_descr
  const blocks = x.loadRef().beginParse(); // ShardAccountBlocks: HashmapAugE 256 AccountBlock CurrencyCollection
  const randSeed = x.loadBuffer(32);
  const createdBy = x.loadBuffer(32);
  const c = x.loadMaybeRef();
  const accountBlocks: AccountBlockView[] = [];
  if (blocks.loadBit()) {
    forEachLeaf(blocks.loadRef().beginParse(), 256, (leaf) => {
      skipCurrencyCollection(leaf);
      accountBlocks.push(accountBlock(leaf));
    });
  }
  return { globalId, info, stateUpdate, extra: { randSeed, createdBy, custom: c ? loadMcBlockExtra(c.beginParse()) : null }, accountBlocks };
}
