// Deterministic sample values for any constructor of a schema, driven by the schema's own field list.
import type { TlObject, TlSchema } from "../src/index.js";

/** Small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SampleOptions {
  /** "none": all flag words 0; "all": all bits used by conditional fields set; "random": random bits. */
  flags: "none" | "all" | "random";
  /** Bits never set in flag words (e.g. fields a peer codec does not know). */
  avoidBits?: number;
}

function randomBytes(rand: () => number, n: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = (rand() * 256) | 0;
  return b;
}

function int32(rand: () => number): number {
  return ((rand() * 2 ** 32) | 0) || 1;
}

function int64(rand: () => number): bigint {
  const v = BigInt.asIntN(64, (BigInt(Math.floor(rand() * 2 ** 32)) << 32n) | BigInt(Math.floor(rand() * 2 ** 32)));
  return v === 0n ? 1n : v;
}

export function sampleOf(schema: TlSchema, kind: string, rand: () => number, opts: SampleOptions, depth = 0): TlObject {
  const c = schema.byName(kind);
  if (!c) throw new Error(`no ${kind}`);
  const o: Record<string, unknown> = { kind };
  // Bits that some conditional field depends on, per flag field.
  const used = new Map<string, number>();
  for (const f of c.fields) if (f.cond) used.set(f.cond.field, (used.get(f.cond.field) ?? 0) | (1 << f.cond.bit));
  for (const f of c.fields) {
    if (f.cond) {
      if (((o[f.cond.field] as number) & (1 << f.cond.bit)) === 0) continue;
    }
    if (f.type === "#" && used.has(f.name)) {
      const mask = (used.get(f.name) as number) & ~(opts.avoidBits ?? 0);
      const v = opts.flags === "none" ? 0 : opts.flags === "all" ? mask : (int32(rand) & mask) >>> 0;
      o[f.name] = v >>> 0;
      continue;
    }
    o[f.name] = sampleType(schema, f.type, rand, opts, depth);
  }
  return o as TlObject;
}

export function sampleType(schema: TlSchema, type: string, rand: () => number, opts: SampleOptions, depth: number): unknown {
  if (type.startsWith("vector ")) {
    const n = depth > 3 ? 0 : (rand() * 4) | 0;
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(sampleType(schema, type.slice(7), rand, opts, depth + 1));
    return out;
  }
  switch (type) {
    case "#":
      return int32(rand) >>> 0;
    case "int":
      return int32(rand);
    case "long":
      return int64(rand);
    case "double":
      return rand() * 1e6;
    case "int128":
      return randomBytes(rand, 16);
    case "int256":
      return randomBytes(rand, 32);
    case "bytes": {
      const r = rand();
      // Exercise short, boundary and long (0xFE prefix) forms.
      const n = r < 0.1 ? 0 : r < 0.2 ? 253 : r < 0.3 ? 254 : r < 0.4 ? 1000 : (rand() * 40) | 0;
      return randomBytes(rand, n);
    }
    case "string":
      return rand() < 0.5 ? "ok" : "ошибка: ✓ ".repeat(((rand() * 30) | 0) + 1);
    case "Bool":
      return rand() < 0.5;
    case "true":
      return true;
  }
  const dot = type.lastIndexOf(".");
  const c = type.charCodeAt(dot + 1);
  if (c >= 97 && c <= 122) return sampleOf(schema, type, rand, opts, depth + 1);
  const ctors = schema.constructorsOf(type);
  if (ctors.length === 0) throw new Error(`no constructors for ${type}`);
  const pick = ctors[(rand() * ctors.length) | 0];
  return sampleOf(schema, pick.name, rand, opts, depth + 1);
}
