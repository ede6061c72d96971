// Every loader/storer pair of @tongate/contracts with the TL-B constructor it is named after, its
// opcode (bodies) and sample values; the tests run them on these samples and on real data.
import { Address, beginCell, Cell, Dictionary, type Builder, type Slice } from "@ton/core";
import * as C from "@tongate/contracts";

export interface Constructor {
  /** The TL-B constructor (bodies) or the storage type. */
  name: string;
  opcode?: number;
  load: (s: Slice) => any;
  store: (src: any) => (b: Builder) => void;
  samples: any[];
}

export const addr = (n: number, wc = 0) => new Address(wc, Buffer.alloc(32, n));
export const text = (t: string) => beginCell().storeStringTail(t).endCell();
const buf = (n: number, len: number) => Buffer.alloc(len, n);
const q = 0x1234_5678_9abc_def0n;

const internal = (dest: Address, body: Cell, bodyInRef: boolean): C.RelaxedMessage => ({
  info: { type: "internal", ihrDisabled: true, bounce: true, bounced: false, src: null, dest, value: { coins: 1_500_000_000n }, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: 0 },
  init: null,
  body,
  bodyInRef,
});
const deploy = (dest: Address): C.RelaxedMessage => ({
  ...internal(dest, Cell.EMPTY, false),
  init: { code: text("code"), data: text("data") },
  initInRef: true,
});
const msg1 = internal(addr(7), text("hello"), false);
const msg2 = internal(addr(8), beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 64).storeCoins(5n).endCell(), true);

const addresses = (...list: Address[]) => {
  const d = C.emptyMultisigAddresses();
  list.forEach((a, i) => d.set(i, a));
  return d;
};
const order = (...actions: C.MultisigAction[]) => {
  const d = C.emptyMultisigOrder();
  actions.forEach((a, i) => d.set(i, a));
  return d;
};
const sendAction: C.MultisigAction = { type: "send_message", mode: 3, message: msg1 };
const paramsAction: C.MultisigAction = { type: "update_multisig_param", threshold: 2, signers: addresses(addr(1), addr(2), addr(3)), proposers: addresses(addr(4)) };

const either = (cell: Cell, inRef: boolean): C.EitherCell => ({ cell, inRef });
const comment = beginCell().storeUint(0, 32).storeStringTail("thanks").endCell();

const ctor = (name: string, opcode: number | undefined, load: Constructor["load"], store: Constructor["store"], samples: any[]): Constructor => ({
  name,
  ...(opcode !== undefined && { opcode }),
  load,
  store,
  samples,
});

const J = C.JETTON_OPCODES;
const N = C.NFT_OPCODES;
const W = C.WALLET_OPCODES;
const D = C.DNS_OPCODES;
const M = C.MULTISIG_OPCODES;
const V = C.VESTING_OPCODES;
const S = C.STAKING_OPCODES;
const K = C.COMMON_OPCODES;

const mint = { queryId: q, toAddress: addr(3), tonAmount: 50_000_000n, masterMsg: beginCell().storeUint(0x178d4519, 32).endCell() };
const highloadMessages = () => {
  const d = Dictionary.empty<number, C.ModeWithMessage>(Dictionary.Keys.Int(16), {
    serialize: (v, b) => {
      b.storeUint(v.mode, 8).storeRef(C.relaxedMessageCell(v.message));
    },
    parse: (s) => ({ mode: s.loadUint(8), message: C.relaxedMessageOf(s.loadRef()) }),
  });
  d.set(0, { mode: 3, message: msg1 });
  d.set(1, { mode: 1, message: msg2 });
  return d;
};
const inner: C.W5InnerRequest = {
  outActions: [
    { type: "sendMsg", mode: 3, outMsg: msg1 },
    { type: "sendMsg", mode: 2, outMsg: deploy(addr(9)) },
  ],
  extendedActions: [
    { type: "add_extension", address: addr(10) },
    { type: "set_signature_auth_allowed", allowed: false },
    { type: "delete_extension", address: addr(11) },
  ],
};
const sig = buf(0xab, 64);

