// Matchers (toncenter's BlockMatcher family): a matcher tests a block, optionally matches blocks
// after it (child matchers) or before it (a parent matcher), and builds a composite block from
// what matched. A matcher that does not match returns null and leaves the graph as it was; a
// build that throws (a body that does not parse, a fact that is missing) counts as no match.
import { Block } from "./block.js";
import { CallContractBlock } from "./basic.js";
import type { MatchContext } from "./context.js";

const EXCESS = 0xd53276db;
const BOUNCE = 0xffffffff;

export interface MatcherOptions {
  child?: BlockMatcher | null;
  parent?: BlockMatcher | null;
  optional?: boolean;
  /** matched in order, each against a different next block */
  children?: BlockMatcher[] | null;
  /** excesses (0xd53276db) after the block are taken in */
  includeExcess?: boolean;
  /** bounces (0xffffffff) after the block are taken in */
  includeBounces?: boolean;
  /** take the excesses/bounces in before building (so the build sees them) rather than after */
  preBuildAutoAppend?: boolean;
}

export class BlockMatcher {
  child: BlockMatcher | null;
  parent: BlockMatcher | null;
  optional: boolean;
  children: BlockMatcher[] | null;
  includeExcess: boolean;
  includeBounces: boolean;
  preBuildAutoAppend: boolean;

  constructor(o: MatcherOptions = {}) {
    this.child = o.child ?? null;
    this.parent = o.parent ?? null;
    this.optional = o.optional ?? false;
    this.children = o.children ?? null;
    this.includeExcess = o.includeExcess ?? true;
    this.includeBounces = o.includeBounces ?? true;
    this.preBuildAutoAppend = o.preBuildAutoAppend ?? false;
  }

  testSelf(block: Block): boolean {
    void block;
    return true;
  }

