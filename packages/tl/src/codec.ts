// Wire codecs. Each schema type compiles once (at TlSchema.parse) into a tree of these objects; encoding and
// decoding then walk that tree with no per-call closures, regexes or string building on the success path.

import { isUtf8 } from "node:buffer";
import { TlDecodeError, TlEncodeError } from "./errors.js";

/** A decoded TL object (bare or boxed): its constructor or function name plus its fields. */
export interface TlObject {
  readonly kind: string;
  readonly [field: string]: unknown;
}

export interface DecodeLimits {
  /** Maximum nesting of objects (constructor bodies) in one decode. Default 64. */
  maxDepth: number;
  /** Maximum element count of a vector whose elements take no bytes (`vector true`). Default 65,536. */
  maxZeroSizeVector: number;
}

export const DEFAULT_LIMITS: DecodeLimits = { maxDepth: 64, maxZeroSizeVector: 65_536 };

/** Largest length a TL bytes/string prefix can express (3-byte length). */
export const MAX_BYTES_LENGTH = 0xffffff;

const BOOL_TRUE = 0x997275b5;
const BOOL_FALSE = 0xbc799737;
const TRUE_ID = 0x3fedd339;
const VECTOR_ID = 0x1cb5c415;

export function hexId(id: number): string {
  return "0x" + (id >>> 0).toString(16).padStart(8, "0");
}

// ---------------------------------------------------------------------------------------------------------
// Reader / writer

export class Reader {
  pos: number;
  depth = 0;
  constructor(
    readonly buf: Buffer,
    readonly end: number,
    readonly limits: DecodeLimits,
    start = 0,
  ) {
    this.pos = start;
  }

  fail(message: string, at: number = this.pos): never {
    throw new TlDecodeError(message, at);
  }

  need(n: number, what: string): void {
    if (this.end - this.pos < n) {
      this.fail(`truncated input: ${what} needs ${n} bytes, ${this.end - this.pos} left`);
    }
  }

  u32(what: string): number {
    if (this.end - this.pos < 4) this.need(4, what);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  /** Reads TL bytes (length prefix, data, padding) and returns the data as a view into buf (no copy). */
  bytes(what: string): Buffer {
    const start = this.pos;
    if (this.end - start < 1) this.need(1, what);
    const buf = this.buf;
    const first = buf[start];
    let len: number;
    let header: number;
    if (first < 254) {
      len = first;
      header = 1;
    } else if (first === 254) {
      if (this.end - start < 4) this.need(4, `${what} (long length prefix)`);
      len = buf[start + 1] | (buf[start + 2] << 8) | (buf[start + 3] << 16);
      header = 4;
    } else {
      this.fail(`invalid length prefix 0xff in ${what}`);
    }
    const total = (header + len + 3) & ~3;
    if (this.end - start < total) {
      this.fail(`truncated input: ${what} declares ${len} bytes (${total} with header and padding), ${this.end - start} left`);
    }
    this.pos = start + total;
    return buf.subarray(start + header, start + header + len);
  }

  enter(kind: string): void {
    if (++this.depth > this.limits.maxDepth) this.fail(`nesting deeper than ${this.limits.maxDepth} at ${kind}`);
  }
}

export class Writer {
  buf: Buffer;
  pos = 0;
  depth = 0;
  constructor(size = 4096) {
    this.buf = Buffer.allocUnsafe(size);
  }

