// LayerZero v2 on TON: the message bodies of the endpoint, channel, message library (ULN), DVN
// and OApp contracts, as far as the classifier reads them. Every LayerZero message has one
// envelope (opcode, query_id, donation, origin, ^md); the md and the objects inside it are
// LayerZero "class" objects: a 350-bit header (the class name and its field types, padded with
// ones) followed by the fields. Only the classes the classifier needs have loaders here; each
// checks its header, so a body of another shape throws instead of being misread.
import { type Address, beginCell, type Builder, type Cell, type Slice } from "@ton/core";
import { ContractDataError } from "../errors.js";

export const LAYERZERO_OPCODES = {
  /** BaseInterface::OP::EVENT: an event sent to the event sink */
  event: 0xe33b9873,
  endpoint_send: 0xdd4ea3b4,
  channel_send: 0x536feb09,
  msglib_connection_send: 0x4002b790,
  uln_send: 0x5de68393,
  channel_msglib_send_callback: 0x421c1a25,
  /** the channel's answer to the OApp once the packet is sent */
  channel_send_callback: 0xa2b5fbae,
  /** the executor asks the channel to prepare an lzReceive */
  channel_lz_receive_prepare: 0x22f3ac09,
  /** the channel forwards it to the OApp */
  lz_receive_prepare: 0x97df404c,
  channel_lz_receive_lock: 0xb7680bc6,
  lz_receive_execute: 0x0c7b8418,
  /** the OApp reports the execution back to the channel */
  lz_receive_execute_callback: 0xcaae25a1,
  uln_commit_packet: 0x28b97077,
  uln_connection_commit_packet: 0xf9d37b80,
  endpoint_commit_packet: 0x5dab749a,
  channel_commit_packet: 0x5388cd88,
  msglib_connection_commit_packet_callback: 0x5e178f33,
  dvn_verify: 0xa0d51a8d,
  proxy_call_contract: 0x09f047d9,
  uln_verify: 0x994aaf4e,
  uln_connection_verify: 0x4ec8f80a,
  uln_connection_verify_callback: 0x3cb38090,
} as const;

/**
 * The envelope of every LayerZero message: opcode:uint32 query_id:uint64 donation_nanos:Coins
 * origin:MsgAddressInt md:^Cell. Messages an off-chain worker (executor, DVN admin) sends carry
 * no origin; `origin` is then null and nothing is stored for it.
 */
export interface LayerZeroMessage {
  opcode: number;
  queryId: bigint;
  donationNanos: bigint;
  origin: Address | null;
  md: Cell;
}

export function loadLayerZeroMessage(s: Slice): LayerZeroMessage {
  if (s.remainingBits < 32) throw new ContractDataError("layerzero message: the body is shorter than an opcode");
  const opcode = s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const donationNanos = s.loadCoins();
  const origin = s.remainingBits > 0 ? s.loadAddress() : null;
  return { opcode, queryId, donationNanos, origin, md: s.loadRef() };
}

export function storeLayerZeroMessage(src: LayerZeroMessage): (b: Builder) => void {
  return (b) => {
    b.storeUint(src.opcode, 32).storeUint(src.queryId, 64).storeCoins(src.donationNanos);
    if (src.origin !== null) b.storeAddress(src.origin);
    b.storeRef(src.md);
  };
}

// ---- class objects -------------------------------------------------------------------------

const HEADER_BITS = 350;

/** A class header: its info bits (name and field types), then ones up to HEADER_BITS. */
function classHeader(info: bigint, infoBits: number): bigint {
  const filler = BigInt(HEADER_BITS - infoBits);
  return (info << filler) | ((1n << filler) - 1n);
}

const nameBits = (name: string) => BigInt("0x" + Buffer.from(name, "utf8").toString("hex"));

// md::LzSend, lz::Packet, lz::Path and md::VerificationStatus: the _headerInfo/_headerInfoBits
// constants of LayerZero's TON sources; md::MdObj and md::ExtendedMd: read off mainnet messages
// (their constants are not published with the parsers we follow)
const HEADERS = {
  mdObj: classHeader(11421019182499819497470n, 115),
  extendedMd: classHeader(2158039423888381479756012641949853778270n, 132),
  lzSend: classHeader((nameBits("lzSend") << 180n) | 582890735024998957421269964955452773563747974476099581n, 260),
  packet: classHeader(417359019239977417716476838698419835n, 152),
  path: classHeader(8903714975572488637007080065659n, 152),
  verificationStatus: classHeader(38421788582694199859296615363593851n, 116),
} as const;

function loadHeader(s: Slice, header: bigint, name: string): void {
  if (s.remainingBits < HEADER_BITS) throw new ContractDataError(`layerzero ${name}: shorter than a class header`);
  if (s.loadUintBig(HEADER_BITS) !== header) throw new ContractDataError(`layerzero ${name}: another class`);
}

/** md::MdObj: an md and the object it travels with (refs only). */
export interface LzMdObj {
  md: Cell;
  obj: Cell;
}

export function loadLzMdObj(s: Slice): LzMdObj {
  loadHeader(s, HEADERS.mdObj, "MdObj");
  return { md: s.loadRef(), obj: s.loadRef() };
}

