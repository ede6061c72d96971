// TlSchema: a TL schema compiled into codecs at parse time.

import {
  BodyCodec,
  BoolCodec,
  BoxedCodec,
  BoxedTrueCodec,
  BytesCodec,
  type Codec,
  DEFAULT_LIMITS,
  type DecodeLimits,
  DoubleCodec,
  type FieldPlan,
  FixedBytesCodec,
  hexId,
  IntCodec,
  LongCodec,
  NatCodec,
  Reader,
  StringCodec,
  type TlObject,
  TrueCodec,
  VectorCodec,
  Writer,
} from "./codec.js";
import { TlDecodeError, TlEncodeError, TlSchemaError } from "./errors.js";
import { type Declaration, parseSchemaText, parseTypeExpression, printTerm, type TypeTerm } from "./parser.js";

export interface TlField {
  readonly name: string;
  /** Type as written, normalized: `int256`, `vector liteServer.transactionId`, `liteServer.SignatureSet`. */
  readonly type: string;
  /** For `mode.N?type`: the `#` field and bit that make this field present. */
  readonly cond: { readonly field: string; readonly bit: number } | null;
}

export interface TlCombinator {
  readonly name: string;
  /** Unsigned 32-bit constructor id; on the wire it is little-endian. */
  readonly id: number;
  readonly isFunction: boolean;
  /** Built-in declarations (`int ? = Int`, `vector …`, `boolTrue`, …) are listed but have no object codec. */
  readonly builtin: boolean;
  /** Result type: `liteServer.MasterchainInfo`, or for functions the type of the answer (`Object` for liteServer.query). */
  readonly type: string;
  readonly fields: readonly TlField[];
  /** The text whose CRC-32 gives the id (`name args = Type`). */
  readonly normalized: string;
}

export interface TlSchemaOptions {
  /** Decoder limits for untrusted input. */
  readonly limits?: Partial<DecodeLimits>;
}

type Input = Uint8Array;

/** Names handled natively (never compiled from their declarations). */
const BUILTIN_DECLS = new Set([
  "int",
  "long",
  "double",
  "string",
  "object",
  "function",
  "bytes",
  "true",
  "boolTrue",
  "boolFalse",
  "vector",
  "int128",
  "int256",
]);
/** Built-in constructors with no fields: decodable as standalone boxed objects (`{ kind: "boolTrue" }`). */
const NULLARY_BUILTINS = new Set(["true", "boolTrue", "boolFalse"]);

const INT = new IntCodec();
const NAT = new NatCodec();
const LONG = new LongCodec();
const DOUBLE = new DoubleCodec();
const INT128 = new FixedBytesCodec("int128", 16);
const INT256 = new FixedBytesCodec("int256", 32);
const BYTES = new BytesCodec();
const STRING = new StringCodec();
const BOOL = new BoolCodec();
const TRUE = new TrueCodec();
const BOXED_TRUE = new BoxedTrueCodec();
const BARE_SCALARS: ReadonlyMap<string, Codec> = new Map<string, Codec>([
  ["#", NAT],
  ["int", INT],
  ["long", LONG],
  ["double", DOUBLE],
  ["int128", INT128],
  ["int256", INT256],
  ["bytes", BYTES],
  ["string", STRING],
  ["Bool", BOOL],
  ["true", TRUE],
  ["True", BOXED_TRUE],
]);
const UNSUPPORTED_BOXED_SCALARS = new Set(["Int", "Long", "Double", "Int128", "Int256", "Bytes", "String"]);

let sharedWriter: Writer | null = new Writer();

function toBuffer(input: Input): Buffer {
  if (Buffer.isBuffer(input)) return input;
  if (input instanceof Uint8Array) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError("TL input must be a Buffer or Uint8Array");
}

function lastSegmentIsLower(name: string): boolean {
  const dot = name.lastIndexOf(".");
  const c = name.charCodeAt(dot + 1);
  return c >= 97 && c <= 122;
}

export class TlSchema {
  private readonly combinators: TlCombinator[] = [];
  private readonly byIdMap = new Map<number, TlCombinator>();
  private readonly byNameMap = new Map<string, TlCombinator>();
  private readonly bodies = new Map<string, BodyCodec>();
  private readonly ctorsOfType = new Map<string, BodyCodec[]>();
  private readonly boxedCache = new Map<string, BoxedCodec>();
  private readonly exprCache = new Map<string, Codec>();
  private readonly limits: DecodeLimits;
  private readonly anyCodec: BoxedCodec;

  /**
   * Parses and compiles schema text(s). Each text starts in the types section; `---functions---` switches to
   * functions. Later texts may repeat identical declarations (ignored) but not redefine them.
   */
  static parse(texts: string | readonly string[], options: TlSchemaOptions = {}): TlSchema {
    return new TlSchema(typeof texts === "string" ? [texts] : texts, options);
  }

