// TL schema text → declarations (syntax only; types are resolved in schema.ts).
//
// Supported grammar (the subset TON's schemas use):
//   declaration := name['#'hex] {arg} '=' result-type ';'
//                | name '?' '=' type ';'                      (built-in: `int ? = Int;`)
//   arg         := '{' var {var} ':' type-expr '}'             (type/nat parameters)
//                | var ':' [var '.' nat '?'] type-term          (field, optionally conditional)
//                | [var ':'] [nat-term '*'] '[' {arg} ']'        (array; built-ins only)
//                | type-term                                   (anonymous field, e.g. `#`)
//   type-term   := ['%' | '!'] (ident | '#' | nat | '(' type-term {type-term} ')')
//   separators  := '---functions---' | '---types---'
// Comments: `// …` to end of line and `/* … */`.
//
// Constructor ids: an explicit `#xxxxxxxx` wins; otherwise CRC-32 of the normalized declaration, printed
// exactly as TON's tl-parser (tl_count_combinator_name / tl_buf_add_tree) prints it: the name, then each
// argument as ` name:type` (braces and parentheses dropped, `{a b:T}` → ` a:T b:T`, conditionals as
// `mode.0?type`, arrays as ` n*[ … ]`), then ` = ` and the result type.

import { crc32 } from "./crc32.js";
import { TlSchemaError } from "./errors.js";

export interface TypeTerm {
  /** Identifier (`int`, `liteServer.BlockLink`, `vector`, a type variable), `#`, or a decimal nat constant. */
  readonly name: string;
  /** Arguments of a type application: `vector int` → name `vector`, args [`int`]. */
  readonly args: readonly TypeTerm[];
  /** `%T`: the bare form of boxed type T. */
  readonly percent: boolean;
  /** `!X`: a serialized function of type X (not supported by the codec). */
  readonly bang: boolean;
}

export interface ArgDecl {
  /** Field name; null for anonymous arguments (`#`, `[ t ]`). */
  readonly name: string | null;
  /** From `{…}`: an implicit type or nat parameter, not serialized. */
  readonly implicit: boolean;
  /** `mode.3?type`. */
  readonly cond: { readonly field: string; readonly bit: number } | null;
  /** The type; null for arrays. */
  readonly type: TypeTerm | null;
  /** `[n*][ args ]`. */
  readonly array: { readonly multiplicity: TypeTerm | null; readonly args: readonly ArgDecl[] } | null;
}

export interface Declaration {
  readonly name: string;
  /** Unsigned 32-bit constructor id (explicit or computed). */
  readonly id: number;
  readonly explicitId: boolean;
  readonly isFunction: boolean;
  /** `int ? = Int;` form. */
  readonly builtin: boolean;
  readonly args: readonly ArgDecl[];
  readonly result: TypeTerm;
  /** The normalized text whose CRC-32 is the computed id. */
  readonly normalized: string;
  /** 1-based line of the declaration in its source text. */
  readonly line: number;
}

const enum T {
  Ident,
  Number,
  Punct,
  Separator,
  End,
}

interface Token {
  readonly t: T;
  readonly v: string;
  readonly line: number;
  /** For identifiers written as `name#hex`. */
  readonly id?: number;
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

const PUNCT = new Set([":", ";", "=", "{", "}", "(", ")", "[", "]", "?", ".", "*", "%", "!", "#", "<", ">", ","]);

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) {
      i++;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) throw new TlSchemaError(`line ${line}: unterminated /* comment`);
      for (let j = i; j < end; j++) if (text.charCodeAt(j) === 10) line++;
      i = end + 2;
      continue;
    }
    if (text.startsWith("---", i)) {
      const end = text.indexOf("---", i + 3);
      if (end < 0) throw new TlSchemaError(`line ${line}: unterminated --- separator`);
      const word = text.slice(i + 3, end).trim();
      if (word !== "functions" && word !== "types") throw new TlSchemaError(`line ${line}: unknown separator ---${word}---`);
      out.push({ t: T.Separator, v: word, line });
      i = end + 3;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      for (;;) {
        while (j < n && isIdentChar(text.charCodeAt(j))) j++;
        // A dot continues a namespaced identifier only when a letter follows (`mode.0?` stops at the dot).
        if (text.charCodeAt(j) === 46 && j + 1 < n && isIdentStart(text.charCodeAt(j + 1))) {
          j++;
          continue;
        }
        break;
      }
      const v = text.slice(i, j);
      if (text.charCodeAt(j) === 35 && j + 1 < n && isHex(text.charCodeAt(j + 1))) {
        let k = j + 1;
        while (k < n && isHex(text.charCodeAt(k))) k++;
        if (k - j - 1 > 8) throw new TlSchemaError(`line ${line}: constructor id of ${v} is longer than 8 hex digits`);
        out.push({ t: T.Ident, v, line, id: parseInt(text.slice(j + 1, k), 16) >>> 0 });
        i = k;
      } else {
        out.push({ t: T.Ident, v, line });
        i = j;
      }
      continue;
    }
    if (isDigit(c)) {
      let j = i + 1;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      out.push({ t: T.Number, v: text.slice(i, j), line });
      i = j;
      continue;
    }
    const ch = text[i];
    if (PUNCT.has(ch)) {
      out.push({ t: T.Punct, v: ch, line });
      i++;
      continue;
    }
    throw new TlSchemaError(`line ${line}: unexpected character ${JSON.stringify(ch)}`);
  }
  out.push({ t: T.End, v: "", line });
  return out;
}

