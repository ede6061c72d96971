// The chain on disk, in a directory of append-only logs and fixed-size indexes:
//
//   cells.log          the cells of every state, each once (as a TON node's celldb: consecutive
//                      states share every unchanged sub-tree, so a block costs only its new cells);
//                      a cell's number is its offset, and it names its children by number
//   blocks.log         each block's header facts (JSON) and BoC
//   blocks/WC_SHARD.idx   per shard id, by seqno: where the block is in blocks.log
//   txs.log            transaction BoCs
//   txs/WC_ACCOUNT.idx    per account, by lt: where its transactions are in txs.log, and their blocks
//   head.json          what is committed: the logs' lengths and the chain's head
//
// A seal appends to the logs and indexes, then replaces head.json (write + rename, atomic). On
// open the logs are cut back to the lengths head.json names and index entries beyond them are
// ignored, so a crash (kill -9) loses at most the seal in progress and never leaves a directory
// that does not open. Nothing is memory-mapped and nothing grows in memory with the chain's age:
// reads are positioned reads (pread) through a small cache of file chunks.
//
// Why not an embedded database: LMDB (measured here) maps its file, and every page it ever
// touched stays in the process's resident set (~10 KiB per sealed block); a RocksDB/LevelDB
// binding needs a native build. The chain is append-only, so logs and fixed-size indexes do
// everything it needs with plain files.
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { BitReader, BitString, Cell, CellType, Slice } from "@ton/core";
import { LruMap } from "@tongate/runtime";

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
  /** Root hash of the ShardStateUnsplit after the block. */
  stateHash: Buffer;
  /** Its root's number in the cell store (set when the block is stored). */
  stateRef: number;
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
  /**
   * The header proof's BoC (proveBlockHeader: BlockInfo and the state_update), cut when the block was
   * built: answering with it later does not parse the whole block. Absent in older stores.
   */
  headerProof?: Buffer;
}

export interface StoredTransaction {
  lt: bigint;
  hash: Buffer;
  /** The Transaction cell's BoC. */
  boc: Buffer;
  block: BlockKey;
  mcSeqno: number;
}

/** head.json: the committed lengths of the logs, and what the chain keeps about its head. */
interface HeadFile {
  version: 1;
  lengths: { cells: number; blocks: number; txs: number };
  meta: Record<string, unknown>;
}

const MAGIC = Buffer.from("TONGATE1");
const BLOCK_ENTRY = 16; // u48 offset, u32 length, 6 bytes spare
const TX_ENTRY = 66; // u64 lt, u48 offset, u32 length, u32 mc seqno, u64 shard, u32 seqno, hash
const CHUNK = 64 * 1024;
/** Recently written cells by hash: a cell equal to one of them (a contract's code, re-parsed from each new account state) is not written again. */
const RECENT_CELLS = 8192;
const MAX_CELL_RECORD = 1 + 2 + 2 + 32 + 128 + 4 * 6;

// JSON of a block's facts: buffers hex, bigints decimal.
function packMeta(m: StoredBlockMeta): string {
  const key = (k: BlockKey) => [k.workchain, k.shard.toString(), k.seqno];
  return JSON.stringify({
    ...m,
    shard: m.shard.toString(),
    rootHash: m.rootHash.toString("hex"),
    fileHash: m.fileHash.toString("hex"),
    stateHash: m.stateHash.toString("hex"),
    startLt: m.startLt.toString(),
    endLt: m.endLt.toString(),
    balanceAfter: m.balanceAfter.toString(),
    prev: m.prev.map(key),
    shards: m.shards.map(key),
    signatures: m.signatures.map((s) => [s.nodeIdShort.toString("hex"), s.signature.toString("hex")]),
    headerProof: m.headerProof?.toString("hex"),
  });
}