  private constructor(texts: readonly string[], options: TlSchemaOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    if (!(this.limits.maxDepth >= 1) || !(this.limits.maxZeroSizeVector >= 0)) throw new TlSchemaError("invalid limits");
    const decls: Declaration[] = [];
    for (let i = 0; i < texts.length; i++) {
      let parsed: Declaration[];
      try {
        parsed = parseSchemaText(texts[i]);
      } catch (e) {
        if (e instanceof TlSchemaError && texts.length > 1) throw new TlSchemaError(`schema text #${i + 1}: ${e.message}`);
        throw e;
      }
      for (const d of parsed) if (this.register(d)) decls.push(d);
    }
    // Phase 1: a body codec per object constructor / function, so fields can reference any of them.
    for (const d of decls) {
      if (d.builtin || (BUILTIN_DECLS.has(d.name) && !NULLARY_BUILTINS.has(d.name))) continue;
      const body = new BodyCodec(d.name, d.id);
      this.bodies.set(d.name, body);
      if (!d.isFunction) {
        const type = printTerm(d.result);
        let list = this.ctorsOfType.get(type);
        if (!list) this.ctorsOfType.set(type, (list = []));
        list.push(body);
      }
    }
    this.anyCodec = new BoxedCodec("any object", [...this.bodies.values()]);
    // Phase 2: compile fields.
    for (const d of decls) {
      const body = this.bodies.get(d.name);
      if (body) this.compileBody(d, body);
    }
    this.computeMinSizes();
  }

  /** Records a declaration; returns false for an exact duplicate of an earlier one. */
  private register(d: Declaration): boolean {
    const fields: TlField[] = [];
    for (const a of d.args) {
      if (a.name !== null && !a.implicit && a.type) fields.push({ name: a.name, type: printTerm(a.type), cond: a.cond });
    }
    const c: TlCombinator = {
      name: d.name,
      id: d.id,
      isFunction: d.isFunction,
      builtin: d.builtin || BUILTIN_DECLS.has(d.name),
      type: printTerm(d.result),
      fields,
      normalized: d.normalized,
    };
    const prev = this.byNameMap.get(d.name);
    if (prev) {
      if (prev.id === c.id && prev.normalized === c.normalized && prev.isFunction === c.isFunction) return false;
      throw new TlSchemaError(`line ${d.line}: ${d.name} redefined (was ${hexId(prev.id)} "${prev.normalized}")`);
    }
    const clash = this.byIdMap.get(d.id);
    if (clash) throw new TlSchemaError(`line ${d.line}: ${d.name} has the same id ${hexId(d.id)} as ${clash.name}`);
    this.byIdMap.set(d.id, c);
    this.byNameMap.set(d.name, c);
    this.combinators.push(c);
    return true;
  }

  private compileBody(d: Declaration, body: BodyCodec): void {
    const plans: FieldPlan[] = [];
    const natFields = new Set<string>();
    const seen = new Set<string>();
    for (const a of d.args) {
      const where = `line ${d.line}: ${d.name}`;
      if (a.implicit) {
        body.unsupported = `generic parameter {${a.name}:…} is not supported`;
        return;
      }
      if (a.array || a.name === null) {
        body.unsupported = "arrays and anonymous fields are not supported";
        return;
      }
      if (a.name === "kind") throw new TlSchemaError(`${where}: a field named "kind" clashes with the object tag`);
      if (seen.has(a.name)) throw new TlSchemaError(`${where}: duplicate field ${a.name}`);
      seen.add(a.name);
      const type = a.type as TypeTerm;
      if (a.cond && !natFields.has(a.cond.field)) {
        throw new TlSchemaError(`${where}: field ${a.name} is conditional on ${a.cond.field}, which is not an earlier # field`);
      }
      let codec: Codec;
      try {
        codec = this.resolve(type);
      } catch (e) {
        if (e instanceof UnsupportedType) {
          body.unsupported = e.message;
          return;
        }
        if (e instanceof TlSchemaError) throw new TlSchemaError(`${where}, field ${a.name}: ${e.message}`);
        throw e;
      }
      if (codec === NAT && !a.cond) natFields.add(a.name);
      plans.push({
        name: a.name,
        codec,
        condField: a.cond ? a.cond.field : null,
        mask: a.cond ? (1 << a.cond.bit) | 0 : 0,
        isTrue: codec === TRUE,
        label: `${d.name}.${a.name}`,
      });
    }
    body.fields = plans;
  }

