// What the loaders read from real bodies is what toncenter read from them: the decoded bodies of
// recorded /api/v3/traces answers, and the values toncenter's classifier test cases expect.
import { Cell, type Address } from "@ton/core";
import { describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { actionFamily, actionTrace, v3DecodedMessages } from "./fixtures.js";

/** toncenter's decoded MsgAddress as a raw address ("wc:HEX"), null for addr_none. */
const decodedAddress = (a: any): string | null => (a["@type"] === "addr_none" ? null : `${a.workchain_id}:${a.address}`);
const raw = (a: Address | null) => (a ? `${a.workChain}:${a.hash.toString("hex").toUpperCase()}` : null);
const varUint = (v: any) => BigInt(v.value);
const parse = <T>(load: (s: ReturnType<Cell["beginParse"]>) => T, body: Cell) => load(body.beginParse());

describe("toncenter's decoded bodies (recorded /api/v3/traces)", () => {
  const messages = v3DecodedMessages();
  const of = (type: string) => messages.filter((m) => m.decoded["@type"] === type);

  it("has the types checked here", () => {
    expect(new Set(messages.map((m) => m.decoded["@type"]))).toEqual(
      new Set(["text_comment", "highload_wallet_signed_v2", "excess", "jetton_transfer", "jetton_internal_transfer", "jetton_notify", "wallet_signed_v4"]),
    );
  });

  it("jetton_transfer", () => {
    for (const { body, decoded: d } of of("jetton_transfer")) {
      const t = parse(C.loadJettonTransfer, body);
      expect([t.queryId, t.amount, raw(t.destination), raw(t.responseDestination), t.forwardTonAmount, t.customPayload]).toEqual([
        BigInt(d.query_id),
        varUint(d.amount),
        decodedAddress(d.destination),
        decodedAddress(d.response_destination),
        varUint(d.forward_ton_amount),
        null,
      ]);
      expect(t.forwardPayload?.inRef).toBe(d.forward_payload["@type"] === "second_from_either");
    }
  });

  it("jetton_internal_transfer and jetton_notify", () => {
    for (const { body, decoded: d } of of("jetton_internal_transfer")) {
      const t = parse(C.loadJettonInternalTransfer, body);
      expect([t.queryId, t.amount, raw(t.from), raw(t.responseAddress), t.forwardTonAmount]).toEqual([
        BigInt(d.query_id),
        varUint(d.amount),
        decodedAddress(d.from),
        decodedAddress(d.response_address),
        varUint(d.forward_ton_amount),
      ]);
    }
    for (const { body, decoded: d } of of("jetton_notify")) {
      const n = parse(C.loadJettonNotify, body);
      expect([n.queryId, n.amount, raw(n.sender)]).toEqual([BigInt(d.query_id), varUint(d.amount), decodedAddress(d.sender)]);
    }
  });

  it("excess and text_comment", () => {
    for (const { body, decoded: d } of of("excess")) expect(parse(C.loadExcess, body).queryId).toBe(BigInt(d.query_id));
    for (const { body, decoded: d } of of("text_comment")) expect(parse(C.loadTextComment, body).text).toBe(d.comment);
  });

  it("wallet_signed_v4 and highload_wallet_signed_v2", () => {
    for (const { body, decoded: d } of of("wallet_signed_v4")) {
      const w = parse(C.loadWalletSignedV4, body);
      expect([w.signature.toString("hex").toUpperCase(), w.subwalletId, w.validUntil, w.seqno, w.op.type]).toEqual([
        d.signature,
        Number(d.subwallet_id),
        Number(d.valid_until),
        Number(d.msg_seqno),
        d.op["@type"],
      ]);
      const sent = d.op.msgs.msg_1;
      const first = w.op.type === "simple_send" ? w.op.messages[0]! : undefined;
      expect(first?.mode).toBe(Number(sent.mode));
      expect(first?.message.info.dest && raw(first.message.info.dest as Address)).toBe(decodedAddress(sent.msg.info.dest));
      expect(first?.message.info.type === "internal" && first.message.info.value.coins).toBe(varUint(sent.msg.info.value.grams.amount));
    }
    for (const { body, decoded: d } of of("highload_wallet_signed_v2")) {
      const h = parse(C.loadHighloadWalletSignedV2, body);
      expect([h.signature.toString("hex").toUpperCase(), h.subwalletId, h.queryId, h.messages.size]).toEqual([d.signature, Number(d.subwallet_id), BigInt(d.query_id), 1]);
      const sent = d.payload.root.node.value;
      const m = h.messages.get(0)!;
      expect([m.mode, raw(m.message.info.dest as Address)]).toEqual([Number(sent.mode), decodedAddress(sent.msg.info.dest)]);
    }
  });
});

/**
 * The bodies of the messages a wallet's external message asks it to send (a failed transaction sends
 * none, so the classifier reads them there): tried as wallet v5, v4 and v3 bodies.
 */
function walletOrders(external: Cell): Cell[] {
  const attempts = [
    () => (C.loadW5ExternalSignedRequest(external.beginParse()).inner.outActions ?? []).flatMap((a) => (a.type === "sendMsg" ? [a.outMsg.body] : [])),
    () => {
      const op = C.loadWalletSignedV4(external.beginParse()).op;
      return op.type === "simple_send" ? op.messages.map((m) => m.message.body) : [];
    },
    () => C.loadWalletSignedV3(external.beginParse()).messages.map((m) => m.message.body),
  ];
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // not this wallet's layout
    }
  }
  return [];
}

