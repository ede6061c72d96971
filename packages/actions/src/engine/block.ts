// Blocks: the classifier's working graph (toncenter's Block). Every event node starts as a basic
// block (ton_transfer, call_contract, tick_tock) linked to the blocks its messages started
// (`next`); matchers merge a group of connected blocks into one composite block that keeps them as
// `children` and takes their place in the graph. The blocks left at the top become the actions.
import type { ActionRow } from "../action.js";
import type { EventNode } from "./node.js";
import { ValueFlow } from "./value-flow.js";

function directionRank(b: Block): number {
  if (b.nodes.length === 1) return b.nodes[0].direction === "out" ? 1 : 0;
  return 2;
}

/** The earliest block of a group whose other blocks all hang below it (null when they do not). */
function earliestCommonBlock(blocks: Block[]): Block | null {
  const sorted = [...blocks].sort((a, b) => {
    if (a.minLtWithoutInitiatingTx !== b.minLtWithoutInitiatingTx) return a.minLtWithoutInitiatingTx < b.minLtWithoutInitiatingTx ? -1 : 1;
    return directionRank(a) - directionRank(b);
  });
  const earliest = sorted[0];
  const connected = new Set<Block>([earliest]);
  for (const b of sorted) {
    if (connected.has(b)) continue;
    if (b.previous !== null) {
      if (connected.has(b.previous)) connected.add(b);
      else return null;
    }
  }
  return earliest;
}

export class Block {
  nodes: EventNode[];
  children: Block[] = [];
  next: Block[] = [];
  previous: Block | null = null;
  /** the composite block this one was merged into */
  parent: Block | null = null;
  /** the matched pattern failed (the action's `success` is its negation) */
  failed = false;
  /** the pattern matched but the facts disagree with the messages (classification_state "broken") */
  broken = false;
  /** labels and wrappers: never merged themselves */
  transient = false;
  /** stands for messages a failed external intended to send */
  ghost = false;
  /** the node whose transaction sent this block's first message */
  initiating: EventNode | null = null;
  private flow: ValueFlow | null = null;
  private deployed: Set<string> | null = null;
  minLt = 0n;
  maxLt = 0n;
  minUtime = 0;
  maxUtime = 0;
  minLtWithoutInitiatingTx = 0n;

  constructor(
    /** toncenter's internal kind: the action id is derived from it; the public type may differ */
    public btype: string,
    nodes: EventNode[],
  ) {
    this.nodes = nodes;
    if (nodes.length === 1 && nodes[0].ghost) this.ghost = true;
    if (nodes.length > 0) {
      const n = nodes[0];
      this.minLt = n.lt;
      this.maxLt = n.tx.lt;
      this.minUtime = n.utime;
      this.maxUtime = n.tx.now;
      this.minLtWithoutInitiatingTx = n.tx.lt;
      this.findDeployments();
    }
    if (nodes.length === 1) this.initiating = nodes[0].parent;
  }

  /** How much TON, fees and jettons each account gained or lost in this block. */
  get valueFlow(): ValueFlow {
    return (this.flow ??= new ValueFlow());
  }

  /** Accounts this block brought to life. */
  get deployments(): Set<string> {
    return (this.deployed ??= new Set());
  }

  /** Writes this block's fields into its action row (the base fields are already set). */
  fill(row: ActionRow): void {
    void row;
  }

  /** Extra accounts the action lists besides its transactions and source/destination columns. */
  extraAccounts(): string[] {
    return [];
  }

  calculateMinMaxLt(): void {
    let first = true;
    for (const n of this.nodes) {
      const lt = n.lt;
      const ut = n.utime;
      if (first || lt < this.minLt) this.minLt = lt;
      if (first || ut < this.minUtime) this.minUtime = ut;
      if (first || n.tx.lt > this.maxLt) this.maxLt = n.tx.lt;
      if (first || n.tx.now > this.maxUtime) this.maxUtime = n.tx.now;
      first = false;
    }
    this.minLtWithoutInitiatingTx = this.minLt;
  }

  connect(other: Block): void {
    this.next.push(other);
    other.previous = this;
  }