  reset(): void {
    this.pos = 0;
    this.depth = 0;
    if (this.buf.length > 1 << 20) this.buf = Buffer.allocUnsafe(4096);
  }

  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.pos);
    this.pos += 4;
  }

  bytes(data: Uint8Array, label: string): void {
    const len = data.length;
    if (len > MAX_BYTES_LENGTH) throw new TlEncodeError(`${label}: ${len} bytes exceed the TL maximum of ${MAX_BYTES_LENGTH}`);
    const header = len < 254 ? 1 : 4;
    const total = (header + len + 3) & ~3;
    this.ensure(total);
    const b = this.buf;
    let p = this.pos;
    if (header === 1) {
      b[p++] = len;
    } else {
      b[p++] = 254;
      b[p++] = len & 0xff;
      b[p++] = (len >>> 8) & 0xff;
      b[p++] = (len >>> 16) & 0xff;
    }
    b.set(data, p);
    p += len;
    const end = this.pos + total;
    while (p < end) b[p++] = 0;
    this.pos = end;
  }

  finish(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Codecs

export abstract class Codec {
  /** Lower bound on the serialized size, used to reject absurd vector counts before allocating. */
  minSize = 0;
  /** Human-readable type, for messages. */
  abstract readonly typeName: string;
  abstract read(r: Reader): unknown;
  abstract write(w: Writer, v: unknown, label: string): void;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Buffer.isBuffer(v)) return `Buffer(${v.length})`;
  if (v instanceof Uint8Array) return `Uint8Array(${v.length})`;
  if (Array.isArray(v)) return `array(${v.length})`;
  if (typeof v === "object") {
    const kind = (v as { kind?: unknown }).kind;
    return typeof kind === "string" ? `object ${kind}` : "object";
  }
  if (typeof v === "string") return `string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
  return `${typeof v} ${String(v)}`;
}

function badValue(label: string, expected: string, v: unknown): never {
  throw new TlEncodeError(`${label}: expected ${expected}, got ${describe(v)}`);
}

export class IntCodec extends Codec {
  readonly typeName = "int";
  override minSize = 4;
  read(r: Reader): number {
    if (r.end - r.pos < 4) r.need(4, "int");
    const v = r.buf.readInt32LE(r.pos);
    r.pos += 4;
    return v;
  }
  write(w: Writer, v: unknown, label: string): void {
    // Signed 32-bit; the unsigned range is accepted too (written as the same 32 bits).
    if (typeof v !== "number" || !Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) {
      badValue(label, "an integer in [-2^31, 2^32)", v);
    }
    w.ensure(4);
    w.buf.writeInt32LE(v | 0, w.pos);
    w.pos += 4;
  }
}

export class NatCodec extends Codec {
  readonly typeName = "#";
  override minSize = 4;
  read(r: Reader): number {
    return r.u32("#");
  }
  write(w: Writer, v: unknown, label: string): void {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
      badValue(label, "an integer in [0, 2^32)", v);
    }
    w.u32(v);
  }
}

const I64_MIN = -(1n << 63n);
const U64_MAX = (1n << 64n) - 1n;

export class LongCodec extends Codec {
  readonly typeName = "long";
  override minSize = 8;
  read(r: Reader): bigint {
    if (r.end - r.pos < 8) r.need(8, "long");
    const v = r.buf.readBigInt64LE(r.pos);
    r.pos += 8;
    return v;
  }
  write(w: Writer, v: unknown, label: string): void {
    let b: bigint;
    if (typeof v === "bigint") {
      b = v;
    } else if (typeof v === "number" && Number.isSafeInteger(v)) {
      b = BigInt(v);
    } else {
      badValue(label, "a bigint", v);
    }
    // Signed 64-bit; the unsigned range is accepted too (written as the same 64 bits).
    if (b < I64_MIN || b > U64_MAX) badValue(label, "a bigint in [-2^63, 2^64)", v);
    w.ensure(8);
    w.buf.writeBigInt64LE(BigInt.asIntN(64, b), w.pos);
    w.pos += 8;
  }
}

export class DoubleCodec extends Codec {
  readonly typeName = "double";
  override minSize = 8;
  read(r: Reader): number {
    if (r.end - r.pos < 8) r.need(8, "double");
    const v = r.buf.readDoubleLE(r.pos);
    r.pos += 8;
    return v;
  }
  write(w: Writer, v: unknown, label: string): void {
    if (typeof v !== "number") badValue(label, "a number", v);
    w.ensure(8);
    w.buf.writeDoubleLE(v, w.pos);
    w.pos += 8;
  }
}

/** int128 / int256: raw little-endian words, surfaced as a Buffer of 16 / 32 bytes. */
export class FixedBytesCodec extends Codec {
  constructor(
    readonly typeName: string,
    readonly size: number,
  ) {
    super();
    this.minSize = size;
  }
  read(r: Reader): Buffer {
    const n = this.size;
    if (r.end - r.pos < n) r.need(n, this.typeName);
    const v = r.buf.subarray(r.pos, r.pos + n);
    r.pos += n;
    return v;
  }
  write(w: Writer, v: unknown, label: string): void {
    if (!(v instanceof Uint8Array) || v.length !== this.size) badValue(label, `${this.size} bytes (${this.typeName})`, v);
    w.ensure(this.size);
    w.buf.set(v, w.pos);
    w.pos += this.size;
  }
}

export class BytesCodec extends Codec {
  readonly typeName = "bytes";
  override minSize = 4;
  read(r: Reader): Buffer {
    return r.bytes("bytes");
  }
  write(w: Writer, v: unknown, label: string): void {
    if (!(v instanceof Uint8Array)) badValue(label, "a Buffer (bytes)", v);
    w.bytes(v, label);
  }
}

export class StringCodec extends Codec {
  readonly typeName = "string";
  override minSize = 4;
  read(r: Reader): string {
    const at = r.pos;
    const view = r.bytes("string");
    if (!isUtf8(view)) r.fail("string is not valid UTF-8", at);
    return view.toString("utf8");
  }
  write(w: Writer, v: unknown, label: string): void {
    if (typeof v !== "string") badValue(label, "a string", v);
    w.bytes(Buffer.from(v, "utf8"), label);
  }
}

export class BoolCodec extends Codec {
  readonly typeName = "Bool";
  override minSize = 4;
  read(r: Reader): boolean {
    const at = r.pos;
    const id = r.u32("Bool");
    if (id === BOOL_TRUE) return true;
    if (id === BOOL_FALSE) return false;
    return r.fail(`invalid Bool constructor ${hexId(id)} (expected boolTrue or boolFalse)`, at);
  }
  write(w: Writer, v: unknown, label: string): void {
    if (typeof v !== "boolean") badValue(label, "a boolean", v);
    w.u32(v ? BOOL_TRUE : BOOL_FALSE);
  }
}

/** Bare `true`: zero bytes; its presence is carried by a flag bit. */
export class TrueCodec extends Codec {
  readonly typeName = "true";
  read(): true {
    return true;
  }
  write(_w: Writer, v: unknown, label: string): void {
    if (v !== true) badValue(label, "true", v);
  }
}

/** Boxed `True`: the constructor id of `true` and nothing else. */
export class BoxedTrueCodec extends Codec {
  readonly typeName = "True";
  override minSize = 4;
  read(r: Reader): true {
    const at = r.pos;
    const id = r.u32("True");
    if (id !== TRUE_ID) r.fail(`invalid True constructor ${hexId(id)}`, at);
    return true;
  }
  write(w: Writer, v: unknown, label: string): void {
    if (v !== true) badValue(label, "true", v);
    w.u32(TRUE_ID);
  }
}

/** `vector t` (bare: count + elements) or `Vector t` (boxed: vector's id first). */
export class VectorCodec extends Codec {
  readonly typeName: string;
  constructor(
    readonly elem: Codec,
    readonly boxed: boolean,
  ) {
    super();
    this.typeName = `${boxed ? "Vector" : "vector"} ${elem.typeName}`;
    this.minSize = boxed ? 8 : 4;
  }
  read(r: Reader): unknown[] {
    if (this.boxed) {
      const at = r.pos;
      const id = r.u32("Vector");
      if (id !== VECTOR_ID) r.fail(`invalid Vector constructor ${hexId(id)}`, at);
    }
    const at = r.pos;
    const count = r.u32("vector length");
    const elem = this.elem;
    const min = elem.minSize;
    if (min > 0) {
      if (count > (r.end - r.pos) / min) {
        r.fail(`${this.typeName}: ${count} elements cannot fit in ${r.end - r.pos} remaining bytes`, at);
      }
    } else if (count > r.limits.maxZeroSizeVector) {
      r.fail(`${this.typeName}: ${count} elements exceed the limit of ${r.limits.maxZeroSizeVector}`, at);
    }
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) out.push(elem.read(r));
    return out;
  }
  write(w: Writer, v: unknown, label: string): void {
    if (!Array.isArray(v)) badValue(label, `an array (${this.typeName})`, v);
    if (this.boxed) w.u32(VECTOR_ID);
    w.u32(v.length);
    const elem = this.elem;
    for (let i = 0; i < v.length; i++) elem.write(w, v[i], label);
  }
}

export interface FieldPlan {
  readonly name: string;
  readonly codec: Codec;
  /** Name of the `#` field holding the condition bit, or null if unconditional. */
  readonly condField: string | null;
  readonly mask: number;
  /** Type `true`: presence is the flag bit itself; `false`/absent mean "bit clear". */
  readonly isTrue: boolean;
  /** `<constructor>.<field>`, for error messages. */
  readonly label: string;
}