class Parser {
  private pos = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(offset = 0): Token {
    return this.toks[Math.min(this.pos + offset, this.toks.length - 1)];
  }
  private next(): Token {
    const t = this.toks[this.pos];
    if (t.t !== T.End) this.pos++;
    return t;
  }
  private isPunct(v: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.t === T.Punct && t.v === v;
  }
  private expectPunct(v: string): void {
    const t = this.next();
    if (t.t !== T.Punct || t.v !== v) throw this.error(t, `expected '${v}'`);
  }
  private error(t: Token, msg: string): TlSchemaError {
    const got = t.t === T.End ? "end of text" : JSON.stringify(t.v);
    return new TlSchemaError(`line ${t.line}: ${msg}, got ${got}`);
  }

  parseAll(): Declaration[] {
    const out: Declaration[] = [];
    let functions = false;
    for (;;) {
      const t = this.peek();
      if (t.t === T.End) return out;
      if (t.t === T.Separator) {
        functions = t.v === "functions";
        this.next();
        continue;
      }
      if (t.t === T.Punct && t.v === ";") {
        this.next();
        continue;
      }
      out.push(this.parseDeclaration(functions));
    }
  }

  private parseDeclaration(isFunction: boolean): Declaration {
    const head = this.next();
    if (head.t !== T.Ident) throw this.error(head, "expected a combinator name");
    const line = head.line;
    // Built-in declaration: `int ? = Int;`
    if (this.isPunct("?") && this.isPunct("=", 1)) {
      this.next();
      this.next();
      const result = this.parseResultType();
      this.expectPunct(";");
      const normalized = `${head.v} ? = ${printTerm(result)}`;
      return {
        name: head.v,
        id: head.id ?? crc32(normalized),
        explicitId: head.id !== undefined,
        isFunction,
        builtin: true,
        args: [],
        result,
        normalized,
        line,
      };
    }
    const args: ArgDecl[] = [];
    while (!this.isPunct("=")) {
      if (this.peek().t === T.End || this.isPunct(";")) throw this.error(this.peek(), `declaration ${head.v}: expected '='`);
      this.parseArg(args);
    }
    this.next();
    const result = this.parseResultType();
    this.expectPunct(";");
    const normalized = normalize(head.v, args, result);
    return {
      name: head.v,
      id: head.id ?? crc32(normalized),
      explicitId: head.id !== undefined,
      isFunction,
      builtin: false,
      args,
      result,
      normalized,
      line,
    };
  }

  private parseResultType(): TypeTerm {
    const t = this.next();
    if (t.t !== T.Ident) throw this.error(t, "expected a result type");
    const args: TypeTerm[] = [];
    while (!this.isPunct(";") && this.peek().t !== T.End) args.push(this.parseTerm());
    return { name: t.v, args, percent: false, bang: false };
  }

  private parseArg(out: ArgDecl[]): void {
    const t = this.peek();
    if (t.t === T.Punct && t.v === "{") {
      this.next();
      const names: string[] = [];
      while (this.peek().t === T.Ident) names.push(this.next().v);
      if (names.length === 0) throw this.error(this.peek(), "expected a parameter name");
      this.expectPunct(":");
      const type = this.parseTypeExpr("}");
      this.expectPunct("}");
      for (const name of names) out.push({ name, implicit: true, cond: null, type, array: null });
      return;
    }
    // Named argument `name:…`
    if (t.t === T.Ident && this.isPunct(":", 1)) {
      this.next();
      this.next();
      let cond: ArgDecl["cond"] = null;
      const c0 = this.peek();
      if (c0.t === T.Ident && this.isPunct(".", 1) && this.peek(2).t === T.Number && this.isPunct("?", 3)) {
        this.next();
        this.next();
        const bitTok = this.next();
        this.next();
        const bit = Number(bitTok.v);
        if (bit > 31) throw this.error(bitTok, `conditional bit ${bit} out of range 0..31`);
        cond = { field: c0.v, bit };
      }
      if (this.isArrayStart()) {
        out.push({ name: t.v, implicit: false, cond, type: null, array: this.parseArray() });
        return;
      }
      out.push({ name: t.v, implicit: false, cond, type: this.parseTerm(), array: null });
      return;
    }
    if (this.isArrayStart()) {
      out.push({ name: null, implicit: false, cond: null, type: null, array: this.parseArray() });
      return;
    }
    out.push({ name: null, implicit: false, cond: null, type: this.parseTerm(), array: null });
  }