  /** The blocks the pattern is made of (the built composite first), or null when it does not match. */
  tryBuild(block: Block, ctx: MatchContext): Block[] | null {
    if (!this.testSelf(block)) return null;
    const blocks: Block[] = [];
    const childMatched = this.processChildMatcher(block, blocks, true, ctx);
    const parentMatched = this.processParentMatcher(block, blocks, true, ctx);
    if (!childMatched || !parentMatched) return null;
    try {
      const autoOps: number[] = [];
      if (this.includeExcess) autoOps.push(EXCESS);
      if (this.includeBounces) autoOps.push(BOUNCE);
      if (autoOps.length > 0 && this.preBuildAutoAppend) {
        for (const n of block.next) if (n instanceof CallContractBlock && n.opcode !== null && autoOps.includes(n.opcode)) blocks.push(n);
      }
      const r = this.buildBlock(block, blocks, ctx);
      if (autoOps.length > 0 && !this.preBuildAutoAppend) {
        for (const n of block.next) if (n instanceof CallContractBlock && n.opcode !== null && autoOps.includes(n.opcode)) r.push(n);
      }
      return r;
    } catch (e) {
      ctx.debug(`${this.constructor.name} on ${block.btype}: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }

  protected processParentMatcher(block: Block, blocks: Block[], matched: boolean, ctx: MatchContext): boolean {
    if (this.parent === null) return matched;
    const prev = block.previous;
    const r = prev === null ? null : this.parent.tryBuild(prev, ctx);
    if (r !== null) {
      blocks.push(...r);
      return true;
    }
    return this.parent.optional;
  }

  protected processChildMatcher(block: Block, blocks: Block[], matched: boolean, ctx: MatchContext): boolean {
    let childMatched = matched;
    if (this.child !== null) {
      for (const c of [...block.next]) {
        const r = this.child.tryBuild(c, ctx);
        if (r !== null) blocks.push(...r);
      }
      childMatched = this.child.optional || blocks.length > 0;
    }
    if (this.children !== null) {
      const r = this.processChildrenMatchers(block, ctx);
      if (r !== null) blocks.push(...r);
      else childMatched = false;
    }
    return childMatched;
  }

  private processChildrenMatchers(block: Block, ctx: MatchContext): Block[] | null {
    const nextBlocks = [...block.next];
    const remaining = [...(this.children ?? [])];
    const blocks: Block[] = [];
    while (remaining.length > 0) {
      const m = remaining[0];
      let matched = false;
      for (let i = 0; i < nextBlocks.length; i++) {
        const r = m.tryBuild(nextBlocks[i], ctx);
        if (r !== null) {
          blocks.push(...r);
          remaining.shift();
          nextBlocks.splice(i, 1);
          matched = true;
          break;
        }
      }
      if (!matched) {
        if (m.optional) remaining.shift();
        else return null;
      }
    }
    return blocks;
  }

  /** Builds the composite from the block and what its child/parent matchers matched. */
  buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    return [block, ...others];
  }
}

/** The first of `matchers` that matches. */
export class OrMatcher extends BlockMatcher {
  constructor(readonly matchers: BlockMatcher[], optional = false) {
    super({ optional });
  }

  override testSelf(block: Block): boolean {
    return this.matchers.some((m) => m.testSelf(block));
  }

  override tryBuild(block: Block, ctx: MatchContext): Block[] | null {
    for (const m of this.matchers) {
      const r = m.tryBuild(block, ctx);
      if (r !== null) return r;
    }
    return null;
  }
}

/**
 * Exclusive only where a block is tested (testSelf); building tries each alternative in turn as
 * OrMatcher does — toncenter's ExclusiveOrMatcher, whose matchers (EVAA's withdraw) rely on it.
 */
export class ExclusiveOrMatcher extends OrMatcher {
  override testSelf(block: Block): boolean {
    let n = 0;
    for (const m of this.matchers) if (m.testSelf(block)) n++;
    return n === 1;
  }
}

/** A plain TON transfer block. */
export class TonTransferMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return block.btype === "ton_transfer";
  }
}

/** A call_contract block with the given opcode (unsigned 32-bit). */
export class ContractMatcher extends BlockMatcher {
  constructor(
    readonly opcode: number,
    o: MatcherOptions = {},
  ) {
    super(o);
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === this.opcode;
  }
}

/** A block of the given internal kind (btype). */
export class BlockTypeMatcher extends BlockMatcher {
  constructor(
    readonly blockType: string,
    o: MatcherOptions = {},
  ) {
    super(o);
  }

  override testSelf(block: Block): boolean {
    return block.btype === this.blockType;
  }
}

/** A block that passes a predicate. */
export class GenericMatcher extends BlockMatcher {
  constructor(
    readonly test: (b: Block) => boolean,
    o: MatcherOptions = {},
  ) {
    super(o);
  }

  override testSelf(block: Block): boolean {
    return this.test(block);
  }
}

/** A chain of `repeating` blocks ended by one `exit` block (e.g. multi-hop swaps). */
export class RecursiveMatcher extends BlockMatcher {
  constructor(
    readonly repeating: BlockMatcher,
    readonly exit: BlockMatcher | null,
    optional = false,
  ) {
    super({ optional });
  }

  override testSelf(block: Block): boolean {
    return this.repeating.testSelf(block);
  }

  protected override processChildMatcher(block: Block, blocks: Block[], matched: boolean, ctx: MatchContext): boolean {
    let childMatched = matched;
    let current = [block];
    const toAdd: Block[] = [];
    let finished = false;
    for (;;) {
      const check = current;
      current = [];
      for (const c of check) {
        if (this.exit) {
          const r = this.exit.tryBuild(c, ctx);
          if (r !== null) {
            toAdd.push(...r);
            finished = true;
          }
        }
        if (finished) break;
        const r = this.repeating.tryBuild(c, ctx);
        if (r !== null) {
          toAdd.push(...r);
          for (const b of r) current.push(...b.next);
          break;
        }
      }
      if (finished) break;
      if (current.length === 0) {
        childMatched = false;
        break;
      }
    }
    if (toAdd.length > 0) {
      blocks.push(...new Set(toAdd));
      childMatched = true;
    }
    return childMatched;
  }
}

/** Chains matchers: each one's child is the next. */
export function childSequenceMatcher(matchers: BlockMatcher[]): BlockMatcher | null {
  if (matchers.length === 0) return null;
  for (let i = 0; i + 1 < matchers.length; i++) matchers[i].child = matchers[i + 1];
  return matchers[0];
}

/** A block that marks another one with a label, so a build can find it among the matched blocks. */
export class LabelBlock extends Block {
  constructor(
    readonly label: string,
    readonly block: Block,
  ) {
    super("label", []);
    this.transient = true;
    this.nodes = block.nodes;
    this.minLt = block.minLt;
    this.minUtime = block.minUtime;
    this.maxLt = block.maxLt;
    this.maxUtime = block.maxUtime;
    this.failed = block.failed;
  }
}

class LabeledMatcher extends BlockMatcher {
  constructor(
    readonly label: string,
    readonly inner: BlockMatcher,
    readonly callBuild: boolean,
  ) {
    super({
      child: inner.child,
      children: inner.children,
      parent: inner.parent,
      optional: inner.optional,
      includeExcess: inner.includeExcess,
    });
  }

  override testSelf(block: Block): boolean {
    return this.inner.testSelf(block);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!this.callBuild) return [new LabelBlock(this.label, block), block, ...others];
    const built = this.inner.buildBlock(block, others, ctx);
    return [new LabelBlock(this.label, built[0]), ...built];
  }
}

/** `matcher`, with what it matched labelled (see getLabeled). */
export function labeled(label: string, matcher: BlockMatcher, callBuildBlock = false): BlockMatcher {
  return new LabeledMatcher(label, matcher, callBuildBlock);
}
