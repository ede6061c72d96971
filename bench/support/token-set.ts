// The synthesized token set of bench:v3-token-reads: TRANSFERS jetton transfers among OWNERS owners
// over JETTONS jetton masters in chDB, as the decoder leaves its tables after decoding them (its
// jetton_masters, jetton_wallets, jetton_transfers and account_interfaces rows, written with its own
// insertDecodedRows, its checkpoint set past the data) and the indexer its latest account states
// (the owners' v5r1 wallets, the jetton wallets and masters: what the address book reads; written
// with the indexer's insertBlockRows, so into the key index too). Kept in bench/.cache.
//
// Skew, as on mainnet: a transfer's sender and receiver are each drawn as floor(OWNERS · u³) (u
// uniform), its jetton as floor(JETTONS · u²). On the default set the busiest owner is in 4.3% of the
// transfers, the top 1% of owners in 22% of the transfers' ends, the median owner in 11 (p99 135);
// an owner has 10 wallets at the median, 100 at most. Each transfer is one transaction of the sending owner's wallet of that jetton
// (the row the decoder writes: source = the owner who sent it, destination = the receiving owner),
// lts unique, 200 transfers per masterchain block; 1 in 200 aborted (listed by neither server),
// 1 in 5 with a text comment as forward payload.
import { createHash } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beginCell } from "@ton/core";
import { detectInterfaces, interfaceByName, WALLETS_CODE_HASHES } from "@tongate/contracts";
import { DECODER_MIGRATIONS } from "@tongate/decoder";
import { insertBlockRows, openIndexStore, prepareKeyIndex, type AccountStateRow, type IndexStore } from "@tongate/indexer";
import type { AccountInterfacesRow, DecodedRows, JettonMasterRow, JettonTransferRow, JettonWalletRow } from "../../services/decoder/src/rows.js";
import { emptyRows } from "../../services/decoder/src/rows.js";
import { DECODER_CHECKPOINT, setCheckpoint } from "@tongate/store";
import { insertDecodedRows } from "../../services/decoder/src/write.js";
import { seeded } from "./load.js";

export const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 1_000_000);
export const OWNERS = Number(process.env.BENCH_OWNERS ?? 100_000);
export const JETTONS = Number(process.env.BENCH_JETTONS ?? 100);
/** chDB's data directory of this size of set. */
export const tokenSetDir = fileURLToPath(new URL(`../.cache/token-reads-${TRANSFERS}-${OWNERS}-${JETTONS}`, import.meta.url));

/** Code of the set's jetton wallets and masters: hashes no interface is known by, so both sides detect them by their get-methods. */
export const WALLET_CODE_HASH = b64("bench jetton wallet code");
export const MASTER_CODE_HASH = b64("bench jetton master code");
/** The get-method ids of those codes (toncenter's contract_methods rows; the decoder reads them from the code). */
export const CODE_METHODS: Record<string, number[]> = {
  [WALLET_CODE_HASH]: [...interfaceByName("jetton_wallet")!.methodIds],
  [MASTER_CODE_HASH]: [...interfaceByName("jetton_master")!.methodIds],
};

const TRANSFERS_PER_BLOCK = 200;
const FIRST_LT = 10_000_000n;
const FIRST_NOW = 1_700_000_000;
const COMMENT = "thanks for the coffee";
const COMMENT_BOC = beginCell().storeUint(0, 32).storeStringTail(COMMENT).endCell().toBoc().toString("base64");
/** Rows per insert: one "batch" of the decoder. */
const CHUNK = 50_000;

function sha(tag: string): Buffer {
  return createHash("sha256").update(tag).digest();
}
function b64(tag: string): string {
  return sha(tag).toString("base64");
}
const addr = (tag: string) => `0:${sha(tag).toString("hex").toUpperCase()}`;
export const ownerAddress = (i: number) => addr(`bench owner ${i}`);
export const masterAddress = (j: number) => addr(`bench jetton ${j}`);
const walletAddress = (owner: number, jetton: number) => addr(`bench wallet ${owner} ${jetton}`);

/** A wallet's last transaction (its version in the state tables). */
interface WalletSeen {
  owner: number;
  jetton: number;
  lt: bigint;
  now: number;
  mc: number;
}

const version = (lt: bigint, now: number, mc: number, code: string, dataTag: string) => ({
  code_hash: code,
  data_hash: b64(dataTag),
  last_transaction_lt: lt.toString(),
  last_transaction_now: now,
  mc_seqno: mc,
});

const interfacesRow = (address: string, code: string, lt: bigint, mc: number): AccountInterfacesRow => ({
  address,
  interfaces: detectInterfaces({ codeHash: code, methodIds: CODE_METHODS[code] ?? null }),
  code_hash: code,
  last_transaction_lt: lt.toString(),
  mc_seqno: mc,
});

