// Resolves a parsed scheme once into types, constructors and field plans the reader walks: names
// bound to slots, constant type expressions evaluated ahead, each field's rendering decided.

import type { DeclarationAst, Expr, FieldAst } from "./ast.js";
import { TlbSchemeError } from "./errors.js";
import { crc32 } from "@tongate/tl";

/** A natural-number expression over a constructor's slots. */
export type NatE =
  | { k: "c"; v: number }
  | { k: "v"; s: number }
  | { k: "+" | "-" | "*"; a: NatE; b: NatE };

/** A type expression before its variables are known. */
export type TypeE =
  | { k: "app"; def: TypeDef; args: ArgE[] }
  | { k: "var"; s: number }
  | { k: "ref"; t: TypeE }
  | { k: "uint" | "int" | "bits" | "natw" | "natless" | "natleq" | "bitTuple"; w: NatE }
  | { k: "nat" | "any" | "cell" | "snake" };

export type ArgE = { k: "nat"; e: NatE } | { k: "type"; t: TypeE } | { k: "out"; s: number };

/** A type expression with its variables substituted: what the reader reads. */
export type TV =
  | { k: "app"; def: TypeDef; nats: number[]; types: (TV | null)[] }
  /** `raw`: written `^Cell`/`^Any` (its cell given as is); a `^X` bound to Any is not raw. */
  | { k: "ref"; t: TV; raw: boolean }
  | { k: "uint" | "int" | "bits" | "natw" | "natless" | "natleq" | "bitTuple"; w: number }
  | { k: "nat" | "any" | "cell" | "snake" };

export type CondE = { k: "bit"; e: NatE; bit: number } | { k: "nz"; e: NatE };

/** How a field's value is written: toncenter's printer gives numbers as decimal strings, bits as hex. */
export type Render = "nat" | "bool" | "int" | "hex" | "value" | "refValue";

export interface FieldStep {
  k: "field";
  /** JSON key: the field name, "" for an unnamed field (as toncenter's printer writes it). */
  key: string;
  /** `ctor.field` for error paths. */
  label: string;
  cond: CondE | null;
  type: TypeE;
  /** The type evaluated once when it has no variables. */
  fixed: TV | null;
  render: Render;
  /** Slot receiving the value of a `#`-typed field, or -1. */
  slot: number;
  /** The type has `~x` arguments: reading it defines x. */
  outs: boolean;
}

export type Step =
  | FieldStep
  | { k: "check"; op: "=" | "<=" | "<" | ">=" | ">" | "!="; a: NatE; b: NatE; label: string }
  /** `{ n = (~m) + l }`: m = (n - l) when `sub`, the other side otherwise. */
  | { k: "solve"; s: number; e: NatE; label: string };

export type ArgPattern =
  | { k: "const"; v: number }
  | { k: "bind"; s: number; plus: number }
  | { k: "bindType"; s: number }
  | { k: "anyType" }
  | { k: "out"; e: NatE };

export interface Ctor {
  name: string;
  /** `_`: printed without `@type`. */
  anonymous: boolean;
  def: TypeDef;
  tagBits: number;
  tag: number;
  slots: number;
  /** Position among its type's constructors. */
  order: number;
  params: ArgPattern[];
  steps: Step[];
  line: number;
}

export type ParamKind = "nat" | "type" | "out";

export interface TypeDef {
  name: string;
  ctors: Ctor[];
  /** Constructors by tag length, then tag value, each list in declaration order; untagged ones apart. */
  dispatch: { lens: number[]; byTag: Map<number, Ctor[]>[]; untagged: Ctor[] };
  kinds: ParamKind[];
  /** No parameters, one bit, both values valid (`Bool`, `Bit`, two-valued enums): printed as JSON true/false. */
  isBool: boolean;
}

export interface CompiledScheme {
  types: Map<string, TypeDef>;
  /** Constructors in source order. */
  ctors: Ctor[];
}

const FIXED_INT = /^(u?int|bits)(\d+)$/;

interface Scope {
  names: Map<string, { s: number; kind: "nat" | "type" | "field" }>;
  slots: number;
}

function bitsForLess(n: number): number {
  return n <= 1 ? 0 : 32 - Math.clz32(n - 1);
}
export function bitsForLeq(n: number): number {
  return n <= 0 ? 0 : 32 - Math.clz32(n);
}

