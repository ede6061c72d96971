// Values shared by the send, get-method and wallet methods: addresses and BoCs in requests (a
// malformed one is a 422 that names the parameter), block and transaction ids in responses.
import { create } from "@bufbuild/protobuf";
import { Address, type Cell } from "@ton/core";
import { apiError } from "@tongate/runtime";
import { BocError, parseAddress, readBocBase64, type BocLimits } from "@tongate/ton";
import { InternalTransactionIdSchema, TonBlockIdExtSchema } from "@tongate/proto/gen/tongate/v2/types_pb.js";
import type { BlockIdExt } from "./chain.js";
import { withInput } from "./utils.js";

export const tonBlockId = (b: BlockIdExt) =>
  create(TonBlockIdExtSchema, { workchain: b.workchain, shard: b.shard, seqno: b.seqno, rootHash: b.root_hash, fileHash: b.file_hash });

export const transactionId = (lt: bigint, hash: Buffer) => create(InternalTransactionIdSchema, { lt, hash });

export function addressParam(param: string, value: string): Address {
  const a = withInput(param, value, () => parseAddress(value));
  return new Address(a.workchain, a.hash);
}

/** The single root cell of a base64 BoC parameter, within `limits`; "" is allowed only when `optional`. */
export function bocParam(param: string, value: string, limits: BocLimits): Cell;
export function bocParam(param: string, value: string | undefined, limits: BocLimits, optional: true): Cell | undefined;
export function bocParam(param: string, value: string | undefined, limits: BocLimits, optional = false): Cell | undefined {
  if (!value) {
    if (optional) return undefined;
    throw apiError(422, `${param}: must be a base64 BoC`);
  }
  try {
    return readBocBase64(value, limits)[0]!;
  } catch (e) {
    if (e instanceof BocError) throw apiError(422, `${param}: ${e.message}`);
    throw e;
  }
}

const bocs = new WeakMap<Cell, Uint8Array>();

/** A cell's BoC as the API returns it (no index, no CRC), serialized once per cell. */
export function cellBoc(cell: Cell | undefined): Uint8Array {
  if (!cell) return new Uint8Array();
  let b = bocs.get(cell);
  if (!b) bocs.set(cell, (b = cell.toBoc({ idx: false, crc32: false })));
  return b;
}