function unpackMeta(text: string): StoredBlockMeta {
  const p = JSON.parse(text) as Record<string, unknown>;
  const key = (v: unknown): BlockKey => {
    const [workchain, shard, seqno] = v as [number, string, number];
    return { workchain, shard: BigInt(shard), seqno };
  };
  const hex = (v: unknown) => Buffer.from(v as string, "hex");
  return {
    workchain: p.workchain as number,
    shard: BigInt(p.shard as string),
    seqno: p.seqno as number,
    rootHash: hex(p.rootHash),
    fileHash: hex(p.fileHash),
    startLt: BigInt(p.startLt as string),
    endLt: BigInt(p.endLt as string),
    genUtime: p.genUtime as number,
    mcSeqno: p.mcSeqno as number,
    keyBlock: p.keyBlock as boolean,
    stateHash: hex(p.stateHash),
    stateRef: p.stateRef as number,
    balanceAfter: BigInt(p.balanceAfter as string),
    prev: (p.prev as unknown[]).map(key),
    beforeSplit: p.beforeSplit as boolean,
    afterSplit: p.afterSplit as boolean,
    afterMerge: p.afterMerge as boolean,
    signatures: (p.signatures as [string, string][]).map(([n, s]) => ({ nodeIdShort: hex(n), signature: hex(s) })),
    shards: (p.shards as unknown[]).map(key),
    ...(typeof p.headerProof === "string" ? { headerProof: hex(p.headerProof) } : {}),
  };
}

/** An append-only log: bytes appended in a batch become visible to reads at once, durable on commit. */
class Log {
  readonly fd: number;
  /** Bytes in the file (committed and appended since). */
  length: number;
  private readonly chunks = new LruMap<number, Buffer>(32);

  constructor(path: string, committed: number | undefined) {
    const fresh = !existsSync(path);
    this.fd = openSync(path, fresh ? "w+" : "r+");
    if (fresh) writeSync(this.fd, MAGIC, 0, MAGIC.length, 0);
    const size = fstatSync(this.fd).size;
    this.length = committed ?? MAGIC.length;
    // what a crash left beyond the last commit
    if (size > this.length) ftruncateSync(this.fd, this.length);
    if (size < this.length) throw new Error(`${path} is shorter (${size} bytes) than its last commit (${this.length}): the directory is damaged`);
  }

  append(data: Buffer): number {
    const at = this.length;
    writeSync(this.fd, data, 0, data.length, at);
    this.length += data.length;
    return at;
  }

  /** Drops what was appended after `length` (a batch that failed). */
  truncate(length: number): void {
    ftruncateSync(this.fd, length);
    this.length = length;
    this.chunks.clear();
  }

  /** `length` bytes at `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Buffer {
    const index = Math.floor(offset / CHUNK);
    const within = offset - index * CHUNK;
    if (within + length <= CHUNK) {
      let chunk = this.chunks.get(index);
      if (!chunk) {
        const b = Buffer.alloc(CHUNK);
        const n = readSync(this.fd, b, 0, CHUNK, index * CHUNK);
        if (n === CHUNK) this.chunks.set(index, (chunk = b)); // only whole chunks: a partial one grows
        else return b.subarray(within, Math.min(within + length, n));
      }
      return chunk.subarray(within, within + length);
    }
    const b = Buffer.alloc(length);
    const n = readSync(this.fd, b, 0, length, offset);
    return b.subarray(0, n);
  }

  close(): void {
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}

/** Files opened on demand and kept open while used (indexes: one per shard id, one per account), at most 64. */
class FilePool {
  private readonly open = new Map<string, number>();

  fd(path: string, create: boolean): number | undefined {
    const fd = this.open.get(path);
    if (fd !== undefined) {
      this.open.delete(path); // most recently used last
      this.open.set(path, fd);
      return fd;
    }
    if (!existsSync(path)) {
      if (!create) return undefined;
      writeFileSync(path, "");
    }
    if (this.open.size >= 64) {
      const [oldest, oldFd] = this.open.entries().next().value as [string, number];
      closeSync(oldFd);
      this.open.delete(oldest);
    }
    const opened = openSync(path, "r+");
    this.open.set(path, opened);
    return opened;
  }

  closeAll(): void {
    for (const fd of this.open.values()) closeSync(fd);
    this.open.clear();
  }
}

export interface ChainStoreOptions {
  /** The directory of the chain's files. */
  dir: string;
  /** Remove the directory on close (a chain that is not kept). */
  temporary?: boolean;
}

export class ChainStore {
  private readonly cells: Log;
  private readonly blocks: Log;
  private readonly txs: Log;
  private readonly files = new FilePool();
  private head: HeadFile;
  /** Numbers of cells in the store, by cell object (written or read here) and by hash (recent). */
  private readonly numbers = new WeakMap<Cell, number>();
  /** Cells written by the batch under way: forgotten again if it fails. */
  private written: Cell[] = [];
  private readonly recent = new LruMap<string, number>(RECENT_CELLS);
  /** Account indexes whose tail was checked against the last commit in this process. */
  private readonly checkedTx = new Set<string>();
  private pendingMeta: Record<string, unknown> | undefined;
  /** Each shard id's seqno range by index file, and the index files (what lookups by seqno, lt and time walk). */
  private readonly ranges = new Map<string, [number, number] | undefined>();
  private indexFiles: Set<string> | undefined;

