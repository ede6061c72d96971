// TEP-62 NFT and TEP-66 royalty message bodies (and TEP-85 SBT), named after toncenter's schemes
// (message-schemes.tlb "nfts.xml"). The excess an item returns is common/excess.
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { loadOpcode, loadOptionalEitherCell, loadQueryIdOnly, storeOptionalEitherCell, storeQueryIdOnly, type EitherCell } from "../tlb.js";

export const NFT_OPCODES = {
  nft_transfer: 0x5fcc3d14,
  nft_ownership_assigned: 0x05138d91,
  get_static_data: 0x2fcb26a2,
  report_static_data: 0x8b771735,
  get_royalty_params: 0x693d3950,
  report_royalty_params: 0xa8cb00ad,
  prove_ownership: 0x04ded148,
  ownership_proof: 0x0524c7ae,
  sbt_request_owner: 0xd0c3bfea,
  sbt_owner_info: 0x0dd607e3,
  sbt_destroy: 0x1f04537a,
  sbt_revoke: 0x6f89f5e3,
} as const;

const OP = NFT_OPCODES;

/**
 * nft_transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
 * custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell).
 */
export interface NftTransfer {
  queryId: bigint;
  newOwner: Address | null;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardAmount: bigint;
  /** null: the body ends before the Either bit. */
  forwardPayload: EitherCell | null;
}

export function loadNftTransfer(s: Slice): NftTransfer {
  loadOpcode(s, OP.nft_transfer, "nft_transfer");
  return {
    queryId: s.loadUintBig(64),
    newOwner: s.loadMaybeAddress(),
    responseDestination: s.loadMaybeAddress(),
    customPayload: s.loadMaybeRef(),
    forwardAmount: s.loadCoins(),
    forwardPayload: loadOptionalEitherCell(s),
  };
}

export const storeNftTransfer = (src: NftTransfer) => (b: Builder) =>
  b
    .storeUint(OP.nft_transfer, 32)
    .storeUint(src.queryId, 64)
    .storeAddress(src.newOwner)
    .storeAddress(src.responseDestination)
    .storeMaybeRef(src.customPayload)
    .storeCoins(src.forwardAmount)
    .store(storeOptionalEitherCell(src.forwardPayload));

/** nft_ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell). */
export interface NftOwnershipAssigned {
  queryId: bigint;
  prevOwner: Address | null;
  forwardPayload: EitherCell | null;
}

export function loadNftOwnershipAssigned(s: Slice): NftOwnershipAssigned {
  loadOpcode(s, OP.nft_ownership_assigned, "nft_ownership_assigned");
  return { queryId: s.loadUintBig(64), prevOwner: s.loadMaybeAddress(), forwardPayload: loadOptionalEitherCell(s) };
}

export const storeNftOwnershipAssigned = (src: NftOwnershipAssigned) => (b: Builder) =>
  b.storeUint(OP.nft_ownership_assigned, 32).storeUint(src.queryId, 64).storeAddress(src.prevOwner).store(storeOptionalEitherCell(src.forwardPayload));

/** A body of one query_id: get_static_data#2fcb26a2, get_royalty_params#693d3950, sbt_destroy#1f04537a, sbt_revoke#6f89f5e3. */
export interface NftQuery {
  queryId: bigint;
}

export const loadGetStaticData = (s: Slice): NftQuery => ({ queryId: loadQueryIdOnly(s, OP.get_static_data, "get_static_data") });
export const storeGetStaticData = (src: NftQuery) => storeQueryIdOnly(OP.get_static_data, src.queryId);
export const loadGetRoyaltyParams = (s: Slice): NftQuery => ({ queryId: loadQueryIdOnly(s, OP.get_royalty_params, "get_royalty_params") });
export const storeGetRoyaltyParams = (src: NftQuery) => storeQueryIdOnly(OP.get_royalty_params, src.queryId);
export const loadSbtDestroy = (s: Slice): NftQuery => ({ queryId: loadQueryIdOnly(s, OP.sbt_destroy, "sbt_destroy") });
export const storeSbtDestroy = (src: NftQuery) => storeQueryIdOnly(OP.sbt_destroy, src.queryId);
export const loadSbtRevoke = (s: Slice): NftQuery => ({ queryId: loadQueryIdOnly(s, OP.sbt_revoke, "sbt_revoke") });
export const storeSbtRevoke = (src: NftQuery) => storeQueryIdOnly(OP.sbt_revoke, src.queryId);

/** report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress. */
export interface ReportStaticData {
  queryId: bigint;
  index: bigint;
  collection: Address | null;
}

export function loadReportStaticData(s: Slice): ReportStaticData {
  loadOpcode(s, OP.report_static_data, "report_static_data");
  return { queryId: s.loadUintBig(64), index: s.loadUintBig(256), collection: s.loadMaybeAddress() };
}

export const storeReportStaticData = (src: ReportStaticData) => (b: Builder) =>
  b.storeUint(OP.report_static_data, 32).storeUint(src.queryId, 64).storeUint(src.index, 256).storeAddress(src.collection);

