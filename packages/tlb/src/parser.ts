// A TL-B scheme parser: declarations `name#tag fields = Type args;` into the syntax tree of ast.ts.
//
// Written for this package rather than taken from @ton-community/tlb-parser: that parser refuses
// four declarations of toncenter's message-schemes.tlb (a constructor named with commas, and
// `^[ … ]` anonymous cells used as type arguments) and needs seconds for the file (see README.md).

import type { DeclarationAst, Expr, FieldAst } from "./ast.js";
import { TlbSchemeError } from "./errors.js";

type Tok =
  | { t: "id"; v: string; line: number }
  | { t: "num"; v: number; line: number }
  | { t: "op"; v: string; line: number }
  | { t: "tag"; bits: number; value: number; line: number }
  | { t: "eof"; line: number };

const OPS = ["#<=", "#<", "##", "<=", ">=", "!=", "#", "$", "(", ")", "[", "]", "{", "}", ":", ";", "=", "<", ">", "^", "~", "?", ".", "+", "-", "*"];

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  let line = 1;
  // A declaration starts at the beginning of the text or after `;`: there the constructor name is
  // read up to whitespace or its tag, so that names such as `a,b,c#00000001` stay whole.
  let atDeclStart = true;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\n") {
      line++;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) throw new TlbSchemeError(`line ${line}: unterminated comment`);
      for (let j = i; j < end; j++) if (src[j] === "\n") line++;
      i = end + 2;
      continue;
    }
    if (atDeclStart) {
      let j = i;
      while (j < src.length && !/[\s#$]/.test(src[j]!)) j++;
      if (j === i) throw new TlbSchemeError(`line ${line}: a declaration must start with a constructor name`);
      out.push({ t: "id", v: src.slice(i, j), line });
      i = j;
      atDeclStart = false;
      if (src[i] === "#" || src[i] === "$") {
        const hex = src[i] === "#";
        let k = i + 1;
        while (k < src.length && /[0-9a-fA-F_]/.test(src[k]!)) k++;
        const text = src.slice(i + 1, k);
        out.push({ line, ...parseTag(text, hex, line) });
        i = k;
      }
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[A-Za-z0-9_]/.test(src[j]!)) j++;
      out.push({ t: "id", v: src.slice(i, j), line });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[0-9]/.test(src[j]!)) j++;
      out.push({ t: "num", v: Number(src.slice(i, j)), line });
      i = j;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new TlbSchemeError(`line ${line}: unexpected character '${c}'`);
    out.push({ t: "op", v: op, line });
    i += op.length;
    if (op === ";") atDeclStart = true;
  }
  out.push({ t: "eof", line });
  return out;
}

/** `#0f8a7ea5`, `$10`, `#_`, `$_`; a hex tag may end in `_` (a completion tag: trailing `10…0` dropped). */
function parseTag(text: string, hex: boolean, line: number): { t: "tag"; bits: number; value: number } {
  if (text === "_") return { t: "tag", bits: 0, value: 0 };
  let bits = "";
  if (hex) {
    const completed = text.endsWith("_");
    const digits = completed ? text.slice(0, -1) : text;
    if (!/^[0-9a-fA-F]*$/.test(digits)) throw new TlbSchemeError(`line ${line}: bad hex tag #${text}`);
    for (const d of digits) bits += parseInt(d, 16).toString(2).padStart(4, "0");
    if (completed) bits = bits.replace(/10*$/, "");
  } else {
    if (!/^[01]*$/.test(text)) throw new TlbSchemeError(`line ${line}: bad binary tag $${text}`);
    bits = text;
  }
  if (bits.length > 32) throw new TlbSchemeError(`line ${line}: tags longer than 32 bits are not supported`);
  return { t: "tag", bits: bits.length, value: bits.length ? parseInt(bits, 2) : 0 };
}

class Parser {
  private p = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok {
    return this.toks[this.p]!;
  }
  private next(): Tok {
    return this.toks[this.p++]!;
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.t === "op" && t.v === v;
  }
  private expectOp(v: string): void {
    const t = this.next();
    if (t.t !== "op" || t.v !== v) throw new TlbSchemeError(`line ${t.line}: expected '${v}', found ${show(t)}`);
  }

  declarations(): DeclarationAst[] {
    const out: DeclarationAst[] = [];
    while (this.peek().t !== "eof") out.push(this.declaration());
    return out;
  }

  private declaration(): DeclarationAst {
    const nameTok = this.next();
    if (nameTok.t !== "id") throw new TlbSchemeError(`line ${nameTok.line}: expected a constructor name, found ${show(nameTok)}`);
    let tag: DeclarationAst["tag"] = null;
    const t = this.peek();
    if (t.t === "tag") {
      this.p++;
      tag = { bits: t.bits, value: t.value };
    }
    const fields = this.fields("=");
    this.expectOp("=");
    const typeTok = this.next();
    if (typeTok.t !== "id") throw new TlbSchemeError(`line ${typeTok.line}: expected a type name after '=', found ${show(typeTok)}`);
    const args: Expr[] = [];
    while (!this.isOp(";")) args.push(this.unary());
    this.expectOp(";");
    return { name: nameTok.v, tag, fields, typeName: typeTok.v, args, line: nameTok.line };
  }