export function compileScheme(decls: DeclarationAst[]): CompiledScheme {
  const types = new Map<string, TypeDef>();
  // Pass 1: every declared type and the kinds of its parameters.
  for (const d of decls) {
    let def = types.get(d.typeName);
    if (!def) {
      const typeParams = new Set(d.fields.filter((f) => f.k === "param" && f.kind === "Type").map((f) => (f as { name: string }).name));
      const kinds: ParamKind[] = d.args.map((a) =>
        a.k === "neg" ? "out" : (a.k === "name" && (typeParams.has(a.name) || /^[A-Z]/.test(a.name))) || a.k === "apply" || a.k === "ref" ? "type" : "nat",
      );
      def = { name: d.typeName, ctors: [], kinds, isBool: false, dispatch: emptyDispatch() };
      types.set(d.typeName, def);
    } else if (def.kinds.length !== d.args.length) {
      throw new TlbSchemeError(`line ${d.line}: ${d.typeName} declared with ${def.kinds.length} and ${d.args.length} parameters`);
    }
  }
  const ctors: Ctor[] = [];
  const allCtors: Ctor[] = [];
  let anonCount = 0;
  const compileCtor = (name: string, tag: DeclarationAst["tag"], fields: FieldAst[], def: TypeDef, args: Expr[], line: number): Ctor => {
    const scope: Scope = { names: new Map(), slots: 0 };
    const ctor: Ctor = { name, anonymous: name === "_", def, tagBits: 0, tag: 0, slots: 0, order: def.ctors.length, params: [], steps: [], line };
    allCtors.push(ctor);
    if (tag) {
      ctor.tagBits = tag.bits;
      ctor.tag = tag.value;
    } else if (name !== "_") {
      // TL-B gives a named constructor without a tag the CRC32 of its canonical text.
      ctor.tagBits = 32;
      ctor.tag = crc32(canonicalText(name, fields, def.name, args)) >>> 0;
    }
    const where = (what: string) => `line ${line}: ${name === "_" ? def.name : name}: ${what}`;
    const natE = (e: Expr): NatE => {
      switch (e.k) {
        case "num":
          return { k: "c", v: e.v };
        case "name": {
          const b = scope.names.get(e.name);
          if (!b || b.kind === "type") throw new TlbSchemeError(where(`'${e.name}' is not a natural number defined before its use`));
          return { k: "v", s: b.s };
        }
        case "bin":
          return { k: e.op, a: natE(e.a), b: natE(e.b) };
        case "neg":
          return natE(e.e);
        default:
          throw new TlbSchemeError(where(`unsupported natural-number expression (${e.k})`));
      }
    };
    const typeE = (e: Expr): TypeE => {
      switch (e.k) {
        case "name": {
          const b = scope.names.get(e.name);
          if (b) {
            if (b.kind !== "type") throw new TlbSchemeError(where(`'${e.name}' is a number, not a type`));
            return { k: "var", s: b.s };
          }
          if (e.name === "Any") return { k: "any" };
          if (e.name === "Cell") return { k: "cell" };
          if (e.name === "SnakeString") return { k: "snake" };
          const m = FIXED_INT.exec(e.name);
          if (m) return { k: m[1] as "uint" | "int" | "bits", w: { k: "c", v: Number(m[2]) } };
          return apply(e.name, []);
        }
        case "apply": {
          if ((e.head === "uint" || e.head === "int" || e.head === "bits") && e.args.length === 1) return { k: e.head, w: natE(e.args[0]!) };
          return apply(e.head, e.args);
        }
        case "ref":
          return { k: "ref", t: typeE(e.e) };
        case "nat":
          if (e.op === "#") return { k: "nat" };
          return { k: e.op === "##" ? "natw" : e.op === "#<" ? "natless" : "natleq", w: natE(e.arg!) };
        case "bin":
          if (e.op === "*" && e.b.k === "name" && e.b.name === "Bit") return { k: "bitTuple", w: natE(e.a) };
          throw new TlbSchemeError(where(`unsupported type expression (${e.op})`));
        case "anon": {
          const anonDef: TypeDef = { name: `${def.name}_aux${++anonCount}`, ctors: [], kinds: [], isBool: false, dispatch: emptyDispatch() };
          anonDef.ctors.push(compileCtor("_", { bits: 0, value: 0 }, e.fields, anonDef, [], line));
          return { k: "app", def: anonDef, args: [] };
        }
        default:
          throw new TlbSchemeError(where(`unsupported type expression (${e.k})`));
      }
    };
    const apply = (head: string, argsE: Expr[]): TypeE => {
      const target = types.get(head);
      if (!target) throw new TlbSchemeError(where(`unknown type '${head}'`));
      if (target.kinds.length !== argsE.length) throw new TlbSchemeError(where(`${head} takes ${target.kinds.length} arguments, given ${argsE.length}`));
      const out: ArgE[] = argsE.map((a, i) => {
        const kind = target.kinds[i]!;
        if (kind === "type") return { k: "type", t: typeE(a) };
        if (kind === "out") {
          if (a.k !== "neg" || a.e.k !== "name") throw new TlbSchemeError(where(`argument ${i + 1} of ${head} must be ~name`));
          const b = scope.names.get(a.e.name);
          if (!b || b.kind === "type") throw new TlbSchemeError(where(`'${a.e.name}' is not a declared natural number`));
          return { k: "out", s: b.s };
        }
        return { k: "nat", e: natE(a) };
      });
      return { k: "app", def: target, args: out };
    };
    const condE = (e: Expr): CondE => (e.k === "bit" ? { k: "bit", e: natE(e.e), bit: e.bit } : { k: "nz", e: natE(e) });

    for (const f of fields) {
      if (f.k === "param") {
        scope.names.set(f.name, { s: scope.slots++, kind: f.kind === "#" ? "nat" : "type" });
      } else if (f.k === "constraint") {
        ctor.steps.push(constraintStep(f.e, natE, where, scope));
      } else {
        const key = f.name ?? "";
        let cond: CondE | null = null;
        let texpr = f.type;
        if (texpr.k === "cond") {
          cond = condE(texpr.c);
          texpr = texpr.e;
        }
        const type = typeE(texpr);
        const slot = f.name ? scope.slots++ : -1;
        if (f.name) scope.names.set(f.name, { s: slot, kind: isNatType(type) ? "nat" : "field" });
        ctor.steps.push({ k: "field", key, label: `${name === "_" ? def.name : name}.${key || "_"}`, cond, type, fixed: null, render: renderOf(type), slot, outs: type.k === "app" && type.args.some((a) => a.k === "out") });
      }
    }
    ctor.params = args.map((a, i): ArgPattern => {
      const kind = def.kinds[i];
      if (kind === "out") {
        if (a.k !== "neg") throw new TlbSchemeError(where(`parameter ${i + 1} of ${def.name} must be ~expression`));
        return { k: "out", e: natE(a.e) };
      }
      if (kind === "type") {
        if (a.k === "name") {
          const b = scope.names.get(a.name);
          if (b && b.kind === "type") return { k: "bindType", s: b.s };
        }
        return { k: "anyType" };
      }
      if (a.k === "num") return { k: "const", v: a.v };
      if (a.k === "name") {
        const b = scope.names.get(a.name);
        if (!b || b.kind === "type") throw new TlbSchemeError(where(`'${a.name}' is not a declared natural number`));
        return { k: "bind", s: b.s, plus: 0 };
      }
      if (a.k === "bin" && a.op === "+" && a.a.k === "name" && a.b.k === "num") {
        const b = scope.names.get(a.a.name);
        if (!b || b.kind === "type") throw new TlbSchemeError(where(`'${a.a.name}' is not a declared natural number`));
        return { k: "bind", s: b.s, plus: a.b.v };
      }
      throw new TlbSchemeError(where(`unsupported parameter pattern for ${def.name}`));
    });
    ctor.slots = scope.slots;
    return ctor;
  };

  for (const d of decls) {
    const def = types.get(d.typeName)!;
    const ctor = compileCtor(d.name, d.tag, d.fields, def, d.args, d.line);
    def.ctors.push(ctor);
    ctors.push(ctor);
  }
  for (const def of types.values()) def.isBool = computeIsBool(def, types);
  const defs = new Set(allCtors.map((c) => c.def));
  for (const def of defs) {
    for (const c of def.ctors) {
      if (!c.tagBits) {
        def.dispatch.untagged.push(c);
        continue;
      }
      let i = def.dispatch.lens.indexOf(c.tagBits);
      if (i < 0) {
        i = def.dispatch.lens.push(c.tagBits) - 1;
        def.dispatch.byTag.push(new Map());
      }
      const m = def.dispatch.byTag[i]!;
      const list = m.get(c.tag) ?? [];
      list.push(c);
      m.set(c.tag, list);
    }
  }
  // Renders depend on isBool, known only now; constant types are evaluated once.
  for (const ctor of allCtors) {
    for (const st of ctor.steps) {
      if (st.k !== "field") continue;
      st.render = renderOf(st.type);
      st.fixed = constantTV(st.type);
    }
  }
  return { types, ctors };
}