  /** A store in a new temporary directory, removed on close (a chain that is not kept). */
  static temporary(): ChainStore {
    return new ChainStore({ dir: mkdtempSync(join(tmpdir(), "tongate-chain-")), temporary: true });
  }

  constructor(private readonly o: ChainStoreOptions) {
    mkdirSync(join(o.dir, "blocks"), { recursive: true });
    mkdirSync(join(o.dir, "txs"), { recursive: true });
    const headPath = join(o.dir, "head.json");
    this.head = existsSync(headPath) ? (JSON.parse(readFileSync(headPath, "utf8")) as HeadFile) : { version: 1, lengths: { cells: MAGIC.length, blocks: MAGIC.length, txs: MAGIC.length }, meta: {} };
    this.cells = new Log(join(o.dir, "cells.log"), this.head.lengths.cells);
    this.blocks = new Log(join(o.dir, "blocks.log"), this.head.lengths.blocks);
    this.txs = new Log(join(o.dir, "txs.log"), this.head.lengths.txs);
  }

  /**
   * Runs `write` (appends to the logs and indexes), then commits: head.json names the new lengths
   * and meta, written to a temporary file and renamed over the old one.
   */
  async write(write: () => void): Promise<void> {
    this.pendingMeta = { ...this.head.meta };
    this.written = [];
    try {
      try {
        write();
      } catch (e) {
        for (const c of this.written) {
          this.numbers.delete(c);
          this.recent.delete(c.hash().toString("base64"));
        }
        // nothing of a failed seal may count: back to the last commit (index entries beyond it are
        // ignored, and an account index's tail is checked again before it is read or appended to)
        this.cells.truncate(this.head.lengths.cells);
        this.blocks.truncate(this.head.lengths.blocks);
        this.txs.truncate(this.head.lengths.txs);
        this.checkedTx.clear();
        this.ranges.clear();
        this.indexFiles = undefined;
        throw e;
      }
      const head: HeadFile = { version: 1, lengths: { cells: this.cells.length, blocks: this.blocks.length, txs: this.txs.length }, meta: this.pendingMeta };
      const path = join(this.o.dir, "head.json");
      writeFileSync(path + ".tmp", JSON.stringify(head));
      renameSync(path + ".tmp", path);
      this.head = head;
    } finally {
      this.pendingMeta = undefined;
      this.written = [];
    }
  }

  getMeta<T>(key: string): T | undefined {
    return this.head.meta[key] as T | undefined;
  }

  /** Sets a meta entry in the commit under way (call inside write()). */
  putMeta(key: string, value: unknown): void {
    if (!this.pendingMeta) throw new Error("putMeta outside write()");
    this.pendingMeta[key] = value;
  }

  // ---------------------------------------------------------------------------------------------
  // Blocks

  private blockIndex(workchain: number, shard: bigint): string {
    return join(this.o.dir, "blocks", `${workchain}_${BigInt.asUintN(64, shard).toString(16).padStart(16, "0")}.idx`);
  }

  putBlock(m: StoredBlockMeta, boc: Buffer): void {
    const meta = Buffer.from(packMeta(m));
    const rec = Buffer.alloc(4 + meta.length + boc.length);
    rec.writeUInt32BE(meta.length, 0);
    meta.copy(rec, 4);
    boc.copy(rec, 4 + meta.length);
    const at = this.blocks.append(rec);
    const entry = Buffer.alloc(BLOCK_ENTRY);
    entry.writeUIntBE(at, 0, 6);
    entry.writeUInt32BE(rec.length, 6);
    const path = this.blockIndex(m.workchain, m.shard);
    writeSync(this.files.fd(path, true)!, entry, 0, BLOCK_ENTRY, m.seqno * BLOCK_ENTRY);
    this.indexFiles?.add(basename(path));
    if (this.ranges.has(path)) {
      const r = this.ranges.get(path);
      this.ranges.set(path, r ? [Math.min(r[0], m.seqno), Math.max(r[1], m.seqno)] : [m.seqno, m.seqno]);
    }
  }

