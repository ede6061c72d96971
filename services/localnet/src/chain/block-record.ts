// A block of the chain as the liteserver sees it: its id and header facts always; its cells, state
// and transactions while it is in the window of recent blocks, or read again from the store when
// asked (a block that left the window costs nothing in memory unless something reads it).
import { Cell } from "@ton/core";
import { parseBlock, type Block } from "@tongate/block";
import type { TxRecord } from "./account-history.js";
import type { BlockKey, StoredBlockMeta } from "./store.js";

export interface BlockIdExt {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

/** Where a record reads what it does not hold. */
export interface RecordSource {
  blockBoc(r: BlockRecord): Buffer;
  /** The state after the block: from the store (archival) or a "state already gc'd" error. */
  stateOf(r: BlockRecord): Cell;
  transactionsOf(r: BlockRecord): TxRecord[];
}

export interface HotParts {
  root: Cell;
  state: Cell;
  /** Omitted: read from the block when asked. */
  transactions?: TxRecord[];
}

export class BlockRecord {
  readonly id: BlockIdExt;
  private _root: Cell | undefined;
  private _state: Cell | undefined;
  private _txs: TxRecord[] | undefined;
  private _block: Block | undefined;

  constructor(
    readonly meta: StoredBlockMeta,
    private readonly source: RecordSource,
    hot?: HotParts,
  ) {
    this.id = { workchain: meta.workchain, shard: meta.shard, seqno: meta.seqno, rootHash: meta.rootHash, fileHash: meta.fileHash };
    this._root = hot?.root;
    this._state = hot?.state;
    this._txs = hot?.transactions;
  }

  get key(): BlockKey {
    return { workchain: this.meta.workchain, shard: this.meta.shard, seqno: this.meta.seqno };
  }
  get startLt(): bigint {
    return this.meta.startLt;
  }
  get endLt(): bigint {
    return this.meta.endLt;
  }
  get genUtime(): number {
    return this.meta.genUtime;
  }
  /** Masterchain blocks: their seqno; shard blocks: the masterchain block that committed them. */
  get mcSeqno(): number {
    return this.meta.mcSeqno;
  }
  get keyBlock(): boolean {
    return this.meta.keyBlock;
  }
  get balanceAfter(): bigint {
    return this.meta.balanceAfter;
  }
  /** Masterchain blocks: the validator signatures (node id short, ed25519 signature). */
  get signatures(): { nodeIdShort: Buffer; signature: Buffer }[] {
    return this.meta.signatures;
  }

  /** The block's BoC (read from the store). */
  get boc(): Buffer {
    return this.source.blockBoc(this);
  }

  get root(): Cell {
    return (this._root ??= Cell.fromBoc(this.boc)[0]!);
  }

  /** The parsed block (parsed on first use). */
  get block(): Block {
    return (this._block ??= parseBlock(this.root));
  }

  /** The ShardStateUnsplit after this block. */
  get stateRoot(): Cell {
    return this._state ?? this.source.stateOf(this);
  }

  get transactions(): TxRecord[] {
    return (this._txs ??= this.source.transactionsOf(this));
  }

  /** The block leaves the window: what the store can give again is let go. */
  release(): void {
    this._state = undefined;
    this._block = undefined;
    this._txs = undefined;
  }
}