  /**
   * Makes this block the composite of `blocks`: they become its children, it takes their place
   * between the block before the earliest of them and the blocks after the group.
   */
  mergeBlocks(blocks: readonly Block[]): void {
    const toMerge = [...new Set(blocks)].filter((b) => !b.transient);
    if (toMerge.length === 0) throw new Error(`${this.btype}: nothing to merge`);
    const earliest = earliestCommonBlock(toMerge);
    if (earliest === null) throw new Error(`${this.btype}: the blocks have no earliest common block`);
    const inGroup = new Set(toMerge);
    for (const b of toMerge) {
      b.parent = this;
      for (const n of b.nodes) this.nodes.push(n);
      this.children.push(b);
      if (b.flow !== null) this.valueFlow.merge(b.flow);
    }
    // the blocks right after the group
    const queue = [...earliest.next];
    for (let i = 0; i < queue.length; i++) {
      const b = queue[i];
      if (inGroup.has(b)) {
        for (const n of b.next) queue.push(n);
        continue;
      }
      this.next.push(b);
      if (b.deployed !== null) for (const d of b.deployed) this.deployments.add(d);
      b.previous = this;
    }
    this.previous = earliest.previous;
    if (earliest.previous !== null) earliest.previous.compactConnections();
    this.initiating = earliest.initiating;
    this.calculateMinMaxLt();
    if (this.nodes.some((n) => n.ghost)) this.ghost = true;
  }

  /** Blocks after this one, breadth first, that pass `filter` (all of them without). */
  findNext(filter?: (b: Block, depth: number) => boolean, maxDepth = -1): Block[] {
    const out: Block[] = [];
    const queue: [Block, number][] = this.next.map((c) => [c, 0]);
    for (let i = 0; i < queue.length; i++) {
      const [b, depth] = queue[i];
      if (!filter || filter(b, depth)) out.push(b);
      if (maxDepth < 0 || depth + 1 <= maxDepth) for (const c of b.next) queue.push([c, depth + 1]);
    }
    return out;
  }

  /** The chain of previous blocks while they pass `predicate`, nearest first. */
  *iterPrev(predicate: (b: Block) => boolean): Iterable<Block> {
    let r = this.previous;
    while (r !== null && predicate(r)) {
      yield r;
      r = r.previous;
    }
  }

  /** Puts `block` between this block and some of its next blocks. */
  insertBetween(nextBlocks: readonly Block[], block: Block): void {
    const moved = new Set(nextBlocks);
    for (const child of this.children) {
      for (const nb of nextBlocks) {
        const i = child.next.indexOf(nb);
        if (i >= 0) {
          child.next.splice(i, 1);
          child.next.push(block);
        }
      }
    }
    this.next = this.next.filter((n) => !moved.has(n));
    for (const nb of nextBlocks) for (const c of nb.children) if (c.previous === nb) c.previous = block;
    this.connect(block);
    for (const nb of nextBlocks) block.connect(nb);
  }

  topmostParent(): Block {
    return this.parent === null ? this : this.parent.topmostParent();
  }

  /** After a merge below: point at the composite blocks instead of the merged ones. */
  compactConnections(): void {
    const children = new Set(this.children);
    const out = new Set<Block>();
    for (const n of this.next) if (!children.has(n) && n !== this) out.add(n.topmostParent());
    this.next = [...out];
  }

  /** This block and everything after it, breadth first; a block is visited before its next blocks are queued. */
  bfs(visit: (b: Block) => void, includeSelf = true): void {
    const queue: Block[] = includeSelf ? [this] : [...this.next];
    for (let i = 0; i < queue.length; i++) {
      const b = queue[i];
      visit(b);
      for (const n of b.next) queue.push(n);
    }
  }

  bfsList(includeSelf = true): Block[] {
    const out: Block[] = [];
    this.bfs((b) => out.push(b), includeSelf);
    return out;
  }

  /** The block's first message (the one matchers test). */
  get node(): EventNode {
    return this.nodes[0];
  }

  private findDeployments(): void {
    for (const n of this.nodes) if (n.tx.origStatus !== "active" && n.tx.endStatus === "active") this.deployments.add(n.tx.account);
  }
}

/** A wrapper with no nodes of its own (toncenter's EmptyBlock). */
export class EmptyBlock extends Block {
  constructor() {
    super("empty", []);
  }
}
