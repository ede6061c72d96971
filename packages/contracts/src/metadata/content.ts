// TEP-64 token metadata as toncenter's getTokenData reports it: on-chain content (prefix
// 0x00: a dictionary keyed by the sha256 of attribute names, each value snake
// or chunked data) or off-chain content (prefix 0x01: a URI, which is returned,
// not fetched).
import { createHash } from "node:crypto";
import { Dictionary, type Cell, type Slice } from "@ton/core";
import { ContractDataError } from "../errors.js";

export type TokenContentJson = { type: "onchain"; data: Record<string, string> } | { type: "offchain"; data: string };

/** The attribute names toncenter recognizes; others are reported under their hex key. */
const ATTRIBUTES = ["uri", "name", "description", "image", "image_data", "symbol", "decimals", "amount_style", "render_type"];
const byKey = new Map(ATTRIBUTES.map((name) => [createHash("sha256").update(name).digest("hex"), name]));

const SNAKE = 0x00;
const CHUNKED = 0x01;
const ONCHAIN = 0x00;
const OFFCHAIN = 0x01;

const unpackError = (what: string) => new ContractDataError(what);

/**
 * The cells content may have, each counted every time it is reached (as reading it reaches them):
 * as many as an account state holds (config param 43 max_acc_state_cells). A dictionary whose forks
 * reference one cell twice has 2^depth entries in a few cells; this bound stops reading it.
 */
export const MAX_CONTENT_CELLS = 65_536;

/** True when the tree under `root`, each cell counted as often as it is reached, has at most `max` cells. */
function treeWithin(root: Cell, max: number): boolean {
  const todo = [root];
  let n = 0;
  while (todo.length > 0) {
    if (++n > max) return false;
    todo.push(...todo.pop()!.refs);
  }
  return true;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function utf8OrNull(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Whole bytes of a slice's data bits, then those of its first ref, and so on (snake data). */
function snakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  for (let cur: Slice | null = s; cur; cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null) {
    parts.push(cur.loadBuffer(Math.floor(cur.remainingBits / 8)));
  }
  return Buffer.concat(parts);
}

/** ContentData: snake#00 or chunks#01 (HashmapE 32 of ^SnakeData, in key order). Null for another prefix. */
function contentDataBytes(cell: Cell): Buffer | null {
  const s = cell.beginParse();
  if (s.remainingBits < 8) return null;
  const prefix = s.loadUint(8);
  if (prefix === SNAKE) return snakeBytes(s);
  if (prefix !== CHUNKED) return null;
  const chunks = s.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  return Buffer.concat(
    chunks
      .keys()
      .sort((a, b) => a - b)
      .map((k) => snakeBytes(chunks.get(k)!.beginParse())),
  );
}

/**
 * Parses TEP-64 content. As toncenter: image_data is base64 of its bytes, other attributes must be
 * UTF-8 text (one that is not, or whose value is neither snake nor chunked, is left out).
 */
export function parseTokenContent(cell: Cell, what: string): TokenContentJson {
  if (!treeWithin(cell, MAX_CONTENT_CELLS)) {
    throw unpackError(`${what}: more than 65,536 cells as a tree, each counted every time it is referenced; content is read up to as many as an account state holds (config param 43 max_acc_state_cells)`);
  }
  const s = cell.beginParse();
  if (s.remainingBits < 8) throw unpackError(`${what}: an empty cell is not TEP-64 content`);
  const prefix = s.loadUint(8);
  if (prefix === OFFCHAIN) {
    const uri = utf8OrNull(snakeBytes(s));
    if (uri === null) throw new ContractDataError(`${what}: the off-chain URI is not UTF-8`, "uri");
    return { type: "offchain", data: uri };
  }
  if (prefix !== ONCHAIN) throw unpackError(`${what}: content prefix 0x${prefix.toString(16).padStart(2, "0")} is neither 0x00 (on-chain) nor 0x01 (off-chain)`);
  let dict;
  try {
    dict = s.loadDict(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  } catch (e) {
    throw unpackError(`${what}: the on-chain attribute dictionary is malformed: ${(e as Error).message}`);
  }
  const data: Record<string, string> = {};
  for (const [key, value] of dict) {
    const hex = key.toString("hex");
    const name = byKey.get(hex) ?? hex;
    let bytes: Buffer | null;
    try {
      bytes = contentDataBytes(value);
    } catch {
      bytes = null; // a value that is not well-formed ContentData
    }
    if (bytes === null) continue;
    const text = name === "image_data" ? bytes.toString("base64") : utf8OrNull(bytes);
    if (text !== null) data[name] = text;
  }
  return { type: "onchain", data };
}
