// Message bodies decoded the way toncenter decodes them (its ton-marker): the opcode picks
// constructors of InternalMsgBody0…11, ExternalMsgBody and ForwardPayload, tried in that order;
// wallet bodies that start with a signature and W5 / highload-v3 requests, whose lists TL-B cannot
// size, are read with their lengths counted from the cell first; untyped cells inside the result
// are decoded again as bodies (at most 11 levels down) or left as their BoC.

import type { Cell, Slice } from "@ton/core";
import { compileScheme, type CompiledScheme, type TV, type TypeDef } from "./compile.js";
import { TlbReadError, TlbSchemeError } from "./errors.js";
import { parseScheme } from "./parser.js";
import { DEFAULT_READ_LIMITS, LimitFail, ReadFail, STACK_EXHAUSTED, readApp, type Json, type ReadContext, type ReadLimits } from "./reader.js";

/** The body types toncenter tries, in its order. */
export const BODY_TYPES = [
  ...Array.from({ length: 12 }, (_, i) => `InternalMsgBody${i}`),
  "ExternalMsgBody",
  "ForwardPayload",
] as const;

/** toncenter decodes untyped cells found in a result again, down to this many levels. */
const NESTED_LEVELS = 10;
const BOC_CACHE = 1024;
/** TON refuses cell trees deeper than this. */
const MAX_CELL_DEPTH = 1024;

export type DecodeResult = { ok: true; value: Json } | { ok: false; error: TlbReadError };

export class MessageDecoder {
  readonly scheme: CompiledScheme;
  private readonly opcodes = new Map<number, string>();
  private readonly byOpcode = new Map<number, TV[]>();
  private readonly wallet: Record<string, TypeDef>;

  constructor(
    schemeText: string,
    private readonly limits: ReadLimits = DEFAULT_READ_LIMITS,
  ) {
    this.scheme = compileScheme(parseScheme(schemeText));
    for (const name of BODY_TYPES) {
      const def = this.type(name);
      for (const c of def.ctors) {
        if (!this.opcodes.has(c.tag)) this.opcodes.set(c.tag, c.name);
        if (c.tagBits !== 32) continue;
        const list = this.byOpcode.get(c.tag) ?? [];
        // One entry per type: the reader picks the constructor by its tag.
        if (!list.some((t) => t.k === "app" && t.def === def)) list.push({ k: "app", def, nats: [], types: [] });
        this.byOpcode.set(c.tag, list);
      }
    }
    this.wallet = Object.fromEntries(
      [
        "W5MsgBody",
        "HighloadV3InternalRequest",
        "PreprocessedWalletV2MsgBody",
        "HighloadV3MsgBody",
        "HighloadV2MsgBody",
        "HighloadV1MsgBody",
        "W4MsgBody",
        "W3MsgBody",
        "W1W2MsgBody",
      ].map((n) => [n, this.type(n)]),
    );
  }

  private type(name: string): TypeDef {
    const def = this.scheme.types.get(name);
    if (!def) throw new TlbSchemeError(`the scheme has no type ${name}`);
    return def;
  }

  /** The constructor name toncenter gives an opcode (`decoded_opcode`), or null when it knows none. */
  opcodeName(opcode: number): string | null {
    return this.opcodes.get(opcode >>> 0) ?? null;
  }

  /** A body as toncenter's `/api/v3/decode` gives it. */
  decode(cell: Cell): DecodeResult {
    if (cell.depth() > MAX_CELL_DEPTH) {
      return { ok: false, error: new TlbReadError(`the cell tree is deeper than ${MAX_CELL_DEPTH}`, []) };
    }
    const work = { n: 0 };
    try {
      if (cell.isExotic) throw new ReadFail("an exotic cell is not a message body");
      return { ok: true, value: this.decodeAt(cell.beginParse(), 0, work) };
    } catch (e) {
      if (e instanceof ReadFail) return { ok: false, error: new TlbReadError(e.reason, e.path) };
      if (e instanceof RangeError) return { ok: false, error: new TlbReadError(STACK_EXHAUSTED, []) };
      throw e;
    }
  }

  private context(level: number, work: { n: number }): ReadContext {
    return { limits: this.limits, depth: 0, refs: 0, work, untyped: (cell) => this.nested(cell, null, level, work), untypedRest: (rest) => this.nested(null, rest, level, work) };
  }

  /** An untyped cell inside a result: decoded as a body one level down, else its BoC. */
  private nested(cell: Cell | null, rest: Slice | null, level: number, work: { n: number }): Json {
    const s = rest ?? (cell!.isExotic ? null : cell!.beginParse());
    if (s && level < NESTED_LEVELS + 1) {
      try {
        return this.decodeAt(s.clone(), level + 1, work);
      } catch (e) {
        if (!(e instanceof ReadFail) || e instanceof LimitFail) throw e;
      }
    }
    return this.bocOf(cell ?? rest!.asCell());
  }

  /** Undecodable cells recur (contract code and data in deploys): their BoCs are kept by hash. */
  private readonly bocs = new Map<string, string>();

  private bocOf(cell: Cell): string {
    if (!cell.refs.length) return cell.toBoc({ idx: false, crc32: false }).toString("base64");
    const key = cell.hash().toString("base64");
    let boc = this.bocs.get(key);
    if (boc === undefined) {
      boc = cell.toBoc({ idx: false, crc32: false }).toString("base64");
      if (this.bocs.size >= BOC_CACHE) this.bocs.delete(this.bocs.keys().next().value!);
      this.bocs.set(key, boc);
    }
    return boc;
  }