export function storeLzMdObj(src: LzMdObj): (b: Builder) => void {
  return (b) => b.storeUint(HEADERS.mdObj, HEADER_BITS).storeRef(src.md).storeRef(src.obj);
}

/** md::ExtendedMd: an md, the object it travels with and the address to forward to. */
export interface LzExtendedMd {
  md: Cell;
  obj: Cell;
  forwardingAddress: bigint;
}

export function loadLzExtendedMd(s: Slice): LzExtendedMd {
  loadHeader(s, HEADERS.extendedMd, "ExtendedMd");
  return { md: s.loadRef(), obj: s.loadRef(), forwardingAddress: s.loadUintBig(256) };
}

export function storeLzExtendedMd(src: LzExtendedMd): (b: Builder) => void {
  return (b) => b.storeUint(HEADERS.extendedMd, HEADER_BITS).storeRef(src.md).storeRef(src.obj).storeUint(src.forwardingAddress, 256);
}

/**
 * md::LzSend: a send request as the channel records it (request id, the message library chosen,
 * the packet, the fees quoted). The fee fields sit in a third ref.
 */
export interface LzSend {
  sendRequestId: bigint;
  sendMsglibManager: bigint;
  sendMsglib: bigint;
  packet: Cell;
  extraOptions: Cell;
  sendMsglibConnection: bigint;
  nativeFee: bigint;
  zroFee: bigint;
  enforcedOptions: Cell;
  callbackData: Cell;
}

export function loadLzSend(s: Slice): LzSend {
  loadHeader(s, HEADERS.lzSend, "LzSend");
  const sendRequestId = s.loadUintBig(64);
  const sendMsglibManager = s.loadUintBig(256);
  const sendMsglib = s.loadUintBig(256);
  const packet = s.loadRef();
  const extraOptions = s.loadRef();
  const fees = s.loadRef().beginParse();
  return {
    sendRequestId,
    sendMsglibManager,
    sendMsglib,
    packet,
    extraOptions,
    sendMsglibConnection: fees.loadUintBig(256),
    nativeFee: fees.loadUintBig(128),
    zroFee: fees.loadUintBig(128),
    enforcedOptions: fees.loadRef(),
    callbackData: fees.loadRef(),
  };
}

export function storeLzSend(src: LzSend): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(HEADERS.lzSend, HEADER_BITS)
      .storeUint(src.sendRequestId, 64)
      .storeUint(src.sendMsglibManager, 256)
      .storeUint(src.sendMsglib, 256)
      .storeRef(src.packet)
      .storeRef(src.extraOptions)
      .storeRef(
        beginCell()
          .storeUint(src.sendMsglibConnection, 256)
          .storeUint(src.nativeFee, 128)
          .storeUint(src.zroFee, 128)
          .storeRef(src.enforcedOptions)
          .storeRef(src.callbackData),
      );
}

/** lz::Packet: the path, the OApp's message (a cell), the nonce and the packet's guid. */
export interface LzPacket {
  path: Cell;
  message: Cell;
  nonce: bigint;
  guid: bigint;
}

export function loadLzPacket(s: Slice): LzPacket {
  loadHeader(s, HEADERS.packet, "Packet");
  return { path: s.loadRef(), message: s.loadRef(), nonce: s.loadUintBig(64), guid: s.loadUintBig(256) };
}

export function storeLzPacket(src: LzPacket): (b: Builder) => void {
  return (b) => b.storeUint(HEADERS.packet, HEADER_BITS).storeRef(src.path).storeRef(src.message).storeUint(src.nonce, 64).storeUint(src.guid, 256);
}

/** lz::Path: source and destination endpoint ids and OApps (OApps as 256-bit numbers: EVM addresses fit). */
export interface LzPath {
  srcEid: number;
  srcOApp: bigint;
  dstEid: number;
  dstOApp: bigint;
}

export function loadLzPath(s: Slice): LzPath {
  loadHeader(s, HEADERS.path, "Path");
  return { srcEid: s.loadUint(32), srcOApp: s.loadUintBig(256), dstEid: s.loadUint(32), dstOApp: s.loadUintBig(256) };
}

export function storeLzPath(src: LzPath): (b: Builder) => void {
  return (b) => b.storeUint(HEADERS.path, HEADER_BITS).storeUint(src.srcEid, 32).storeUint(src.srcOApp, 256).storeUint(src.dstEid, 32).storeUint(src.dstOApp, 256);
}

/** md::VerificationStatus: a ULN connection's verdict on a DVN's verification of a nonce. */
export interface LzVerificationStatus {
  nonce: bigint;
  status: number;
}

/** The verdicts of UlnConnection::verify. */
export const LZ_VERIFICATION_STATUS = {
  succeeded: 0x3bbc306b,
  nonce_out_of_range: 0x7fcbb4ac,
  dvn_not_configured: 0x29c53fab,
} as const;

export function loadLzVerificationStatus(s: Slice): LzVerificationStatus {
  loadHeader(s, HEADERS.verificationStatus, "VerificationStatus");
  return { nonce: s.loadUintBig(64), status: s.loadUint(32) };
}

export function storeLzVerificationStatus(src: LzVerificationStatus): (b: Builder) => void {
  return (b) => b.storeUint(HEADERS.verificationStatus, HEADER_BITS).storeUint(src.nonce, 64).storeUint(src.status, 32);
}
