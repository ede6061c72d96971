// Reads a cell by a compiled scheme into the JSON toncenter's TL-B printer writes: `@type` the
// constructor name (none for `_`), fields by name, numbers as decimal strings, bits as upper-case
// hex, one-bit enums as booleans, `^T` given as a type argument wrapped in `cell_reference`, and
// untyped cells (`Any`, `Cell`, `^Cell`) handed back to the caller, which decodes them as message
// bodies or leaves their BoC.

import type { Cell, Slice } from "@ton/core";
import { bitsForLeq, bitsForLess, isRawRef, type CondE, type Ctor, type FieldStep, type NatE, type TV, type TypeE } from "./compile.js";

export type Json = string | boolean | null | Json[] | { [key: string]: Json };

/** Why reading stopped; not an Error (no stack), since failed alternatives are part of normal reading. */
export class ReadFail {
  readonly path: string[] = [];
  constructor(readonly reason: string) {}
}

/** A bound was reached: reading stops for the whole body, alternatives are not tried. */
export class LimitFail extends ReadFail {}

export interface ReadLimits {
  /** Nested constructors (the JSON depth), e.g. a label's unary chain or a list of refs. */
  maxDepth: number;
  /** References followed while reading one body (toncenter's printer stops at 4,096). */
  maxRefs: number;
  /** Constructors read for one body, nested bodies included. */
  maxWork: number;
}

/** A thread's stack (a worker's is smaller) can run out before maxDepth: reported, not thrown. */
export const STACK_EXHAUSTED = "values nested too deep (the stack ran out)";

export const DEFAULT_READ_LIMITS: ReadLimits = { maxDepth: 1100, maxRefs: 4096, maxWork: 200_000 };

export interface ReadContext {
  limits: ReadLimits;
  depth: number;
  refs: number;
  /** Shared with nested bodies. */
  work: { n: number };
  /** Decodes an untyped cell as a message body (toncenter's recursive pass), or returns its BoC. */
  untyped(cell: Cell): Json;
  /** The same for the rest of a slice (a cell is built only when its BoC is needed). */
  untypedRest(rest: Slice): Json;
}

type Env = (number | TV | undefined)[];

interface Candidate {
  c: Ctor;
  env: Env;
}

function fail(reason: string): never {
  throw new ReadFail(reason);
}

function natOf(e: NatE, env: Env): number {
  switch (e.k) {
    case "c":
      return e.v;
    case "v": {
      const v = env[e.s];
      if (typeof v !== "number") return fail("a size is used before it is known");
      return v;
    }
    case "+":
      return natOf(e.a, env) + natOf(e.b, env);
    case "-":
      return natOf(e.a, env) - natOf(e.b, env);
    case "*":
      return natOf(e.a, env) * natOf(e.b, env);
  }
}

function condOf(c: CondE, env: Env): boolean {
  const v = natOf(c.e, env);
  return c.k === "bit" ? Math.floor(v / 2 ** c.bit) % 2 === 1 : v !== 0;
}

function evalType(t: TypeE, env: Env): TV {
  switch (t.k) {
    case "app": {
      const nats: number[] = [];
      const types: (TV | null)[] = [];
      for (const a of t.args) {
        if (a.k === "nat") {
          // May be negative (toncenter passes -1 for an absent W5 extended-action list): only a
          // constructor that needs the value refuses it.
          const v = natOf(a.e, env);
          if (!Number.isSafeInteger(v)) fail(`argument ${v} of ${t.def.name} is out of range`);
          nats.push(v);
          types.push(null);
        } else if (a.k === "type") {
          nats.push(0);
          types.push(evalType(a.t, env));
        } else {
          nats.push(NaN);
          types.push(null);
        }
      }
      return { k: "app", def: t.def, nats, types };
    }
    case "var": {
      const v = env[t.s];
      if (!v || typeof v === "number") return fail("a type parameter is not bound");
      return v;
    }
    case "ref":
      return { k: "ref", t: evalType(t.t, env), raw: isRawRef(t) };
    case "uint":
    case "int":
    case "bits":
    case "natw":
    case "natless":
    case "natleq":
    case "bitTuple": {
      const w = natOf(t.w, env);
      if (w < 0 || w > 1023) fail(`width ${w} is out of range`);
      return { k: t.k, w };
    }
    default:
      return { k: t.k };
  }
}

function need(s: Slice, bits: number): void {
  if (s.remainingBits < bits) fail(`needs ${bits} bits, ${s.remainingBits} left`);
}

function loadRef(s: Slice, ctx: ReadContext): Cell {
  if (s.remainingRefs < 1) fail("needs a reference, none left");
  if (++ctx.refs > ctx.limits.maxRefs) throw new LimitFail(`more than ${ctx.limits.maxRefs} references`);
  return s.loadRef();
}

function openRef(cell: Cell): Slice {
  if (cell.isExotic) fail("an exotic (pruned or library) cell where data was expected");
  return cell.beginParse();
}

