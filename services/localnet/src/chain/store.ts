// The chain on disk: blocks (their BoCs and what the liteserver looks them up by), transactions
// by account and lt, and states as a content-addressed cell store (as a TON node's celldb: each
// cell once, by hash, so consecutive states share every unchanged sub-tree and a new block costs
// only its new cells). Everything a seal writes goes in one LMDB write transaction: a crash
// (kill -9) loses at most the block being sealed and never leaves a half-written one.
//
// Why LMDB: it is an embedded store made for this (copy-on-write B+trees, one writer, readers
// never blocked, ACID commits, nothing to recover after a crash), its npm package ships prebuilt
// binaries, and reads are synchronous, so the liteserver's handlers stay synchronous.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BitString, Cell } from "@ton/core";
import { open, type Database, type RootDatabase } from "lmdb";

export interface BlockKey {
  workchain: number;
  shard: bigint;
  seqno: number;
}

/** What is kept of every block besides its BoC (small: read for lookups, lists and proofs). */
export interface StoredBlockMeta {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
  /** Masterchain blocks: their seqno; shard blocks: the masterchain block that committed them. */
  mcSeqno: number;
  keyBlock: boolean;
  /** Root hash of the ShardStateUnsplit after the block (in the cell store). */
  stateHash: Buffer;
  balanceAfter: bigint;
  /** The previous blocks (one; two after a merge; the zero state's id for the first block). */
  prev: BlockKey[];
  beforeSplit: boolean;
  afterSplit: boolean;
  afterMerge: boolean;
  /** Masterchain blocks: the validator signatures. */
  signatures: { nodeIdShort: Buffer; signature: Buffer }[];
  /** Masterchain blocks: the shard blocks their shard_hashes list (the shards' top blocks). */
  shards: BlockKey[];
}

export interface StoredTransaction {
  lt: bigint;
  hash: Buffer;
  /** The Transaction cell's BoC. */
  boc: Buffer;
  block: BlockKey;
  mcSeqno: number;
}

/** Block keys sort by workchain, shard, seqno (a shard's blocks are one range). */
export function blockKeyBytes(k: BlockKey): Buffer {
  const b = Buffer.alloc(16);
  b.writeUInt32BE((k.workchain + 0x80000000) >>> 0, 0);
  b.writeBigUInt64BE(BigInt.asUintN(64, k.shard), 4);
  b.writeUInt32BE(k.seqno >>> 0, 12);
  return b;
}

function blockKeyOf(b: Buffer): BlockKey {
  return { workchain: b.readUInt32BE(0) - 0x80000000, shard: b.readBigUInt64BE(4), seqno: b.readUInt32BE(12) };
}

/** Transactions sort by workchain, account, lt: an account's history is one range. */
function txKey(workchain: number, account: Buffer, lt: bigint): Buffer {
  const b = Buffer.alloc(4 + 32 + 8);
  b.writeUInt32BE((workchain + 0x80000000) >>> 0, 0);
  account.copy(b, 4);
  b.writeBigUInt64BE(BigInt.asUintN(64, lt), 36);
  return b;
}

// Values are msgpack (lmdb's default); bigints go as decimal strings so nothing is read back lossy.
type Packed = Record<string, unknown>;
const packKey = (k: BlockKey) => [k.workchain, k.shard.toString(), k.seqno];
const unpackKey = (v: unknown): BlockKey => {
  const [workchain, shard, seqno] = v as [number, string, number];
  return { workchain, shard: BigInt(shard), seqno };
};
const buf = (v: unknown) => Buffer.from(v as Uint8Array);

function packMeta(m: StoredBlockMeta): Packed {
  return {
    ...m,
    shard: m.shard.toString(),
    startLt: m.startLt.toString(),
    endLt: m.endLt.toString(),
    balanceAfter: m.balanceAfter.toString(),
    prev: m.prev.map(packKey),
    shards: m.shards.map(packKey),
  };
}

function unpackMeta(p: Packed): StoredBlockMeta {
  return {
    workchain: p.workchain as number,
    shard: BigInt(p.shard as string),
    seqno: p.seqno as number,
    rootHash: buf(p.rootHash),
    fileHash: buf(p.fileHash),
    startLt: BigInt(p.startLt as string),
    endLt: BigInt(p.endLt as string),
    genUtime: p.genUtime as number,
    mcSeqno: p.mcSeqno as number,
    keyBlock: p.keyBlock as boolean,
    stateHash: buf(p.stateHash),
    balanceAfter: BigInt(p.balanceAfter as string),
    prev: (p.prev as unknown[]).map(unpackKey),
    beforeSplit: p.beforeSplit as boolean,
    afterSplit: p.afterSplit as boolean,
    afterMerge: p.afterMerge as boolean,
    signatures: (p.signatures as { nodeIdShort: Uint8Array; signature: Uint8Array }[]).map((s) => ({ nodeIdShort: buf(s.nodeIdShort), signature: buf(s.signature) })),
    shards: (p.shards as unknown[]).map(unpackKey),
  };
}

