// The synthesized index the API v3 read benchmarks share (bench:indexer-queries, bench:v3-reads):
// TX transactions of ACCOUNTS accounts in chDB, kept in bench/.cache between runs.
//
// The index is synthesized from one real transaction shape (a mainnet transaction of the recorded
// toncenter trace: its description and message fields), spread over the accounts with distinct
// hashes and lts: transactions with an internal in message and one out message each, their account
// states, the lookup tables filled by the materialized views as the indexer's inserts fill them.
import { openIndexStore, prepareKeyIndex, type IndexStore as Store } from "@tongate/indexer";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const TX = Number(process.env.BENCH_TX ?? 1_000_000);
export const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10_000);
/** chDB's data directory of this size of set. */
export const indexSetDir = fileURLToPath(new URL(`../.cache/indexer-queries-${TX}-${ACCOUNTS}`, import.meta.url));

const fixture = JSON.parse(readFileSync(fileURLToPath(new URL("../../../shared/fixtures/toncenter_v3/v3_trace_fixture_multi.json", import.meta.url)), "utf8"));
const shape = Object.values(fixture.traces[0].transactions)[1] as { description: unknown; in_msg: { message_content: { body: string } } };

const account = (expr: string) => `concat('0:', upper(hex(SHA256(toString(${expr})))))`;
const hash = (tag: string, expr: string) => `base64Encode(SHA256(concat('${tag}', toString(${expr}))))`;

// tx i: account a = i % A, its r-th transaction (r = i / A) at lt 1,000,000 + 1,000 r. It receives
// the message account a + 1 sent in its previous transaction (round r − 1; in round 0 a message
// whose sender is not indexed) and sends one to account a − 1, received in round r + 1.
const A = "{accounts:UInt64}";
const inMsg = {
  hash: hash("out", `toInt64(i) - ${A} + 1 - if(i % ${A} = ${A} - 1, ${A}, 0)`),
  source: account(`(i + 1) % ${A}`),
  destination: "acc",
  createdLt: "tx_lt - 999",
};
const outMsg = { hash: hash("out", "i"), source: "acc", destination: account(`(i + ${A} - 1) % ${A}`), createdLt: "tx_lt + 1" };
type Msg = typeof outMsg;

/** The JSON of one message row as the indexer stores it with its transaction (migrations/0004). */
function messageJson(dirn: "in" | "out", m: Msg): string {
  // [field, SQL expression, quoted?] — hashes, addresses and 64/128-bit numbers are JSON strings
  const fields: [string, string, boolean][] = [
    ["msg_hash", m.hash, true],
    ["direction", `'${dirn}'`, true],
    ["tx_hash", hash("tx", "i"), true],
    ["tx_lt", "toString(tx_lt)", true],
    ["source", m.source, true],
    ["destination", m.destination, true],
    ["value", "'136810398'", true],
    ["value_extra_currencies", "'{}'", false],
    ["fwd_fee", "'266669'", true],
    ["ihr_fee", "'0'", true],
    ["extra_flags", "'0'", true],
    ["created_lt", `toString(${m.createdLt})`, true],
    ["created_at", "toString(1700000000 + intDiv(i, 10))", false],
    ["opcode", "'-718113061'", false],
    ["ihr_disabled", "'true'", false],
    ["bounce", "'false'", false],
    ["bounced", "'false'", false],
    ["import_fee", "'null'", false],
    ["body_hash", "'body'", true],
    ["init_state_hash", "'null'", false],
    ["hash_norm", "'null'", false],
  ];
  return `concat('{', ${fields.map(([k, v, q], n) => `'${n ? "," : ""}"${k}":${q ? '"' : ""}', ${v}${q ? `, '"'` : ""}`).join(", ")}, '}')`;
}

/** The JSON of the state a transaction shows (TransactionRow.states) for account state `expr` (its hash and balance). */
function stateJson(expr: string): string {
  return `concat('{"hash":"', ${hash("st", expr)}, '","balance":"', toString(636389580305 + ${expr}), '","balance_extra_currencies":{},"account_status":"active","frozen_hash":null,"code_hash":"EayteVWEQJDyg78ji8FEmHH3g+fMCXlAjT9IWUg+hSU=","data_hash":"', ${hash("data", expr)}, '"}')`;
}