export const BODIES: Constructor[] = [
  // common
  ctor("text_comment", K.text_comment, C.loadTextComment, C.storeTextComment, [{ text: "hi" }, { text: "€".repeat(200) }]),
  ctor("encrypted_text_comment", K.encrypted_text_comment, C.loadEncryptedTextComment, C.storeEncryptedTextComment, [{ cipherText: buf(7, 300) }]),
  ctor("excess", K.excess, C.loadExcess, C.storeExcess, [{ queryId: q }]),
  ctor("top_up", K.top_up, C.loadTopUp, C.storeTopUp, [{ queryId: 0n }]),
  // jetton
  ctor("jetton_transfer", J.jetton_transfer, C.loadJettonTransfer, C.storeJettonTransfer, [
    { queryId: q, amount: 10n ** 15n, destination: addr(1), responseDestination: addr(2), customPayload: null, forwardTonAmount: 1n, forwardPayload: either(comment, true) },
    { queryId: 0n, amount: 0n, destination: addr(1), responseDestination: null, customPayload: text("c"), forwardTonAmount: 0n, forwardPayload: either(comment, false) },
    { queryId: 1n, amount: 5n, destination: addr(1), responseDestination: null, customPayload: null, forwardTonAmount: 0n, forwardPayload: null },
  ]),
  ctor("jetton_internal_transfer", J.jetton_internal_transfer, C.loadJettonInternalTransfer, C.storeJettonInternalTransfer, [
    { queryId: q, amount: 7n, from: addr(1), responseAddress: addr(2), forwardTonAmount: 3n, forwardPayload: either(Cell.EMPTY, false) },
    { queryId: q, amount: 7n, from: null, responseAddress: null, forwardTonAmount: 0n, forwardPayload: null },
    { queryId: q, amount: 7n, from: null, responseAddress: null, forwardTonAmount: 0n, forwardPayload: { cell: beginCell().storeRef(comment).endCell(), inRef: false, bitless: true } },
  ]),
  ctor("jetton_notify", J.jetton_notify, C.loadJettonNotify, C.storeJettonNotify, [{ queryId: q, amount: 9n, sender: addr(1), forwardPayload: either(comment, true) }]),
  ctor("jetton_burn", J.jetton_burn, C.loadJettonBurn, C.storeJettonBurn, [
    { queryId: q, amount: 9n, responseDestination: addr(1), customPayload: null },
    { queryId: q, amount: 9n, responseDestination: addr(1), customPayload: text("p") },
    { queryId: q, amount: 9n, responseDestination: null },
  ]),
  ctor("jetton_burn_notification", J.jetton_burn_notification, C.loadJettonBurnNotification, C.storeJettonBurnNotification, [
    { queryId: q, amount: 9n, sender: addr(1), responseDestination: addr(2) },
    { queryId: q, amount: 9n, sender: addr(1), responseDestination: addr(2), customPayload: text("p") },
  ]),
  ctor("jetton_mint", J.jetton_mint, C.loadJettonMint, C.storeJettonMint, [mint]),
  ctor("minter_jetton_mint", J.minter_jetton_mint, C.loadMinterJettonMint, C.storeMinterJettonMint, [mint]),
  ctor("jetton_change_admin", J.jetton_change_admin, C.loadJettonChangeAdmin, C.storeJettonChangeAdmin, [{ queryId: q, newAdminAddress: addr(5) }, { queryId: q, newAdminAddress: null }]),
  ctor("jetton_claim_admin", J.jetton_claim_admin, C.loadJettonClaimAdmin, C.storeJettonClaimAdmin, [{ queryId: q }]),
  ctor("jetton_drop_admin", J.jetton_drop_admin, C.loadJettonDropAdmin, C.storeJettonDropAdmin, [{ queryId: q }]),
  ctor("jetton_set_status", J.jetton_set_status, C.loadJettonSetStatus, C.storeJettonSetStatus, [{ queryId: q, status: 3 }]),
  ctor("jetton_call_to", J.jetton_call_to, C.loadJettonCallTo, C.storeJettonCallTo, [{ queryId: q, toAddress: addr(4), tonAmount: 1n, masterMsg: text("m") }]),
  ctor("jetton_upgrade", J.jetton_upgrade, C.loadJettonUpgrade, C.storeJettonUpgrade, [{ queryId: q, newData: text("d"), newCode: text("c") }]),
  ctor("jetton_change_metadata", J.jetton_change_metadata, C.loadJettonChangeMetadata, C.storeJettonChangeMetadata, [{ queryId: q, metadata: text("https://example.org/m.json") }]),
  ctor("provide_wallet_address", J.provide_wallet_address, C.loadProvideWalletAddress, C.storeProvideWalletAddress, [{ queryId: q, ownerAddress: addr(1), includeAddress: true }]),
  ctor("take_wallet_address", J.take_wallet_address, C.loadTakeWalletAddress, C.storeTakeWalletAddress, [
    { queryId: q, walletAddress: addr(1), ownerAddress: addr(2) },
    { queryId: q, walletAddress: null },
  ]),
  // nft
  ctor("nft_transfer", N.nft_transfer, C.loadNftTransfer, C.storeNftTransfer, [
    { queryId: q, newOwner: addr(1), responseDestination: addr(2), customPayload: null, forwardAmount: 1n, forwardPayload: either(comment, false) },
    { queryId: q, newOwner: addr(1), responseDestination: null, customPayload: text("x"), forwardAmount: 0n, forwardPayload: null },
  ]),
  ctor("nft_ownership_assigned", N.nft_ownership_assigned, C.loadNftOwnershipAssigned, C.storeNftOwnershipAssigned, [{ queryId: q, prevOwner: addr(1), forwardPayload: either(comment, true) }]),
  ctor("get_static_data", N.get_static_data, C.loadGetStaticData, C.storeGetStaticData, [{ queryId: q }]),
  ctor("report_static_data", N.report_static_data, C.loadReportStaticData, C.storeReportStaticData, [{ queryId: q, index: 2n ** 200n, collection: addr(3) }]),
  ctor("get_royalty_params", N.get_royalty_params, C.loadGetRoyaltyParams, C.storeGetRoyaltyParams, [{ queryId: q }]),
  ctor("report_royalty_params", N.report_royalty_params, C.loadReportRoyaltyParams, C.storeReportRoyaltyParams, [{ queryId: q, numerator: 5, denominator: 100, destination: addr(1) }]),
  ctor("prove_ownership", N.prove_ownership, C.loadProveOwnership, C.storeProveOwnership, [{ queryId: q, dest: addr(1), forwardPayload: text("f"), withContent: true }]),
  ctor("ownership_proof", N.ownership_proof, C.loadOwnershipProof, C.storeOwnershipProof, [{ queryId: q, itemId: 5n, owner: addr(1), data: text("d"), revokedAt: 0n, content: null }]),
  ctor("sbt_request_owner", N.sbt_request_owner, C.loadSbtRequestOwner, C.storeSbtRequestOwner, [{ queryId: q, dest: addr(1), forwardPayload: text("f"), withContent: false }]),
  ctor("sbt_owner_info", N.sbt_owner_info, C.loadSbtOwnerInfo, C.storeSbtOwnerInfo, [
    { queryId: q, itemId: 5n, initiator: addr(2), owner: addr(1), data: text("d"), revokedAt: 7n, content: text("c") },
  ]),
  ctor("sbt_destroy", N.sbt_destroy, C.loadSbtDestroy, C.storeSbtDestroy, [{ queryId: q }]),
  ctor("sbt_revoke", N.sbt_revoke, C.loadSbtRevoke, C.storeSbtRevoke, [{ queryId: q }]),
  // dns
  ctor("change_dns_record", D.change_dns_record, C.loadChangeDnsRecord, C.storeChangeDnsRecord, [
    { queryId: q, key: buf(1, 32), value: beginCell().store(C.storeDnsRecord({ type: "dns_smc_address", smcAddress: addr(1), flags: 0 })).endCell() },
    { queryId: q, key: buf(1, 32), value: null },
  ]),
  ctor("dns_balance_release", D.dns_balance_release, C.loadDnsBalanceRelease, C.storeDnsBalanceRelease, [{ queryId: q }]),
  ctor("process_governance_decision", D.process_governance_decision, C.loadProcessGovernanceDecision, C.storeProcessGovernanceDecision, [{ queryId: q }]),
  ctor("auction_fill_up", D.auction_fill_up, C.loadAuctionFillUp, C.storeAuctionFillUp, [{ queryId: q }]),
  ctor("outbid_notification", D.outbid_notification, C.loadOutbidNotification, C.storeOutbidNotification, [{ queryId: q }]),
  // multisig
  ctor("multisig_new_order", M.multisig_new_order, C.loadMultisigNewOrder, C.storeMultisigNewOrder, [
    { queryId: q, orderSeqno: 2n ** 255n, signer: true, index: 2, expirationDate: 1_900_000_000, order: order(sendAction, paramsAction) },
  ]),
  ctor("multisig_execute", M.multisig_execute, C.loadMultisigExecute, C.storeMultisigExecute, [
    { queryId: q, orderSeqno: 3n, expirationDate: 1_900_000_000, approvalsNum: 2, signersHash: buf(9, 32), order: order(sendAction) },
  ]),
  ctor("multisig_execute_internal", M.multisig_execute_internal, C.loadMultisigExecuteInternal, C.storeMultisigExecuteInternal, [{ queryId: q, order: order(paramsAction) }]),
  ctor("multisig_order_init", M.multisig_order_init, C.loadMultisigOrderInit, C.storeMultisigOrderInit, [
    { queryId: q, threshold: 2, signers: addresses(addr(1), addr(2)), expirationDate: 1_900_000_000, order: order(sendAction), signerIndex: 1 },
    { queryId: q, threshold: 1, signers: addresses(addr(1)), expirationDate: 1_900_000_000, order: order(sendAction), signerIndex: null },
  ]),
  ctor("multisig_approve", M.multisig_approve, C.loadMultisigApprove, C.storeMultisigApprove, [{ queryId: q, signerIndex: 4 }]),
  ctor("multisig_approve_accepted", M.multisig_approve_accepted, C.loadMultisigApproveAccepted, C.storeMultisigApproveAccepted, [{ queryId: q }]),
  ctor("multisig_approve_rejected", M.multisig_approve_rejected, C.loadMultisigApproveRejected, C.storeMultisigApproveRejected, [{ queryId: q, exitCode: 107 }]),
  ctor("send_message", M.send_message, C.loadMultisigAction, C.storeMultisigAction, [sendAction]),
  ctor("update_multisig_param", M.update_multisig_param, C.loadMultisigAction, C.storeMultisigAction, [paramsAction]),
  // vesting
  ctor("vesting_send_message", V.vesting_send_message, C.loadVestingSendMessage, C.storeVestingSendMessage, [{ queryId: q, sendMode: 3, message: msg2 }]),
  ctor("vesting_send_message_response", V.vesting_send_message_response, C.loadVestingSendMessageResponse, C.storeVestingSendMessageResponse, [{ queryId: q }]),
  ctor("vesting_add_white_list", V.vesting_add_white_list, C.loadVestingAddWhiteList, C.storeVestingAddWhiteList, [
    { queryId: q, addresses: [addr(1)] },
    { queryId: q, addresses: [addr(1), addr(2, -1), addr(3)] },
  ]),
  ctor("vesting_add_white_list_response", V.vesting_add_white_list_response, C.loadVestingAddWhiteListResponse, C.storeVestingAddWhiteListResponse, [{ queryId: q }]),
  // staking
  ctor("elector_new_stake", S.elector_new_stake, C.loadElectorNewStake, C.storeElectorNewStake, [
    { queryId: q, validatorPubkey: buf(1, 32), stakeAt: 1_700_000_000, maxFactor: 196608, adnlAddr: buf(2, 32), signature: sig },
  ]),
  ctor("elector_new_stake_confirmation", S.elector_new_stake_confirmation, C.loadElectorNewStakeConfirmation, C.storeElectorNewStakeConfirmation, [{ queryId: q }]),
  ctor("elector_recover_stake_request", S.elector_recover_stake_request, C.loadElectorRecoverStakeRequest, C.storeElectorRecoverStakeRequest, [{ queryId: q }]),
  ctor("elector_recover_stake_response", S.elector_recover_stake_response, C.loadElectorRecoverStakeResponse, C.storeElectorRecoverStakeResponse, [{ queryId: q }]),
  ctor("single_nominator_withdraw", S.single_nominator_withdraw, C.loadSingleNominatorWithdraw, C.storeSingleNominatorWithdraw, [{ queryId: q, amount: 10n ** 12n }]),
  ctor("single_nominator_change_validator", S.single_nominator_change_validator, C.loadSingleNominatorChangeValidator, C.storeSingleNominatorChangeValidator, [
    { queryId: q, newValidatorAddress: addr(1, -1) },
  ]),
  ctor("single_nominator_send_raw_msg", S.single_nominator_send_raw_msg, C.loadSingleNominatorSendRawMsg, C.storeSingleNominatorSendRawMsg, [{ queryId: q, mode: 128, message: msg1 }]),
  ctor("single_nominator_upgrade", S.single_nominator_upgrade, C.loadSingleNominatorUpgrade, C.storeSingleNominatorUpgrade, [{ queryId: q, newCode: text("code") }]),
  // wallets: internal requests
  ctor("w5_internal_signed_request", W.w5_internal_signed_request, C.loadW5InternalSignedRequest, C.storeW5InternalSignedRequest, [
    { walletId: 2147483409, validUntil: 1_800_000_000, seqno: 5, inner, signature: sig },
  ]),
  ctor("w5_extension_action_request", W.w5_extension_action_request, C.loadW5ExtensionActionRequest, C.storeW5ExtensionActionRequest, [
    { queryId: q, inner: { outActions: null, extendedActions: [{ type: "delete_extension", address: addr(1) }] } },
    { queryId: q, inner: { outActions: [], extendedActions: null } },
  ]),
  ctor("highload_v3_internal_request", W.highload_v3_internal_request, C.loadHighloadV3InternalRequest, C.storeHighloadV3InternalRequest, [
    { queryId: q, actions: [{ type: "sendMsg", mode: 3, outMsg: msg1 }, { type: "setCode", newCode: text("c") }, { type: "sendMsg", mode: 1, outMsg: msg2 }] },
  ]),
  ctor("payment_request", W.payment_request, C.loadPaymentRequest, C.storePaymentRequest, [{ queryId: q, amount: { coins: 10n } }]),
  ctor("payment_confirmed", W.payment_confirmed, C.loadPaymentConfirmed, C.storePaymentConfirmed, [{ queryId: q }]),
  ctor("wallet_plugin_destruct", W.wallet_plugin_destruct, C.loadWalletPluginDestruct, C.storeWalletPluginDestruct, [{ queryId: q }]),
  ctor("wallet_plugin_destruct_response", W.wallet_plugin_destruct_response, C.loadWalletPluginDestructResponse, C.storeWalletPluginDestructResponse, [{ queryId: q }]),
  ctor("wallet_plugin_installation_notification", W.wallet_plugin_installation_notification, C.loadWalletPluginInstallationNotification, C.storeWalletPluginInstallationNotification, [
    { queryId: q },
  ]),
  // wallets: external (signed) bodies
  ctor("w5_external_signed_request", W.w5_external_signed_request, C.loadW5ExternalSignedRequest, C.storeW5ExternalSignedRequest, [
    { walletId: 2147483409, validUntil: 1_800_000_000, seqno: 0, inner: { outActions: [{ type: "sendMsg", mode: 3, outMsg: msg2 }], extendedActions: null }, signature: sig },
  ]),
  ctor("wallet_signed_v1", undefined, C.loadWalletSignedV1, C.storeWalletSignedV1, [{ signature: sig, seqno: 1, messages: [{ mode: 3, message: msg1 }] }]),
  ctor("wallet_signed_v1_v2", undefined, C.loadWalletSignedV2, C.storeWalletSignedV2, [{ signature: sig, seqno: 1, validUntil: 1_800_000_000, messages: [{ mode: 3, message: msg1 }, { mode: 1, message: msg2 }] }]),
  ctor("wallet_signed_v3", undefined, C.loadWalletSignedV3, C.storeWalletSignedV3, [
    { signature: sig, subwalletId: 698983191, validUntil: 1_800_000_000, seqno: 9, messages: [{ mode: 3, message: deploy(addr(1)) }] },
  ]),
  ctor("wallet_signed_v4", undefined, C.loadWalletSignedV4, C.storeWalletSignedV4, [
    { signature: sig, subwalletId: 698983191, validUntil: 1_800_000_000, seqno: 9, op: { type: "simple_send", messages: [{ mode: 3, message: msg1 }] } },
    {
      signature: sig,
      subwalletId: 698983191,
      validUntil: 1_800_000_000,
      seqno: 9,
      op: { type: "deploy_install_plugin", pluginWorkchain: 0, pluginBalance: 10n, stateInit: { code: text("c"), data: text("d") }, body: text("b") },
    },
    { signature: sig, subwalletId: 698983191, validUntil: 1_800_000_000, seqno: 9, op: { type: "remove_plugin", pluginWorkchain: -1, pluginAddress: buf(3, 32), amount: 1n, queryId: q } },
  ]),
  ctor("highload_wallet_signed_v1", undefined, C.loadHighloadWalletSignedV1, C.storeHighloadWalletSignedV1, [
    { signature: sig, subwalletId: 0, validUntil: 1_800_000_000, seqno: 2, messages: highloadMessages() },
  ]),
  ctor("highload_wallet_signed_v2", undefined, C.loadHighloadWalletSignedV2, C.storeHighloadWalletSignedV2, [{ signature: sig, subwalletId: 0, queryId: q, messages: highloadMessages() }]),
  ctor("highload_wallet_signed_v3", undefined, C.loadHighloadWalletSignedV3, C.storeHighloadWalletSignedV3, [
    { signature: sig, msgInner: { subwalletId: 0x10ad, messageToSend: msg2, sendMode: 3, queryId: { shift: 8191, bitNumber: 1022 }, createdAt: 1_800_000_000, timeout: 3600 } },
  ]),
];