/**
 * A cell as stored: [refs | exotic << 3][bit length: u16][data bytes][ref hashes]. The hash is the
 * key; @ton/core recomputes it (and the level and depth) when the cell is read back.
 */
function encodeCell(c: Cell): Buffer {
  const bits = c.bits.length;
  const data = c.bits.subbuffer(0, bits - (bits % 8)) ?? Buffer.alloc(0);
  const bytes = Math.ceil(bits / 8);
  const out = Buffer.alloc(3 + bytes + 32 * c.refs.length);
  out[0] = c.refs.length | (c.isExotic ? 8 : 0);
  out.writeUInt16BE(bits, 1);
  data.copy(out, 3);
  if (bits % 8) {
    // the last, partial byte, bit by bit
    let last = 0;
    for (let i = bits - (bits % 8); i < bits; i++) last |= (c.bits.at(i) ? 1 : 0) << (7 - (i % 8));
    out[3 + bytes - 1] = last;
  }
  c.refs.forEach((r, i) => r.hash().copy(out, 3 + bytes + 32 * i));
  return out;
}

export interface ChainStoreOptions {
  /** The LMDB file (its lock file sits beside it). */
  path: string;
  /** Removed on close (a chain that is not kept). */
  temporary?: boolean;
  /** A directory removed on close, with everything in it. */
  removeDir?: string;
}

export class ChainStore {
  private readonly env: RootDatabase;
  private readonly blocks: Database<Packed, Buffer>;
  private readonly blockData: Database<Buffer, Buffer>;
  private readonly hashes: Database<Buffer, Buffer>;
  private readonly txs: Database<Packed, Buffer>;
  private readonly cells: Database<Buffer, Buffer>;
  private readonly meta: Database<unknown, string>;
  /** Cells known to be in the store (written or read here): their sub-trees need no look-up. */
  private stored = new WeakSet<Cell>();

  /** A store in a new temporary directory, removed on close (a chain that is not kept). */
  static temporary(): ChainStore {
    const dir = mkdtempSync(join(tmpdir(), "tongate-chain-"));
    return new ChainStore({ path: join(dir, "chain.mdb"), removeDir: dir });
  }

  constructor(private readonly o: ChainStoreOptions) {
    this.env = open({ path: o.path, compression: false });
    this.blocks = this.env.openDB<Packed, Buffer>({ name: "blocks", keyEncoding: "binary" });
    this.blockData = this.env.openDB<Buffer, Buffer>({ name: "block-data", keyEncoding: "binary", encoding: "binary" });
    this.hashes = this.env.openDB<Buffer, Buffer>({ name: "block-hashes", keyEncoding: "binary", encoding: "binary" });
    this.txs = this.env.openDB<Packed, Buffer>({ name: "transactions", keyEncoding: "binary" });
    this.cells = this.env.openDB<Buffer, Buffer>({ name: "cells", keyEncoding: "binary", encoding: "binary" });
    this.meta = this.env.openDB<unknown, string>({ name: "meta" });
  }

  /**
   * Runs `write` as one atomic transaction; resolves once it is committed (visible, and surviving a
   * crash of this process). The flush to disk overlaps the next transactions (lmdb-js's
   * overlappingSync, which keeps the file consistent if the machine stops mid-flush).
   */
  async write(write: () => void): Promise<void> {
    await this.env.transaction(write);
  }

  getMeta<T>(key: string): T | undefined {
    return this.meta.get(key) as T | undefined;
  }

  putMeta(key: string, value: unknown): void {
    void this.meta.put(key, value);
  }

  putBlock(m: StoredBlockMeta, boc: Buffer): void {
    const key = blockKeyBytes(m);
    void this.blocks.put(key, packMeta(m));
    void this.blockData.put(key, boc);
    void this.hashes.put(m.rootHash, key);
  }

  block(k: BlockKey): StoredBlockMeta | undefined {
    const p = this.blocks.get(blockKeyBytes(k));
    return p ? unpackMeta(p) : undefined;
  }

  blockByRootHash(hash: Buffer): StoredBlockMeta | undefined {
    const key = this.hashes.get(hash);
    return key ? this.block(blockKeyOf(key)) : undefined;
  }

  blockBoc(k: BlockKey): Buffer | undefined {
    return this.blockData.get(blockKeyBytes(k));
  }