async function synthesize(store: Store): Promise<void> {
  const c = store.client;
  const started = performance.now();
  const params = { n: TX, accounts: ACCOUNTS, description: JSON.stringify(shape.description), body: shape.in_msg.message_content.body };
  const cols = `number AS i, ${account(`i % ${A}`)} AS acc, toUInt64(1000000 + intDiv(i, ${A}) * 1000) AS tx_lt`;
  await c.command({
    query: `INSERT INTO transactions (account, lt, hash, prev_trans_hash, prev_trans_lt, now, mc_seqno, block_workchain, block_shard, block_seqno,
              orig_status, end_status, total_fees, total_fees_extra_currencies, account_state_hash_before, account_state_hash_after,
              description, in_msg_hash, out_msg_hashes, trace_id, messages, states)
            SELECT acc, tx_lt, ${hash("tx", "i")}, ${hash("tx", `i - ${A}`)}, tx_lt - 1000, toUInt32(1700000000 + intDiv(i, 10)),
              toUInt32(intDiv(i, 100) + 1), 0, toInt64(-9223372036854775808), toUInt32(intDiv(i, 100) + 1), 'active', 'active', 230801, map(),
              ${hash("st", `i - ${A}`)}, ${hash("st", "i")}, {description:String}, ${inMsg.hash}, [${outMsg.hash}], ${hash("tx", "i")},
              concat('[', ${messageJson("in", inMsg)}, ',', ${messageJson("out", outMsg)}, ']'),
              concat('[', ${stateJson(`toInt64(i) - ${A}`)}, ',', ${stateJson("i")}, ']')
            FROM (SELECT ${cols} FROM numbers({n:UInt64}))`,
    query_params: params,
  });
  for (const [dirn, m] of [
    ["in", inMsg],
    ["out", outMsg],
  ] as const) {
    await c.command({
      query: `INSERT INTO messages (msg_hash, direction, tx_hash, tx_lt, source, destination, value, value_extra_currencies, fwd_fee, ihr_fee, extra_flags,
                created_lt, created_at, opcode, ihr_disabled, bounce, bounced, import_fee, body_hash, init_state_hash, hash_norm)
              SELECT ${m.hash}, '${dirn}', ${hash("tx", "i")}, tx_lt, ${m.source}, ${m.destination}, 136810398, map(), 266669, 0, 0,
                ${m.createdLt}, toUInt32(1700000000 + intDiv(i, 10)), -718113061, true, false, false, NULL, 'body', NULL, NULL
              FROM (SELECT ${cols} FROM numbers({n:UInt64}))`,
      query_params: params,
    });
  }
  await c.command({ query: "INSERT INTO message_contents (hash, boc) VALUES ('body', {body:String})", query_params: params });
  await c.command({
    query: `INSERT INTO account_states (hash, account, balance, balance_extra_currencies, account_status, frozen_hash, code_hash, data_hash, code_boc, data_boc,
              last_trans_hash, last_trans_lt, timestamp)
            SELECT ${hash("st", "i")}, acc, 636389580305 + i, map(), 'active', NULL, 'EayteVWEQJDyg78ji8FEmHH3g+fMCXlAjT9IWUg+hSU=', ${hash("data", "i")}, NULL, NULL,
              ${hash("tx", "i")}, tx_lt, toUInt32(1700000000 + intDiv(i, 10))
            FROM (SELECT ${cols} FROM numbers({n:UInt64}))`,
    query_params: params,
  });
  const n = await (await c.query({ query: "SELECT count() AS n FROM transactions", format: "JSONEachRow" })).json<{ n: string }>();
  console.log(`synthesized ${n[0]!.n} transactions of ${ACCOUNTS} accounts (+ ${2 * TX} message rows, ${TX} account states) in ${((performance.now() - started) / 1000).toFixed(1)} s into ${indexSetDir}`);
}

/**
 * The store of the set, synthesized on first use. chDB binds one data directory per process: close
 * it before a gateway process opens the same directory.
 */
export async function openIndexSet(): Promise<Store> {
  const fresh = !existsSync(indexSetDir);
  // with its key index, as the indexer service opens it (the gateways find it complete)
  const store = await openIndexStore({ path: indexSetDir, keyIndex: true });
  try {
    if (fresh) await synthesize(store);
    else console.log(`reusing ${indexSetDir} (delete it to synthesize again)`);
    if (!store.keys!.complete) {
      const started = performance.now();
      let last = 0;
      await prepareKeyIndex(store, store.keys!, (p) => {
        if (p.transactions - last >= 100_000 || p.transactions === p.total) {
          last = p.transactions;
          console.log(`key index: ${p.transactions} of ${p.total} transactions (${((performance.now() - started) / 1000).toFixed(0)} s)`);
        }
      });
      console.log(`key index built from ClickHouse in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return store;
  } catch (e) {
    await store.close();
    if (fresh) rmSync(indexSetDir, { recursive: true, force: true });
    throw e;
  }
}

/** The accounts of the set (up to ACCOUNTS of them), for requests with random accounts. */
export async function accountsOf(store: Store): Promise<string[]> {
  const rs = await store.client.query({ query: "SELECT DISTINCT account FROM transactions_by_hash LIMIT {n:UInt32}", query_params: { n: ACCOUNTS }, format: "JSONEachRow" });
  return (await rs.json<{ account: string }>()).map((r) => r.account);
}