const royalty = { numerator: 5, denominator: 100, destination: addr(6) };

const saleFees = { marketplaceFeeAddress: addr(0x21), marketplaceFee: 50_000_000n, royaltyAddress: addr(0x22), royaltyAmount: 100_000_000n };
const saleV2 = { isComplete: false, createdAt: 1_700_000_000, marketplaceAddress: addr(0x20), nftAddress: addr(0x23), nftOwnerAddress: addr(0x24), fullPrice: 10n ** 9n, fees: saleFees };
const jettonPrices = (() => {
  const d = C.loadGetgemsJettonPrices(null);
  d.set(7n, { price: 5n * 10n ** 6n, jettonMaster: addr(0x30) });
  d.set(2n ** 255n, { price: 1n, jettonMaster: addr(0x31) });
  return C.getgemsJettonPricesCell(d);
})();
const saleV4 = {
  isComplete: false,
  marketplaceAddress: addr(0x20),
  nftOwnerAddress: addr(0x24),
  fullPrice: 3n * 10n ** 9n,
  soldAt: 0,
  soldQueryId: 0n,
  staticData: { marketplaceFeeAddress: addr(0x21), royaltyAddress: addr(0x22), marketplaceFeePercent: 5000, royaltyPercent: 10_000, nftAddress: addr(0x23), createdAt: 1_700_000_000 },
  jettonPrices: null,
};
const auctionFees = { marketplaceFeeAddress: addr(0x21), marketplaceFeeFactor: 5, marketplaceFeeBase: 100, royaltyAddress: addr(0x22), royaltyFactor: 10, royaltyBase: 100 };
const auctionV1 = {
  end: false,
  marketplaceAddress: addr(0x20),
  activated: true,
  createdAt: 1_700_000_000,
  isCanceled: false,
  fees: auctionFees,
  bids: { minBid: 10n ** 9n, maxBid: 10n ** 11n, minStep: 10n ** 8n, lastMember: null, lastBid: 0n, lastBidAt: 0, endTime: 1_800_000_000, stepTime: 300, tryStepTime: 600 },
  nftOwner: addr(0x24),
  nftAddress: addr(0x23),
};
const auctionV2 = {
  end: false,
  activated: true,
  isCanceled: false,
  lastMember: null,
  lastBid: 0n,
  lastBidAt: 0,
  endTime: 1_800_000_000,
  nftOwner: addr(0x24),
  fees: auctionFees,
  constants: { subGasPriceFromBid: 8_449_000, marketplaceAddress: addr(0x20), minBid: 10n ** 9n, maxBid: 0n, minStep: 5n, stepTime: 300, nftAddress: addr(0x23), createdAt: 1_700_000_000 },
};
const auctionConstants = { marketplaceAddress: addr(0x20), minBid: 10n ** 9n, maxBid: 10n ** 11n, minStep: 5, stepTime: 300, nftAddress: addr(0x23), createdAt: 1_700_000_000 };
const auctionV3R3 = {
  end: false,
  isCanceled: false,
  lastMember: null,
  lastBid: 0n,
  lastBidAt: 0,
  endTime: 1_800_000_000,
  nftOwner: addr(0x24),
  lastQueryId: 0n,
  fees: auctionFees,
  constants: auctionConstants,
};
const bid = { lastMember: addr(0x25), lastBid: 3_333_333_333n, lastBidAt: 1_750_000_000, lastQueryId: 77n };
const offer = {
  isComplete: false,
  createdAt: 1_700_000_000,
  finishAt: 1_800_000_000,
  swapAt: 0,
  marketplaceAddress: addr(0x20),
  nftAddress: addr(0x23),
  offerOwnerAddress: addr(0x26),
  fullPrice: 2n * 10n ** 9n,
  fees: { marketplaceFeeAddress: addr(0x21), marketplaceFeeFactor: 5, marketplaceFeeBase: 100, royaltyAddress: addr(0x22), royaltyFactor: 7, royaltyBase: 1000 },
  canDeploy: false,
};
const teleitemState = {
  ownerAddress: addr(0x27),
  content: { nftContent: text("item"), dns: null, tokenInfo: { name: Buffer.from("durov"), domain: Buffer.from("me\0t\0") } },
  auction: null,
  royaltyParams: royalty,
};
const teleAuctionConfig = { beneficiaryAddress: addr(0x28), initialMinBid: 10n ** 10n, maxBid: 0n, minBidStep: 5, minExtendTime: 3600, duration: 604_800 };
const dnsRecords = (() => {
  const d = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  d.set(5n, beginCell().store(C.storeDnsRecord({ type: "dns_smc_address", smcAddress: addr(3), flags: 0 })).endCell());
  return beginCell().storeDictDirect(d).endCell();
})();
const whalesMembers = (() => {
  const d = C.loadWhalesMembers(null);
  d.set(0n, { profitPerCoin: 0n, balance: 10n ** 12n, pendingWithdraw: 0n, pendingWithdrawAll: false, pendingDeposit: 0n, withdraw: 0n });
  d.set(9n, { profitPerCoin: -3n, balance: 5n * 10n ** 11n, pendingWithdraw: 1n, pendingWithdrawAll: true, pendingDeposit: 2n, withdraw: 3n });
  return C.whalesMembersCell(d);
})();
const whales = {
  locked: false,
  owner: addr(0x40),
  controller: addr(0x41),
  proxy: addr(0x42, -1),
  balances: { profitPerCoin: 12_345n, balance: 15n * 10n ** 11n, balanceSent: 10n ** 12n, balanceWithdraw: 7n, balancePendingWithdraw: 1n, balancePendingDeposits: 2n },
  members: whalesMembers,
  proxyState: { stakeAt: 0, stakeUntil: 0, stakeSent: 0n, storedQueryId: 0n, storedQueryOp: 0, storedQueryStake: 0n },
  extras: { enabled: true, updatesEnabled: false, minStake: 5n * 10n ** 10n, depositFee: 2n * 10n ** 8n, withdrawFee: 3n * 10n ** 8n, poolFee: 2500n, receiptPrice: 10n ** 8n },
};

