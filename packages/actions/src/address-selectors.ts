// The addresses outside a trace's accounts and messages whose facts the classifier reads (toncenter's
// address_selectors, extract_additional_addresses): what a failed wallet external meant to send (its
// payloads' destinations, a jetton transfer's recipient), the jetton wallet a STON.fi swap asks for,
// the pool wallets of a STON.fi v2 swap (cross-swaps included), TONCO's target and payout wallets.
// Only the fields toncenter's selectors read are read here; a body that does not read so names nothing.
import type { Slice } from "@ton/core";
import { JETTON_OPCODES, STONFI_OPCODES, TONCO_LIQUIDITY_OPCODES, TONCO_OPCODES, TONCO_PAY_TO_OPCODES } from "@tongate/contracts";
import { bodySlice, loadAnyAddress } from "./engine/cells.js";
import { walletPayloads } from "./engine/externals.js";
import type { TraceMessage, TraceTransaction } from "./trace.js";

const JETTON_TRANSFER = JETTON_OPCODES.jetton_transfer;
const JETTON_NOTIFY = JETTON_OPCODES.jetton_notify;
/** STON.fi v1's swap forward payload (in a jetton transfer to its router) */
const STONFI_SWAP = STONFI_OPCODES.stonfi_swap;
/** STON.fi v2's swap forward payload (in a jetton notify to its router), and its cross-swap */
const STONFI_V2_SWAP_PAYLOAD = STONFI_OPCODES.stonfi_swap_v2;
const STONFI_V2_CROSS_SWAP = STONFI_OPCODES.stonfi_cross_swap_v2;
/** the message toncenter's selector reads the route's pool wallets from (its StonfiSwapV2, 0x657b54f5) */
const STONFI_V2_SWAP = STONFI_OPCODES.stonfi_pay_to_v2;
/** TONCO's swap and fund-account payloads (in a jetton notify), and its router's pay_to */
const TONCO_SWAP_PAYLOAD = TONCO_OPCODES.tonco_pool_swap;
const TONCO_FUND_ACCOUNT_PAYLOAD = TONCO_LIQUIDITY_OPCODES.pool_fund_account;
const TONCO_PAY_TO = TONCO_PAY_TO_OPCODES.tonco_router_pay_to;

/** Nested payloads followed at most (a multi-hop swap names one wallet per hop). */
const MAX_HOPS = 16;

/** Either:Cell ^Cell — the forward payload in place or in a ref. */
const eitherPayload = (s: Slice): Slice => (s.loadBit() ? s.loadRef().beginParse() : s);

const opcodeOf = (s: Slice): number | null => (s.remainingBits >= 32 ? s.preloadUint(32) : null);

/** A jetton transfer's recipient (when `recipient`), and a STON.fi v1 swap's asked-for jetton wallet in its forward payload. */
function fromJettonTransfer(body: Slice, out: Set<string>, recipient: boolean): void {
  body.skip(32 + 64);
  body.loadCoins();
  const to = loadAnyAddress(body);
  if (recipient && to) out.add(to);
  loadAnyAddress(body); // response destination
  body.loadMaybeRef(); // custom payload
  body.loadCoins(); // forward ton amount
  if (body.remainingBits === 0) return;
  const payload = eitherPayload(body);
  if (opcodeOf(payload) !== STONFI_SWAP) return;
  payload.skip(32);
  const wallet = loadAnyAddress(payload);
  if (wallet) out.add(wallet);
}

/** TONCO's swap payload: its target router wallet, and those of the swaps nested in it. */
function toncoSwapTargets(payload: Slice, out: Set<string>): void {
  let s: Slice | null = payload;
  for (let hop = 0; s && hop < MAX_HOPS && opcodeOf(s) === TONCO_SWAP_PAYLOAD; hop++) {
    s.skip(32);
    const wallet = loadAnyAddress(s);
    if (wallet) out.add(wallet);
    s.skip(160);
    s.loadCoins();
    loadAnyAddress(s);
    s = s.loadMaybeRef()?.beginParse() ?? null;
  }
}

/** A jetton notify's forward payload: STON.fi v2's target wallet, TONCO's targets or the other jetton's wallet. */
function fromJettonNotify(body: Slice, out: Set<string>): void {
  body.skip(32 + 64);
  body.loadCoins();
  loadAnyAddress(body); // sender
  const payload = eitherPayload(body);
  const op = opcodeOf(payload);
  if (op === STONFI_V2_SWAP_PAYLOAD) {
    payload.skip(32);
    const wallet = loadAnyAddress(payload);
    if (wallet) out.add(wallet);
  } else if (op === TONCO_SWAP_PAYLOAD) {
    toncoSwapTargets(payload, out);
  } else if (op === TONCO_FUND_ACCOUNT_PAYLOAD) {
    payload.skip(32);
    const wallet = loadAnyAddress(payload);
    if (wallet) out.add(wallet);
  }
}

