// Cocoon (Telegram's confidential compute network) message bodies: the root, proxy, worker and
// client contracts' messages the classifier reads, one loader and storer per TL-B constructor of
// message-schemes.tlb ("cocoon"), @ton/core style. Addresses are MsgAddress: a std address, an
// external one (signed payloads carry whatever the signer wrote) or none.
import type { Address, Builder, Cell, ExternalAddress, Slice } from "@ton/core";
import { loadOpcode, loadQueryIdOnly, loadRest, storeQueryIdOnly } from "../tlb.js";

export const COCOON_OPCODES = {
  return_excesses_back: 0x2565934c,
  payout: 0xc59a7cd3,
  worker_proxy_request: 0x4d725d2c,
  client_proxy_request: 0x65448ff4,
  client_proxy_refund_granted: 0xc68ebc7b,
  payout_payload: 0xa040ad28,
  last_payout_payload: 0xf5f26a36,
  register_proxy: 0x927c7cb5,
  unregister_proxy: 0x6d49eaf2,
  ext_proxy_payout_request: 0x7610e6eb,
  ext_client_top_up: 0xf172e6c2,
  owner_client_register: 0xc45f9f3b,
  owner_client_change_secret_hash: 0xa9357034,
  owner_client_increase_stake: 0x6a1f6a60,
  owner_client_withdraw: 0xda068e78,
  owner_client_request_refund: 0xfafa6cc1,
  charge_payload: 0xbb63ff93,
  grant_refund_payload: 0xefd711e1,
  owner_wallet_send_message: 0x9c69f376,
} as const;

const OP = COCOON_OPCODES;

/** MsgAddress as the contracts write it: addr_std, addr_extern or addr_none. */
export type CocoonAddress = Address | ExternalAddress | null;

/** cocoon_return_excesses_back#2565934c query_id:uint64. */
export function loadCocoonReturnExcessesBack(s: Slice): { queryId: bigint } {
  return { queryId: loadQueryIdOnly(s, OP.return_excesses_back, "cocoon_return_excesses_back") };
}

export function storeCocoonReturnExcessesBack(src: { queryId: bigint }): (b: Builder) => void {
  return storeQueryIdOnly(OP.return_excesses_back, src.queryId);
}

/** cocoon_payout#c59a7cd3 query_id:uint64: the coins a proxy or client pays out. */
export function loadCocoonPayout(s: Slice): { queryId: bigint } {
  return { queryId: loadQueryIdOnly(s, OP.payout, "cocoon_payout") };
}

export function storeCocoonPayout(src: { queryId: bigint }): (b: Builder) => void {
  return storeQueryIdOnly(OP.payout, src.queryId);
}

/** cocoon_worker_proxy_request#4d725d2c query_id:uint64 owner_address:MsgAddress state:uint2 tokens:uint64 payload:(Maybe ^Cell). */
export interface CocoonWorkerProxyRequest {
  queryId: bigint;
  ownerAddress: CocoonAddress;
  state: number;
  tokens: bigint;
  payload: Cell | null;
}

export function loadCocoonWorkerProxyRequest(s: Slice): CocoonWorkerProxyRequest {
  loadOpcode(s, OP.worker_proxy_request, "cocoon_worker_proxy_request");
  return { queryId: s.loadUintBig(64), ownerAddress: s.loadAddressAny(), state: s.loadUint(2), tokens: s.loadUintBig(64), payload: s.loadMaybeRef() };
}

export function storeCocoonWorkerProxyRequest(src: CocoonWorkerProxyRequest): (b: Builder) => void {
  return (b) =>
    b.storeUint(OP.worker_proxy_request, 32).storeUint(src.queryId, 64).storeAddress(src.ownerAddress).storeUint(src.state, 2).storeUint(src.tokens, 64).storeMaybeRef(src.payload);
}

/** cocoon_client_proxy_request#65448ff4 query_id:uint64 owner_address:MsgAddress state_data:^Cell payload:(Maybe ^Cell). */
export interface CocoonClientProxyRequest {
  queryId: bigint;
  ownerAddress: CocoonAddress;
  stateData: Cell;
  payload: Cell | null;
}

export function loadCocoonClientProxyRequest(s: Slice): CocoonClientProxyRequest {
  loadOpcode(s, OP.client_proxy_request, "cocoon_client_proxy_request");
  return { queryId: s.loadUintBig(64), ownerAddress: s.loadAddressAny(), stateData: s.loadRef(), payload: s.loadMaybeRef() };
}

