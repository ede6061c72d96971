// The get-method ids a contract's code declares, read from the code without running it, as
// toncenter's worker reads them for interface detection (parse_contract_methods).
//
// Compilers lay the entry of a contract out in a few ways; every one is recognised here by the
// instructions at the start of the code, and the ids are the keys of its method dictionary:
// - FunC, Tolk and Fift's PROGRAM{}: `SETCP0; DICTPUSHCONST 19; DICTIGETJMPZ; 11 THROWARG`, the
//   dictionary in the root cell's first reference (the oldest highload wallets: DICTIGETJMP);
// - Tact with receivers outside the dictionary: `SETCP0; <{ DICTPUSHCONST 19; DICTIGETJMPZ … }>
//   PUSHCONT; c3 POP; DUP; IFNOTJMP:<{ recv_internal }> …`, the dictionary in a continuation;
// - hand-written Fift (wallets v1–v3): no dictionary, the selector compared in the root cell,
//   `DUP 85143 PUSHINT EQUAL OVER 78748 PUSHINT EQUAL OR IFJMP:<{ … }>`.
//
// Bounded: only the first instructions of the code are decoded (and of the continuations they
// push), and a dictionary's keys are read, never its values; a dictionary with more keys than
// any compiler emits, or any malformed part, makes the answer empty. Nothing here throws.
import { Cell, CellType } from "@ton/core";

/** Resolves a library cell: the code cell with this hash (representation hash), if known. */
export type LibraryResolver = (hash: Buffer) => Cell | undefined;

/** More keys than this in a method dictionary: not a compiler's (a hostile or broken code cell). */
export const MAX_METHOD_IDS = 4096;
/** Instructions decoded in all, over every continuation walked. */
const MAX_INSTRUCTIONS = 1024;
/** Continuations walked (the root, the cells it jumps into, the continuations it pushes). */
const MAX_CONTINUATIONS = 32;

/**
 * The ids of the methods `code` dispatches (get-methods, and recv_internal's 0 and recv_external's
 * -1 where the dictionary holds them), sorted: each key as the unsigned number of its n bits, as
 * toncenter's worker stores them (so -1 is 2^19 - 1). A get-method's id is crc16(name) | 0x10000
 * (@ton/core's getMethodId). Code that is a library cell is read through `resolve`. Empty when
 * the code has no layout known here or is malformed.
 */
export function getMethodIds(code: Cell, resolve?: LibraryResolver): number[] {
  try {
    const ids = new Set<number>();
    if (!new CodeWalk(resolve, ids).run(code)) return [];
    return [...ids].sort((a, b) => a - b);
  } catch {
    // A resolver that threw, a library cell shorter than its hash: malformed input.
    return [];
  }
}

/** A continuation's code: bits [bit, end) and references [ref, refEnd) of one cell. */
interface Code {
  cell: Cell;
  bit: number;
  end: number;
  ref: number;
  refEnd: number;
}

const all = (cell: Cell): Code => ({ cell, bit: 0, end: cell.bits.length, ref: 0, refEnd: cell.refs.length });

/** One decoded instruction, as far as the walk needs it. */
type Op =
  | { kind: "dup" } // DUP or OVER: the selector (or a copy of it) pushed again
  | { kind: "int"; value: number }
  | { kind: "equal" }
  | { kind: "eqint"; value: number }
  | { kind: "cont"; body: Code | Cell } // an inline continuation, or one in a reference
  | { kind: "dict"; n: number; root: Cell }
  | { kind: "dictjmp" } // DICTIGETJMP(Z), DICTUGETJMP(Z), DICTIGETEXEC(Z), DICTUGETEXEC(Z)
  | { kind: "other" };

class CodeWalk {
  private instructions = 0;
  private continuations = 0;

  constructor(
    private readonly resolve: LibraryResolver | undefined,
    private readonly ids: Set<number>,
  ) {}

  /** Walks the code; false when it is malformed (the answer is then empty). */
  run(code: Cell): boolean {
    const root = this.ordinary(code);
    if (!root) return false;
    const queue: { code: Code; root: boolean }[] = [{ code: all(root), root: true }];
    while (queue.length > 0) {
      if (++this.continuations > MAX_CONTINUATIONS) break;
      const next = queue.shift()!;
      if (!this.walk(next.code, next.root, queue)) return false;
    }
    return true;
  }

  /** A cell as code: a library cell resolved (once), an ordinary cell as it is; else undefined. */
  private ordinary(cell: Cell): Cell | undefined {
    if (!cell.isExotic) return cell;
    if (cell.type !== CellType.Library || !this.resolve) return undefined;
    const hash = readBuffer(cell, 8, 32);
    const code = this.resolve(hash);
    return code && !code.isExotic && code.hash().equals(hash) ? code : undefined;
  }

