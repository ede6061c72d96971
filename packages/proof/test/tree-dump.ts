// Rebuilds cells from the cell-tree dumps printed in the TON docs ("288[0101AB…] -> { … }": bit length, the
// bits in hex (zero-padded), children). Exotic cells are recognized by layout: MERKLE_PROOF (280 bits, tag 3,
// one ref), MERKLE_UPDATE (552 bits, tag 4, two refs), pruned branch (tag 1, level mask, one hash + depth per
// level, no refs). The result is only trusted when its hash is the one the docs state (tests check that).
import { BitString, type Cell, beginCell } from "@ton/core";

interface Node {
  bits: number;
  hex: string;
  children: Node[];
}

function parse(text: string): Node[] {
  const re = /(\d+)\[([0-9A-Fa-f_]*)\](\s*->\s*\{)?|\}/g;
  const stack: Node[][] = [[]];
  for (const m of text.matchAll(re)) {
    if (m[0] === "}") {
      const done = stack.pop()!;
      const parent = stack[stack.length - 1];
      parent[parent.length - 1].children = done;
      continue;
    }
    const node: Node = { bits: Number(m[1]), hex: m[2].replace(/_$/, ""), children: [] };
    stack[stack.length - 1].push(node);
    if (m[3]) stack.push([]);
  }
  if (stack.length !== 1) throw new Error("unbalanced cell tree dump");
  return stack[0];
}

function build(n: Node): Cell {
  const bytes = Buffer.from(n.hex.length % 2 ? n.hex + "0" : n.hex, "hex");
  const bits = new BitString(bytes, 0, n.bits);
  const refs = n.children.map(build);
  const tag = n.bits >= 8 ? bytes[0] : -1;
  let exotic = false;
  if (tag === 3 && n.bits === 280 && refs.length === 1) exotic = true;
  if (tag === 4 && n.bits === 552 && refs.length === 2) exotic = true;
  if (tag === 1 && refs.length === 0 && n.bits >= 16) {
    const mask = bytes[1];
    const levels = [1, 2, 4].filter((b) => mask & b).length;
    if (n.bits === 16 + levels * 272) exotic = true;
  }
  const b = beginCell().storeBits(bits);
  for (const r of refs) b.storeRef(r);
  return b.endCell({ exotic });
}

/** The root cells of a dump (normally one). */
export function cellsFromTreeDump(text: string): Cell[] {
  return parse(text).map(build);
}