export function storeCocoonClientProxyRequest(src: CocoonClientProxyRequest): (b: Builder) => void {
  return (b) => b.storeUint(OP.client_proxy_request, 32).storeUint(src.queryId, 64).storeAddress(src.ownerAddress).storeRef(src.stateData).storeMaybeRef(src.payload);
}

/** cocoon_client_proxy_refund_granted#c68ebc7b coins:Coins send_excesses_to:MsgAddress (a client_proxy_request's payload). */
export interface CocoonClientProxyRefundGranted {
  coins: bigint;
  sendExcessesTo: CocoonAddress;
}

export function loadCocoonClientProxyRefundGranted(s: Slice): CocoonClientProxyRefundGranted {
  loadOpcode(s, OP.client_proxy_refund_granted, "cocoon_client_proxy_refund_granted");
  return { coins: s.loadCoins(), sendExcessesTo: s.loadAddressAny() };
}

export function storeCocoonClientProxyRefundGranted(src: CocoonClientProxyRefundGranted): (b: Builder) => void {
  return (b) => b.storeUint(OP.client_proxy_refund_granted, 32).storeCoins(src.coins).storeAddress(src.sendExcessesTo);
}

/**
 * The signed payloads a proxy forwards (cocoon_payout_payload#a040ad28,
 * cocoon_last_payout_payload#f5f26a36): query_id:uint64 new_tokens:uint64 expected_my_address:MsgAddress,
 * read as toncenter's scheme reads them. On mainnet they arrive in a signed envelope (the same
 * opcode and query_id, then send_excesses_to, a 512-bit signature and ^the payload proper), so the
 * fields after query_id are the envelope's bits; `rest` keeps what follows them (the signature and
 * the signed payload, empty for a bare payload) so the body stores back as it came.
 */
export interface CocoonPayoutPayload {
  /** the last payout closes the worker */
  last: boolean;
  queryId: bigint;
  newTokens: bigint;
  expectedMyAddress: CocoonAddress;
  rest: Cell;
}

export function loadCocoonPayoutPayload(s: Slice): CocoonPayoutPayload {
  const last = s.remainingBits >= 32 && s.preloadUint(32) === OP.last_payout_payload;
  loadOpcode(s, last ? OP.last_payout_payload : OP.payout_payload, last ? "cocoon_last_payout_payload" : "cocoon_payout_payload");
  return { last, queryId: s.loadUintBig(64), newTokens: s.loadUintBig(64), expectedMyAddress: s.loadAddressAny(), rest: loadRest(s) };
}

export function storeCocoonPayoutPayload(src: CocoonPayoutPayload): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(src.last ? OP.last_payout_payload : OP.payout_payload, 32)
      .storeUint(src.queryId, 64)
      .storeUint(src.newTokens, 64)
      .storeAddress(src.expectedMyAddress)
      .storeSlice(src.rest.beginParse());
}

/**
 * The proxy's signed charge and refund payloads (cocoon_charge_payload#bb63ff93,
 * cocoon_grant_refund_payload#efd711e1): query_id:uint64 new_tokens_used:uint64
 * expected_my_address:MsgAddress, read as toncenter's scheme reads them; `rest` as in
 * CocoonPayoutPayload (these come in the same signed envelope).
 */
export interface CocoonChargePayload {
  queryId: bigint;
  newTokensUsed: bigint;
  expectedMyAddress: CocoonAddress;
  rest: Cell;
}

function loadTokensUsedPayload(s: Slice, op: number, name: string): CocoonChargePayload {
  loadOpcode(s, op, name);
  return { queryId: s.loadUintBig(64), newTokensUsed: s.loadUintBig(64), expectedMyAddress: s.loadAddressAny(), rest: loadRest(s) };
}

function storeTokensUsedPayload(op: number, src: CocoonChargePayload): (b: Builder) => void {
  return (b) => b.storeUint(op, 32).storeUint(src.queryId, 64).storeUint(src.newTokensUsed, 64).storeAddress(src.expectedMyAddress).storeSlice(src.rest.beginParse());
}

export function loadCocoonChargePayload(s: Slice): CocoonChargePayload {
  return loadTokensUsedPayload(s, OP.charge_payload, "cocoon_charge_payload");
}

