// Wallet message bodies: the signed external messages of wallets v1–v5 and highload v1–v3, and the
// internal requests of v4 plugins, v5 (signed, or from an extension) and highload v3, named after
// toncenter's schemes ("wallets" in message-schemes.tlb). Where the schemes and the contract differ,
// the contract wins: v1 has no valid_until, highload v1 reads its payload as a HashmapE.
import {
  Dictionary,
  loadCurrencyCollection,
  loadStateInit,
  storeCurrencyCollection,
  storeStateInit,
  beginCell,
  type Address,
  type Builder,
  type Cell,
  type CurrencyCollection,
  type DictionaryValue,
  type Slice,
  type StateInit,
} from "@ton/core";
import { ContractDataError } from "../errors.js";
import { loadRelaxedOutList, relaxedOutListCell, relaxedMessageCell, relaxedMessageOf, type RelaxedOutAction, type RelaxedMessage } from "../out-actions.js";
import { loadOpcode, loadQueryIdOnly, storeQueryIdOnly } from "../tlb.js";

export const WALLET_OPCODES = {
  w5_external_signed_request: 0x7369676e,
  w5_internal_signed_request: 0x73696e74,
  w5_extension_action_request: 0x6578746e,
  highload_v3_internal_request: 0xae42e5a4,
  wallet_plugin_installation_notification: 0x6e6f7465,
  wallet_plugin_destruct: 0x64737472,
  wallet_plugin_destruct_response: 0xe4737472,
  payment_request: 0x706c7567,
  payment_confirmed: 0xf06c7567,
} as const;

const OP = WALLET_OPCODES;

/** _ mode:(## 8) msg:^(MessageRelaxed Any) = ModeWithMessage: a message to send and its send mode. */
export interface ModeWithMessage {
  mode: number;
  message: RelaxedMessage;
}

const MODE_WITH_MESSAGE: DictionaryValue<ModeWithMessage> = {
  serialize: (src, b) => {
    b.storeUint(src.mode, 8).storeRef(relaxedMessageCell(src.message));
  },
  parse: (s) => ({ mode: s.loadUint(8), message: relaxedMessageOf(s.loadRef()) }),
};

/** WalletV1toV4Msgs n: the rest of the body, one (mode, ^message) per ref. */
function loadMessages(s: Slice): ModeWithMessage[] {
  const out: ModeWithMessage[] = [];
  while (s.remainingRefs > 0) out.push(MODE_WITH_MESSAGE.parse(s));
  return out;
}

const storeMessages = (messages: ModeWithMessage[]) => (b: Builder) => {
  for (const m of messages) MODE_WITH_MESSAGE.serialize(m, b);
};

/** wallet v1: signature:bits512 msg_seqno:uint32 msgs:(WalletV1toV4Msgs n), n ≤ 1. */
export interface WalletSignedV1 {
  signature: Buffer;
  seqno: number;
  messages: ModeWithMessage[];
}

export function loadWalletSignedV1(s: Slice): WalletSignedV1 {
  return { signature: s.loadBuffer(64), seqno: s.loadUint(32), messages: loadMessages(s) };
}

export const storeWalletSignedV1 = (src: WalletSignedV1) => (b: Builder) => b.storeBuffer(src.signature, 64).storeUint(src.seqno, 32).store(storeMessages(src.messages));

/** wallet_signed_v1_v2#_ signature:bits512 msg_seqno:uint32 valid_until:uint32 msgs:(WalletV1toV4Msgs n): wallet v2. */
export interface WalletSignedV2 {
  signature: Buffer;
  seqno: number;
  validUntil: number;
  messages: ModeWithMessage[];
}

export function loadWalletSignedV2(s: Slice): WalletSignedV2 {
  return { signature: s.loadBuffer(64), seqno: s.loadUint(32), validUntil: s.loadUint(32), messages: loadMessages(s) };
}

export const storeWalletSignedV2 = (src: WalletSignedV2) => (b: Builder) =>
  b.storeBuffer(src.signature, 64).storeUint(src.seqno, 32).storeUint(src.validUntil, 32).store(storeMessages(src.messages));