export const GETGEMS_STORAGES: Constructor[] = [
  ctor("GetgemsMarketplaceStorage", undefined, C.loadGetgemsMarketplaceStorage, C.storeGetgemsMarketplaceStorage, [
    { seqno: 0, subwallet: 0, publicKey: buf(1, 32) },
    { seqno: 4_000_000_000, subwallet: 698983191, publicKey: buf(0xfe, 32) },
  ]),
  ctor("GetgemsSaleV1Storage", undefined, C.loadGetgemsSaleV1Storage, C.storeGetgemsSaleV1Storage, [
    { marketplaceAddress: addr(0x20), nftAddress: addr(0x23), nftOwnerAddress: null, fullPrice: 10n ** 9n, fees: saleFees },
    { marketplaceAddress: addr(0x20), nftAddress: addr(0x23), nftOwnerAddress: addr(0x24, -1), fullPrice: 2n ** 100n, fees: { ...saleFees, royaltyAddress: null, royaltyAmount: 0n } },
  ]),
  ctor("GetgemsSaleV2Storage", undefined, C.loadGetgemsSaleV2Storage, C.storeGetgemsSaleV2Storage, [saleV2, { ...saleV2, isComplete: true, nftOwnerAddress: null, createdAt: 2 ** 32 - 1 }]),
  ctor("GetgemsSaleV3Storage", undefined, C.loadGetgemsSaleV3Storage, C.storeGetgemsSaleV3Storage, [
    { ...saleV2, canDeployByExternal: false },
    { ...saleV2, isComplete: true, canDeployByExternal: true },
  ]),
  ctor("GetgemsSaleV3R3Storage", undefined, C.loadGetgemsSaleV3R3Storage, C.storeGetgemsSaleV3R3Storage, [
    { ...saleV2, soldAt: 0, queryId: 0n },
    { ...saleV2, isComplete: true, soldAt: 1_750_000_000, queryId: q },
    // The fees leave the seller nothing, then no marketplace: get_sale_data throws.
    { ...saleV2, fullPrice: 150_000_000n, soldAt: 0, queryId: 0n },
    { ...saleV2, marketplaceAddress: null, soldAt: 0, queryId: 0n },
  ]),
  ctor("GetgemsSaleV4Storage", undefined, C.loadGetgemsSaleV4Storage, C.storeGetgemsSaleV4Storage, [
    saleV4,
    { ...saleV4, jettonPrices, publicKey: buf(9, 32) },
    { ...saleV4, isComplete: true, nftOwnerAddress: null, soldAt: 1_750_000_000, soldQueryId: q, publicKey: null },
  ]),
  ctor("GetgemsAuctionV1Storage", undefined, C.loadGetgemsAuctionV1Storage, C.storeGetgemsAuctionV1Storage, [
    auctionV1,
    { ...auctionV1, end: true, activated: false, createdAt: -2, isCanceled: true, nftOwner: null, bids: { ...auctionV1.bids, lastMember: addr(0x25), lastBid: 5n * 10n ** 9n, lastBidAt: 1_750_000_000 } },
  ]),
  ctor("GetgemsAuctionV2Storage", undefined, C.loadGetgemsAuctionV2Storage, C.storeGetgemsAuctionV2Storage, [
    auctionV2,
    { ...auctionV2, end: true, isCanceled: true, lastMember: addr(0x25), lastBid: 5n * 10n ** 9n, lastBidAt: 1_750_000_000, constants: { ...auctionV2.constants, subGasPriceFromBid: -1 } },
  ]),
  ctor("GetgemsAuctionV3R3Storage", undefined, C.loadGetgemsAuctionV3R3Storage, C.storeGetgemsAuctionV3R3Storage, [
    auctionV3R3,
    { ...auctionV3R3, ...bid, nftOwner: null },
    // Fees of 100 %: not profitable, the get-methods throw.
    { ...auctionV3R3, fees: { ...auctionFees, marketplaceFeeFactor: 1, marketplaceFeeBase: 1 } },
  ]),
  ctor("GetgemsAuctionV4Storage", undefined, C.loadGetgemsAuctionV4Storage, C.storeGetgemsAuctionV4Storage, [
    { ...auctionV3R3, jetton: null },
    { ...auctionV3R3, ...bid, jetton: { jettonWallet: addr(0x32), jettonMaster: addr(0x30), publicKey: null } },
    { ...auctionV3R3, ...bid, jetton: { jettonWallet: null, jettonMaster: addr(0x30), publicKey: 2n ** 256n - 1n } },
    { ...auctionV3R3, ...bid, nftOwner: null, fees: { ...auctionFees, royaltyFactor: 95, royaltyBase: 100 }, jetton: null },
  ]),
  ctor("GetgemsOfferStorage", undefined, C.loadGetgemsOfferStorage, C.storeGetgemsOfferStorage, [
    offer,
    { ...offer, isComplete: true, swapAt: 1_750_000_000, fees: { ...offer.fees, royaltyBase: 0 } },
    // As deployed (can_deploy), then a price the fees eat: the get-methods throw.
    { ...offer, canDeploy: true },
    { ...offer, fullPrice: 5_000_000n },
  ]),
];