function readUint(s: Slice, w: number): string {
  need(s, w);
  return w <= 48 ? String(s.loadUint(w)) : s.loadUintBig(w).toString();
}

function readInt(s: Slice, w: number): string {
  need(s, w);
  if (w === 0) return "0";
  return w <= 48 ? String(s.loadInt(w)) : s.loadIntBig(w).toString();
}

/** Upper-case hex, a partial last digit completed with `1` and zeros and marked `_` (TON's notation). */
function readHex(s: Slice, w: number): string {
  need(s, w);
  // whole bytes at once (signatures, hashes and addresses are most of a body's bits), then a nibble
  let out = w >= 8 ? s.loadBuffer(w >> 3).toString("hex") : "";
  let left = w & 7;
  if (left >= 4) {
    out += s.loadUint(4).toString(16);
    left -= 4;
  }
  if (left) out += (((s.loadUint(left) << 1) | 1) << (3 - left)).toString(16) + "_";
  return out.toUpperCase();
}

/** `#`, `## n`, `#< n`, `#<= n`: the value, kept as a number when it fits. */
function readNat(tv: TV, s: Slice): number | bigint {
  switch (tv.k) {
    case "nat":
      need(s, 32);
      return s.loadUint(32);
    case "natw":
      need(s, tv.w);
      return tv.w <= 48 ? s.loadUint(tv.w) : s.loadUintBig(tv.w);
    case "natless": {
      const bits = bitsForLess(tv.w);
      need(s, bits);
      const v = bits ? s.loadUint(bits) : 0;
      if (v >= tv.w) fail(`${v} is not less than ${tv.w}`);
      return v;
    }
    case "natleq": {
      const bits = bitsForLeq(tv.w);
      need(s, bits);
      const v = bits ? s.loadUint(bits) : 0;
      if (v > tv.w) fail(`${v} is greater than ${tv.w}`);
      return v;
    }
    default:
      return fail("not a natural-number type");
  }
}

