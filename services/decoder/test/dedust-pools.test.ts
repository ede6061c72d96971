// DeDust pools through the decoder's block step: a block that changes a real mainnet pool's state
// (its code and data before the replay block) writes its assets to dedust_pools once DeDust's
// factory vouches for it (a stand-in factory's state at the factory's address, indexed as any
// account's), and the classifier's facts then hold the pool as toncenter's dex_pools does. Decoded
// before the factory's state is indexed, the pool waits (no row; decided when its state next
// changes), and the block that recognises it names it for its traces to be classified again; the
// same code at another address, which the factory does not give, is no pool.
import { compileFunc } from "@ton-community/func-js";
import { Address, beginCell, Cell } from "@ton/core";
import { defaultConfig } from "@ton/sandbox";
import { DEDUST_FACTORY_ADDRESS, dedustAssetCell, type DedustAsset } from "@tongate/contracts";
import { EmulatorPool } from "@tongate/emulator";
import type { GetMethodContext } from "@tongate/get-methods";
import { factsAt, openStore, type Store } from "@tongate/store";
import { afterAll, beforeAll, expect, it } from "vitest";
import { replayBlock } from "../../../packages/contracts/test/fixtures.js";
import { applySchemas } from "../../../tests/support/trace-rows.js";
import { ChainContext } from "../src/chain-context.js";
import { decodeBlock } from "../src/decode-block.js";
import { decidePending } from "../src/pending.js";
import { StateReader } from "../src/read-state.js";
import { Verdicts } from "../src/verdicts.js";
import { insertDecodedRows } from "../src/write.js";

/** The mainnet pool of TON and the jetton 0:B113…1DFE (toncenter_actions trace cq7UujFW…). */
const POOL = "0:3E5FFCA8DDFCF36C36C9FF46F31562AAB51B9914845AD6C26CBDE649D58A5588";
const JETTON = "0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE";
const IMPOSTOR = `0:${"AB".repeat(32)}`;
const FACTORY = `${DEDUST_FACTORY_ADDRESS.workChain}:${DEDUST_FACTORY_ADDRESS.hash.toString("hex").toUpperCase()}`;

/** A factory that gives the address in its data for the pool type and assets its data holds, and refuses others. */
const FACTORY_CODE = `
  cell get_data() asm "c4 PUSH";
  slice begin_parse(cell c) asm "CTOS";
  (slice, cell) load_ref(slice s) asm( -> 1 0) "LDREF";
  int equal_slices(slice a, slice b) asm "SDEQ";
  () recv_internal() impure { }
  slice get_pool_address(int pool_type, slice asset0, slice asset1) method_id {
    slice s = get_data().begin_parse();
    int t = s~load_uint(1);
    cell a0 = s~load_ref();
    cell a1 = s~load_ref();
    throw_unless(101, (t == pool_type) & equal_slices(a0.begin_parse(), asset0) & equal_slices(a1.begin_parse(), asset1));
    return s;
  }
`;

/** Get-methods with the emulator and a fixed config and libraries: no liteserver. */
class ReplayChain extends ChainContext {
  constructor(private readonly ctx: GetMethodContext) {
    super(undefined, ctx.pool);
  }
  override contextFor(): Promise<GetMethodContext | undefined> {
    return Promise.resolve(this.ctx);
  }
}

const emulator = new EmulatorPool({ size: 1 });
let store: Store;
let chain: ReplayChain;
let pool: { code: Cell; data: Cell; balance: bigint };
let factory: { code: Cell; data: Cell };

const h = (s: string) => Buffer.from(s.padEnd(32, ".")).toString("base64");
let lt = 1_000n;