export const TELEMINT_STORAGES: Constructor[] = [
  ctor("TelemintCollectionStorage", undefined, C.loadTelemintCollectionStorage, C.storeTelemintCollectionStorage, [
    { touched: false, subwalletId: 0, publicKey: buf(2, 32), content: text("collection"), nftItemCode: text("item"), fullDomain: Buffer.from("me\0t\0"), royaltyParams: royalty },
    { touched: true, subwalletId: 7, publicKey: buf(3, 32), content: text("numbers"), nftItemCode: text("item"), fullDomain: Buffer.alloc(0), royaltyParams: { ...royalty, destination: null } },
  ]),
  ctor("TeleitemStorage", undefined, C.loadTeleitemStorage, C.storeTeleitemStorage, [
    { itemIndex: 2n ** 255n + 5n, collectionAddress: addr(0x29), state: null },
    { itemIndex: 5n, collectionAddress: addr(0x29), state: teleitemState },
    {
      itemIndex: 6n,
      collectionAddress: addr(0x29),
      state: { ...teleitemState, ownerAddress: null, content: { ...teleitemState.content, dns: dnsRecords }, auction: { state: { lastBid: null, minBid: 10n ** 10n, endTime: 1_800_000_000 }, config: teleAuctionConfig } },
    },
    {
      itemIndex: 7n,
      collectionAddress: addr(0x29),
      state: {
        ...teleitemState,
        auction: { state: { lastBid: { bidderAddress: addr(0x2a), bid: 2n * 10n ** 10n, bidTs: 1_750_000_000 }, minBid: 21n * 10n ** 9n, endTime: 1_800_000_000 }, config: { ...teleAuctionConfig, maxBid: 10n ** 12n } },
      },
    },
    // A delayed auction before its first bid: end_time holds the duration.
    { itemIndex: 8n, collectionAddress: addr(0x29), state: { ...teleitemState, ownerAddress: null, auction: { state: { lastBid: null, minBid: 10n ** 10n, endTime: 86_400 }, config: teleAuctionConfig } } },
  ]),
];