/** The bodies of a classifier trace with this opcode, also those inside its wallets' external messages. */
function traceBodies(traceId: string, opcode: number): Cell[] {
  const seen = new Map<string, Cell>();
  for (const tx of actionTrace(traceId).transactions)
    for (const m of tx.messages) {
      const body = Cell.fromBase64(m.message_content.body);
      const bodies = m.source === null ? [body, ...walletOrders(body)] : [body];
      for (const b of bodies) if (b.bits.length >= 32 && b.beginParse().preloadUint(32) === opcode) seen.set(b.hash().toString("hex"), b);
    }
  return [...seen.values()];
}

const bocHash = (boc: string | null) => (boc === null ? null : Cell.fromBase64(boc).hash().toString("hex"));
const cellHash = (c: Cell | null | undefined) => (c ? c.hash().toString("hex") : null);

/** A transfer's fields under the names of toncenter's *_transfer_data, as its classifier derives them. */
function transferData(t: { queryId: bigint; responseDestination: Address | null; customPayload: Cell | null; forwardPayload: C.EitherCell | null }, forwardAmount: bigint) {
  const payload = t.forwardPayload?.cell;
  let comment: string | null = null;
  try {
    comment = payload ? C.loadTextComment(payload.beginParse()).text : null;
  } catch {
    comment = null;
  }
  return {
    query_id: t.queryId,
    response_destination: raw(t.responseDestination),
    forward_amount: forwardAmount,
    custom_payload: cellHash(t.customPayload),
    forward_payload: cellHash(payload),
    comment,
    is_encrypted_comment: !!payload && payload.bits.length >= 32 && payload.beginParse().preloadUint(32) === C.COMMON_OPCODES.encrypted_text_comment,
  };
}

/** The expected *_transfer_data fields, with integers as bigint and BoCs as cell hashes. */
function expectedData(data: Record<string, unknown>, keys: string[]) {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = data[k];
    out[k] = k.endsWith("_payload") ? bocHash(v as string | null) : typeof v === "number" || (typeof v === "string" && /^\d+$/.test(v) && k !== "comment") ? BigInt(v) : v;
  }
  return out;
}

describe("toncenter's classifier cases (toncenter_actions)", () => {
  it("jetton_transfer_data comes from a jetton_transfer body of the trace", () => {
    const cases = actionFamily("jetton-transfer").cases.flatMap((c: any) => c.expected_actions.filter((a: any) => a.values.jetton_transfer_data).map((a: any) => [c.trace_id, a.values.jetton_transfer_data]));
    expect(cases.length).toBe(2);
    for (const [traceId, data] of cases) {
      const keys = ["query_id", "response_destination", "forward_amount", "custom_payload", "forward_payload", "comment", "is_encrypted_comment"];
      const found = traceBodies(traceId, C.JETTON_OPCODES.jetton_transfer)
        .map((b) => C.loadJettonTransfer(b.beginParse()))
        .map((t) => transferData(t, t.forwardTonAmount));
      expect(found).toContainEqual(expectedData(data, keys));
    }
  });

  it("nft_transfer_data comes from an nft_transfer body of the trace", () => {
    const cases = actionFamily("nft").cases.flatMap((c: any) => c.expected_actions.filter((a: any) => a.values.nft_transfer_data).map((a: any) => [c.trace_id, a.values.nft_transfer_data]));
    expect(cases.length).toBeGreaterThanOrEqual(3);
    for (const [traceId, data] of cases) {
      const keys = ["query_id", "response_destination", "forward_amount", "custom_payload", "forward_payload"].filter((k) => k in data);
      const found = traceBodies(traceId, C.NFT_OPCODES.nft_transfer).map((b) => {
        const t = C.loadNftTransfer(b.beginParse());
        const d = transferData(t, t.forwardAmount);
        return Object.fromEntries(keys.map((k) => [k, d[k as keyof typeof d]]));
      });
      expect(found).toContainEqual(expectedData(data, keys));
    }
  });

  it("a jetton_mint's amount is that of the internal_transfer the minter sent", () => {
    const cases = actionFamily("jetton-mints").cases.flatMap((c: any) => c.expected_actions.filter((a: any) => a.type === "jetton_mint" && a.values.amount !== undefined).map((a: any) => [c.trace_id, a.values.amount]));
    expect(cases.length).toBe(4);
    for (const [traceId, amount] of cases) {
      const amounts = traceBodies(traceId, C.JETTON_OPCODES.jetton_internal_transfer).map((b) => C.loadJettonInternalTransfer(b.beginParse()).amount);
      expect(amounts).toContain(BigInt(amount));
    }
  });
});