/** An account's transaction in masterchain block `mc` and its state after it, as the indexer stores them. */
async function transact(account: string, mc: number, state: { code: Cell; data: Cell; balance?: bigint }): Promise<void> {
  lt += 10n;
  const stateHash = h(`${account.slice(2, 12)}${lt}`);
  await store.client.insert({
    table: "transactions",
    values: [{ account, lt: lt.toString(), hash: h(`tx${lt}`), now: 1_720_000_000 + mc, mc_seqno: mc, orig_status: "active", end_status: "active", total_fees: "0", account_state_hash_after: stateHash, description: "{}", out_msg_hashes: [] }],
    format: "JSONEachRow",
  });
  await store.client.insert({
    table: "account_states",
    values: [{
      hash: stateHash, account, balance: String(state.balance ?? 10n ** 9n), account_status: "active", code_hash: state.code.hash().toString("base64"), data_hash: state.data.hash().toString("base64"),
      code_boc: state.code.toBoc().toString("base64"), data_boc: state.data.toBoc().toString("base64"), last_trans_lt: lt.toString(), timestamp: 1_720_000_000 + mc,
    }],
    format: "JSONEachRow",
  });
}

/** A block's decoding as the decoder's step does it: the rows, what it decided, the rows written. */
const decode = async (mc: number) => {
  const decoded = await decodeBlock(store, new StateReader(chain), verdicts, mc);
  const decided = await decidePending(store, verdicts, decoded.rows, mc);
  await insertDecodedRows(store, decoded.rows);
  return { pools: decoded.rows.dedust_pools, recognised: decided.dedustPools ?? [] };
};
let verdicts: Verdicts;

beforeAll(async () => {
  const replay = replayBlock();
  pool = replay.accounts.get(POOL.toLowerCase())!;
  chain = new ReplayChain({ pool: emulator, config: defaultConfig, libraries: replay.libs, now: 1_720_000_000 });
  const compiled = await compileFunc({ targets: ["factory.fc"], sources: { "factory.fc": FACTORY_CODE } });
  if (compiled.status === "error") throw new Error(compiled.message);
  const assets: DedustAsset[] = [{ jetton: null }, { jetton: Address.parseRaw(JETTON) }];
  const data = beginCell().storeUint(0, 1).storeRef(dedustAssetCell(assets[0]!)).storeRef(dedustAssetCell(assets[1]!)).storeAddress(Address.parseRaw(POOL)).endCell();
  factory = { code: Cell.fromBase64(compiled.codeBoc), data };
  store = await openStore();
  await applySchemas(store);
  verdicts = new Verdicts(store, chain);
}, 120_000);
afterAll(async () => {
  await store?.close();
  await emulator.close();
});

it("a pool decoded before the factory's state is indexed waits; after it, its assets are written and are the classifier's facts", async () => {
  await transact(POOL, 5, pool);
  expect(await decode(5)).toEqual({ pools: [], recognised: [] });
  await transact(FACTORY, 10, factory);
  await decode(10);
  await transact(POOL, 11, pool);
  await transact(IMPOSTOR, 11, pool);
  const { pools, recognised } = await decode(11);
  expect(pools).toEqual([{ address: POOL, asset_1: null, asset_2: JETTON, is_stable: false, last_transaction_lt: expect.any(String), mc_seqno: 11 }]);
  // recognised in this block: the traces through it (the one of block 5) are classified again
  expect(recognised).toEqual([POOL]);
  // decoded again (a restart before the checkpoint): the same; a later block's state of the pool is no news
  expect((await decode(11)).recognised).toEqual([POOL]);
  await transact(POOL, 12, pool);
  expect(await decode(12)).toMatchObject({ pools: [{ address: POOL, mc_seqno: 12 }], recognised: [] });
  const facts = await factsAt(store, [POOL, IMPOSTOR], 11);
  expect(facts.get(POOL)?.dedustPool).toEqual({ assets: [{ isTon: true, address: null }, { isTon: false, address: JETTON }] });
  expect(facts.get(IMPOSTOR)?.dedustPool).toBeUndefined();
  // the decoder's interfaces of the pool, as toncenter's get-method detection names them
  expect(facts.get(POOL)?.interfaces).toContain("dedust_pool");
  // not before the block that wrote it
  expect((await factsAt(store, [POOL], 10)).get(POOL)?.dedustPool).toBeUndefined();
}, 120_000);