/** The fields of one constructor or function, without its id. Decoded objects always carry `kind`. */
export class BodyCodec extends Codec {
  readonly typeName: string;
  fields: readonly FieldPlan[] = [];
  /** Set for constructors the codec cannot serialize (e.g. generic parameters); the message says why. */
  unsupported: string | null = null;
  constructor(
    readonly kind: string,
    readonly id: number,
  ) {
    super();
    this.typeName = kind;
  }

  read(r: Reader): TlObject {
    if (this.unsupported !== null) r.fail(`${this.kind}: ${this.unsupported}`);
    r.enter(this.kind);
    const o: Record<string, unknown> = { kind: this.kind };
    const fields = this.fields;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (f.condField !== null && ((o[f.condField] as number) & f.mask) === 0) continue;
      o[f.name] = f.codec.read(r);
    }
    r.depth--;
    return o as TlObject;
  }

  write(w: Writer, v: unknown, label: string): void {
    if (this.unsupported !== null) throw new TlEncodeError(`${this.kind}: ${this.unsupported}`);
    if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array) {
      badValue(label, `an object (${this.kind})`, v);
    }
    const o = v as Record<string, unknown>;
    const kind = o.kind;
    if (kind !== undefined && kind !== this.kind) {
      throw new TlEncodeError(`${label}: expected kind ${this.kind}, got ${describe(kind)}`);
    }
    if (++w.depth > 256) throw new TlEncodeError(`${label}: value nested deeper than 256 objects (cycle?)`);
    const fields = this.fields;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      const fv = o[f.name];
      if (f.condField !== null) {
        const bitSet = ((o[f.condField] as number) & f.mask) !== 0;
        const present = f.isTrue ? fv === true : fv !== undefined && fv !== null;
        if (bitSet !== present) {
          const bit = 31 - Math.clz32(f.mask);
          throw new TlEncodeError(
            bitSet
              ? `${f.label}: ${f.condField} has bit ${bit} set but the field is ${describe(fv)}; provide it or clear the bit`
              : `${f.label}: field is present (${describe(fv)}) but bit ${bit} of ${f.condField} is clear; set the bit or omit the field`,
          );
        }
        if (!bitSet) continue;
      }
      f.codec.write(w, fv, f.label);
    }
    w.depth--;
  }
}