  /** Where a block is in blocks.log, if it was committed. */
  private blockEntry(k: BlockKey): { at: number; length: number } | undefined {
    const fd = this.files.fd(this.blockIndex(k.workchain, k.shard), false);
    if (fd === undefined || k.seqno < 0) return undefined;
    const e = Buffer.alloc(BLOCK_ENTRY);
    if (readSync(fd, e, 0, BLOCK_ENTRY, k.seqno * BLOCK_ENTRY) < BLOCK_ENTRY) return undefined;
    const at = e.readUIntBE(0, 6);
    const length = e.readUInt32BE(6);
    if (at === 0 || at + length > this.blocks.length) return undefined;
    return { at, length };
  }

  private blockRecord(k: BlockKey): { meta: Buffer; boc: Buffer } | undefined {
    const e = this.blockEntry(k);
    if (!e) return undefined;
    const rec = this.blocks.read(e.at, e.length);
    const metaLength = rec.readUInt32BE(0);
    return { meta: rec.subarray(4, 4 + metaLength), boc: rec.subarray(4 + metaLength) };
  }

  block(k: BlockKey): StoredBlockMeta | undefined {
    const r = this.blockRecord(k);
    if (!r) return undefined;
    const m = unpackMeta(r.meta.toString());
    return m.workchain === k.workchain && m.shard === BigInt.asUintN(64, k.shard) && m.seqno === k.seqno ? m : undefined;
  }

  blockBoc(k: BlockKey): Buffer | undefined {
    const r = this.blockRecord(k);
    return r ? Buffer.from(r.boc) : undefined;
  }

  /** The first and last seqno of a shard id's blocks (scanned from its index once, then kept up to date by putBlock). */
  seqnoRange(workchain: number, shard: bigint): [number, number] | undefined {
    const path = this.blockIndex(workchain, shard);
    if (this.ranges.has(path)) return this.ranges.get(path);
    const range = this.scanRange(workchain, shard);
    this.ranges.set(path, range);
    return range;
  }

  private scanRange(workchain: number, shard: bigint): [number, number] | undefined {
    const fd = this.files.fd(this.blockIndex(workchain, shard), false);
    if (fd === undefined) return undefined;
    const size = fstatSync(fd).size;
    let first: number | undefined;
    let last: number | undefined;
    for (let s = 0; s * BLOCK_ENTRY < size && first === undefined; s++) if (this.blockEntry({ workchain, shard, seqno: s })) first = s;
    for (let s = Math.floor(size / BLOCK_ENTRY) - 1; s >= 0 && last === undefined; s--) if (this.blockEntry({ workchain, shard, seqno: s })) last = s;
    return first === undefined || last === undefined ? undefined : [first, last];
  }

  /** Every shard id that has blocks in a workchain (the index files, listed once, then kept up to date by putBlock). */
  shardsOf(workchain: number): bigint[] {
    this.indexFiles ??= new Set(readdirSync(join(this.o.dir, "blocks")));
    return [...this.indexFiles]
      .map((f) => /^(-?\d+)_([0-9a-f]{16})\.idx$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) === workchain)
      .map((m) => BigInt("0x" + m[2]))
      .filter((s) => this.seqnoRange(workchain, s) !== undefined)
      .sort((a, b) => (a < b ? -1 : 1));
  }

  // ---------------------------------------------------------------------------------------------
  // Transactions

  private txIndex(workchain: number, account: Buffer): string {
    return join(this.o.dir, "txs", `${workchain}_${account.toString("hex")}.idx`);
  }

  /** An account index's entries that belong to the last commit (a crash may have left more). */
  private txEntries(path: string, fd: number): number {
    const size = fstatSync(fd).size;
    let n = Math.floor(size / TX_ENTRY);
    const e = Buffer.alloc(TX_ENTRY);
    while (n > 0) {
      readSync(fd, e, 0, TX_ENTRY, (n - 1) * TX_ENTRY);
      if (e.readUIntBE(8, 6) + e.readUInt32BE(14) <= this.txs.length) break;
      n--;
    }
    if (!this.checkedTx.has(path) && n * TX_ENTRY < size) ftruncateSync(fd, n * TX_ENTRY);
    this.checkedTx.add(path);
    return n;
  }

