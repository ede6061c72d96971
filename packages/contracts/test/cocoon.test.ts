// Cocoon bodies of toncenter's classifier traces load with the loader of their opcode and store
// back to the same cell; constructors no fixture trace carries round-trip on a built sample.
import { Address, beginCell, type Builder, type Cell, ExternalAddress, type Slice } from "@ton/core";
import { describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { actionTraceMessages } from "./fixtures.js";

interface Codec {
  load: (s: Slice) => object;
  store: (v: never) => (b: Builder) => void;
}

const codec = <T extends object>(load: (s: Slice) => T, store: (v: T) => (b: Builder) => void): Codec => ({ load, store: store as (v: never) => (b: Builder) => void });

const OP = C.COCOON_OPCODES;
const CODECS = new Map<number, [string, Codec]>([
  [OP.return_excesses_back, ["return_excesses_back", codec(C.loadCocoonReturnExcessesBack, C.storeCocoonReturnExcessesBack)]],
  [OP.payout, ["payout", codec(C.loadCocoonPayout, C.storeCocoonPayout)]],
  [OP.worker_proxy_request, ["worker_proxy_request", codec(C.loadCocoonWorkerProxyRequest, C.storeCocoonWorkerProxyRequest)]],
  [OP.client_proxy_request, ["client_proxy_request", codec(C.loadCocoonClientProxyRequest, C.storeCocoonClientProxyRequest)]],
  [OP.client_proxy_refund_granted, ["client_proxy_refund_granted", codec(C.loadCocoonClientProxyRefundGranted, C.storeCocoonClientProxyRefundGranted)]],
  [OP.payout_payload, ["payout_payload", codec(C.loadCocoonPayoutPayload, C.storeCocoonPayoutPayload)]],
  [OP.last_payout_payload, ["last_payout_payload", codec(C.loadCocoonPayoutPayload, C.storeCocoonPayoutPayload)]],
  [OP.register_proxy, ["register_proxy", codec(C.loadCocoonRegisterProxy, C.storeCocoonRegisterProxy)]],
  [OP.unregister_proxy, ["unregister_proxy", codec(C.loadCocoonUnregisterProxy, C.storeCocoonUnregisterProxy)]],
  [OP.ext_proxy_payout_request, ["ext_proxy_payout_request", codec(C.loadCocoonExtProxyPayoutRequest, C.storeCocoonExtProxyPayoutRequest)]],
  [OP.ext_client_top_up, ["ext_client_top_up", codec(C.loadCocoonExtClientTopUp, C.storeCocoonExtClientTopUp)]],
  [OP.owner_client_register, ["owner_client_register", codec(C.loadCocoonOwnerClientRegister, C.storeCocoonOwnerClientRegister)]],
  [OP.owner_client_change_secret_hash, ["owner_client_change_secret_hash", codec(C.loadCocoonOwnerClientChangeSecretHash, C.storeCocoonOwnerClientChangeSecretHash)]],
  [OP.owner_client_increase_stake, ["owner_client_increase_stake", codec(C.loadCocoonOwnerClientIncreaseStake, C.storeCocoonOwnerClientIncreaseStake)]],
  [OP.owner_client_withdraw, ["owner_client_withdraw", codec(C.loadCocoonOwnerClientWithdraw, C.storeCocoonOwnerClientWithdraw)]],
  [OP.owner_client_request_refund, ["owner_client_request_refund", codec(C.loadCocoonOwnerClientRequestRefund, C.storeCocoonOwnerClientRequestRefund)]],
  [OP.charge_payload, ["charge_payload", codec(C.loadCocoonChargePayload, C.storeCocoonChargePayload)]],
  [OP.grant_refund_payload, ["grant_refund_payload", codec(C.loadCocoonGrantRefundPayload, C.storeCocoonGrantRefundPayload)]],
  [OP.owner_wallet_send_message, ["owner_wallet_send_message", codec(C.loadCocoonOwnerWalletSendMessage, C.storeCocoonOwnerWalletSendMessage)]],
]);

/** Constructors the fixture traces carry no body of: mainnet has them, the suite's cases do not. */
const NOT_IN_FIXTURES = ["ext_proxy_payout_request", "ext_client_top_up", "owner_client_increase_stake", "grant_refund_payload"];

const roundTrip = (c: Codec, cell: Cell) => beginCell().store(c.store(c.load(cell.beginParse()) as never)).endCell().hash().toString("hex");

/** The fixtures' Cocoon bodies, the refund payloads inside client_proxy_request included. */
function realBodies(): { opcode: number; body: Cell }[] {
  const out: { opcode: number; body: Cell }[] = [];
  for (const m of actionTraceMessages()) {
    if (m.opcode === null || !CODECS.has(m.opcode)) continue;
    out.push({ opcode: m.opcode, body: m.body });
    if (m.opcode === OP.client_proxy_request) {
      const payload = C.loadCocoonClientProxyRequest(m.body.beginParse()).payload;
      if (payload !== null && payload.bits.length >= 32) out.push({ opcode: payload.beginParse().preloadUint(32), body: payload });
    }
  }
  return out.filter((b) => CODECS.has(b.opcode));
}

describe("Cocoon bodies", () => {
  const bodies = realBodies();

  it("every real body stores back to the same cell", () => {
    for (const { opcode, body } of bodies) {
      const [name, c] = CODECS.get(opcode)!;
      expect(roundTrip(c, body), name).toBe(body.hash().toString("hex"));
    }
  });

  it("the fixtures carry a body of every constructor but the four known absent", () => {
    const seen = new Set(bodies.map((b) => CODECS.get(b.opcode)![0]));
    const missing = [...CODECS.values()].map(([name]) => name).filter((n) => !seen.has(n));
    expect(missing.sort()).toEqual([...NOT_IN_FIXTURES].sort());
  });

  it("the constructors absent from the fixtures round-trip on built samples", () => {
    const owner = Address.parse("0:E572BD4E31B098C7E1AA8BB779D48EAF01D279831502C4029C7B522614873BCA");
    const samples: [Codec, (b: Builder) => void][] = [
      [CODECS.get(OP.ext_proxy_payout_request)![1], C.storeCocoonExtProxyPayoutRequest({ queryId: 7n, sendExcessesTo: owner })],
      [CODECS.get(OP.ext_client_top_up)![1], C.storeCocoonExtClientTopUp({ queryId: 1n, amount: 5_000_000_000n, sendExcessesTo: owner })],
      [CODECS.get(OP.owner_client_increase_stake)![1], C.storeCocoonOwnerClientIncreaseStake({ queryId: 2n, amount: 10n ** 9n, sendExcessesTo: null })],
      [CODECS.get(OP.grant_refund_payload)![1], C.storeCocoonGrantRefundPayload({ queryId: 3n, newTokensUsed: 42n, expectedMyAddress: new ExternalAddress(5n, 260), rest: beginCell().endCell() })],
    ];
    for (const [c, store] of samples) {
      const cell = beginCell().store(store).endCell();
      expect(roundTrip(c, cell)).toBe(cell.hash().toString("hex"));
    }
  });

  it("refuses a body of another opcode", () => {
    const cell = beginCell().store(C.storeCocoonPayout({ queryId: 1n })).endCell();
    expect(() => C.loadCocoonReturnExcessesBack(cell.beginParse())).toThrow();
    expect(() => C.loadCocoonPayoutPayload(cell.beginParse())).toThrow();
  });
});