export const WHALES_STORAGES: Constructor[] = [
  ctor("WhalesPoolStorage", undefined, C.loadWhalesPoolStorage, C.storeWhalesPoolStorage, [
    whales,
    { ...whales, locked: true, members: null, extras: null, proxyState: { stakeAt: 1_700_000_000, stakeUntil: 1_700_065_536, stakeSent: 10n ** 12n, storedQueryId: 5n, storedQueryOp: 0x4e73744b, storedQueryStake: 10n ** 12n } },
    // Staked in the current cycle, in none of the block's (the replayed mainnet block's params 32
    // and 34 begin at 1778601736 and 1778667272), and released long ago.
    { ...whales, locked: true, proxyState: { ...whales.proxyState, stakeAt: 1_778_650_000, stakeUntil: 1_778_715_536, stakeSent: 10n ** 12n } },
    { ...whales, locked: true, proxyState: { ...whales.proxyState, stakeAt: 1_778_700_000, stakeUntil: 1_778_765_536, stakeSent: 10n ** 12n } },
    { ...whales, proxyState: { ...whales.proxyState, stakeAt: 0, stakeUntil: 1_600_000_000 } },
  ]),
];

export const STORAGES: Constructor[] = [
  ctor("WalletV1Storage", undefined, C.loadWalletV1Storage, C.storeWalletV1Storage, [{ seqno: 3, publicKey: buf(1, 32) }]),
  ctor("WalletV3Storage", undefined, C.loadWalletV3Storage, C.storeWalletV3Storage, [{ seqno: 3, subwalletId: 698983191, publicKey: buf(1, 32) }]),
  ctor("WalletV4Storage", undefined, C.loadWalletV4Storage, C.storeWalletV4Storage, [
    { seqno: 3, subwalletId: 698983191, publicKey: buf(1, 32), plugins: [] },
    { seqno: 3, subwalletId: 698983191, publicKey: buf(1, 32), plugins: [addr(1), addr(2, -1)] },
  ]),
  ctor("WalletV5Storage", undefined, C.loadWalletV5Storage, C.storeWalletV5Storage, [
    { isSignatureAllowed: true, seqno: 3, walletId: 2147483409, publicKey: buf(1, 32), extensions: [] },
    { isSignatureAllowed: false, seqno: 3, walletId: 2147483409, publicKey: buf(1, 32), extensions: [5n, 2n ** 255n] },
  ]),
  ctor("HighloadWalletV2Storage", undefined, C.loadHighloadWalletV2Storage, C.storeHighloadWalletV2Storage, [{ subwalletId: 0, lastCleaned: 5n, publicKey: buf(1, 32), oldQueries: null }]),
  ctor("HighloadWalletV3Storage", undefined, C.loadHighloadWalletV3Storage, C.storeHighloadWalletV3Storage, [
    { publicKey: buf(1, 32), subwalletId: 0x10ad, oldQueries: null, queries: text("q"), lastCleanTime: 1_700_000_000n, timeout: 3600 },
  ]),
  ctor("JettonMinterStorage", undefined, C.loadJettonMinterStorage, C.storeJettonMinterStorage, [
    { totalSupply: 10n ** 18n, adminAddress: addr(1), content: text("c"), jettonWalletCode: text("w") },
    { totalSupply: 0n, adminAddress: null, content: beginCell().storeUint(1, 8).storeStringTail("https://example.org/jetton.json").endCell(), jettonWalletCode: text("wallet") },
  ]),
  ctor("JettonMinterV2Storage", undefined, C.loadJettonMinterV2Storage, C.storeJettonMinterV2Storage, [
    { totalSupply: 1n, adminAddress: addr(1), nextAdminAddress: null, jettonWalletCode: text("w"), metadataUri: text("https://x") },
    { totalSupply: 1n, adminAddress: null, nextAdminAddress: addr(2), jettonWalletCode: text("w"), metadataUri: text("https://x"), merkleRoot: 2n ** 250n },
    // A URI too long for get_jetton_data's content cell, then one that goes on in a ref.
    { totalSupply: 2n ** 100n, adminAddress: null, nextAdminAddress: addr(2), jettonWalletCode: text("w"), metadataUri: text(`https://example.org/${"m".repeat(150)}.json`) },
    { totalSupply: 7n, adminAddress: addr(1), nextAdminAddress: addr(2), jettonWalletCode: text("w"), metadataUri: beginCell().storeStringTail("https://example.org/").storeRef(text("jetton.json")).endCell() },
  ]),
  ctor("JettonWalletStorage", undefined, C.loadJettonWalletStorage, C.storeJettonWalletStorage, [
    { balance: 5n, ownerAddress: addr(1), jettonMasterAddress: addr(2), jettonWalletCode: text("w") },
    { balance: 2n ** 119n, ownerAddress: addr(3, -1), jettonMasterAddress: addr(2), jettonWalletCode: text("wallet") },
  ]),
  ctor("JettonWalletV2Storage", undefined, C.loadJettonWalletV2Storage, C.storeJettonWalletV2Storage, [
    { status: 0, balance: 5n, ownerAddress: addr(1), jettonMasterAddress: addr(2) },
    { status: 0, balance: 5n, ownerAddress: addr(1), jettonMasterAddress: addr(2), mintless: { merkleRoot: 7n, salt: 1000 } },
    { status: 3, balance: 2n ** 100n, ownerAddress: addr(3), jettonMasterAddress: addr(2) },
    { status: 1, balance: 0n, ownerAddress: addr(3), jettonMasterAddress: addr(2), mintless: { merkleRoot: 2n ** 256n - 1n, salt: 0 } },
  ]),
  ctor("NftCollectionStorage", undefined, C.loadNftCollectionStorage, C.storeNftCollectionStorage, [
    { ownerAddress: addr(1), nextItemIndex: 10n, content: { collectionContent: text("cc"), commonContent: text("common") }, nftItemCode: text("item"), royaltyParams: royalty },
    { ownerAddress: null, nextItemIndex: 2n ** 64n - 1n, content: { collectionContent: text("cc2"), commonContent: text("https://example.org/items/") }, nftItemCode: text("item"), royaltyParams: royalty },
  ]),
  ctor("NftItemStorage", undefined, C.loadNftItemStorage, C.storeNftItemStorage, [
    { index: 3n, collectionAddress: addr(1), init: null },
    { index: 3n, collectionAddress: addr(1), init: { ownerAddress: addr(2), content: text("3.json") } },
    { index: 2n ** 64n - 1n, collectionAddress: addr(1), init: { ownerAddress: null, content: text("last.json") } },
  ]),
  ctor("NftSingleStorage", undefined, C.loadNftSingleStorage, C.storeNftSingleStorage, [
    { ownerAddress: addr(1), editorAddress: addr(2), content: text("c"), royaltyParams: royalty },
    { ownerAddress: addr(4, -1), editorAddress: null, content: text("single"), royaltyParams: royalty },
  ]),
  ctor("DnsCollectionStorage", undefined, C.loadDnsCollectionStorage, C.storeDnsCollectionStorage, [{ content: text("c"), nftItemCode: text("i") }]),
  ctor("DnsItemStorage", undefined, C.loadDnsItemStorage, C.storeDnsItemStorage, [
    { index: 2n ** 255n, collectionAddress: addr(1), init: null },
    {
      index: 5n,
      collectionAddress: addr(1),
      init: { ownerAddress: null, content: text("c"), domain: text("example"), auction: { maxBidAddress: addr(3), maxBidAmount: 10n ** 9n, auctionEndTime: 1_800_000_000n }, lastFillUpTime: 1n },
    },
  ]),
  ctor("MultisigStorage", undefined, C.loadMultisigStorage, C.storeMultisigStorage, [
    { nextOrderSeqno: 0n, threshold: 2, signers: addresses(addr(1), addr(2), addr(3)), signersNum: 3, proposers: C.emptyMultisigAddresses(), allowArbitraryOrderSeqno: false },
  ]),
  ctor("MultisigOrderStorage", undefined, C.loadMultisigOrderStorage, C.storeMultisigOrderStorage, [
    { multisigAddress: addr(1), orderSeqno: 4n, init: null },
    {
      multisigAddress: addr(1),
      orderSeqno: 4n,
      init: { threshold: 2, sentForExecution: false, signers: addresses(addr(1), addr(2)), approvalsMask: 1n, approvalsNum: 1, expirationDate: 1_900_000_000, order: order(sendAction) },
    },
  ]),
  ctor("VestingStorage", undefined, C.loadVestingStorage, C.storeVestingStorage, [
    {
      seqno: 0,
      subwalletId: 0,
      publicKey: buf(1, 32),
      whitelist: [addr(4), addr(5, -1)],
      params: {
        vestingStartTime: 1_700_000_000,
        vestingTotalDuration: 31_536_000,
        unlockPeriod: 2_592_000,
        cliffDuration: 0,
        vestingTotalAmount: 10n ** 12n,
        vestingSenderAddress: addr(1),
        ownerAddress: addr(2),
      },
    },
  ]),
  ctor("SingleNominatorStorage", undefined, C.loadSingleNominatorStorage, C.storeSingleNominatorStorage, [{ ownerAddress: addr(1), validatorAddress: addr(2, -1) }]),
  ctor("NominatorPoolStorage", undefined, C.loadNominatorPoolStorage, C.storeNominatorPoolStorage, [
    {
      state: 0,
      nominatorsCount: 1,
      stakeAmountSent: 0n,
      validatorAmount: 10n ** 12n,
      config: { validatorAddress: 2n ** 200n, validatorRewardShare: 4000, maxNominatorsCount: 40, minValidatorStake: 10n ** 13n, minNominatorStake: 10n ** 13n },
      nominators: (() => {
        const d = C.emptyPoolNominators();
        d.set(7n, { amount: 10n ** 13n, pendingDepositAmount: 0n });
        return d;
      })(),
      withdrawRequests: null,
      stakeAt: 0,
      savedValidatorSetHash: 0n,
      validatorSetChangesCount: 0,
      validatorSetChangeTime: 0,
      stakeHeldFor: 0,
      configProposalVotings: null,
    },
  ]),
  ...GETGEMS_STORAGES,
  ...TELEMINT_STORAGES,
  ...WHALES_STORAGES,
];