/** A boxed type: constructor id, then the body of that constructor. */
export class BoxedCodec extends Codec {
  private readonly byId = new Map<number, BodyCodec>();
  private readonly byKind = new Map<string, BodyCodec>();
  private single: BodyCodec | null = null;

  constructor(
    readonly typeName: string,
    bodies: readonly BodyCodec[],
  ) {
    super();
    for (const b of bodies) {
      this.byId.set(b.id, b);
      this.byKind.set(b.kind, b);
    }
    if (bodies.length === 1) this.single = bodies[0];
  }

  get bodies(): IterableIterator<BodyCodec> {
    return this.byKind.values();
  }

  read(r: Reader): TlObject {
    const at = r.pos;
    const id = r.u32(this.typeName);
    const single = this.single;
    const body = single !== null && single.id === id ? single : this.byId.get(id);
    if (body === undefined) r.fail(`unknown constructor id ${hexId(id)} for ${this.typeName}`, at);
    return body.read(r);
  }

  write(w: Writer, v: unknown, label: string): void {
    const kind = typeof v === "object" && v !== null ? (v as { kind?: unknown }).kind : undefined;
    if (typeof kind !== "string") badValue(label, `an object with a string kind (${this.typeName})`, v);
    const body = this.byKind.get(kind);
    if (body === undefined) {
      throw new TlEncodeError(`${label}: kind ${kind} is not a constructor of ${this.typeName}`);
    }
    w.u32(body.id);
    body.write(w, v, label);
  }
}