/** `^Cell` / `^Any` as written: toncenter prints the referenced cell itself, not wrapped. */
export function isRawRef(t: TypeE & { k: "ref" }): boolean {
  return t.t.k === "any" || t.t.k === "cell";
}

function emptyDispatch(): TypeDef["dispatch"] {
  return { lens: [], byTag: [], untagged: [] };
}

function isNatType(t: TypeE): boolean {
  return t.k === "nat" || t.k === "natw" || t.k === "natless" || t.k === "natleq";
}

function renderOf(t: TypeE): Render {
  switch (t.k) {
    case "nat":
    case "natw":
    case "natless":
    case "natleq":
      return "nat";
    case "uint":
      return t.w.k === "c" && t.w.v === 1 ? "bool" : "int";
    case "int":
      return "int";
    case "bits":
    case "bitTuple":
      return "hex";
    case "app":
      return t.def.isBool ? "bool" : "value";
    case "ref":
      return "refValue";
    default:
      return "value";
  }
}

function computeIsBool(def: TypeDef, types: Map<string, TypeDef>): boolean {
  if (def.kinds.length) return false;
  const cs = def.ctors;
  const explicit = (c: Ctor) => c.steps.filter((s) => s.k === "field");
  if (cs.length === 2) {
    const tags = cs.map((c) => (c.tagBits === 1 && !explicit(c).length ? c.tag : -1)).sort();
    return tags[0] === 0 && tags[1] === 1;
  }
  if (cs.length === 1 && cs[0]!.tagBits === 0) {
    const f = explicit(cs[0]!);
    if (f.length !== 1) return false;
    const t = (f[0] as FieldStep).type;
    if ((t.k === "natw" || t.k === "uint" || t.k === "int" || t.k === "bits") && t.w.k === "c" && t.w.v === 1) return true;
    if (t.k === "app" && t.def !== def && !t.args.length) return computeIsBool(t.def, types);
  }
  return false;
}