  private fields(end: string): FieldAst[] {
    const out: FieldAst[] = [];
    while (!this.isOp(end)) {
      const t = this.peek();
      if (t.t === "eof") throw new TlbSchemeError(`line ${t.line}: unexpected end of scheme`);
      out.push(this.field());
    }
    return out;
  }

  private field(): FieldAst {
    const t = this.peek();
    const line = t.line;
    if (this.isOp("{")) {
      this.p++;
      const a = this.peek();
      const b = this.toks[this.p + 1]!;
      if (a.t === "id" && b.t === "op" && b.v === ":") {
        this.p += 2;
        const k = this.next();
        let kind: "#" | "Type";
        if (k.t === "op" && k.v === "#") kind = "#";
        else if (k.t === "id" && k.v === "Type") kind = "Type";
        else throw new TlbSchemeError(`line ${k.line}: implicit parameter {${a.v}:…} must be '#' or 'Type'`);
        this.expectOp("}");
        return { k: "param", name: a.v, kind, line };
      }
      const e = this.expr();
      this.expectOp("}");
      return { k: "constraint", e, line };
    }
    const b = this.toks[this.p + 1]!;
    if (t.t === "id" && b.t === "op" && b.v === ":") {
      this.p += 2;
      return { k: "field", name: t.v === "_" ? null : t.v, type: this.fieldType(), line };
    }
    return { k: "field", name: null, type: this.fieldType(), line };
  }

  /** A field's type: a term, optionally `x . n`, optionally `?T` (no juxtaposition without parentheses). */
  private fieldType(): Expr {
    let e = this.unary();
    if (this.isOp(".")) {
      this.p++;
      const n = this.next();
      if (n.t !== "num") throw new TlbSchemeError(`line ${n.line}: expected a bit number after '.'`);
      e = { k: "bit", e, bit: n.v };
    }
    if (this.isOp("?")) {
      this.p++;
      return { k: "cond", c: e, e: this.unary() };
    }
    return e;
  }

  /** Full expression (inside parentheses and braces). */
  private expr(): Expr {
    const a = this.add();
    for (const op of ["=", "<=", "<", ">=", ">", "!="] as const) {
      if (this.isOp(op)) {
        this.p++;
        return { k: "cmp", op, a, b: this.add() };
      }
    }
    if (this.isOp("?")) {
      this.p++;
      return { k: "cond", c: a, e: this.app() };
    }
    return a;
  }

  private add(): Expr {
    let a = this.mul();
    while (this.isOp("+") || this.isOp("-")) {
      const op = (this.next() as { v: "+" | "-" }).v;
      a = { k: "bin", op, a, b: this.mul() };
    }
    return a;
  }

  private mul(): Expr {
    let a = this.app();
    while (this.isOp("*")) {
      this.p++;
      a = { k: "bin", op: "*", a, b: this.app() };
    }
    return a;
  }

  private startsTerm(): boolean {
    const t = this.peek();
    if (t.t === "id" || t.t === "num") return true;
    return t.t === "op" && ["(", "[", "^", "~", "#", "##", "#<", "#<="].includes(t.v);
  }

  /** Juxtaposition: `Name arg arg`. */
  private app(): Expr {
    const head = this.dotted();
    const args: Expr[] = [];
    while (this.startsTerm()) args.push(this.dotted());
    if (!args.length) return head;
    if (head.k !== "name") throw new TlbSchemeError(`line ${this.peek().line}: only a type name can take arguments`);
    return { k: "apply", head: head.name, args };
  }

  private dotted(): Expr {
    const e = this.unary();
    if (this.isOp(".")) {
      this.p++;
      const n = this.next();
      if (n.t !== "num") throw new TlbSchemeError(`line ${n.line}: expected a bit number after '.'`);
      return { k: "bit", e, bit: n.v };
    }
    return e;
  }

  private unary(): Expr {
    const t = this.next();
    if (t.t === "num") return { k: "num", v: t.v };
    if (t.t === "id") return { k: "name", name: t.v };
    if (t.t !== "op") throw new TlbSchemeError(`line ${t.line}: unexpected ${show(t)}`);
    switch (t.v) {
      case "(": {
        const e = this.expr();
        this.expectOp(")");
        return e;
      }
      case "[": {
        const fields = this.fields("]");
        this.expectOp("]");
        return { k: "anon", fields };
      }
      case "^":
        return { k: "ref", e: this.unary() };
      case "~":
        return { k: "neg", e: this.unary() };
      case "#":
        return { k: "nat", op: "#", arg: null };
      case "##":
      case "#<":
      case "#<=":
        return { k: "nat", op: t.v, arg: this.unary() };
    }
    throw new TlbSchemeError(`line ${t.line}: unexpected '${t.v}'`);
  }
}

function show(t: Tok): string {
  if (t.t === "eof") return "end of scheme";
  if (t.t === "tag") return "a tag";
  return `'${t.v}'`;
}

/** Parses a TL-B scheme text into declarations, in source order. */
export function parseScheme(src: string): DeclarationAst[] {
  return new Parser(tokenize(src)).declarations();
}
