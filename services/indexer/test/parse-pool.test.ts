// The fast block → rows path against the full one on every real block fixture: rows parsed in the
// worker pool from a block id (file hash checked, root hash taken from the id) equal rows computed on
// this thread from @ton/core's fully materialised cells (the transactions rendered for the key index
// included); the changed accounts found by key in the
// lazily read state update are the entries of the whole (partial) ShardAccounts dictionary.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { Cell, CellType } from "@ton/core";
import { loadShardAccountsPartial, parseBlock } from "@tongate/block";
import { afterAll, describe, expect, it } from "vitest";
import { ParsePool } from "../src/follower/parse-pool.js";
import { cellsFromBoc } from "../src/rows/boc.js";
import { findLeaf, skipCurrencyCollection } from "../src/rows/hashmap.js";
import { blockRowsAndTops, masterchainShards, readBlock } from "../src/rows/index.js";
import { renderTransactions } from "../src/store/key-index/render.js";

const DIR = new URL("../../../../shared/fixtures/blocks/", import.meta.url);
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".boc"));
const idOf = (boc: Buffer) => ({ root_hash: Cell.fromBoc(boc)[0]!.hash(), file_hash: createHash("sha256").update(boc).digest() });

const pool = ParsePool.create(2);
afterAll(() => pool.close());

describe("fast block → rows = full block → rows", () => {
  it.each(FILES)("%s: worker pool with the block id = this thread on Cell.fromBoc", async (f) => {
    const boc = readFileSync(new URL(f, DIR));
    const full = blockRowsAndTops(boc, { mcSeqno: 77, parseBoc: (b) => Cell.fromBoc(b) });
    // a worker also renders the transactions for the key index
    full.rows.rendered = renderTransactions(full.rows);
    const fast = await pool.parse(boc, { mcSeqno: 77, id: idOf(boc) });
    expect(fast).toEqual(full);
    expect(fast.tops).toEqual(masterchainShards(parseBlock(Cell.fromBoc(boc)[0]!)));
  });

  it.each(FILES)("%s: each changed account found by key = its entry in the whole ShardAccounts", (f) => {
    const boc = readFileSync(new URL(f, DIR));
    const lazy = readBlock(cellsFromBoc(boc)[0]!);
    const shardAccounts = lazy.stateUpdate.refs[1]!.refs[1]!.beginParse();
    expect(shardAccounts.loadBit()).toBe(true);
    const root = shardAccounts.loadRef();
    const whole = loadShardAccountsPartial(parseBlock(Cell.fromBoc(boc)[0]!).stateUpdate.new.refs[1]!.beginParse()).accounts;
    expect(lazy.accountBlocks.length).toBeGreaterThan(0);
    for (const ab of lazy.accountBlocks) {
      const want = whole.get(BigInt("0x" + ab.accountAddr.toString("hex")))?.value.account;
      const leaf = findLeaf(root.beginParse(), 256, ab.accountAddr);
      if (!want) {
        expect(leaf).toBeNull();
        continue;
      }
      leaf!.skip(5);
      skipCurrencyCollection(leaf!);
      const got = leaf!.loadRef();
      expect(got.hash(0).equals(want.hash(0))).toBe(true);
      if (want.type === CellType.Ordinary) expect(got.hash(0).equals(ab.newHash)).toBe(true);
    }
  });

  it("a BoC that is not the block id's file is refused", async () => {
    const boc = readFileSync(new URL(FILES[0]!, DIR));
    const id = idOf(boc);
    const other = Buffer.from(boc);
    other[other.length - 5] ^= 1;
    await expect(pool.parse(other, { mcSeqno: 1, id })).rejects.toThrow(/file hash/);
    // the pool keeps working after a failed job
    expect((await pool.parse(boc, { mcSeqno: 1, id })).rows.blocks[0]!.root_hash).toBe(id.root_hash.toString("base64"));
  });
});
