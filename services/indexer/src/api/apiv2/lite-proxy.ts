// API v3's v2-style methods (toncenter proxies them to API v2): answered by calling lite-proxy's
// RPCs (the send service's for /message), in this process or over gRPC, and reshaped into v3's objects.
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { base64Decode, base64Encode } from "@bufbuild/protobuf/wire";
import { type Client, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import type { TvmStackEntry } from "@tongate/proto/gen/tongate/v2/types_pb.js";
import { TvmStackEntrySchema } from "@tongate/proto/gen/tongate/v2/types_pb.js";
import {
  type AddressInformationResponse,
  AddressInformationResponseSchema,
  type WalletInformationResponse,
  WalletInformationResponseSchema,
  type EstimateFeeRequest,
  type EstimateFeeResponse,
  EstimateFeeResponseSchema,
  type RunGetMethodRequest,
  type RunGetMethodResponse,
  RunGetMethodResponseSchema,
  type SendMessageResponse,
  SendMessageResponseSchema,
  type StackEntry,
  StackEntrySchema,
} from "@tongate/proto/gen/tongate/v3/apiv2_pb.js";
import { apiError } from "@tongate/runtime";
import { MAX_STACK_ENTRIES } from "@tongate/ton";

export type LiteProxyClient = Client<typeof LiteProxy>;

export const liteProxyClient = (transport: Transport): LiteProxyClient => createClient(LiteProxy, transport);

export type SendClient = Client<typeof Send>;

export const sendClient = (transport: Transport): SendClient => createClient(Send, transport);

const b64 = (bytes: Uint8Array): string => base64Encode(bytes, "std");

export async function sendMessage(send: SendClient, boc: string): Promise<SendMessageResponse> {
  const r = await send.sendBocReturnHash({ boc });
  return create(SendMessageResponseSchema, { messageHash: b64(r.hash), messageHashNorm: b64(r.hashNorm) });
}

function decodedBase64(s: string): Uint8Array | undefined {
  try {
    return base64Decode(s);
  } catch {
    return undefined;
  }
}

/** v3 stack entry → v2's typed entry: num (decimal or 0x hex), cell, slice; tuple/list of entries. */
function toV2(e: StackEntry, path: string): TvmStackEntry {
  const v = e.value?.kind;
  const str = v?.case === "stringValue" ? v.value : v?.case === "numberValue" && Number.isSafeInteger(v.value) ? String(v.value) : undefined;
  switch (e.type) {
    case "num": {
      if (str === undefined || !/^-?(0x[0-9a-fA-F]+|\d+)$/.test(str)) throw apiError(422, `${path}.value: expected a number as decimal or 0x hex`);
      const n = str.startsWith("-") ? -BigInt(str.slice(1)) : BigInt(str);
      return create(TvmStackEntrySchema, { variant: { case: "number", value: { number: { number: n.toString() } } } });
    }
    case "cell":
    case "slice": {
      // the pattern lets through what base64Decode still refuses (a length of 4n + 1, as "te6cc")
      const bytes = str !== undefined && /^[A-Za-z0-9+/_-]+={0,2}$/.test(str) ? decodedBase64(str) : undefined;
      if (!bytes) throw apiError(422, `${path}.value: expected a base64 BoC`);
      return e.type === "cell"
        ? create(TvmStackEntrySchema, { variant: { case: "cell", value: { cell: { bytes } } } })
        : create(TvmStackEntrySchema, { variant: { case: "slice", value: { slice: { bytes } } } });
    }
    default:
      throw apiError(422, `${path}.type: expected num, cell or slice, got ${JSON.stringify(e.type)}`);
  }
}

/** v2's typed entry → v3's {type, value}: numbers as 0x hex, cells and slices as base64 BoCs. */
function stackJson(e: TvmStackEntry): { type: string; value: JsonValue } {
  switch (e.variant.case) {
    case "number": {
      const n = BigInt(e.variant.value.number?.number ?? "0");
      return { type: "num", value: n < 0n ? "-0x" + (-n).toString(16) : "0x" + n.toString(16) };
    }
    case "cell":
      return { type: "cell", value: b64(e.variant.value.cell?.bytes ?? new Uint8Array()) };
    case "slice":
      return { type: "slice", value: b64(e.variant.value.slice?.bytes ?? new Uint8Array()) };
    case "tuple":
      return { type: "tuple", value: (e.variant.value.tuple?.elements ?? []).map(stackJson) as unknown as JsonValue };
    case "list":
      return { type: "list", value: (e.variant.value.list?.elements ?? []).map(stackJson) as unknown as JsonValue };
    default:
      return { type: "unsupported", value: null };
  }
}

function fromV2(e: TvmStackEntry): StackEntry {
  const j = stackJson(e);
  return create(StackEntrySchema, { type: j.type, value: fromJson(ValueSchema, j.value) });
}

/**
 * Runs the get-method through API v2's runGetMethodStd, which bounds the stack's cells and depth and
 * the result. The number of entries is API v2's bound too (the proto's max_items says the same to the
 * gateway and the OpenAPI document).
 */
export async function runGetMethod(lite: LiteProxyClient, req: RunGetMethodRequest): Promise<RunGetMethodResponse> {
  if (req.stack.length > MAX_STACK_ENTRIES) throw apiError(422, `stack: ${req.stack.length} entries; a stack may have at most ${MAX_STACK_ENTRIES} values`);
  const stack = req.stack.map((e, i) => toV2(e, `stack[${i}]`));
  let r;
  try {
    r = await lite.runGetMethodStd({ address: req.address, method: req.method, stack });
  } catch (e) {
    // API v2 names a BoC entry by its own field (stack[0].cell.bytes); here it is stack[0].value.
    if (e instanceof ConnectError) {
      const named = e.rawMessage.replace(/^stack\[(\d+)\]\.(?:cell|slice)\.bytes: /, "stack[$1].value: ");
      if (named !== e.rawMessage) throw new ConnectError(named, e.code, e.metadata);
    }
    throw e;
  }
  return create(RunGetMethodResponseSchema, { gasUsed: r.gasUsed, exitCode: r.exitCode, stack: r.stack.map(fromV2) });
}

export async function estimateFee(lite: LiteProxyClient, req: EstimateFeeRequest): Promise<EstimateFeeResponse> {
  const r = await lite.estimateFee({ address: req.address, body: req.body, initCode: req.initCode, initData: req.initData, ignoreChksig: req.ignoreChksig });
  const fees = (f: { inFwdFee: number; storageFee: number; gasFee: number; fwdFee: number } | undefined) =>
    f && { inFwdFee: f.inFwdFee, storageFee: f.storageFee, gasFee: f.gasFee, fwdFee: f.fwdFee };
  return create(EstimateFeeResponseSchema, { sourceFees: fees(r.sourceFees), destinationFees: r.destinationFees.map((f) => fees(f)!) });
}

/** use_v2: a liteserver's answer in v3's shape. */
export async function addressInformationV2(lite: LiteProxyClient, address: string): Promise<AddressInformationResponse> {
  const r = await lite.getAddressInformation({ address });
  return create(AddressInformationResponseSchema, {
    balance: String(r.balance),
    code: r.code.length ? b64(r.code) : undefined,
    data: r.data.length ? b64(r.data) : undefined,
    lastTransactionLt: String(r.lastTransactionId?.lt ?? 0n),
    lastTransactionHash: b64(r.lastTransactionId?.hash ?? new Uint8Array(32)),
    frozenHash: r.frozenHash.length ? b64(r.frozenHash) : undefined,
    status: r.state,
  });
}

export async function walletInformationV2(lite: LiteProxyClient, address: string): Promise<WalletInformationResponse> {
  const r = await lite.getWalletInformation({ address });
  if (!r.wallet) throw apiError(409, "not a wallet");
  return create(WalletInformationResponseSchema, {
    balance: String(r.balance),
    walletType: r.walletType ?? "",
    seqno: r.seqno,
    walletId: r.walletId,
    lastTransactionLt: String(r.lastTransactionId?.lt ?? 0n),
    lastTransactionHash: b64(r.lastTransactionId?.hash ?? new Uint8Array(32)),
    status: r.accountState,
  });
}