/** nft_royalty_params#_ numerator:uint16 denominator:uint16 destination:MsgAddress (TEP-66). */
export interface NftRoyaltyParams {
  numerator: number;
  denominator: number;
  destination: Address | null;
}

export const loadNftRoyaltyParams = (s: Slice): NftRoyaltyParams => ({ numerator: s.loadUint(16), denominator: s.loadUint(16), destination: s.loadMaybeAddress() });
export const storeNftRoyaltyParams = (src: NftRoyaltyParams) => (b: Builder) => b.storeUint(src.numerator, 16).storeUint(src.denominator, 16).storeAddress(src.destination);

/** report_royalty_params#a8cb00ad query_id:uint64 numerator:uint16 denominator:uint16 destination:MsgAddress. */
export interface ReportRoyaltyParams extends NftRoyaltyParams {
  queryId: bigint;
}

export function loadReportRoyaltyParams(s: Slice): ReportRoyaltyParams {
  loadOpcode(s, OP.report_royalty_params, "report_royalty_params");
  return { queryId: s.loadUintBig(64), ...loadNftRoyaltyParams(s) };
}

export const storeReportRoyaltyParams = (src: ReportRoyaltyParams) => (b: Builder) =>
  b.storeUint(OP.report_royalty_params, 32).storeUint(src.queryId, 64).store(storeNftRoyaltyParams(src));

/**
 * TEP-85: prove_ownership#04ded148 and sbt_request_owner#d0c3bfea share
 * query_id:uint64 dest:MsgAddress forward_payload:^Cell with_content:Bool.
 */
export interface SbtRequest {
  queryId: bigint;
  dest: Address | null;
  forwardPayload: Cell;
  withContent: boolean;
}

function loadSbtRequest(s: Slice, op: number, name: string): SbtRequest {
  loadOpcode(s, op, name);
  return { queryId: s.loadUintBig(64), dest: s.loadMaybeAddress(), forwardPayload: s.loadRef(), withContent: s.loadBit() };
}

const storeSbtRequest = (op: number, src: SbtRequest) => (b: Builder) =>
  b.storeUint(op, 32).storeUint(src.queryId, 64).storeAddress(src.dest).storeRef(src.forwardPayload).storeBit(src.withContent);

export const loadProveOwnership = (s: Slice): SbtRequest => loadSbtRequest(s, OP.prove_ownership, "prove_ownership");
export const storeProveOwnership = (src: SbtRequest) => storeSbtRequest(OP.prove_ownership, src);
export const loadSbtRequestOwner = (s: Slice): SbtRequest => loadSbtRequest(s, OP.sbt_request_owner, "sbt_request_owner");
export const storeSbtRequestOwner = (src: SbtRequest) => storeSbtRequest(OP.sbt_request_owner, src);

/** ownership_proof#0524c7ae query_id:uint64 item_id:uint256 owner:MsgAddress data:^Cell revoked_at:uint64 content:(Maybe ^Cell). */
export interface OwnershipProof {
  queryId: bigint;
  itemId: bigint;
  owner: Address | null;
  data: Cell;
  revokedAt: bigint;
  content: Cell | null;
}

export function loadOwnershipProof(s: Slice): OwnershipProof {
  loadOpcode(s, OP.ownership_proof, "ownership_proof");
  return { queryId: s.loadUintBig(64), itemId: s.loadUintBig(256), owner: s.loadMaybeAddress(), data: s.loadRef(), revokedAt: s.loadUintBig(64), content: s.loadMaybeRef() };
}

export const storeOwnershipProof = (src: OwnershipProof) => (b: Builder) =>
  b
    .storeUint(OP.ownership_proof, 32)
    .storeUint(src.queryId, 64)
    .storeUint(src.itemId, 256)
    .storeAddress(src.owner)
    .storeRef(src.data)
    .storeUint(src.revokedAt, 64)
    .storeMaybeRef(src.content);

/** sbt_owner_info#0dd607e3 query_id:uint64 item_id:uint256 initiator:MsgAddress owner:MsgAddress data:^Cell revoked_at:uint64 content:(Maybe ^Cell). */
export interface SbtOwnerInfo extends OwnershipProof {
  initiator: Address | null;
}

export function loadSbtOwnerInfo(s: Slice): SbtOwnerInfo {
  loadOpcode(s, OP.sbt_owner_info, "sbt_owner_info");
  const [queryId, itemId, initiator, owner] = [s.loadUintBig(64), s.loadUintBig(256), s.loadMaybeAddress(), s.loadMaybeAddress()];
  return { queryId, itemId, initiator, owner, data: s.loadRef(), revokedAt: s.loadUintBig(64), content: s.loadMaybeRef() };
}

export const storeSbtOwnerInfo = (src: SbtOwnerInfo) => (b: Builder) =>
  b
    .storeUint(OP.sbt_owner_info, 32)
    .storeUint(src.queryId, 64)
    .storeUint(src.itemId, 256)
    .storeAddress(src.initiator)
    .storeAddress(src.owner)
    .storeRef(src.data)
    .storeUint(src.revokedAt, 64)
    .storeMaybeRef(src.content);