/**
 * wallet_signed_v3#_ signature:bits512 subwallet_id:uint32 valid_until:uint32 msg_seqno:uint32
 * msgs:(WalletV1toV4Msgs n): wallet v3, and the vesting wallet (at most one message).
 */
export interface WalletSignedV3 {
  signature: Buffer;
  subwalletId: number;
  validUntil: number;
  seqno: number;
  messages: ModeWithMessage[];
}

export function loadWalletSignedV3(s: Slice): WalletSignedV3 {
  return { signature: s.loadBuffer(64), subwalletId: s.loadUint(32), validUntil: s.loadUint(32), seqno: s.loadUint(32), messages: loadMessages(s) };
}

export const storeWalletSignedV3 = (src: WalletSignedV3) => (b: Builder) =>
  b.storeBuffer(src.signature, 64).storeUint(src.subwalletId, 32).storeUint(src.validUntil, 32).storeUint(src.seqno, 32).store(storeMessages(src.messages));

/** W4Operation: simple_send#00, deploy_install_plugin#01, install_plugin#02, remove_plugin#03. */
export type W4Operation =
  | { type: "simple_send"; messages: ModeWithMessage[] }
  | { type: "deploy_install_plugin"; pluginWorkchain: number; pluginBalance: bigint; stateInit: StateInit; body: Cell }
  | { type: "install_plugin" | "remove_plugin"; pluginWorkchain: number; pluginAddress: Buffer; amount: bigint; queryId: bigint };

/** wallet_signed_v4#_ signature:bits512 subwallet_id:uint32 valid_until:uint32 msg_seqno:uint32 op:(W4Operation n). */
export interface WalletSignedV4 {
  signature: Buffer;
  subwalletId: number;
  validUntil: number;
  seqno: number;
  op: W4Operation;
}

function loadW4Operation(s: Slice): W4Operation {
  const op = s.loadUint(8);
  switch (op) {
    case 0:
      return { type: "simple_send", messages: loadMessages(s) };
    case 1:
      return { type: "deploy_install_plugin", pluginWorkchain: s.loadInt(8), pluginBalance: s.loadCoins(), stateInit: loadStateInit(s.loadRef().beginParse()), body: s.loadRef() };
    case 2:
    case 3:
      return { type: op === 2 ? "install_plugin" : "remove_plugin", pluginWorkchain: s.loadInt(8), pluginAddress: s.loadBuffer(32), amount: s.loadCoins(), queryId: s.loadUintBig(64) };
    default:
      throw new ContractDataError(`wallet_signed_v4: unknown operation ${op}`);
  }
}

function storeW4Operation(op: W4Operation): (b: Builder) => void {
  return (b) => {
    switch (op.type) {
      case "simple_send":
        b.storeUint(0, 8).store(storeMessages(op.messages));
        return;
      case "deploy_install_plugin":
        b.storeUint(1, 8).storeInt(op.pluginWorkchain, 8).storeCoins(op.pluginBalance).storeRef(beginCell().store(storeStateInit(op.stateInit))).storeRef(op.body);
        return;
      default:
        b.storeUint(op.type === "install_plugin" ? 2 : 3, 8).storeInt(op.pluginWorkchain, 8).storeBuffer(op.pluginAddress, 32).storeCoins(op.amount).storeUint(op.queryId, 64);
    }
  };
}

export function loadWalletSignedV4(s: Slice): WalletSignedV4 {
  return { signature: s.loadBuffer(64), subwalletId: s.loadUint(32), validUntil: s.loadUint(32), seqno: s.loadUint(32), op: loadW4Operation(s) };
}

export const storeWalletSignedV4 = (src: WalletSignedV4) => (b: Builder) =>
  b.storeBuffer(src.signature, 64).storeUint(src.subwalletId, 32).storeUint(src.validUntil, 32).storeUint(src.seqno, 32).store(storeW4Operation(src.op));

/** W5ExtendedAction: add_extension#02 addr:MsgAddressInt, delete_extension#03 addr:MsgAddressInt, set_signature_auth_allowed#04 allowed:Bool. */
export type W5ExtendedAction = { type: "add_extension" | "delete_extension"; address: Address } | { type: "set_signature_auth_allowed"; allowed: boolean };