  /** Type term → codec. Throws TlSchemaError for unknown types, UnsupportedType for known-unsupported ones. */
  private resolve(t: TypeTerm): Codec {
    if (t.bang) throw new UnsupportedType(`!${t.name} (serialized function) fields are not supported`);
    const name = t.name;
    if (name === "vector" || name === "Vector") {
      if (t.args.length !== 1 || t.percent) throw new TlSchemaError(`${name} takes exactly one type argument`);
      return new VectorCodec(this.resolve(t.args[0]), name === "Vector");
    }
    if (t.args.length > 0) throw new UnsupportedType(`type ${printTerm(t)}: only vector takes type arguments`);
    if (t.percent) {
      const ctors = this.ctorsOfType.get(name);
      if (!ctors) throw new TlSchemaError(`unknown type %${name}`);
      if (ctors.length !== 1) throw new TlSchemaError(`%${name}: bare form needs exactly one constructor, ${name} has ${ctors.length}`);
      return ctors[0];
    }
    const scalar = BARE_SCALARS.get(name);
    if (scalar) return scalar;
    if (UNSUPPORTED_BOXED_SCALARS.has(name)) throw new UnsupportedType(`boxed ${name} is not supported`);
    if (name === "Object" || name === "Function") return this.boxedFor([name]);
    if (lastSegmentIsLower(name)) {
      const body = this.bodies.get(name);
      const c = this.byNameMap.get(name);
      if (!body || !c || c.isFunction) throw new TlSchemaError(`unknown constructor ${name}`);
      return body;
    }
    if (!this.ctorsOfType.has(name)) throw new TlSchemaError(`unknown type ${name}`);
    return this.boxedFor([name]);
  }

  /** A boxed codec accepting the constructors of the given boxed types (or `Object` / `Function` / `*`). */
  private boxedFor(types: readonly string[]): BoxedCodec {
    const key = types.join("|");
    let codec = this.boxedCache.get(key);
    if (codec) return codec;
    const bodies: BodyCodec[] = [];
    for (const type of types) {
      if (type === "*") {
        bodies.push(...this.anyCodec.bodies);
      } else if (type === "Object" || type === "Function") {
        const fn = type === "Function";
        for (const b of this.anyCodec.bodies) if (this.byNameMap.get(b.kind)?.isFunction === fn) bodies.push(b);
      } else {
        const list = this.ctorsOfType.get(type);
        if (!list) throw new TlSchemaError(`unknown boxed type ${type}`);
        bodies.push(...list);
      }
    }
    codec = new BoxedCodec(types.join(" | "), bodies);
    codec.minSize = 4 + minOf(bodies);
    this.boxedCache.set(key, codec);
    return codec;
  }

  private computeMinSizes(): void {
    // Sizes only grow from 0 towards the true minimum, so every iterate is a safe lower bound.
    for (let iter = 0; iter < 64; iter++) {
      let changed = false;
      for (const b of this.bodies.values()) {
        let s = 0;
        for (const f of b.fields) if (f.condField === null) s += f.codec.minSize;
        if (s !== b.minSize) {
          b.minSize = s;
          changed = true;
        }
      }
      for (const c of this.boxedCache.values()) {
        const s = 4 + minOf([...c.bodies]);
        if (s !== c.minSize) {
          c.minSize = s;
          changed = true;
        }
      }
      if (!changed) break;
    }
    this.anyCodec.minSize = 4 + minOf([...this.anyCodec.bodies]);
  }

  private exprCodec(type: string): Codec {
    let codec = this.exprCache.get(type);
    if (codec) return codec;
    const term = parseTypeExpression(type);
    try {
      codec = this.resolve(term);
    } catch (e) {
      if (e instanceof UnsupportedType) throw new TlSchemaError(e.message);
      throw e;
    }
    if (codec instanceof BodyCodec && codec.unsupported !== null) throw new TlSchemaError(`${codec.kind}: ${codec.unsupported}`);
    this.exprCache.set(type, codec);
    return codec;
  }

  private expectedCodec(expected: string | readonly string[] | undefined): BoxedCodec {
    if (expected === undefined) return this.anyCodec;
    if (typeof expected === "string") {
      const cached = this.boxedCache.get(expected);
      if (cached) return cached;
    }
    const list = typeof expected === "string" ? [expected] : expected;
    for (const t of list) {
      if (t !== "Object" && t !== "Function" && t !== "*" && !this.ctorsOfType.has(t)) {
        throw new TlSchemaError(`unknown boxed type ${t}${this.byNameMap.has(t) ? ` (${t} is a constructor; use decodeBare)` : ""}`);
      }
    }
    return this.boxedFor(list);
  }

  // -------------------------------------------------------------------------------------------------------
  // Public API

  /**
   * Serializes a boxed object: its constructor (or function) id, then its fields. `expected` optionally
   * restricts `value.kind` to constructors of the given boxed type(s).
   */
  encode(value: TlObject, expected?: string | readonly string[]): Buffer {
    return this.run(this.expectedCodec(expected), value, "value");
  }