function stateRow(account: string, code: string, lt: bigint, now: number, balance: bigint): AccountStateRow {
  return {
    hash: b64(`state ${account} ${lt}`),
    account,
    balance: balance.toString(),
    balance_extra_currencies: {},
    account_status: "active",
    frozen_hash: null,
    code_hash: code,
    data_hash: b64(`data ${account} ${lt}`),
    code_boc: null,
    data_boc: null,
    last_trans_hash: b64(`tx ${account} ${lt}`),
    last_trans_lt: lt.toString(),
    timestamp: now,
  };
}

async function writeDecoded(store: IndexStore, rows: DecodedRows): Promise<void> {
  const refused = await insertDecodedRows(store, rows);
  if (refused.length) throw new Error(`ClickHouse refused ${refused.length} rows, e.g. ${JSON.stringify(refused[0])}`);
}

async function writeStates(store: IndexStore, states: AccountStateRow[], progress: (done: number) => void): Promise<void> {
  for (let i = 0; i < states.length; i += CHUNK) {
    await insertBlockRows(store, { blocks: [], transactions: [], messages: [], contents: [], accountStates: states.slice(i, i + CHUNK) });
    if ((i / CHUNK) % 5 === 4) progress(i + CHUNK);
  }
}

async function synthesize(store: IndexStore): Promise<void> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const rnd = seeded(23);
  const wallets = new Map<string, WalletSeen>();
  const touch = (owner: number, jetton: number, lt: bigint, now: number, mc: number): string => {
    const address = walletAddress(owner, jetton);
    const w = wallets.get(address);
    if (w) Object.assign(w, { lt, now, mc });
    else wallets.set(address, { owner, jetton, lt, now, mc });
    return address;
  };
  let rows = emptyRows();
  let aborted = 0;
  for (let k = 0; k < TRANSFERS; k++) {
    const jetton = Math.floor(JETTONS * rnd() ** 2);
    const from = Math.floor(OWNERS * rnd() ** 3);
    let to = Math.floor(OWNERS * rnd() ** 3);
    if (to === from) to = (from + 1) % OWNERS;
    const lt = FIRST_LT + BigInt(k) * 10n;
    const now = FIRST_NOW + Math.floor(k / 20);
    const mc = Math.floor(k / TRANSFERS_PER_BLOCK) + 1;
    const source = ownerAddress(from);
    const isAborted = k % 200 === 199;
    aborted += isAborted ? 1 : 0;
    const sendingWallet = touch(from, jetton, lt, now, mc);
    // the receiving wallet's internal_transfer, a few lt later (an aborted transfer sends nothing)
    if (!isAborted) touch(to, jetton, lt + 2n, now, mc);
    const comment = k % 5 === 0;
    const row: JettonTransferRow = {
      jetton_master: masterAddress(jetton),
      jetton_wallet: sendingWallet,
      transaction_lt: lt.toString(),
      transaction_hash: b64(`transfer ${k}`),
      transaction_now: now,
      transaction_aborted: isAborted,
      mc_seqno: mc,
      trace_id: b64(`trace ${k}`),
      query_id: String(k),
      amount: String(1 + Math.floor(rnd() * 1e12)),
      source,
      destination: ownerAddress(to),
      response_destination: source,
      custom_payload: null,
      forward_ton_amount: comment ? "1" : "0",
      forward_payload: comment ? COMMENT_BOC : null,
      comment: comment ? COMMENT : null,
      confirmed: 1,
    };
    rows.jetton_transfers.push(row);
    if (rows.jetton_transfers.length === CHUNK) {
      await writeDecoded(store, rows);
      rows = emptyRows();
      console.log(`  jetton_transfers: ${k + 1} of ${TRANSFERS} (${elapsed()})`);
    }
  }
  await writeDecoded(store, rows);
  const lastMc = Math.floor((TRANSFERS - 1) / TRANSFERS_PER_BLOCK) + 1;

  // state: the latest row of each wallet and master, as of its last transaction
  rows = emptyRows();
  const states: AccountStateRow[] = [];
  for (const [address, w] of wallets) {
    const balance = BigInt(Math.floor(rnd() * 1e12));
    const wallet: JettonWalletRow = {
      jetton: masterAddress(w.jetton),
      owner: ownerAddress(w.owner),
      address,
      balance: balance.toString(),
      verdict: "confirmed",
      mintless_is_claimed: null,
      mintless_amount: null,
      mintless_start_from: null,
      mintless_expire_at: null,
      ...version(w.lt, w.now, w.mc, WALLET_CODE_HASH, `data ${address} ${w.lt}`),
    };
    rows.jetton_wallets.push(wallet);
    rows.account_interfaces.push(interfacesRow(address, WALLET_CODE_HASH, w.lt, w.mc));
    states.push(stateRow(address, WALLET_CODE_HASH, w.lt, w.now, 50_000_000n));
    if (rows.jetton_wallets.length === CHUNK) {
      await writeDecoded(store, rows);
      rows = emptyRows();
      if (states.length % (5 * CHUNK) === 0) console.log(`  jetton_wallets: ${states.length} of ${wallets.size} (${elapsed()})`);
    }
  }
  for (let j = 0; j < JETTONS; j++) {
    const address = masterAddress(j);
    const master: JettonMasterRow = {
      address,
      total_supply: "1000000000000000000",
      mintable: true,
      admin_address: ownerAddress(0),
      jetton_content: "{}",
      jetton_wallet_code_hash: WALLET_CODE_HASH,
      custom_payload_api_uri: [],
      ...version(FIRST_LT - 1000n + BigInt(j), FIRST_NOW, 1, MASTER_CODE_HASH, `data ${address}`),
    };
    rows.jetton_masters.push(master);
    rows.account_interfaces.push(interfacesRow(address, MASTER_CODE_HASH, BigInt(master.last_transaction_lt), 1));
    states.push(stateRow(address, MASTER_CODE_HASH, BigInt(master.last_transaction_lt), FIRST_NOW, 1_000_000_000n));
  }
  // the owners' wallets: the decoder writes the interfaces of every account a block changed
  const ownerCode = WALLETS_CODE_HASHES.wallet_v5r1;
  for (let i = 0; i < OWNERS; i++) {
    const address = ownerAddress(i);
    const lt = FIRST_LT + BigInt(TRANSFERS) * 10n + BigInt(i);
    rows.account_interfaces.push(interfacesRow(address, ownerCode, lt, lastMc));
    states.push(stateRow(address, ownerCode, lt, FIRST_NOW + Math.floor(TRANSFERS / 20), 2_000_000_000n));
    if (rows.account_interfaces.length >= CHUNK) {
      await writeDecoded(store, rows);
      rows = emptyRows();
    }
  }
  await writeDecoded(store, rows);
  console.log(`  jetton_wallets: ${wallets.size}, jetton_masters: ${JETTONS}, account_interfaces: ${wallets.size + JETTONS + OWNERS} (${elapsed()})`);
  await writeStates(store, states, (done) => console.log(`  latest account states: ${done} of ${states.length} (${elapsed()})`));
  console.log(`  latest account states (ClickHouse and the key index): ${states.length} (${elapsed()})`);
  // as the parts are after the background merges of a running store (the decoder inserts block by block)
  for (const t of ["jetton_transfers", "jetton_wallets", "jetton_masters", "account_interfaces", "account_states", "latest_account_states"]) {
    await store.client.command({ query: `OPTIMIZE TABLE ${t} FINAL` });
  }
  await setCheckpoint(store, DECODER_CHECKPOINT, lastMc);
  console.log(`synthesized ${TRANSFERS} jetton transfers (${aborted} aborted) of ${wallets.size} wallets, ${OWNERS} owners, ${JETTONS} jettons; decoder checkpoint ${lastMc}; in ${elapsed()} into ${tokenSetDir}`);
}

/**
 * The store of the set, synthesized on first use (the indexer's tables and key index, the decoder's
 * tables). chDB binds one data directory per process: close it before a gateway opens the directory.
 */
export async function openTokenSet(): Promise<IndexStore> {
  const fresh = !existsSync(tokenSetDir);
  const store = await openIndexStore({ path: tokenSetDir, keyIndex: true });
  try {
    await store.register({ owner: "decoder", migrations: DECODER_MIGRATIONS });
    if (fresh) await synthesize(store);
    else console.log(`reusing ${tokenSetDir} (delete it to synthesize again)`);
    // no transactions: complete at once (the states are in it from insertBlockRows)
    if (!store.keys!.complete) await prepareKeyIndex(store, store.keys!);
    return store;
  } catch (e) {
    await store.close();
    if (fresh) rmSync(tokenSetDir, { recursive: true, force: true });
    throw e;
  }
}

/** The owners with a listed wallet, for requests with random owners. */
export async function ownersOf(store: IndexStore): Promise<string[]> {
  const rs = await store.client.query({ query: "SELECT DISTINCT owner FROM jetton_wallets ORDER BY owner", format: "JSONEachRow" });
  return (await rs.json<{ owner: string }>()).map((r) => r.owner);
}