function loadW5ExtendedAction(s: Slice): W5ExtendedAction {
  const tag = s.loadUint(8);
  if (tag === 2 || tag === 3) return { type: tag === 2 ? "add_extension" : "delete_extension", address: s.loadAddress() };
  if (tag === 4) return { type: "set_signature_auth_allowed", allowed: s.loadBit() };
  throw new ContractDataError(`W5ExtendedAction: unknown tag 0x${tag.toString(16)}`);
}

const storeW5ExtendedAction = (a: W5ExtendedAction) => (b: Builder) =>
  a.type === "set_signature_auth_allowed" ? b.storeUint(4, 8).storeBit(a.allowed) : b.storeUint(a.type === "add_extension" ? 2 : 3, 8).storeAddress(a.address);

/**
 * w5_actions_request$_ out_actions:(Maybe ^OutList) extended_actions:(Maybe W5ExtendedActionList):
 * the send actions (null when there is no list) and the extended actions (null when none; the first
 * is inline, each next one in a ref).
 */
export interface W5InnerRequest {
  outActions: RelaxedOutAction[] | null;
  extendedActions: W5ExtendedAction[] | null;
}

function loadW5InnerRequest(s: Slice): W5InnerRequest {
  const list = s.loadMaybeRef();
  const outActions = list ? loadRelaxedOutList(list.beginParse()) : null;
  if (!s.loadBit()) return { outActions, extendedActions: null };
  const extendedActions = [loadW5ExtendedAction(s)];
  for (let cur = s; cur.remainingRefs > 0; ) {
    cur = cur.loadRef().beginParse();
    extendedActions.push(loadW5ExtendedAction(cur));
  }
  return { outActions, extendedActions };
}

function storeW5InnerRequest(src: W5InnerRequest): (b: Builder) => void {
  return (b) => {
    b.storeMaybeRef(src.outActions ? relaxedOutListCell(src.outActions) : null);
    const ext = src.extendedActions;
    if (!ext?.length) {
      b.storeBit(0);
      return;
    }
    // The chain from the last action back to the second; the first goes inline.
    let next: Cell | null = null;
    for (let i = ext.length - 1; i >= 1; i--) {
      const c = beginCell().store(storeW5ExtendedAction(ext[i]!));
      if (next) c.storeRef(next);
      next = c.endCell();
    }
    b.storeBit(1).store(storeW5ExtendedAction(ext[0]!));
    if (next) b.storeRef(next);
  };
}

/**
 * W5SignedRequest: wallet_id:uint32 valid_until:uint32 msg_seqno:uint32 inner:W5InnerRequest
 * signature:bits512, behind w5_external_signed_request#7369676e or w5_internal_signed_request#73696e74.
 */
export interface W5SignedRequest {
  walletId: number;
  validUntil: number;
  seqno: number;
  inner: W5InnerRequest;
  signature: Buffer;
}

function loadW5SignedRequest(s: Slice, opcode: number, name: string): W5SignedRequest {
  loadOpcode(s, opcode, name);
  const [walletId, validUntil, seqno] = [s.loadUint(32), s.loadUint(32), s.loadUint(32)];
  const inner = loadW5InnerRequest(s);
  return { walletId, validUntil, seqno, inner, signature: s.loadBuffer(64) };
}

const storeW5SignedRequest = (opcode: number, src: W5SignedRequest) => (b: Builder) =>
  b.storeUint(opcode, 32).storeUint(src.walletId, 32).storeUint(src.validUntil, 32).storeUint(src.seqno, 32).store(storeW5InnerRequest(src.inner)).storeBuffer(src.signature, 64);

export type W5ExternalSignedRequest = W5SignedRequest;
export const loadW5ExternalSignedRequest = (s: Slice): W5ExternalSignedRequest => loadW5SignedRequest(s, OP.w5_external_signed_request, "w5_external_signed_request");
export const storeW5ExternalSignedRequest = (src: W5ExternalSignedRequest) => storeW5SignedRequest(OP.w5_external_signed_request, src);
export type W5InternalSignedRequest = W5SignedRequest;
export const loadW5InternalSignedRequest = (s: Slice): W5InternalSignedRequest => loadW5SignedRequest(s, OP.w5_internal_signed_request, "w5_internal_signed_request");
export const storeW5InternalSignedRequest = (src: W5InternalSignedRequest) => storeW5SignedRequest(OP.w5_internal_signed_request, src);