  /**
   * Parses one boxed object occupying the whole input. With `expected`, only constructors of those boxed
   * types are accepted (`"Object"`: any constructor, `"Function"`: any function); otherwise any constructor or
   * function of the schema. Decoded `bytes`/`int256`/`int128` Buffers are views into the input (no copy).
   */
  decode(input: Input, expected?: string | readonly string[]): TlObject {
    return this.read(this.expectedCodec(expected), input) as TlObject;
  }

  /**
   * Parses one boxed object starting at `offset` without requiring it to end the input; returns it with the
   * offset just past it. For concatenations such as `liteServer.waitMasterchainSeqno` + query in
   * `liteServer.query.data`.
   */
  decodePrefix(input: Input, expected?: string | readonly string[], offset = 0): { value: TlObject; end: number } {
    const buf = toBuffer(input);
    if (!Number.isInteger(offset) || offset < 0 || offset > buf.length) throw new RangeError(`offset ${offset} out of range`);
    const r = new Reader(buf, buf.length, this.limits, offset);
    const value = this.readWith(this.expectedCodec(expected), r) as TlObject;
    return { value, end: r.pos };
  }

  /**
   * Serializes `value` as the TL type expression `type`: a bare constructor (`liteServer.masterchainInfo`,
   * no id), a built-in (`int256`, `vector int`, `bytes`, …) or a boxed type (`liteServer.BlockLink`, with id).
   */
  encodeBare(type: string, value: unknown): Buffer {
    return this.run(this.exprCodec(type), value, type);
  }

  /** Parses `type` (see encodeBare) from the whole input. */
  decodeBare(type: string, input: Input): unknown {
    return this.read(this.exprCodec(type), input);
  }

  /** The boxed type a function returns: `liteServer.getMasterchainInfo` → `liteServer.MasterchainInfo`. */
  functionResultType(kind: string): string {
    const c = this.byNameMap.get(kind);
    if (!c || !c.isFunction) throw new TlSchemaError(`${kind} is not a function of this schema`);
    return c.type;
  }

  /** Looks up a constructor or function by its unsigned 32-bit id. */
  byId(id: number): TlCombinator | undefined {
    return this.byIdMap.get(id >>> 0);
  }

  byName(name: string): TlCombinator | undefined {
    return this.byNameMap.get(name);
  }

  /** The constructor id at the start of a boxed serialization, without decoding the rest. */
  peekId(input: Input): number {
    const buf = toBuffer(input);
    if (buf.length < 4) throw new TlDecodeError(`truncated input: constructor id needs 4 bytes, ${buf.length} left`, 0);
    return buf.readUInt32LE(0);
  }

  /** Constructors of a boxed type, in schema order. */
  constructorsOf(type: string): readonly TlCombinator[] {
    return (this.ctorsOfType.get(type) ?? []).map((b) => this.byNameMap.get(b.kind) as TlCombinator);
  }

  /** All declarations (built-ins, constructors, functions) in schema order. */
  get all(): readonly TlCombinator[] {
    return this.combinators;
  }

  get constructors(): readonly TlCombinator[] {
    return this.combinators.filter((c) => !c.isFunction);
  }

  get functions(): readonly TlCombinator[] {
    return this.combinators.filter((c) => c.isFunction);
  }

  private run(codec: Codec, value: unknown, label: string): Buffer {
    // One scratch writer is reused; a re-entrant call (from a getter inside value) gets its own.
    const w = sharedWriter ?? new Writer(256);
    sharedWriter = null;
    try {
      codec.write(w, value, label);
      return w.finish();
    } catch (e) {
      if (e instanceof TlEncodeError) throw e;
      if (e instanceof RangeError) throw new TlEncodeError(`${label}: ${e.message}`);
      throw e;
    } finally {
      w.reset();
      sharedWriter = w;
    }
  }

  private read(codec: Codec, input: Input): unknown {
    const buf = toBuffer(input);
    const r = new Reader(buf, buf.length, this.limits);
    const v = this.readWith(codec, r);
    if (r.pos !== buf.length) {
      throw new TlDecodeError(`${buf.length - r.pos} trailing bytes after ${codec.typeName}`, r.pos);
    }
    return v;
  }

  private readWith(codec: Codec, r: Reader): unknown {
    try {
      return codec.read(r);
    } catch (e) {
      if (e instanceof TlDecodeError) throw e;
      // Defensive: anything else (e.g. RangeError from a bug) is still reported as malformed input.
      throw new TlDecodeError(`malformed input: ${e instanceof Error ? e.message : String(e)}`, r.pos);
    }
  }
}

class UnsupportedType extends Error {}

function minOf(bodies: readonly BodyCodec[]): number {
  if (bodies.length === 0) return 0;
  let m = Infinity;
  for (const b of bodies) if (b.minSize < m) m = b.minSize;
  return m;
}