export function storeCocoonChargePayload(src: CocoonChargePayload): (b: Builder) => void {
  return storeTokensUsedPayload(OP.charge_payload, src);
}

export type CocoonGrantRefundPayload = CocoonChargePayload;

export function loadCocoonGrantRefundPayload(s: Slice): CocoonGrantRefundPayload {
  return loadTokensUsedPayload(s, OP.grant_refund_payload, "cocoon_grant_refund_payload");
}

export function storeCocoonGrantRefundPayload(src: CocoonGrantRefundPayload): (b: Builder) => void {
  return storeTokensUsedPayload(OP.grant_refund_payload, src);
}

/** cocoon_register_proxy#927c7cb5 query_id:uint64 proxy_info:Cell (the rest of the body). */
export interface CocoonRegisterProxy {
  queryId: bigint;
  proxyInfo: Cell;
}

export function loadCocoonRegisterProxy(s: Slice): CocoonRegisterProxy {
  return { queryId: loadQueryIdOnly(s, OP.register_proxy, "cocoon_register_proxy"), proxyInfo: loadRest(s) };
}

export function storeCocoonRegisterProxy(src: CocoonRegisterProxy): (b: Builder) => void {
  return (b) => b.store(storeQueryIdOnly(OP.register_proxy, src.queryId)).storeSlice(src.proxyInfo.beginParse());
}

/** cocoon_unregister_proxy#6d49eaf2 query_id:uint64 seqno:uint32. */
export interface CocoonUnregisterProxy {
  queryId: bigint;
  seqno: number;
}

export function loadCocoonUnregisterProxy(s: Slice): CocoonUnregisterProxy {
  return { queryId: loadQueryIdOnly(s, OP.unregister_proxy, "cocoon_unregister_proxy"), seqno: s.loadUint(32) };
}

export function storeCocoonUnregisterProxy(src: CocoonUnregisterProxy): (b: Builder) => void {
  return (b) => b.store(storeQueryIdOnly(OP.unregister_proxy, src.queryId)).storeUint(src.seqno, 32);
}

/**
 * The owner commands of one shape, query_id:uint64 send_excesses_to:MsgAddress:
 * cocoon_ext_proxy_payout_request#7610e6eb, cocoon_owner_client_withdraw#da068e78,
 * cocoon_owner_client_request_refund#fafa6cc1.
 */
export interface CocoonOwnerCommand {
  queryId: bigint;
  sendExcessesTo: CocoonAddress;
}

function loadOwnerCommand(s: Slice, op: number, name: string): CocoonOwnerCommand {
  return { queryId: loadQueryIdOnly(s, op, name), sendExcessesTo: s.loadAddressAny() };
}

function storeOwnerCommand(op: number, src: CocoonOwnerCommand): (b: Builder) => void {
  return (b) => b.store(storeQueryIdOnly(op, src.queryId)).storeAddress(src.sendExcessesTo);
}

export function loadCocoonExtProxyPayoutRequest(s: Slice): CocoonOwnerCommand {
  return loadOwnerCommand(s, OP.ext_proxy_payout_request, "cocoon_ext_proxy_payout_request");
}

export function storeCocoonExtProxyPayoutRequest(src: CocoonOwnerCommand): (b: Builder) => void {
  return storeOwnerCommand(OP.ext_proxy_payout_request, src);
}

export function loadCocoonOwnerClientWithdraw(s: Slice): CocoonOwnerCommand {
  return loadOwnerCommand(s, OP.owner_client_withdraw, "cocoon_owner_client_withdraw");
}

export function storeCocoonOwnerClientWithdraw(src: CocoonOwnerCommand): (b: Builder) => void {
  return storeOwnerCommand(OP.owner_client_withdraw, src);
}

export function loadCocoonOwnerClientRequestRefund(s: Slice): CocoonOwnerCommand {
  return loadOwnerCommand(s, OP.owner_client_request_refund, "cocoon_owner_client_request_refund");
}

export function storeCocoonOwnerClientRequestRefund(src: CocoonOwnerCommand): (b: Builder) => void {
  return storeOwnerCommand(OP.owner_client_request_refund, src);
}

/**
 * The commands that carry an amount, query_id:uint64 amount:Coins send_excesses_to:MsgAddress:
 * cocoon_ext_client_top_up#f172e6c2 (top_up_amount), cocoon_owner_client_increase_stake#6a1f6a60 (new_stake).
 */