function readSnake(s: Slice, ctx: ReadContext): string {
  const parts: Buffer[] = [];
  let cur = s;
  for (;;) {
    const bits = cur.remainingBits;
    if (bits) {
      const whole = bits - (bits % 8);
      if (whole) parts.push(cur.loadBuffer(whole / 8));
      if (bits % 8) parts.push(Buffer.from([cur.loadUint(bits % 8) << (8 - (bits % 8))]));
    }
    if (cur.remainingRefs > 1) fail("a snake string cell has more than one reference");
    if (!cur.remainingRefs) break;
    cur = openRef(loadRef(cur, ctx));
  }
  try {
    return UTF8.decode(Buffer.concat(parts));
  } catch {
    return fail("the snake string is not valid UTF-8");
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The rest of a slice (what an `Any`/`Cell` field holds), consuming it. */
function takeRest(s: Slice): Slice {
  const rest = s.clone();
  s.skip(s.remainingBits);
  while (s.remainingRefs) s.loadRef();
  return rest;
}

/** A value read as a type argument (`value:X` of `Maybe X`, hashmap values, …). */
export function readValue(tv: TV, s: Slice, ctx: ReadContext): Json {
  switch (tv.k) {
    case "app":
      return readApp(tv, s, ctx, null);
    case "ref": {
      // A `^T` given as a type argument: toncenter's printer wraps it, except `^Cell`/`^Any` as written.
      const cell = loadRef(s, ctx);
      if (tv.raw) return ctx.untyped(cell);
      return { cell_reference: readValue(tv.t, openRef(cell), ctx) };
    }
    case "uint":
      return readUint(s, tv.w);
    case "int":
      return readInt(s, tv.w);
    case "bits":
    case "bitTuple":
      return readHex(s, tv.w);
    case "nat":
    case "natw":
    case "natless":
    case "natleq":
      return String(readNat(tv, s));
    case "any":
    case "cell":
      return ctx.untypedRest(takeRest(s));
    case "snake":
      return readSnake(s, ctx);
  }
}

function readField(st: FieldStep, env: Env, s: Slice, ctx: ReadContext): Json {
  const tv = st.fixed ?? evalType(st.type, env);
  switch (st.render) {
    case "nat": {
      const v = readNat(tv, s);
      if (st.slot >= 0) env[st.slot] = typeof v === "number" ? v : Number(v);
      return String(v);
    }
    case "bool":
      need(s, 1);
      return s.loadBit();
    case "int":
      return tv.k === "uint" ? readUint(s, tv.w) : readInt(s, (tv as { w: number }).w);
    case "hex":
      return readHex(s, (tv as { w: number }).w);
    case "refValue": {
      // A `^T` field: T read from the referenced cell, no wrapper (toncenter's print_ref).
      const inner = (tv as { k: "ref"; t: TV }).t;
      const cell = loadRef(s, ctx);
      if (inner.k === "any" || inner.k === "cell") return ctx.untyped(cell);
      return readValue(inner, openRef(cell), ctx);
    }
    case "value": {
      if (tv.k === "app" && st.type.k === "app" && st.outs) {
        const outs: number[] = [];
        const v = readApp(tv, s, ctx, outs);
        st.type.args.forEach((a, i) => {
          if (a.k !== "out") return;
          const got = outs[i]!;
          const had = env[a.s];
          if (had === undefined) env[a.s] = got;
          else if (had !== got) fail(`${st.key} gives ${got} where ${had} was expected`);
        });
        return v;
      }
      return readValue(tv, s, ctx);
    }
  }
}

function bindParams(c: Ctor, tv: TV & { k: "app" }, env: Env): boolean {
  for (let i = 0; i < c.params.length; i++) {
    const p = c.params[i]!;
    switch (p.k) {
      case "const":
        if (tv.nats[i] !== p.v) return false;
        break;
      case "bind": {
        const v = tv.nats[i]! - p.plus;
        if (p.plus && v < 0) return false;
        const had = env[p.s];
        if (had !== undefined && had !== v) return false;
        env[p.s] = v;
        break;
      }
      case "bindType":
        env[p.s] = tv.types[i] ?? undefined;
        break;
      default:
        break;
    }
  }
  return true;
}

function readCtor(c: Ctor, env: Env, s: Slice, ctx: ReadContext, outs: number[] | null): { [key: string]: Json } {
  const obj: { [key: string]: Json } = c.anonymous ? {} : { "@type": c.name };
  if (c.tagBits) s.skip(c.tagBits);
  for (const st of c.steps) {
    if (st.k === "field") {
      if (st.cond && !condOf(st.cond, env)) continue;
      try {
        obj[st.key] = readField(st, env, s, ctx);
      } catch (e) {
        if (e instanceof ReadFail && !(e instanceof LimitFail)) e.path.unshift(st.label);
        throw e;
      }
    } else if (st.k === "check") {
      const a = natOf(st.a, env);
      const b = natOf(st.b, env);
      const ok = st.op === "=" ? a === b : st.op === "<=" ? a <= b : st.op === "<" ? a < b : st.op === ">=" ? a >= b : st.op === ">" ? a > b : a !== b;
      if (!ok) fail(`${st.label} fails: ${a} ${st.op} ${b}`);
    } else {
      const v = natOf(st.e, env);
      if (v < 0) fail(`${st.label} fails: no natural number solves it`);
      const had = env[st.s];
      if (had !== undefined && had !== v) fail(`${st.label} fails: ${had} ≠ ${v}`);
      env[st.s] = v;
    }
  }
  if (outs) {
    c.params.forEach((p, i) => {
      if (p.k === "out") outs[i] = natOf(p.e, env);
    });
  }
  return obj;
}

/** Reads one constructor of a type: the one whose tag and parameters fit; on a tie, each in turn. */
export function readApp(tv: TV & { k: "app" }, s: Slice, ctx: ReadContext, outs: number[] | null): Json {
  if (++ctx.work.n > ctx.limits.maxWork) throw new LimitFail(`more than ${ctx.limits.maxWork} constructors read`);
  if (++ctx.depth > ctx.limits.maxDepth) throw new LimitFail(`values nested deeper than ${ctx.limits.maxDepth}`);
  try {
    const def = tv.def;
    const d = def.dispatch;
    let first: Candidate | null = null;
    let more: Candidate[] | null = null;
    const left = s.remainingBits;
    for (let i = 0; i <= d.lens.length; i++) {
      let list: Ctor[] | undefined;
      if (i < d.lens.length) {
        const len = d.lens[i]!;
        if (left >= len) list = d.byTag[i]!.get(s.preloadUint(len));
      } else list = d.untagged;
      if (!list) continue;
      for (const c of list) {
        const env: Env = new Array(c.slots);
        if (!bindParams(c, tv, env)) continue;
        if (!first) first = { c, env };
        else (more ??= []).push({ c, env });
      }
    }
    // Candidates from several tag lengths are tried in declaration order.
    if (more && d.lens.length + (d.untagged.length ? 1 : 0) > 1) {
      const all: Candidate[] = [first!, ...more].sort((a, b) => a.c.order - b.c.order);
      first = all[0]!;
      more = all.slice(1);
    }
    if (!first) return fail(`no constructor of ${def.name} matches`);
    const one: Candidate = first;
    if (!more) return readCtor(one.c, one.env, s, ctx, outs);
    let firstErr: ReadFail | null = null;
    for (const cand of [one, ...(more as Candidate[])]) {
      const trial = s.clone();
      try {
        const v = readCtor(cand.c, cand.env, trial, ctx, outs);
        s.skip(trial.offsetBits - s.offsetBits);
        while (s.offsetRefs < trial.offsetRefs) s.loadRef();
        return v;
      } catch (e) {
        if (!(e instanceof ReadFail) || e instanceof LimitFail) throw e;
        firstErr ??= e;
      }
    }
    throw firstErr!;
  } finally {
    ctx.depth--;
  }
}