function constraintStep(
  e: Expr,
  natE: (e: Expr) => NatE,
  where: (w: string) => string,
  scope: Scope,
): Step {
  if (e.k !== "cmp") throw new TlbSchemeError(where("a constraint must be a comparison"));
  const label = where("constraint").replace(/^line \d+: /, "");
  // An equation defining a variable: `{ n = (~m) + l }` or `{ ~m = e }`.
  const negIn = (x: Expr): string | null => (x.k === "neg" && x.e.k === "name" ? x.e.name : x.k === "bin" && x.op === "+" ? negIn(x.a) ?? negIn(x.b) : null);
  if (e.op === "=") {
    for (const [lhs, rhs] of [
      [e.a, e.b],
      [e.b, e.a],
    ] as const) {
      const v = negIn(rhs);
      if (!v) continue;
      const b = scope.names.get(v);
      if (!b || b.kind === "type") throw new TlbSchemeError(where(`'${v}' is not a declared natural number`));
      // rhs is ~v, ~v + x or x + ~v: v = lhs - x.
      const rest = rhs.k === "bin" ? (rhs.a.k === "neg" ? rhs.b : rhs.a) : null;
      const value = rest ? ({ k: "-", a: natE(lhs), b: natE(rest) } as NatE) : natE(lhs);
      return { k: "solve", s: b.s, e: value, label };
    }
  }
  return { k: "check", op: e.op, a: natE(e.a), b: natE(e.b), label };
}

/** The type with no variables evaluated once, or null when it depends on the constructor's values. */
function constantTV(t: TypeE): TV | null {
  switch (t.k) {
    case "var":
      return null;
    case "ref": {
      const inner = constantTV(t.t);
      return inner ? { k: "ref", t: inner, raw: isRawRef(t) } : null;
    }
    case "app": {
      const nats: number[] = [];
      const tvs: (TV | null)[] = [];
      for (const a of t.args) {
        if (a.k === "out") return null;
        if (a.k === "nat") {
          if (a.e.k !== "c") return null;
          nats.push(a.e.v);
          tvs.push(null);
        } else {
          const inner = constantTV(a.t);
          if (!inner) return null;
          nats.push(0);
          tvs.push(inner);
        }
      }
      return { k: "app", def: t.def, nats, types: tvs };
    }
    case "uint":
    case "int":
    case "bits":
    case "natw":
    case "natless":
    case "natleq":
    case "bitTuple":
      return t.w.k === "c" ? { k: t.k, w: t.w.v } : null;
    default:
      return { k: t.k };
  }
}

/** The text TL-B hashes into a missing tag: `name field:Type … = Type args` (simple field types only). */
function canonicalText(name: string, fields: FieldAst[], typeName: string, args: Expr[]): string {
  const show = (e: Expr, top: boolean): string => {
    switch (e.k) {
      case "num":
        return String(e.v);
      case "name":
        return e.name;
      case "apply": {
        const s = `${e.head} ${e.args.map((a) => show(a, false)).join(" ")}`;
        return top ? s : `(${s})`;
      }
      case "nat":
        return e.op === "#" ? "#" : top ? `${e.op} ${show(e.arg!, false)}` : `(${e.op} ${show(e.arg!, false)})`;
      case "ref":
        return `^${show(e.e, false)}`;
      default:
        return "?";
    }
  };
  let s = name;
  for (const f of fields) {
    if (f.k === "field") s += ` ${f.name ? `${f.name}:` : ""}${show(f.type, false)}`;
    else if (f.k === "param") s += ` ${f.name}:${f.kind}`;
  }
  s += ` = ${typeName}`;
  for (const a of args) s += ` ${show(a, false)}`;
  return s;
}

export { bitsForLess };