export interface CocoonAmountCommand {
  queryId: bigint;
  amount: bigint;
  sendExcessesTo: CocoonAddress;
}

function loadAmountCommand(s: Slice, op: number, name: string): CocoonAmountCommand {
  return { queryId: loadQueryIdOnly(s, op, name), amount: s.loadCoins(), sendExcessesTo: s.loadAddressAny() };
}

function storeAmountCommand(op: number, src: CocoonAmountCommand): (b: Builder) => void {
  return (b) => b.store(storeQueryIdOnly(op, src.queryId)).storeCoins(src.amount).storeAddress(src.sendExcessesTo);
}

export function loadCocoonExtClientTopUp(s: Slice): CocoonAmountCommand {
  return loadAmountCommand(s, OP.ext_client_top_up, "cocoon_ext_client_top_up");
}

export function storeCocoonExtClientTopUp(src: CocoonAmountCommand): (b: Builder) => void {
  return storeAmountCommand(OP.ext_client_top_up, src);
}

export function loadCocoonOwnerClientIncreaseStake(s: Slice): CocoonAmountCommand {
  return loadAmountCommand(s, OP.owner_client_increase_stake, "cocoon_owner_client_increase_stake");
}

export function storeCocoonOwnerClientIncreaseStake(src: CocoonAmountCommand): (b: Builder) => void {
  return storeAmountCommand(OP.owner_client_increase_stake, src);
}

/** cocoon_owner_client_register#c45f9f3b query_id:uint64 nonce:uint64 send_excesses_to:MsgAddress. */
export interface CocoonOwnerClientRegister {
  queryId: bigint;
  nonce: bigint;
  sendExcessesTo: CocoonAddress;
}

export function loadCocoonOwnerClientRegister(s: Slice): CocoonOwnerClientRegister {
  return { queryId: loadQueryIdOnly(s, OP.owner_client_register, "cocoon_owner_client_register"), nonce: s.loadUintBig(64), sendExcessesTo: s.loadAddressAny() };
}

export function storeCocoonOwnerClientRegister(src: CocoonOwnerClientRegister): (b: Builder) => void {
  return (b) => b.store(storeQueryIdOnly(OP.owner_client_register, src.queryId)).storeUint(src.nonce, 64).storeAddress(src.sendExcessesTo);
}

/** cocoon_owner_client_change_secret_hash#a9357034 query_id:uint64 new_secret_hash:uint256 send_excesses_to:MsgAddress. */
export interface CocoonOwnerClientChangeSecretHash {
  queryId: bigint;
  newSecretHash: bigint;
  sendExcessesTo: CocoonAddress;
}

export function loadCocoonOwnerClientChangeSecretHash(s: Slice): CocoonOwnerClientChangeSecretHash {
  return {
    queryId: loadQueryIdOnly(s, OP.owner_client_change_secret_hash, "cocoon_owner_client_change_secret_hash"),
    newSecretHash: s.loadUintBig(256),
    sendExcessesTo: s.loadAddressAny(),
  };
}

export function storeCocoonOwnerClientChangeSecretHash(src: CocoonOwnerClientChangeSecretHash): (b: Builder) => void {
  return (b) => b.store(storeQueryIdOnly(OP.owner_client_change_secret_hash, src.queryId)).storeUint(src.newSecretHash, 256).storeAddress(src.sendExcessesTo);
}

/** cocoon_owner_wallet_send_message#9c69f376 query_id:uint64 mode:uint8 body:^Cell: the Cocoon wallet relaying its owner's message. */
export interface CocoonOwnerWalletSendMessage {
  queryId: bigint;
  mode: number;
  body: Cell;
}

export function loadCocoonOwnerWalletSendMessage(s: Slice): CocoonOwnerWalletSendMessage {
  return { queryId: loadQueryIdOnly(s, OP.owner_wallet_send_message, "cocoon_owner_wallet_send_message"), mode: s.loadUint(8), body: s.loadRef() };
}

export function storeCocoonOwnerWalletSendMessage(src: CocoonOwnerWalletSendMessage): (b: Builder) => void {
  return (b) => b.store(storeQueryIdOnly(OP.owner_wallet_send_message, src.queryId)).storeUint(src.mode, 8).storeRef(src.body);
}