  putTransaction(workchain: number, account: Buffer, t: StoredTransaction): void {
    const at = this.txs.append(t.boc);
    const path = this.txIndex(workchain, account);
    const fd = this.files.fd(path, true)!;
    const n = this.txEntries(path, fd);
    const e = Buffer.alloc(TX_ENTRY);
    e.writeBigUInt64BE(BigInt.asUintN(64, t.lt), 0);
    e.writeUIntBE(at, 8, 6);
    e.writeUInt32BE(t.boc.length, 14);
    e.writeUInt32BE(t.mcSeqno, 18);
    e.writeBigUInt64BE(BigInt.asUintN(64, t.block.shard), 22);
    e.writeUInt32BE(t.block.seqno, 30);
    t.hash.copy(e, 34);
    writeSync(fd, e, 0, TX_ENTRY, n * TX_ENTRY);
  }

  private txAt(fd: number, i: number, workchain: number): StoredTransaction {
    const e = Buffer.alloc(TX_ENTRY);
    readSync(fd, e, 0, TX_ENTRY, i * TX_ENTRY);
    const at = e.readUIntBE(8, 6);
    return {
      lt: e.readBigUInt64BE(0),
      boc: Buffer.from(this.txs.read(at, e.readUInt32BE(14))),
      mcSeqno: e.readUInt32BE(18),
      block: { workchain, shard: e.readBigUInt64BE(22), seqno: e.readUInt32BE(30) },
      hash: Buffer.from(e.subarray(34, 66)),
    };
  }

  private ltAt(fd: number, i: number): bigint {
    const b = Buffer.alloc(8);
    readSync(fd, b, 0, 8, i * TX_ENTRY);
    return b.readBigUInt64BE(0);
  }

  /** The index of the last entry with lt ≤ `lt` (-1: none). */
  private lastAtOrBefore(fd: number, n: number, lt: bigint): number {
    let lo = 0;
    let hi = n - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.ltAt(fd, mid) <= lt) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  transaction(workchain: number, account: Buffer, lt: bigint): StoredTransaction | undefined {
    const path = this.txIndex(workchain, account);
    const fd = this.files.fd(path, false);
    if (fd === undefined) return undefined;
    const i = this.lastAtOrBefore(fd, this.txEntries(path, fd), BigInt.asUintN(64, lt));
    if (i < 0 || this.ltAt(fd, i) !== BigInt.asUintN(64, lt)) return undefined;
    return this.txAt(fd, i, workchain);
  }