export const DNS_RECORDS: C.DnsRecord[] = [
  { type: "dns_text", chunks: [Buffer.from("hello"), Buffer.from(" world")] },
  { type: "dns_next_resolver", resolver: addr(1) },
  { type: "dns_adnl_address", adnlAddress: buf(2, 32), flags: 0 },
  { type: "dns_adnl_address", adnlAddress: buf(2, 32), flags: 1, protocols: ["http"] },
  { type: "dns_smc_address", smcAddress: addr(3), flags: 1, capabilities: [{ type: "cap_is_wallet" }, { type: "cap_name", name: [Buffer.from("w")] }, { type: "cap_method_seqno" }] },
  { type: "dns_storage_address", bagId: buf(4, 32) },
];

/** Every value as plain data: cells by hash, addresses raw, dictionaries as entries, no undefined keys. */
export function plain(x: unknown): unknown {
  if (x instanceof Cell) return `cell:${x.hash().toString("hex")}`;
  if (Address.isAddress(x)) return `addr:${x.toRawString()}`;
  if (Buffer.isBuffer(x)) return `hex:${x.toString("hex")}`;
  if (x instanceof Dictionary) return [...x].map(([k, v]) => [plain(k), plain(v)]);
  if (Array.isArray(x)) return x.map(plain);
  if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined).map(([k, v]) => [k, plain(v)]));
  return x;
}