  private decodeAt(s: Slice, level: number, work: { n: number }): Json {
    if (!s.remainingBits && !s.remainingRefs) return { "@type": "empty_cell" };
    if (s.remainingBits < 32) throw new ReadFail(`the body has ${s.remainingBits} bits, an opcode needs 32`);
    const opcode = s.preloadUint(32);
    const name = this.opcodeName(opcode);
    const ctx = this.context(level, work);
    if (name === "w5_external_signed_request" || name === "w5_internal_signed_request" || name === "w5_extension_action_request") {
      const [m, n] = w5Counts(s, name === "w5_extension_action_request");
      return readApp(app(this.wallet.W5MsgBody!, [m, n]), s.clone(), ctx, null);
    }
    if (name === "highload_v3_internal_request") {
      const n = s.remainingRefs ? actionsDepth(s.preloadRef()) : 0;
      return readApp(app(this.wallet.HighloadV3InternalRequest!, [n]), s.clone(), ctx, null);
    }
    if (name === null) {
      const v = this.readWallet(s, ctx);
      if (v !== undefined) return v;
    }
    let firstErr: ReadFail | null = null;
    for (const tv of this.byOpcode.get(opcode) ?? []) {
      try {
        ctx.depth = 0;
        ctx.refs = 0;
        return readApp(tv as TV & { k: "app" }, s.clone(), ctx, null);
      } catch (e) {
        if (!(e instanceof ReadFail) || e instanceof LimitFail) throw e;
        firstErr ??= e;
      }
    }
    throw firstErr ?? new ReadFail(`no constructor for opcode 0x${opcode.toString(16).padStart(8, "0")}`);
  }

  /** Bodies that start with a signature: each wallet layout in toncenter's order, the whole cell consumed. */
  private readWallet(s: Slice, ctx: ReadContext): Json | undefined {
    const w = this.wallet;
    if (s.remainingRefs >= 1) {
      const inner = s.preloadRef();
      if (!inner.isExotic && inner.refs.length >= 1) {
        const n = actionsDepth(inner.refs[0]!);
        if (n > 0) {
          const v = whole(w.PreprocessedWalletV2MsgBody!, [n], s, ctx);
          if (v !== undefined) return v;
        }
      }
    }
    const refs = s.remainingRefs;
    return (
      whole(w.HighloadV3MsgBody!, [], s, ctx) ??
      whole(w.HighloadV2MsgBody!, [], s, ctx) ??
      whole(w.HighloadV1MsgBody!, [], s, ctx) ??
      whole(w.W4MsgBody!, [refs], s, ctx) ??
      whole(w.W3MsgBody!, [refs], s, ctx) ??
      whole(w.W1W2MsgBody!, [refs], s, ctx)
    );
  }
}

/** One wallet layout read over the whole body (nothing may be left), or undefined. */
function whole(def: TypeDef, nats: number[], s: Slice, ctx: ReadContext): Json | undefined {
  const trial = s.clone();
  ctx.depth = 0;
  ctx.refs = 0;
  try {
    const v = readApp(app(def, nats), trial, ctx, null);
    return trial.remainingBits || trial.remainingRefs ? undefined : v;
  } catch (e) {
    if (!(e instanceof ReadFail) || e instanceof LimitFail) throw e;
    return undefined;
  }
}

function app(def: TypeDef, nats: number[]): TV & { k: "app" } {
  return { k: "app", def, nats, types: nats.map(() => null) };
}

/** Cells in an out-action list minus one: the list's length (`OutList n`). */
function actionsDepth(list: Cell): number {
  let n = -1;
  let cur: Cell | undefined = list;
  while (cur && n < MAX_CELL_DEPTH) {
    n++;
    if (cur.isExotic) break;
    cur = cur.refs[0];
  }
  return n;
}

/** A W5 request's out-action count and extended-action count minus one, as toncenter counts them. */
function w5Counts(body: Slice, extension: boolean): [number, number] {
  const s = body.clone();
  const skip = extension ? 32 + 64 : 32 + 96;
  if (s.remainingBits < skip + 2) return [0, 0];
  s.skip(skip);
  const hasOut = s.loadBit();
  const hasExtended = s.loadBit();
  let out = 0;
  if (hasOut && s.remainingRefs) out = actionsDepth(s.loadRef());
  let extended = 0;
  if (hasExtended) {
    extended = 1;
    let cur: Slice = s;
    while (cur.remainingRefs > 0 && extended <= MAX_CELL_DEPTH) {
      extended++;
      const next = cur.loadRef();
      if (next.isExotic) break;
      cur = next.beginParse();
    }
  }
  return [out, extended - 1];
}

/**
 * toncenter's `message_content.decoded`: its `/decode` output, except that a top-level text comment
 * keeps the older shape clients rely on (`{"@type":"text_comment","comment":…,"type":"text_comment"}`).
 */
export function messageDecoded(value: Json): Json {
  if (value && typeof value === "object" && !Array.isArray(value) && value["@type"] === "text_comment" && typeof value.text === "string") {
    // Go marshals this map with its keys sorted.
    return { "@type": "text_comment", comment: value.text, type: "text_comment" };
  }
  return value;
}
