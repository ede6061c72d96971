// Shapes of the lite_api.tl objects this package reads, as @tongate/tl decodes them (snake_case fields, int256
// and bytes as Buffer, long as bigint), with runtime checks: answers come from an untrusted server.
import type { TlObject, TonNodeBlockIdExt as TlTonNodeBlockIdExt } from "@tongate/tl";
import { fail } from "./errors.js";

/**
 * tonNode.blockIdExt workchain:int shard:long seqno:int root_hash:int256 file_hash:int256: the type generated from
 * lite_api.tl (shard as decoded, signed 64-bit: 0x8000000000000000 appears as -9223372036854775808n), `kind` optional.
 */
export type TonNodeBlockIdExt = Omit<TlTonNodeBlockIdExt, "kind"> & { kind?: string };

/** liteServer.accountId workchain:int id:int256. */
export interface LiteServerAccountId {
  kind?: string;
  workchain: number;
  id: Buffer;
}

export interface LiteServerBlockData {
  kind?: string;
  id: TonNodeBlockIdExt;
  data: Buffer;
}

export interface LiteServerBlockHeader {
  kind?: string;
  id: TonNodeBlockIdExt;
  mode: number;
  header_proof: Buffer;
}

export interface LiteServerAccountState {
  kind?: string;
  id: TonNodeBlockIdExt;
  shardblk: TonNodeBlockIdExt;
  shard_proof: Buffer;
  proof: Buffer;
  state: Buffer;
}

export interface LiteServerRunMethodResult {
  kind?: string;
  mode: number;
  id: TonNodeBlockIdExt;
  shardblk: TonNodeBlockIdExt;
  shard_proof?: Buffer;
  proof?: Buffer;
  state_proof?: Buffer;
  init_c7?: Buffer;
  lib_extras?: Buffer;
  exit_code: number;
  result?: Buffer;
}

export interface LiteServerShardInfo {
  kind?: string;
  id: TonNodeBlockIdExt;
  shardblk: TonNodeBlockIdExt;
  shard_proof: Buffer;
  shard_descr: Buffer;
}

export interface LiteServerAllShardsInfo {
  kind?: string;
  id: TonNodeBlockIdExt;
  proof: Buffer;
  data: Buffer;
}

export interface LiteServerTransactionInfo {
  kind?: string;
  id: TonNodeBlockIdExt;
  proof: Buffer;
  transaction: Buffer;
}

export interface LiteServerTransactionList {
  kind?: string;
  ids: TonNodeBlockIdExt[];
  transactions: Buffer;
}

export interface LiteServerTransactionId {
  kind?: string;
  mode: number;
  account?: Buffer;
  lt?: bigint;
  hash?: Buffer;
  metadata?: unknown;
}

export interface LiteServerBlockTransactions {
  kind?: string;
  id: TonNodeBlockIdExt;
  req_count: number;
  incomplete: boolean;
  ids: LiteServerTransactionId[];
  proof: Buffer;
}

export interface LiteServerBlockTransactionsExt {
  kind?: string;
  id: TonNodeBlockIdExt;
  req_count: number;
  incomplete: boolean;
  transactions: Buffer;
  proof: Buffer;
}

export interface LiteServerSignature {
  kind?: string;
  node_id_short: Buffer;
  signature: Buffer;
}

export interface LiteServerSignatureSet {
  kind: string;
  validator_set_hash: number;
  catchain_seqno?: number;
  cc_seqno?: number;
  signatures: LiteServerSignature[];
  session_id?: Buffer;
  slot?: number;
  candidate?: Buffer;
}

export interface LiteServerBlockLinkBack {
  kind: "liteServer.blockLinkBack";
  to_key_block: boolean;
  from: TonNodeBlockIdExt;
  to: TonNodeBlockIdExt;
  dest_proof: Buffer;
  proof: Buffer;
  state_proof: Buffer;
}

export interface LiteServerBlockLinkForward {
  kind: "liteServer.blockLinkForward";
  to_key_block: boolean;
  from: TonNodeBlockIdExt;
  to: TonNodeBlockIdExt;
  dest_proof: Buffer;
  config_proof: Buffer;
  signatures: LiteServerSignatureSet;
}

export type LiteServerBlockLink = LiteServerBlockLinkBack | LiteServerBlockLinkForward;

export interface LiteServerPartialBlockProof {
  kind?: string;
  complete: boolean;
  from: TonNodeBlockIdExt;
  to: TonNodeBlockIdExt;
  steps: LiteServerBlockLink[];
}

export interface LiteServerConfigInfo {
  kind?: string;
  mode: number;
  id: TonNodeBlockIdExt;
  state_proof: Buffer;
  config_proof: Buffer;
}

export interface LiteServerLibraryResultWithProof {
  kind?: string;
  id: TonNodeBlockIdExt;
  mode: number;
  result: { hash: Buffer; data: Buffer }[];
  state_proof: Buffer;
  data_proof: Buffer;
}

// ---------------------------------------------------------------------------------------------------------
// Runtime shape checks

type Answer = object | TlObject;

function field(obj: Answer, name: string): unknown {
  return (obj as Record<string, unknown>)[name];
}

/** Checks `obj.kind` (when present) and that the listed fields have the TL types. Returns obj typed. */
export function checkShape<T>(obj: Answer, kind: string, fields: Record<string, "int" | "long" | "bytes" | "bool" | "id" | "vector" | "object">): T {
  if (typeof obj !== "object" || obj === null) fail(`${kind}: answer is not an object`);
  const k = field(obj, "kind");
  if (k !== undefined && k !== kind) fail(`expected a ${kind} answer, got ${String(k)}`);
  for (const [name, t] of Object.entries(fields)) {
    const v = field(obj, name);
    const ok =
      t === "int"
        ? typeof v === "number" && Number.isInteger(v)
        : t === "long"
          ? typeof v === "bigint"
          : t === "bytes"
            ? Buffer.isBuffer(v)
            : t === "bool"
              ? typeof v === "boolean"
              : t === "vector"
                ? Array.isArray(v)
                : t === "object"
                  ? typeof v === "object" && v !== null
                  : isBlockId(v);
    if (!ok) fail(`${kind}.${name}: missing or not a ${t === "id" ? "tonNode.blockIdExt" : t}`);
  }
  return obj as T;
}

function isBlockId(v: unknown): v is TonNodeBlockIdExt {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.workchain === "number" &&
    typeof o.shard === "bigint" &&
    typeof o.seqno === "number" &&
    Buffer.isBuffer(o.root_hash) &&
    o.root_hash.length === 32 &&
    Buffer.isBuffer(o.file_hash) &&
    o.file_hash.length === 32
  );
}

export function checkBlockId(v: unknown, what: string): TonNodeBlockIdExt {
  if (!isBlockId(v)) fail(`${what}: not a tonNode.blockIdExt`);
  return v;
}