  private isArrayStart(): boolean {
    if (this.isPunct("[")) return true;
    const t = this.peek();
    return (t.t === T.Number || t.t === T.Ident) && this.isPunct("*", 1) && this.isPunct("[", 2);
  }

  private parseArray(): NonNullable<ArgDecl["array"]> {
    let multiplicity: TypeTerm | null = null;
    if (!this.isPunct("[")) {
      const m = this.next();
      multiplicity = { name: m.v, args: [], percent: false, bang: false };
      this.expectPunct("*");
    }
    this.expectPunct("[");
    const args: ArgDecl[] = [];
    while (!this.isPunct("]")) {
      if (this.peek().t === T.End) throw this.error(this.peek(), "unterminated array");
      this.parseArg(args);
    }
    this.next();
    return { multiplicity, args };
  }

  parseStandalone(text: string): TypeTerm {
    if (this.peek().t === T.End) throw new TlSchemaError(`invalid type expression ${JSON.stringify(text)}`);
    const first = this.parseTerm();
    const rest: TypeTerm[] = [];
    while (this.peek().t !== T.End) rest.push(this.parseTerm());
    return rest.length === 0 ? first : { ...first, args: [...first.args, ...rest] };
  }

  /** Space-separated type terms up to `stop` (used inside braces). */
  private parseTypeExpr(stop: string): TypeTerm {
    const first = this.parseTerm();
    const rest: TypeTerm[] = [];
    while (!this.isPunct(stop) && this.peek().t !== T.End) rest.push(this.parseTerm());
    if (rest.length === 0) return first;
    return { ...first, args: [...first.args, ...rest] };
  }

  private parseTerm(): TypeTerm {
    let percent = false;
    let bang = false;
    if (this.isPunct("%")) {
      this.next();
      percent = true;
    } else if (this.isPunct("!")) {
      this.next();
      bang = true;
    }
    const t = this.next();
    if (t.t === T.Punct && t.v === "(") {
      const head = this.parseTerm();
      const args: TypeTerm[] = [...head.args];
      while (!this.isPunct(")")) {
        if (this.peek().t === T.End) throw this.error(this.peek(), "unterminated '('");
        args.push(this.parseTerm());
      }
      this.next();
      return { name: head.name, args, percent: percent || head.percent, bang: bang || head.bang };
    }
    if (t.t === T.Ident || t.t === T.Number || (t.t === T.Punct && t.v === "#")) {
      // Angle-bracket application `Vector<int>` (Telegram style) is accepted as `Vector int`.
      if (this.isPunct("<")) {
        this.next();
        const args: TypeTerm[] = [this.parseTerm()];
        while (this.isPunct(",")) {
          this.next();
          args.push(this.parseTerm());
        }
        this.expectPunct(">");
        return { name: t.v, args, percent, bang };
      }
      return { name: t.v, args: [], percent, bang };
    }
    throw this.error(t, "expected a type");
  }
}

/** Prints a type term the way tl-parser does: `%` and `!` glued to the name, application flattened. */
export function printTerm(t: TypeTerm): string {
  let s = (t.percent ? "%" : t.bang ? "!" : "") + t.name;
  for (const a of t.args) s += " " + printTerm(a);
  return s;
}

function printArgs(args: readonly ArgDecl[]): string {
  let s = "";
  for (const a of args) {
    s += " ";
    if (a.name !== null) s += a.name + ":";
    if (a.cond) s += `${a.cond.field}.${a.cond.bit}?`;
    if (a.array) {
      if (a.array.multiplicity) s += printTerm(a.array.multiplicity) + "*";
      s += "[" + printArgs(a.array.args) + " ]";
    } else if (a.type) {
      s += printTerm(a.type);
    }
  }
  return s;
}

function normalize(name: string, args: readonly ArgDecl[], result: TypeTerm): string {
  return `${name}${printArgs(args)} = ${printTerm(result)}`;
}

/** Parses one schema text. Each text starts in the types (constructors) section. */
export function parseSchemaText(text: string): Declaration[] {
  return new Parser(tokenize(text)).parseAll();
}

/** Parses a standalone type expression such as `vector liteServer.transactionId` or `(vector int256)`. */
export function parseTypeExpression(text: string): TypeTerm {
  return new Parser(tokenize(text)).parseStandalone(text);
}
