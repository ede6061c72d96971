// Code and data BoCs of the account states a block's Merkle update prunes, on a real jetton (the
// 2022 reference pair of ../shared/fixtures/contracts) on a localnet: a new jetton wallet's code is
// its siblings' (pruned in its deploy), and a changed wallet's data holds that code as a ref (pruned
// in every transfer). Every stored state has the BoCs its hashes name, equal to the chain's, and the
// liteserver is asked once for the first wallet, not for every wallet state after it.
import { Address, Cell } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { type LiteCall, LiteserverPool } from "@tongate/liteclient";
import { openStore, select, type Store } from "@tongate/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { accountNow, actorsOf } from "../../../tests/support/scenarios/chain.js";
import { jettonScenario, type JettonScenario } from "../../../tests/support/scenarios/jettons.js";
import { type LiteClient, indexRange, migrate } from "../src/index.js";

let net: Localnet;
let pool: LiteserverPool;
let store: Store;
let jetton: JettonScenario;

const raw = (a: Address) => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;
const hashOf = (boc: string) => Cell.fromBoc(Buffer.from(boc, "base64"))[0]!.hash().toString("base64");

const isAccountState = (fn: { kind: string }): fn is LiteCall<"liteServer.getAccountState"> => fn.kind === "liteServer.getAccountState";

/** The accounts the indexer asked the liteserver for (liteServer.getAccountState), in order. */
const asked: string[] = [];
let lite: LiteClient;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "indexer-account-bocs", wallets: 3 });
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200 });
  lite = {
    query: (fn, o) => {
      if (isAccountState(fn)) asked.push(`${fn.account.workchain}:${Buffer.from(fn.account.id).toString("hex").toUpperCase()}`);
      return pool.query(fn, o);
    },
  };
  store = await openStore();
  await migrate(store);
  await pool.ready(5000);
  // deploy, mint to alice and bob (deploying their wallets), alice → bob, bob → carol (deploying
  // carol's wallet), alice burns: one block each
  jetton = await jettonScenario(net, actorsOf(net), "legacy");
});

afterAll(async () => {
  await pool?.close();
  await store?.close();
  await net?.close();
});

describe("account BoCs the blocks prune", () => {
  it("are filled from what the indexer has seen: the liteserver is asked for the first jetton wallet only", async () => {
    const head = net.chain.lastMasterchain!.id.seqno;
    await indexRange(lite, store, { from: 1, to: head });
    const wallets = jetton.wallets.map((w) => raw(w.address));
    // alice's wallet: its code is in no account state seen yet (only inside the master's data)
    expect(asked.filter((a) => wallets.includes(a))).toEqual([raw(jetton.mints[0]!.wallet)]);
    // at most once per account (genesis wallets: their code and unchanged data come from the zero state)
    expect(new Set(asked).size).toBe(asked.length);
  });

  it("every stored state has the code and data its hashes name, and the latest are the chain's", async () => {
    const states = await select<{ account: string; last_trans_lt: string; code_hash: string | null; data_hash: string | null; code_boc: string | null; data_boc: string | null }>(
      store,
      "SELECT account, last_trans_lt, code_hash, data_hash, code_boc, data_boc FROM account_states FINAL ORDER BY account, last_trans_lt",
      {},
    );
    const walletStates = states.filter((s) => jetton.wallets.some((w) => raw(w.address) === s.account));
    // mints (2), transfers (2 wallets each) and the burn: the wallets' states in 5 blocks
    expect(walletStates.length).toBeGreaterThanOrEqual(7);
    for (const s of states) {
      if (s.code_hash !== null) expect(s.code_boc && hashOf(s.code_boc), `${s.account} code`).toBe(s.code_hash);
      if (s.data_hash !== null) expect(s.data_boc && hashOf(s.data_boc), `${s.account} data`).toBe(s.data_hash);
    }
    for (const w of jetton.wallets) {
      const latest = walletStates.filter((s) => s.account === raw(w.address)).at(-1)!;
      const now = accountNow(net, w.address);
      expect(latest.code_boc, raw(w.address)).toBe(now.code!.toBoc().toString("base64"));
      expect(latest.data_boc, raw(w.address)).toBe(now.data!.toBoc().toString("base64"));
    }
  });
});