  /**
   * Decodes one continuation's instructions until one that is not known here. In the root
   * stream (`root`), a selector compared with a constant records the constant; pushed
   * continuations go to `queue`. False when a method dictionary is malformed.
   */
  private walk(code: Code, root: boolean, queue: { code: Code; root: boolean }[]): boolean {
    let c: Code | undefined = code;
    // The last instructions, for the patterns `DUP <int> EQUAL`, `DUP <int> EQINT` and `DICTPUSHCONST DICTIGETJMP`.
    let prev: Op | undefined;
    let prev2: Op | undefined;
    while (c) {
      if (c.bit === c.end) {
        // TVM's implicit JMPREF: code that ends with a reference left goes on in that cell.
        if (c.ref >= c.refEnd) return true;
        const cell = this.ordinary(c.cell.refs[c.ref]!);
        if (!cell || ++this.continuations > MAX_CONTINUATIONS) return true;
        c = all(cell);
        continue;
      }
      if (++this.instructions > MAX_INSTRUCTIONS) return true;
      let op: Op | undefined;
      try {
        op = decode(c);
      } catch {
        return true; // an instruction longer than the code left: the walk of this continuation ends
      }
      if (!op) return true;
      if (op.kind === "dictjmp" && prev?.kind === "dict") {
        if (!this.dictionaryKeys(prev.root, prev.n)) return false;
      } else if (root && op.kind === "equal" && prev?.kind === "int" && prev2?.kind === "dup") {
        if (prev.value >= 0) this.ids.add(prev.value);
      } else if (root && op.kind === "eqint" && prev?.kind === "dup") {
        if (op.value >= 0) this.ids.add(op.value);
      } else if (op.kind === "cont") {
        const body = op.body instanceof Cell ? this.ordinary(op.body) : op.body;
        if (body) queue.push({ code: body instanceof Cell ? all(body) : body, root: false });
      }
      prev2 = prev;
      prev = op;
    }
    return true;
  }

  /** Adds the keys of a method dictionary (HashmapE n, non-empty), unsigned; false when malformed or too large. */
  private dictionaryKeys(root: Cell, n: number): boolean {
    if (n < 1 || n > 32) return true; // not a method dictionary a TVM selector could index
    const todo: { cell: Cell; prefix: number; left: number }[] = [{ cell: root, prefix: 0, left: n }];
    let keys = 0;
    while (todo.length > 0) {
      const { cell: raw, prefix, left } = todo.pop()!;
      const cell = this.ordinary(raw);
      if (!cell) return false;
      let label: { length: number; bits: number } | undefined;
      try {
        label = readLabel({ pos: 0, cell }, left);
      } catch {
        return false; // a label past the end of its cell
      }
      if (label === undefined) return false;
      const key = prefix * 2 ** label.length + label.bits;
      const rest = left - label.length;
      if (rest === 0) {
        if (++keys > MAX_METHOD_IDS) return false;
        this.ids.add(key);
        continue;
      }
      if (cell.refs.length < 2) return false;
      todo.push({ cell: cell.refs[0]!, prefix: key * 2, left: rest - 1 }, { cell: cell.refs[1]!, prefix: key * 2 + 1, left: rest - 1 });
    }
    return true;
  }
}

/** A HmLabel ~l m: l bits of key, `bits` their value. */
function readLabel(r: { pos: number; cell: Cell }, m: number): { length: number; bits: number } | undefined {
  const lenBits = Math.ceil(Math.log2(m + 1));
  if (!bit(r)) {
    // hml_short$0 len:(Unary ~n) s:(n * Bit)
    let l = 0;
    while (bit(r)) if (++l > m) return undefined;
    return { length: l, bits: uint(r, l) };
  }
  if (!bit(r)) {
    // hml_long$10 n:(#<= m) s:(n * Bit)
    const l = uint(r, lenBits);
    return l > m ? undefined : { length: l, bits: uint(r, l) };
  }
  // hml_same$11 v:Bit n:(#<= m)
  const v = bit(r);
  const l = uint(r, lenBits);
  return l > m ? undefined : { length: l, bits: v ? 2 ** l - 1 : 0 };
}

function bit(r: { pos: number; cell: Cell }): boolean {
  if (r.pos >= r.cell.bits.length) throw new RangeError("past the end of the cell");
  return r.cell.bits.at(r.pos++);
}

function uint(r: { pos: number; cell: Cell }, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 2 + (bit(r) ? 1 : 0);
  return v;
}

function readBuffer(cell: Cell, at: number, bytes: number): Buffer {
  const r = { pos: at, cell };
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) out[i] = uint(r, 8);
  return out;
}

/** Reads `n` bits of a continuation's code as an unsigned number. */
function take(c: Code, n: number): number {
  if (c.bit + n > c.end) throw new RangeError("an instruction past the end of its code");
  const r = { pos: c.bit, cell: c.cell };
  const v = uint(r, n);
  c.bit += n;
  return v;
}

function peek(c: Code, n: number): number | undefined {
  if (c.bit + n > c.end) return undefined;
  return uint({ pos: c.bit, cell: c.cell }, n);
}

function takeRef(c: Code): Cell {
  if (c.ref >= c.refEnd) throw new RangeError("an instruction's reference is missing");
  return c.cell.refs[c.ref++]!;
}

const signed = (v: number, bits: number) => (v >= 2 ** (bits - 1) ? v - 2 ** bits : v);

