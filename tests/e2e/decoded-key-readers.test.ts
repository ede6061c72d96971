// The decoder's key-index tables as API v3 answers from them: on the token scenarios
// (tests/support/token-scenarios.ts: three jettons minted, transferred and burned, a getgems
// collection with items sold and auctioned, a telemint item) indexed and decoded by `tongate start`'s
// services in this process, every /jetton/wallets, /jetton/transfers and /nft/items request by owner
// or jetton (filters, orders, pages, cursors) gets over HTTP the same JSON from the key readers as
// from ClickHouse (the tables set aside), address_book included; and a rebuild of the tables from
// ClickHouse equals what the decoder wrote, block by block.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Localnet } from "@tongate/localnet";
import { rebuildDecodedKeys } from "@tongate/decoder";
import { provide } from "@tongate/runtime";
import { DECODED_KEYS, DecodedKeys, DECODER_OWNER, openKeyIndexEnv, openStore, prepareKeyTables, select, storeKey, type Store } from "@tongate/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { runTokenScenarios, type TokenScenarios } from "../support/token-scenarios.js";

let net: Localnet;
let t: Embedded;
let s: TokenScenarios;
let store: Store;
let decoded: DecodedKeys;

async function health() {
  return (await getJson(`${t.url}/healthz`)).body.detail;
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "decoded-key-readers", wallets: 3 });
  s = await runTokenScenarios(net);
  store = await openStore({ keyIndex: true });
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" }, {}, [provide(storeKey, () => store)]);
  decoded = DecodedKeys.of(store.keyIndex!.tables(DECODER_OWNER, DECODED_KEYS));
  await decodedTo(t.url, s.mcSeqno, { keyIndex: true });
}, 300_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

const rows = <T>(query: string) => select<T>(store, query, {});

/** The requests by owner and by jetton, for every owner and jetton the decoder stored. */
async function requests(): Promise<string[]> {
  const out: string[] = [];
  const owners = await rows<{ owner: string; jetton: string }>("SELECT DISTINCT owner, jetton FROM jetton_wallets WHERE owner != '' ORDER BY ALL");
  for (const { owner, jetton } of owners) {
    for (const q of ["", "&exclude_zero_balance=true", "&sort=desc", "&sort=asc&limit=2", "&limit=1&offset=1", `&jetton_address=${jetton}`, "&sort=desc&limit=1"]) out.push(`jetton/wallets?owner_address=${owner}${q}`);
    out.push(`jetton/wallets?jetton_address=${jetton}`, `jetton/wallets?jetton_address=${jetton}&limit=1&offset=1`);
  }
  const parties = await rows<{ owner: string; jetton: string; lo: string; hi: string }>(
    "SELECT owner, any(jetton_master) AS jetton, min(transaction_lt) AS lo, max(transaction_lt) AS hi FROM (SELECT source AS owner, * FROM jetton_transfers UNION ALL SELECT destination AS owner, * FROM jetton_transfers) WHERE owner != '' GROUP BY owner ORDER BY owner",
  );
  for (const p of parties) {
    for (const q of ["", "&sort=asc", "&direction=in", "&direction=out&sort=asc", "&limit=2&offset=1", `&jetton_master=${p.jetton}`, `&start_lt=${p.lo}&end_lt=${p.hi}&sort=asc`, `&start_lt=${BigInt(p.lo) + 1n}`]) {
      out.push(`jetton/transfers?owner_address=${p.owner}${q}`);
    }
    out.push(`jetton/transfers?jetton_master=${p.jetton}`, `jetton/transfers?jetton_master=${p.jetton}&sort=asc&limit=3&offset=1`);
  }
  const holders = await rows<{ owner: string; collection: string }>(
    "SELECT owner, any(collection_address) AS collection FROM (SELECT owner_address AS owner, * FROM nft_items UNION ALL SELECT real_owner AS owner, * FROM nft_items) WHERE owner != '' GROUP BY owner ORDER BY owner",
  );
  for (const h of holders) {
    for (const q of ["", "&include_on_sale=true", "&limit=1&offset=1", `&collection_address=${h.collection || h.owner}`, "&include_on_sale=true&limit=2"]) out.push(`nft/items?owner_address=${h.owner}${q}`);
  }
  return out;
}

/** Each request's answer, and the pages its next_cursor leads to (up to 6). */
async function answers(paths: string[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    let url = path;
    for (let page = 0; page < 6; page++) {
      const r = await getJson(`${t.url}/api/v3/${url}`);
      out[url] = { status: r.status, body: r.body };
      const cursor = r.body?.next_cursor as string | undefined;
      if (!cursor) break;
      url = `${path.replace(/&?offset=\d+/, "")}&cursor=${cursor}`;
    }
  }
  return out;
}

describe("the decoder's key-index tables", () => {
  it("answer every token lookup by owner or jetton as ClickHouse does, through the key readers", async () => {
    const paths = await requests();
    expect(paths.length).toBeGreaterThan(100);
    const before = (await health()).indexer.keyReaders;
    expect(decoded.usable).toBe(true);
    const fromKeys = await answers(paths);
    const after = (await health()).indexer.keyReaders;
    // the tables set aside: every answer from ClickHouse
    await decoded.setLive(false);
    const fromClickHouse = await answers(paths);
    await decoded.setLive(true);
    const declined = (await health()).indexer.keyReaders.declined - after.declined;
    console.log(`${paths.length} requests, ${Object.keys(fromKeys).length} pages: ${after.answered - before.answered} answered by the key readers, then ${declined} sent back to ClickHouse`);
    for (const [url, a] of Object.entries(fromClickHouse)) expect(fromKeys[url], url).toEqual(a);
    expect(Object.keys(fromKeys)).toEqual(Object.keys(fromClickHouse));
    // the lookups were answered from the tables (a mintless airdrop's wallets would go to ClickHouse)
    expect(after.answered - before.answered).toBeGreaterThan(paths.length);
    // and say what the chain says
    const alice = s.actors.alice.toRawString().toUpperCase();
    const wallets = fromKeys[`jetton/wallets?owner_address=${alice}`] as { body: { jetton_wallets: { owner: string }[]; address_book: Record<string, { interfaces: string[] }> } };
    expect(wallets.body.jetton_wallets.length).toBeGreaterThanOrEqual(3);
    for (const w of wallets.body.jetton_wallets) expect(w.owner).toBe(alice);
    // toncenter names a wallet's interface by its family (jetton_wallet_v1, jetton_wallet_v2, jetton_wallet_governed, or jetton_wallet for unknown code)
    expect(Object.values(wallets.body.address_book).some((b) => b.interfaces.some((i) => i.startsWith("jetton_wallet"))), JSON.stringify(wallets.body.address_book)).toBe(true);
  }, 240_000);

  it("rebuilt from ClickHouse, hold what the decoder wrote", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tongate-decoded-keys-"));
    const env = openKeyIndexEnv(dir);
    try {
      const tables = await env.open(DECODER_OWNER, DECODED_KEYS);
      const started = Date.now();
      expect(await prepareKeyTables(store, tables, rebuildDecodedKeys)).toBe(true);
      const rebuilt = DecodedKeys.of(tables);
      const entries = (k: DecodedKeys) => [...k.contents()].filter((e) => e.table !== "progress");
      const written = entries(decoded);
      console.log(`rebuild: ${written.length} entries in ${Date.now() - started} ms`);
      expect(written.filter((e) => e.table === "jetton_transfers_by_owner").length).toBeGreaterThan(5);
      expect(entries(rebuilt)).toEqual(written);
      expect(rebuilt.decoded()).toBe(decoded.decoded());
    } finally {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