/** w5_extension_action_request#6578746e query_id:uint64 request:W5InnerRequest: an extension makes the wallet act. */
export interface W5ExtensionActionRequest {
  queryId: bigint;
  inner: W5InnerRequest;
}

export function loadW5ExtensionActionRequest(s: Slice): W5ExtensionActionRequest {
  loadOpcode(s, OP.w5_extension_action_request, "w5_extension_action_request");
  return { queryId: s.loadUintBig(64), inner: loadW5InnerRequest(s) };
}

export const storeW5ExtensionActionRequest = (src: W5ExtensionActionRequest) => (b: Builder) =>
  b.storeUint(OP.w5_extension_action_request, 32).storeUint(src.queryId, 64).store(storeW5InnerRequest(src.inner));

/** The int16-keyed dictionary of (mode, message) of highload v1 and v2 (HashmapE 16, as the code reads it). */
export type HighloadMessages = Dictionary<number, ModeWithMessage>;
const loadHighloadMessages = (s: Slice): HighloadMessages => s.loadDict(Dictionary.Keys.Int(16), MODE_WITH_MESSAGE);

/** highload_wallet_signed_v1#_ signature:bits512 subwallet_id:uint32 valid_until:uint32 msg_seqno:uint32 payload:(HashmapE 16 ModeWithMessage). */
export interface HighloadWalletSignedV1 {
  signature: Buffer;
  subwalletId: number;
  validUntil: number;
  seqno: number;
  messages: HighloadMessages;
}

export function loadHighloadWalletSignedV1(s: Slice): HighloadWalletSignedV1 {
  return { signature: s.loadBuffer(64), subwalletId: s.loadUint(32), validUntil: s.loadUint(32), seqno: s.loadUint(32), messages: loadHighloadMessages(s) };
}

export const storeHighloadWalletSignedV1 = (src: HighloadWalletSignedV1) => (b: Builder) =>
  b.storeBuffer(src.signature, 64).storeUint(src.subwalletId, 32).storeUint(src.validUntil, 32).storeUint(src.seqno, 32).storeDict(src.messages);

/** highload_wallet_signed_v2#_ signature:bits512 subwallet_id:uint32 query_id:uint64 payload:(HashmapE 16 ModeWithMessage). */
export interface HighloadWalletSignedV2 {
  signature: Buffer;
  subwalletId: number;
  /** valid_until in the high 32 bits, a nonce in the low 32. */
  queryId: bigint;
  messages: HighloadMessages;
}

export function loadHighloadWalletSignedV2(s: Slice): HighloadWalletSignedV2 {
  return { signature: s.loadBuffer(64), subwalletId: s.loadUint(32), queryId: s.loadUintBig(64), messages: loadHighloadMessages(s) };
}

export const storeHighloadWalletSignedV2 = (src: HighloadWalletSignedV2) => (b: Builder) =>
  b.storeBuffer(src.signature, 64).storeUint(src.subwalletId, 32).storeUint(src.queryId, 64).storeDict(src.messages);

/**
 * HighloadV3MsgInner: subwallet_id:uint32 message_to_send:^(MessageRelaxed Any) send_mode:uint8
 * query_id:(shift:uint13 bit_number:(## 10)) created_at:uint64 timeout:uint22.
 */
export interface HighloadV3MsgInner {
  subwalletId: number;
  messageToSend: RelaxedMessage;
  sendMode: number;
  queryId: { shift: number; bitNumber: number };
  createdAt: number;
  timeout: number;
}

/** highload_wallet_signed_v3#_ signature:bits512 msg_inner:^HighloadV3MsgInner. */
export interface HighloadWalletSignedV3 {
  signature: Buffer;
  msgInner: HighloadV3MsgInner;
}