/** Decodes the instruction at `c` (advancing it), or undefined for one not known here. */
function decode(c: Code): Op | undefined {
  const b = peek(c, 8);
  if (b === undefined) return undefined;
  // Stack manipulation, one byte: XCHG s0,s(i) (0x0i), PUSH s(i) (0x2i: DUP, OVER), POP s(i) (0x3i: DROP).
  if (b <= 0x0f || (b >= 0x20 && b <= 0x3f)) {
    take(c, 8);
    return b === 0x20 || b === 0x21 ? { kind: "dup" } : { kind: "other" };
  }
  if (b >= 0x70 && b <= 0x7f) {
    take(c, 8);
    return { kind: "int", value: (b & 0x0f) <= 10 ? b & 0x0f : (b & 0x0f) - 16 }; // PUSHINT -5..10
  }
  switch (b) {
    case 0x80: // PUSHINT xx
      take(c, 8);
      return { kind: "int", value: signed(take(c, 8), 8) };
    case 0x81: // PUSHINT xxxx
      take(c, 8);
      return { kind: "int", value: signed(take(c, 16), 16) };
    case 0x82: {
      // PUSHINT l:5 xxx: a (8l+19)-bit integer; only those that fit a method id are kept exactly.
      take(c, 8);
      const bits = 8 * take(c, 5) + 19;
      if (bits > 51) {
        c.bit += bits;
        if (c.bit > c.end) throw new RangeError("PUSHINT past the end of its code");
        return { kind: "other" };
      }
      return { kind: "int", value: signed(take(c, bits), bits) };
    }
    case 0x8a: // PUSHREFCONT
      take(c, 8);
      return { kind: "cont", body: takeRef(c) };
    case 0x8e:
    case 0x8f: {
      // PUSHCONT 8F_ r:2 xx:7: the next r references and xx bytes.
      take(c, 7);
      const refs = take(c, 2);
      const bytes = take(c, 7);
      return { kind: "cont", body: inline(c, bytes, refs) };
    }
    case 0xa4: // INC
    case 0xa5: // DEC
    case 0xb1: // OR
    case 0xd8: // EXECUTE
    case 0xd9: // JMPX
    case 0xdc: // IFRET
    case 0xdd: // IFNOTRET
    case 0xde: // IF
    case 0xdf: // IFNOT
    case 0xe0: // IFJMP
    case 0xe1: // IFNOTJMP
    case 0xe2: // IFELSE
      take(c, 8);
      return { kind: "other" };
    case 0xba: // EQUAL
      take(c, 8);
      return { kind: "equal" };
    case 0xc0: // EQINT yy
      take(c, 8);
      return { kind: "eqint", value: signed(take(c, 8), 8) };
    case 0xe3: {
      // IFREF, IFNOTREF, IFJMPREF, IFNOTJMPREF: a continuation in the next reference, not walked.
      const op = peek(c, 16);
      if (op === undefined || op < 0xe300 || op > 0xe303) return undefined;
      take(c, 16);
      takeRef(c);
      return { kind: "other" };
    }
    case 0xed: {
      // PUSHCTR c(i) (ED4i), POPCTR c(i) (ED5i)
      const op = peek(c, 16);
      if (op === undefined || op < 0xed40 || op > 0xed5f) return undefined;
      take(c, 16);
      return { kind: "other" };
    }
    case 0xff:
      // SETCP0; another codepage gives the bytes after it other meanings.
      if (peek(c, 16) !== 0xff00) return undefined;
      take(c, 16);
      return { kind: "other" };
    case 0xf4: {
      const op = peek(c, 16);
      if (op === undefined) return undefined;
      // DICTPUSHCONST n: F4A6_ n:10 (14 bits of opcode), the dictionary in the next reference.
      if (peek(c, 14) === 0b11110100101001) {
        take(c, 14);
        const n = take(c, 10);
        return { kind: "dict", n, root: takeRef(c) };
      }
      // DICTIGETJMP F4A0, DICTUGETJMP F4A1, DICTIGETEXEC F4A2, DICTUGETEXEC F4A3, and their Z forms F4BC–F4BF.
      if ((op >= 0xf4a0 && op <= 0xf4a3) || (op >= 0xf4bc && op <= 0xf4bf)) {
        take(c, 16);
        return { kind: "dictjmp" };
      }
      return undefined;
    }
  }
  if (b >= 0x90 && b <= 0x9f) {
    // PUSHCONT x bytes (short form, no references)
    take(c, 8);
    return { kind: "cont", body: inline(c, b & 0x0f, 0) };
  }
  return undefined;
}

/** The code of an inline continuation: the next `bytes` bytes and `refs` references of `c`, which skips them. */
function inline(c: Code, bytes: number, refs: number): Code {
  const body: Code = { cell: c.cell, bit: c.bit, end: c.bit + 8 * bytes, ref: c.ref, refEnd: c.ref + refs };
  if (body.end > c.end || body.refEnd > c.refEnd) throw new RangeError("a continuation past the end of its code");
  c.bit = body.end;
  c.ref = body.refEnd;
  return body;
}
