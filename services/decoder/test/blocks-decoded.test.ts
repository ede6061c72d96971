// blocks.decoded through the decoder's outbox (real chDB, the in-process bus): every decoded block
// once and in order, with the traces it classified and the jetton wallets it changed; a publisher
// stopped and started again (a restart) goes on from its cursor, and the blocks decoded while it was
// away (a crash before their events went out) are rebuilt from the rows, equal to the live events;
// a bus that refuses events holds nothing up and loses nothing.
import { fromBinary } from "@bufbuild/protobuf";
import { type BlocksDecoded, BlocksDecodedSchema } from "@tongate/proto/gen/tongate/decoder/v1/events_pb.js";
import { blocksDecodedSubject } from "@tongate/proto/subjects.js";
import { type BusMessage, type EventBus, InProcessBus, openBus } from "@tongate/runtime";
import { DECODER_CHECKPOINT, getCheckpoint, openStore, setCheckpoint, type Store } from "@tongate/store";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hasNats, startNatsServer } from "../../../tests/support/nats.js";
import { BlocksDecodedPublisher, storedBlocksDecoded } from "../src/blocks-decoded.js";
import { classificationRows } from "../src/actions/rows.js";
import { DECODER_MIGRATIONS } from "../src/service.js";
import { insertActionsRows } from "../src/write.js";

let store: Store;
beforeAll(async () => {
  store = await openStore();
  await store.register({ owner: "decoder", migrations: DECODER_MIGRATIONS });
  // the indexer's masterchain blocks, as far as the event reads them (the block's time)
  await store.client.command({ query: "CREATE TABLE IF NOT EXISTS blocks (workchain Int32, shard Int64, seqno UInt32, gen_utime UInt32) ENGINE = ReplacingMergeTree ORDER BY (workchain, shard, seqno)" });
});
afterAll(async () => {
  await store?.close();
});

const h = (n: number) => Buffer.alloc(32, n).toString("base64");
const acct = (n: number) => `0:${n.toString(16).padStart(2, "0").repeat(32).toUpperCase()}`;

/** What the decoder stores for block `mc` (a trace classified, a wallet changed), and its checkpoint. */
async function decodeBlock(mc: number): Promise<{ traces: string[]; wallets: string[] }> {
  const traces = [h(mc)];
  const wallets = mc % 2 ? [acct(mc)] : [];
  await store.client.insert({ table: "blocks", values: [{ workchain: -1, shard: "-9223372036854775808", seqno: mc, gen_utime: 1_700_000_000 + mc }], format: "JSONEachRow" });
  await insertActionsRows(store, classificationRows({ traceId: traces[0]!, endLt: BigInt(mc * 1000), endUtime: 1_700_000_000 + mc, mcSeqnoEnd: mc }, "ok", [], mc, []));
  if (wallets.length) {
    await store.client.insert({
      table: "jetton_wallets",
      values: wallets.map((address) => ({ jetton: acct(0xee), owner: acct(0xdd), address, balance: "5", verdict: "confirmed", mintless_is_claimed: null, mintless_amount: null, mintless_start_from: null, mintless_expire_at: null, code_hash: "", data_hash: "", last_transaction_lt: String(mc * 1000), last_transaction_now: 0, mc_seqno: mc })),
      format: "JSONEachRow",
    });
  }
  await setCheckpoint(store, DECODER_CHECKPOINT, mc);
  return { traces, wallets };
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

it("every decoded block once, in order, across a restart and a bus outage; rebuilt events equal the live ones", async () => {
  const inner = new InProcessBus();
  const got: BlocksDecoded[] = [];
  const ids: string[] = [];
  await inner.subscribe("tongate.*.blocks.decoded", (m: BusMessage) => void got.push(fromBinary(BlocksDecodedSchema, m.data)));
  let refuse = 0;
  // a bus that refuses while `refuse` > 0, and records the message ids it took
  const bus: EventBus = {
    publish: async (subject, data, o) => {
      if (refuse > 0) {
        refuse--;
        throw new Error("NATS is down");
      }
      ids.push(o?.id ?? "");
      await inner.publish(subject, data);
    },
    subscribe: (s, fn, o) => inner.subscribe(s, fn, o),
    kept: (s, q) => inner.kept(s, q),
    close: () => inner.close(),
  };

  let publisher = new BlocksDecodedPublisher(bus, "localnet", store);
  await publisher.resumeDecoded();
  for (const mc of [1, 2, 3]) {
    const d = await decodeBlock(mc);
    await publisher.decoded(mc, d.traces, d.wallets);
  }
  await until(() => got.length === 3);
  await publisher.stop();
  expect(await getCheckpoint(store, publisher.cursor)).toBe(3);

  // decoded while no publisher ran (the process crashed after the checkpoints)
  await decodeBlock(4);
  await decodeBlock(5);
  publisher = new BlocksDecodedPublisher(bus, "localnet", store);
  refuse = 3;
  await publisher.resumeDecoded();
  const d6 = await decodeBlock(6);
  await publisher.decoded(6, d6.traces, d6.wallets);
  await publisher.flush(AbortSignal.timeout(10_000));
  await publisher.stop();

  expect(got.map((e) => e.mcSeqno)).toEqual([1, 2, 3, 4, 5, 6]);
  expect(ids).toEqual([1, 2, 3, 4, 5, 6].map((n) => `${blocksDecodedSubject("localnet")}:${n}`));
  for (const e of got) {
    expect(e.traceIds).toEqual([h(e.mcSeqno)]);
    expect(e.jettonWallets).toEqual(e.mcSeqno % 2 ? [acct(e.mcSeqno)] : []);
    expect(e.genUtime).toBe(1_700_000_000 + e.mcSeqno);
    expect(await storedBlocksDecoded(store, e.mcSeqno)).toEqual(e);
  }
  expect(await storedBlocksDecoded(store, 99)).toBeNull();
});

it.skipIf(!hasNats)("on NATS JetStream: a block published again after a crash before its cursor was written is stored once", async () => {
  const nats = await startNatsServer();
  const bus = await openBus({ natsUrl: nats.url });
  try {
    const got: number[] = [];
    const publisher = new BlocksDecodedPublisher(bus, "natsnet", store);
    const cursor = publisher.cursor;
    await publisher.resumeDecoded();
    await publisher.flush(AbortSignal.timeout(10_000));
    await publisher.stop();
    // the crash: the cursor of what was just published is lost; the next process publishes it again
    await store.client.command({ query: "ALTER TABLE indexer_checkpoints DELETE WHERE name = {n:String}", query_params: { n: cursor }, clickhouse_settings: { mutations_sync: "2" } });
    expect(await getCheckpoint(store, cursor)).toBeNull();
    const again = new BlocksDecodedPublisher(bus, "natsnet", store);
    await again.resumeDecoded();
    await again.flush(AbortSignal.timeout(10_000));
    await again.stop();
    const last = (await getCheckpoint(store, DECODER_CHECKPOINT))!;
    const sub = await bus.subscribe(blocksDecodedSubject("natsnet"), (m) => void got.push(fromBinary(BlocksDecodedSchema, m.data).mcSeqno), { deliver: "all" });
    await until(() => got.length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    await sub.unsubscribe();
    expect(got).toEqual([last]);
  } finally {
    await bus.close();
    await nats.stop();
  }
});