export function loadHighloadWalletSignedV3(s: Slice): HighloadWalletSignedV3 {
  const signature = s.loadBuffer(64);
  const m = s.loadRef().beginParse();
  return {
    signature,
    msgInner: {
      subwalletId: m.loadUint(32),
      messageToSend: relaxedMessageOf(m.loadRef()),
      sendMode: m.loadUint(8),
      queryId: { shift: m.loadUint(13), bitNumber: m.loadUint(10) },
      createdAt: m.loadUint(64),
      timeout: m.loadUint(22),
    },
  };
}

export function storeHighloadWalletSignedV3(src: HighloadWalletSignedV3): (b: Builder) => void {
  const m = src.msgInner;
  const inner = beginCell()
    .storeUint(m.subwalletId, 32)
    .storeRef(relaxedMessageCell(m.messageToSend))
    .storeUint(m.sendMode, 8)
    .storeUint(m.queryId.shift, 13)
    .storeUint(m.queryId.bitNumber, 10)
    .storeUint(m.createdAt, 64)
    .storeUint(m.timeout, 22);
  return (b) => b.storeBuffer(src.signature, 64).storeRef(inner);
}

/** highload_v3_internal_request#ae42e5a4 query_id:uint64 actions:^(OutList n): the wallet's message to itself that sends a batch. */
export interface HighloadV3InternalRequest {
  queryId: bigint;
  actions: RelaxedOutAction[];
}

export function loadHighloadV3InternalRequest(s: Slice): HighloadV3InternalRequest {
  loadOpcode(s, OP.highload_v3_internal_request, "highload_v3_internal_request");
  return { queryId: s.loadUintBig(64), actions: loadRelaxedOutList(s.loadRef().beginParse()) };
}

export const storeHighloadV3InternalRequest = (src: HighloadV3InternalRequest) => (b: Builder) =>
  b.storeUint(OP.highload_v3_internal_request, 32).storeUint(src.queryId, 64).storeRef(relaxedOutListCell(src.actions));

/** payment_request#706c7567 query_id:uint64 amount:CurrencyCollection: a v4 plugin asks its wallet for a payment. */
export interface PaymentRequest {
  queryId: bigint;
  amount: CurrencyCollection;
}

export function loadPaymentRequest(s: Slice): PaymentRequest {
  loadOpcode(s, OP.payment_request, "payment_request");
  return { queryId: s.loadUintBig(64), amount: loadCurrencyCollection(s) };
}

export const storePaymentRequest = (src: PaymentRequest) => (b: Builder) => b.storeUint(OP.payment_request, 32).storeUint(src.queryId, 64).store(storeCurrencyCollection(src.amount));

/** The v4 plugin bodies of one query_id: payment_confirmed, wallet_plugin_destruct (and its response), wallet_plugin_installation_notification. */
export interface WalletPluginQuery {
  queryId: bigint;
}

export const loadPaymentConfirmed = (s: Slice): WalletPluginQuery => ({ queryId: loadQueryIdOnly(s, OP.payment_confirmed, "payment_confirmed") });
export const storePaymentConfirmed = (src: WalletPluginQuery) => storeQueryIdOnly(OP.payment_confirmed, src.queryId);
export const loadWalletPluginDestruct = (s: Slice): WalletPluginQuery => ({ queryId: loadQueryIdOnly(s, OP.wallet_plugin_destruct, "wallet_plugin_destruct") });
export const storeWalletPluginDestruct = (src: WalletPluginQuery) => storeQueryIdOnly(OP.wallet_plugin_destruct, src.queryId);
export const loadWalletPluginDestructResponse = (s: Slice): WalletPluginQuery => ({
  queryId: loadQueryIdOnly(s, OP.wallet_plugin_destruct_response, "wallet_plugin_destruct_response"),
});
export const storeWalletPluginDestructResponse = (src: WalletPluginQuery) => storeQueryIdOnly(OP.wallet_plugin_destruct_response, src.queryId);
export const loadWalletPluginInstallationNotification = (s: Slice): WalletPluginQuery => ({
  queryId: loadQueryIdOnly(s, OP.wallet_plugin_installation_notification, "wallet_plugin_installation_notification"),
});
export const storeWalletPluginInstallationNotification = (src: WalletPluginQuery) => storeQueryIdOnly(OP.wallet_plugin_installation_notification, src.queryId);
