// Real data from the workspace's fixtures (../shared/fixtures): message bodies of toncenter's
// classifier traces and recorded v3 answers, the transactions of a mainnet block with the states of
// its accounts before it, and the contracts' compiled code.
import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { Cell, loadShardAccount, loadTransaction, type Transaction } from "@ton/core";
import { parseBlock } from "@tongate/block";

export const FIXTURES = new URL("../../../../shared/fixtures/", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, FIXTURES));
const json = (path: string) => JSON.parse(read(path).toString("utf8"));

export interface TraceMessage {
  hash: string;
  source: string | null;
  destination: string | null;
  opcode: number | null;
  body: Cell;
}

/** Every distinct message of toncenter's classifier test traces. */
export function actionTraceMessages(): TraceMessage[] {
  const out = new Map<string, TraceMessage>();
  for (const f of readdirSync(new URL("toncenter_actions/traces/", FIXTURES))) {
    const t = json(`toncenter_actions/traces/${f}`);
    for (const tx of t.transactions)
      for (const m of tx.messages)
        out.set(m.msg_hash, {
          hash: m.msg_hash,
          source: m.source,
          destination: m.destination,
          opcode: m.opcode === null ? null : m.opcode >>> 0,
          body: Cell.fromBase64(m.message_content.body),
        });
  }
  return [...out.values()];
}

/** The trace of a toncenter_actions case, by its trace_id. */
export const actionTrace = (traceId: string) => json(`toncenter_actions/traces/${traceId.replaceAll("+", "-").replaceAll("/", "_")}.json`);
export const actionFamily = (family: string) => json(`toncenter_actions/families/${family}.json`);

export interface DecodedMessage {
  body: Cell;
  /** toncenter's message_content.decoded. */
  decoded: any;
  /** The raw address of the receiving account. */
  destination: string | null;
}

/** The messages of the recorded /api/v3/traces answers, with toncenter's decoding of each body. */
export function v3DecodedMessages(): DecodedMessage[] {
  const out: DecodedMessage[] = [];
  for (const f of ["v3_trace_fixture.json", "v3_trace_fixture_multi.json"])
    for (const trace of json(`toncenter_v3/${f}`).traces)
      for (const tx of Object.values<any>(trace.transactions))
        for (const m of [tx.in_msg, ...tx.out_msgs])
          if (m?.message_content?.decoded) out.push({ body: Cell.fromBase64(m.message_content.body), decoded: m.message_content.decoded, destination: m.destination });
  return out;
}

/** The mainnet block 0:8000000000000000:71398501, each account's state before it, and the libraries it uses. */
export function replayBlock() {
  const replay = JSON.parse(gunzipSync(read("replay/tvm_replay_fat_block_66519406.json.gz")).toString("utf8"));
  const block = parseBlock(Cell.fromBase64(replay.block_boc_base64));
  const transactions: Transaction[] = [];
  for (const ab of block.extra.accountBlocks.values()) for (const t of ab.value.transactions.values()) transactions.push(t.value);
  const accounts = new Map<string, { code: Cell; data: Cell; balance: bigint }>();
  for (const a of replay.previous_accounts) {
    const sa = loadShardAccount(Cell.fromBase64(a.shard_account_boc_base64).beginParse());
    const st = sa.account?.storage.state;
    if (sa.account && st?.type === "active" && st.state.code && st.state.data)
      accounts.set(sa.account.addr.toRawString(), { code: st.state.code, data: st.state.data, balance: sa.account.storage.balance.coins });
  }
  return { transactions, accounts, libs: Cell.fromBase64(replay.config.libraries_boc_base64[0]), config: replay.config.config_root_boc_base64 as string };
}

/** The transactions of the other fixture blocks and transaction BoCs (bodies only; no states). */
export function otherTransactions(): Transaction[] {
  const out: Transaction[] = [];
  for (const f of ["blocks/mainnet_0_8000000000000000_34703989_nft.boc", "blocks/mainnet_0_a000000000000000_54302208.boc"]) {
    const block = parseBlock(Cell.fromBoc(read(f))[0]!);
    for (const ab of block.extra.accountBlocks.values()) for (const t of ab.value.transactions.values()) out.push(t.value);
  }
  for (const f of ["v3_trace_fixture.synthesized.txt", "v3_trace_fixture_multi.synthesized.txt"])
    for (const line of read(`toncenter_v3/${f}`).toString("utf8").split("\n").filter(Boolean)) out.push(loadTransaction(Cell.fromBase64(line.split(" ")[1]!).beginParse()));
  return out;
}

export const contractCode = (name: string) => Cell.fromBoc(read(`contracts/${name}.code.boc`))[0]!;
export const contractLibrary = (name: string) => Cell.fromBoc(read(`contracts/${name}.library.boc`))[0]!;

/** The names of the fixture contracts (manifest.json). */
export const contractNames = (): string[] => json("contracts/manifest.json").contracts.map((c: { name: string }) => c.name);