  /** Blocks of one shard (exactly that shard id) by seqno, from `from` up (or down with `reverse`). */
  *shardBlocks(workchain: number, shard: bigint, from: number, reverse = false): Generator<StoredBlockMeta> {
    const lo = blockKeyBytes({ workchain, shard, seqno: reverse ? 0 : from });
    const hi = blockKeyBytes({ workchain, shard, seqno: reverse ? from + 1 : 0xffffffff });
    const range = reverse ? this.blocks.getRange({ start: hi, end: lo, reverse: true }) : this.blocks.getRange({ start: lo, end: hi });
    for (const { value } of range) yield unpackMeta(value);
  }

  /** The first and last seqno of a shard id's blocks. */
  seqnoRange(workchain: number, shard: bigint): [number, number] | undefined {
    let first: number | undefined;
    let last: number | undefined;
    for (const m of this.shardBlocks(workchain, shard, 0)) {
      first = m.seqno;
      break;
    }
    for (const m of this.shardBlocks(workchain, shard, 0xfffffffe, true)) {
      last = m.seqno;
      break;
    }
    return first === undefined || last === undefined ? undefined : [first, last];
  }

  /** Every shard id that has blocks in a workchain. */
  shardsOf(workchain: number): bigint[] {
    const out: bigint[] = [];
    let start = blockKeyBytes({ workchain, shard: 0n, seqno: 0 });
    const end = blockKeyBytes({ workchain: workchain + 1, shard: 0n, seqno: 0 });
    for (;;) {
      let first: Buffer | undefined;
      for (const k of this.blocks.getKeys({ start, end, limit: 1 })) first = k;
      if (!first) return out;
      const k = blockKeyOf(first);
      out.push(k.shard);
      if (k.shard === (1n << 64n) - 1n) return out;
      start = blockKeyBytes({ workchain, shard: k.shard + 1n, seqno: 0 });
    }
  }

  putTransaction(workchain: number, account: Buffer, t: StoredTransaction): void {
    void this.txs.put(txKey(workchain, account, t.lt), { lt: t.lt.toString(), hash: t.hash, boc: t.boc, block: packKey(t.block), mcSeqno: t.mcSeqno });
  }

  private static tx(p: Packed): StoredTransaction {
    return { lt: BigInt(p.lt as string), hash: buf(p.hash), boc: buf(p.boc), block: unpackKey(p.block), mcSeqno: p.mcSeqno as number };
  }

  transaction(workchain: number, account: Buffer, lt: bigint): StoredTransaction | undefined {
    const p = this.txs.get(txKey(workchain, account, lt));
    return p ? ChainStore.tx(p) : undefined;
  }

  /** Up to `count` transactions of an account going back from (and including) lt. */
  transactionsFrom(workchain: number, account: Buffer, lt: bigint, count: number): StoredTransaction[] {
    const out: StoredTransaction[] = [];
    for (const { value } of this.txs.getRange({ start: txKey(workchain, account, lt), end: txKey(workchain, account, 0n), reverse: true, limit: count })) out.push(ChainStore.tx(value));
    // `end` is exclusive: lt 0 is never a transaction's
    return out;
  }

  /** Writes the cells of a tree the store does not have yet (call inside write()). */
  putCells(root: Cell): void {
    const stack = [root];
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (this.stored.has(c)) continue;
      this.stored.add(c);
      const hash = c.hash();
      if (this.cells.doesExist(hash)) continue;
      void this.cells.put(hash, encodeCell(c));
      for (const r of c.refs) stack.push(r);
    }
  }

  /** The tree under `hash`, read whole from the store; cells shared within it are read once. */
  loadCells(hash: Buffer): Cell {
    const seen = new Map<string, Cell>();
    const load = (h: Buffer): Cell => {
      const k = h.toString("hex");
      const known = seen.get(k);
      if (known) return known;
      const raw = this.cells.get(h);
      if (!raw) throw new Error(`cell store: cell ${k} is missing`);
      const refs = raw[0]! & 7;
      const exotic = (raw[0]! & 8) !== 0;
      const bits = raw.readUInt16BE(1);
      const bytes = Math.ceil(bits / 8);
      const children: Cell[] = [];
      for (let i = 0; i < refs; i++) children.push(load(raw.subarray(3 + bytes + 32 * i, 3 + bytes + 32 * (i + 1))));
      const c = new Cell({ exotic, bits: new BitString(Buffer.from(raw.subarray(3, 3 + bytes)), 0, bits), refs: children });
      if (!c.hash().equals(h)) throw new Error(`cell store: cell ${k} reads back with hash ${c.hash().toString("hex")}`);
      this.stored.add(c);
      seen.set(k, c);
      return c;
    };
    return load(hash);
  }

  async close(): Promise<void> {
    await this.env.close();
    if (this.o.temporary) for (const p of [this.o.path, this.o.path + "-lock"]) rmSync(p, { force: true });
    if (this.o.removeDir) rmSync(this.o.removeDir, { recursive: true, force: true });
  }
}