  /** Up to `count` transactions of an account going back from (and including) lt. */
  transactionsFrom(workchain: number, account: Buffer, lt: bigint, count: number): StoredTransaction[] {
    const path = this.txIndex(workchain, account);
    const fd = this.files.fd(path, false);
    if (fd === undefined) return [];
    const out: StoredTransaction[] = [];
    for (let i = this.lastAtOrBefore(fd, this.txEntries(path, fd), BigInt.asUintN(64, lt)); i >= 0 && out.length < count; i--) out.push(this.txAt(fd, i, workchain));
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Cells

  /**
   * Writes the cells of a tree the store does not have yet (call inside write()); returns the root's
   * number. A record: [refs | exotic << 3][bits: u16][depth: u16][hash][data][ref numbers, 6 bytes each].
   */
  putCells(root: Cell): number {
    const known = (c: Cell): number | undefined => {
      const n = this.numbers.get(c) ?? this.recent.get(c.hash().toString("base64"));
      if (n !== undefined) this.numbers.set(c, n);
      return n;
    };
    // children before parents, each cell once
    const stack: { cell: Cell; entered: boolean }[] = [{ cell: root, entered: false }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (known(top.cell) !== undefined) {
        stack.pop();
        continue;
      }
      if (!top.entered) {
        top.entered = true;
        for (const r of top.cell.refs) if (known(r) === undefined) stack.push({ cell: r, entered: false });
        continue;
      }
      stack.pop();
      const c = top.cell;
      const bits = c.bits.length;
      const bytes = Math.ceil(bits / 8);
      const rec = Buffer.alloc(37 + bytes + 6 * c.refs.length);
      rec[0] = c.refs.length | (c.isExotic ? 8 : 0);
      rec.writeUInt16BE(bits, 1);
      rec.writeUInt16BE(c.depth(), 3);
      c.hash().copy(rec, 5);
      const whole = bits - (bits % 8);
      if (whole > 0) c.bits.subbuffer(0, whole)!.copy(rec, 37);
      if (bits % 8) {
        let last = 0; // the last, partial byte, bit by bit
        for (let i = whole; i < bits; i++) last |= (c.bits.at(i) ? 1 : 0) << (7 - (i % 8));
        rec[37 + bytes - 1] = last;
      }
      c.refs.forEach((r, i) => rec.writeUIntBE(known(r)!, 37 + bytes + 6 * i, 6));
      const n = this.cells.append(rec);
      this.written.push(c);
      this.numbers.set(c, n);
      this.recent.set(c.hash().toString("base64"), n);
    }
    return known(root)!;
  }

  /**
   * The cell number `n` as a cell whose children are read from the store when asked for (each
   * time: nothing read stays in memory unless the caller keeps it). Its hash, depth and bits are
   * the stored cell's, so it stands for the whole sub-tree wherever a cell does (states built on
   * it, proofs cut from it, BoCs serialized from it).
   */
  cell(n: number): Cell {
    const raw = this.cells.read(n, MAX_CELL_RECORD);
    const refCount = raw[0]! & 7;
    const exotic = (raw[0]! & 8) !== 0;
    const bits = raw.readUInt16BE(1);
    const depth = raw.readUInt16BE(3);
    const hash = Buffer.from(raw.subarray(5, 37));
    const bytes = Math.ceil(bits / 8);
    const data = new BitString(Buffer.from(raw.subarray(37, 37 + bytes)), 0, bits);
    const refs: number[] = [];
    for (let i = 0; i < refCount; i++) refs.push(raw.readUIntBE(37 + bytes + 6 * i, 6));
    let c: Cell;
    if (exotic) {
      // exotic cells (library references in contract code) are built for real: they are small
      c = new Cell({ exotic: true, bits: data, refs: refs.map((r) => this.cell(r)) });
    } else {
      c = lazyCell(data, hash, depth, () => refs.map((r) => this.cell(r)));
    }
    this.numbers.set(c, n);
    return c;
  }

  /** The number of a cell in the store, if this process wrote or read it. */
  numberOf(c: Cell): number | undefined {
    return this.numbers.get(c);
  }

  /** The tree under cell `ref` (read as needed), checked against `hash`. */
  loadCells(ref: number, hash: Buffer): Cell {
    const root = this.cell(ref);
    if (!root.hash().equals(hash)) throw new Error(`cell store: cell ${ref} has hash ${root.hash().toString("hex")}, not ${hash.toString("hex")}: the store is damaged`);
    return root;
  }

  async close(): Promise<void> {
    for (const l of [this.cells, this.blocks, this.txs]) l.close();
    this.files.closeAll();
    if (this.o.temporary) rmSync(this.o.dir, { recursive: true, force: true });
  }
}

/** The level mask of an ordinary level-0 cell, shared by every lazy cell. */
const LEVEL0_MASK = new Cell().mask;

/**
 * An ordinary cell whose hash and depth are known and whose children are made when asked for.
 * @ton/core computes a cell's hashes from its children in the constructor (and freezes it), so a
 * cell that must not hold its children is assembled on Cell's prototype with the fields its
 * constructor would set; `refs` is a getter. Hash, depth and bits come from the store, which wrote
 * them from a real cell.
 */
function lazyCell(bits: BitString, hash: Buffer, depth: number, children: () => Cell[]): Cell {
  const c: Cell = Object.create(Cell.prototype);
  Object.defineProperties(c, {
    type: { value: CellType.Ordinary, enumerable: true },
    bits: { value: bits, enumerable: true },
    refs: { get: () => Object.freeze(children()), enumerable: true },
    mask: { value: LEVEL0_MASK, enumerable: true },
    _hashes: { value: Object.freeze([hash]) },
    _depths: { value: Object.freeze([depth]) },
    hash: { value: () => hash },
    depth: { value: () => depth },
    level: { value: () => 0 },
    equals: { value: (other: Cell) => hash.equals(other.hash()) },
    beginParse: {
      value: (allowExotic = false) => {
        void allowExotic;
        return new Slice(new BitReader(bits), c.refs);
      },
    },
  });
  Object.freeze(c);
  return c;
}