/** STON.fi v2's swap to a pool: the other token's wallet, and the pool wallets of the cross-swaps in its custom payload. */
function fromStonfiV2Swap(body: Slice, out: Set<string>): void {
  body.skip(32 + 64);
  loadAnyAddress(body); // from user
  body.loadCoins();
  body.loadCoins();
  const dex = body.loadRef().beginParse();
  dex.skip(32);
  const wallet = loadAnyAddress(dex);
  if (wallet) out.add(wallet);
  loadAnyAddress(dex); // refund address
  loadAnyAddress(dex); // excesses address
  dex.skip(64);
  const swap = dex.loadRef().beginParse();
  swap.loadCoins();
  loadAnyAddress(swap); // receiver
  swap.loadCoins();
  let custom = swap.loadMaybeRef()?.beginParse() ?? null;
  for (let hop = 0; custom && hop < MAX_HOPS; hop++) {
    const op = custom.loadUint(32);
    if (op !== STONFI_V2_SWAP_PAYLOAD && op !== STONFI_V2_CROSS_SWAP) break;
    const next = loadAnyAddress(custom);
    if (next) out.add(next);
    if (custom.remainingRefs === 0) break;
    const cross = custom.loadRef().beginParse();
    cross.loadCoins();
    cross.loadCoins();
    custom = cross.remainingRefs > 0 ? (cross.loadMaybeRef()?.beginParse() ?? null) : null;
  }
}

/** TONCO router's pay_to: the jetton wallets it pays from. */
function fromToncoPayTo(body: Slice, out: Set<string>): void {
  body.skip(32 + 64);
  loadAnyAddress(body);
  loadAnyAddress(body);
  body.skip(32 + 64);
  const coins = body.loadMaybeRef()?.beginParse();
  if (!coins) return;
  coins.loadCoins();
  const jetton0 = loadAnyAddress(coins);
  coins.loadCoins();
  const jetton1 = loadAnyAddress(coins);
  if (jetton0) out.add(jetton0);
  if (jetton1) out.add(jetton1);
}

/** What a wallet's external-in asked it to send: each payload's destination, a jetton transfer's recipient. */
function fromExternal(m: TraceMessage, out: Set<string>): void {
  for (const p of walletPayloads(m.body)) {
    if (!p) continue;
    if (p.destination) out.add(p.destination);
    if (p.opcode !== JETTON_TRANSFER) continue;
    try {
      const s = p.body.beginParse();
      s.skip(32 + 64);
      s.loadCoins();
      const recipient = loadAnyAddress(s);
      if (recipient) out.add(recipient);
    } catch {
      // not a transfer toncenter reads
    }
  }
}

/**
 * The extra addresses of one message: a body that does not read names nothing (toncenter swallows
 * it so). `fromWallet`: an out-message of a wallet's external — a jetton transfer's recipient counts.
 */
function fromMessage(m: TraceMessage, out: Set<string>, fromWallet: boolean): void {
  if (m.opcode === null) return;
  const op = m.opcode >>> 0;
  if (op !== JETTON_TRANSFER && op !== JETTON_NOTIFY && op !== STONFI_V2_SWAP && op !== TONCO_PAY_TO) return;
  const found = new Set<string>();
  try {
    // parsed once per message: the classifier reads the same cell after
    const body = bodySlice(m);
    if (op === JETTON_TRANSFER) fromJettonTransfer(body, found, fromWallet);
    else if (op === JETTON_NOTIFY) fromJettonNotify(body, found);
    else if (op === STONFI_V2_SWAP) fromStonfiV2Swap(body, found);
    else fromToncoPayTo(body, found);
  } catch {
    return;
  }
  for (const a of found) out.add(a);
}

/** The addresses a transaction's messages name in their bodies that the classifier may look up. */
export function extraAddressesOf(t: TraceTransaction): string[] {
  const out = new Set<string>();
  const inMsg = t.inMsg;
  const external = inMsg !== null && inMsg.source === null;
  // toncenter reads an external's payloads; the wallet that carried them out sent exactly those
  // messages (in the trace already, their bodies read below), so only one that sent nothing is read
  if (external && t.outMsgs.length === 0 && inMsg.opcode !== null) {
    const found = new Set<string>();
    try {
      fromExternal(inMsg, found);
      for (const a of found) out.add(a);
    } catch {
      // not a wallet's external
    }
  }
  if (inMsg) fromMessage(inMsg, out, false);
  for (const m of t.outMsgs) fromMessage(m, out, external);
  return [...out];
}
