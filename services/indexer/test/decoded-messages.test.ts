// decoded_opcode and message_content.decoded of every message of toncenter's recorded v3 traces
// (/work/shared/fixtures/toncenter_v3, with the raw transactions they were recorded from), rendered
// by the functions both stores render with (messageOf), equal what toncenter answered.
import { readFileSync } from "node:fs";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { Cell } from "@ton/core";
import { MessageSchema, TransactionSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { renderMessage } from "@tongate/proto/json/render.js";
import { describe, expect, it } from "vitest";
import { setBodyDecoding } from "../src/api/blockchain/bodies.js";
import { messageOf } from "../src/api/blockchain/models.js";
import { transactionRows } from "../src/rows/index.js";
import { renderTransactions } from "../src/store/key-index/render.js";

const FIXTURES = new URL("../../../../shared/fixtures/toncenter_v3/", import.meta.url);

interface RecordedMessage {
  hash: string;
  opcode: string | null;
  decoded_opcode: string | null;
  message_content: { hash: string; body: string; decoded: unknown };
  init_state: { hash: string; decoded: unknown } | null;
}
interface RecordedTx {
  hash: string;
  mc_block_seqno: number;
  block_ref: { workchain: number; shard: string; seqno: number };
  in_msg: RecordedMessage | null;
  out_msgs: RecordedMessage[];
}

function recorded(name: string): { txs: RecordedTx[]; bocs: Map<string, string> } {
  const json = JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), "utf8")) as { traces: { transactions: Record<string, RecordedTx> }[] };
  const lines = readFileSync(new URL(`${name}.synthesized.txt`, FIXTURES), "utf8").trim().split("\n");
  const bocs = new Map(lines.map((l) => l.trim().split(/\s+/) as [string, string]));
  return { txs: json.traces.flatMap((t) => Object.values(t.transactions)), bocs };
}

function rowsOf(tx: RecordedTx, boc: string, bodyCells?: Map<string, Cell>) {
  const ref = { workchain: tx.block_ref.workchain, shard: BigInt.asIntN(64, BigInt("0x" + tx.block_ref.shard)).toString(), seqno: tx.block_ref.seqno };
  return transactionRows(Cell.fromBase64(boc), { block: ref, mcSeqno: tx.mc_block_seqno, bodyCells });
}

/** What a client reads of a rendered message's decoding (toncenter's null is tongate's absent field). */
function decodingOf(m: Record<string, unknown>) {
  const content = m.message_content as { decoded?: unknown };
  const init = m.init_state as { decoded?: unknown } | undefined;
  return { decoded_opcode: m.decoded_opcode ?? null, decoded: content.decoded ?? null, init_state_decoded: init ? (init.decoded ?? null) : undefined };
}

describe("decoded messages equal toncenter's recorded answers", () => {
  for (const name of ["v3_trace_fixture", "v3_trace_fixture_multi"]) {
    it(name, () => {
      const { txs, bocs } = recorded(name);
      let messages = 0;
      let decoded = 0;
      for (const tx of txs) {
        const r = rowsOf(tx, bocs.get(tx.hash)!);
        const contents = new Map(r.contents.map((c) => [c.hash, c.boc]));
        const expected = [tx.in_msg, ...tx.out_msgs].filter((m): m is RecordedMessage => m !== null);
        for (const [i, row] of r.messages.entries()) {
          const e = expected[i]!;
          expect(row.msg_hash).toBe(e.hash);
          const json = renderMessage(MessageSchema, messageOf(row, contents)) as Record<string, unknown>;
          expect(decodingOf(json), `message ${e.hash}`).toEqual({
            decoded_opcode: e.decoded_opcode,
            decoded: e.message_content.decoded,
            init_state_decoded: e.init_state ? e.init_state.decoded : undefined,
          });
          messages++;
          if (e.message_content.decoded !== null) decoded++;
        }
      }
      expect(messages).toBeGreaterThan(2);
      expect(decoded).toBeGreaterThan(2);
    });
  }

  it("the key index stores the same decoding (rendered where blocks are parsed, from the cells just parsed)", () => {
    const { txs, bocs } = recorded("v3_trace_fixture_multi");
    for (const tx of txs) {
      const bodyCells = new Map<string, Cell>();
      const r = rowsOf(tx, bocs.get(tx.hash)!, bodyCells);
      expect(bodyCells.size).toBe(new Set(r.messages.map((m) => m.body_hash)).size);
      const [rendered] = renderTransactions({ transactions: [r.transaction], messages: r.messages, contents: r.contents }, bodyCells);
      const stored = fromBinary(TransactionSchema, rendered!.value);
      const contents = new Map(r.contents.map((c) => [c.hash, c.boc]));
      const direct = r.messages.map((m) => renderMessage(MessageSchema, messageOf(m, contents)));
      const fromIndex = [stored.inMsg, ...stored.outMsgs].filter((m) => m !== undefined).map((m) => renderMessage(MessageSchema, m));
      expect(fromIndex).toEqual(direct);
    }
  });

  it("with decoding off (the ingest benchmark's baseline) the fields are absent", () => {
    const { txs, bocs } = recorded("v3_trace_fixture_multi");
    const tx = txs.find((t) => t.in_msg?.decoded_opcode)!;
    const r = rowsOf(tx, bocs.get(tx.hash)!);
    const contents = new Map(r.contents.map((c) => [c.hash, c.boc]));
    setBodyDecoding(false);
    try {
      const m = fromBinary(MessageSchema, toBinary(MessageSchema, messageOf(r.messages[0]!, contents)));
      expect(m.decodedOpcode).toBeUndefined();
      expect(m.messageContent?.decoded).toBeUndefined();
    } finally {
      setBodyDecoding(true);
    }
  });
});
