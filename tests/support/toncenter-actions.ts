// toncenter's classifier regression cases (../shared/fixtures/toncenter_actions, see its README):
// a trace file read into the classifier's TraceInput and a lookup over its `interfaces`, and a
// case runner with the README's rules (candidates by type, the Jinja selector subset, exactly
// one, dotted/indexed keys, partial objects, lists as sets of the same size, integers by value).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { MapInterfaceLookup, type ContractFacts, type TraceInput, type TraceMessage, type TraceTransaction, type TransactionKind } from "@tongate/actions";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const here = dirname(fileURLToPath(import.meta.url));

/** TONCENTER_ACTIONS_DIR, else ../shared/fixtures/toncenter_actions next to the repository. */
export function toncenterActionsDir(): string {
  const env = process.env.TONCENTER_ACTIONS_DIR;
  if (env) return resolve(env);
  return resolve(here, "../../../shared/fixtures/toncenter_actions");
}

function obj(v: Json | undefined): JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {};
}
const str = (v: Json | undefined): string | null => (typeof v === "string" ? v : null);
const num = (v: Json | undefined): number | null => (typeof v === "number" ? v : null);
const bool = (v: Json | undefined): boolean | null => (typeof v === "boolean" ? v : null);
const big = (v: Json | undefined): bigint | null => (typeof v === "string" || typeof v === "number" ? BigInt(typeof v === "number" ? Math.trunc(v) : v) : null);

function message(m: JsonObject): TraceMessage {
  const content = obj(m.message_content);
  const init = obj(m.init_state);
  const extra = obj(m.value_extra_currencies);
  const extras: Record<string, string> = {};
  for (const [k, v] of Object.entries(extra)) extras[k] = String(v);
  return {
    hash: str(m.msg_hash)!,
    source: str(m.source),
    destination: str(m.destination),
    value: big(m.value),
    valueExtraCurrencies: m.value_extra_currencies === null ? null : extras,
    fwdFee: big(m.fwd_fee),
    ihrFee: big(m.ihr_fee),
    importFee: big(m.import_fee),
    createdLt: big(m.created_lt),
    createdAt: num(m.created_at),
    opcode: num(m.opcode),
    bounce: bool(m.bounce),
    bounced: bool(m.bounced),
    body: str(content.body) ?? "",
    bodyHash: str(m.body_hash) ?? "",
    initState: str(init.body),
    initStateHash: str(m.init_state_hash),
  };
}

const STATUSES = ["active", "uninit", "frozen", "nonexist"] as const;
type Status = (typeof STATUSES)[number];
const status = (v: Json | undefined): Status => STATUSES.find((s) => s === v) ?? "nonexist";
const KINDS: TransactionKind[] = ["ord", "tick_tock", "split_prepare", "split_install", "merge_prepare", "merge_install", "storage", "trans_ord"];

function transaction(t: JsonObject): TraceTransaction {
  const msgs = Array.isArray(t.messages) ? t.messages.map(obj) : [];
  const inMsg = msgs.find((m) => m.direction === "in");
  return {
    hash: str(t.hash)!,
    lt: big(t.lt)!,
    account: str(t.account)!,
    now: num(t.now)!,
    mcBlockSeqno: num(t.mc_block_seqno) ?? 0,
    origStatus: status(t.orig_status),
    endStatus: status(t.end_status),
    totalFees: big(t.total_fees) ?? 0n,
    descr: KINDS.find((k) => k === t.descr) ?? "ord",
    aborted: t.aborted === true,
    destroyed: t.destroyed === true,
    isTock: bool(t.is_tock),
    computeExitCode: num(t.compute_exit_code),
    computeSkipped: t.compute_mode === null,
    actionResultCode: null,
    bounce: str(t.bounce),
    inMsg: inMsg ? message(inMsg) : null,
    outMsgs: msgs.filter((m) => m.direction === "out").map(message),
  };
}

function facts(v: JsonObject): ContractFacts {
  const f: ContractFacts = {};
  const jw = obj(v.JettonWallet);
  if (v.JettonWallet) f.jettonWallet = { address: str(jw.address)!, owner: str(jw.owner)!, jetton: str(jw.jetton)!, balance: big(jw.balance) ?? 0n };
  const ni = obj(v.NftItem);
  if (v.NftItem) {
    const content: Record<string, string> = {};
    for (const [k, c] of Object.entries(obj(ni.content))) if (typeof c === "string") content[k] = c;
    f.nftItem = {
      address: str(ni.address)!,
      init: ni.init === true,
      index: big(ni.index) ?? 0n,
      collectionAddress: str(ni.collection_address),
      ownerAddress: str(ni.owner_address),
      content: ni.content ? content : null,
    };
  }
  const ns = obj(v.NftSale);
  if (v.NftSale) {
    f.nftSale = {
      address: str(ns.address)!,
      marketplaceAddress: str(ns.marketplace_address),
      nftAddress: str(ns.nft_address)!,
      nftOwnerAddress: str(ns.nft_owner_address),
      fullPrice: big(ns.full_price) ?? 0n,
      isComplete: ns.is_complete === true,
      marketplaceFeeAddress: str(ns.marketplace_fee_address),
      marketplaceFee: big(ns.marketplace_fee),
      royaltyAddress: str(ns.royalty_address),
      royaltyAmount: big(ns.royalty_amount),
    };
  }
  const na = obj(v.NftAuction);
  if (v.NftAuction) {
    f.nftAuction = {
      address: str(na.address)!,
      marketplaceAddress: str(na.mp_addr),
      nftAddress: str(na.nft_addr)!,
      nftOwnerAddress: str(na.nft_owner),
      lastBid: big(na.last_bid) ?? 0n,
      minBid: big(na.min_bid),
      maxBid: big(na.max_bid),
      marketplaceFeeAddress: str(na.mp_fee_addr),
      royaltyAddress: str(na.royalty_fee_addr),
    };
  }
  const dp = obj(v.DedustPool);
  if (v.DedustPool && Array.isArray(dp.assets)) f.dedustPool = { assets: dp.assets.map(obj).map((a) => ({ isTon: a.is_ton === true, address: str(a.address) })) };
  if (v.NominatorPool) f.nominatorPool = { address: str(obj(v.NominatorPool).address) ?? "" };
  const mo = obj(v.MultisigOrder);
  if (v.MultisigOrder) {
    f.multisigOrder = {
      address: str(mo.address) ?? "",
      multisigAddress: str(mo.multisig_address) ?? "",
      signers: Array.isArray(mo.signers) ? mo.signers.filter((x): x is string => typeof x === "string") : [],
      orderSeqno: big(mo.order_seqno) ?? undefined,
      threshold: num(mo.threshold) ?? undefined,
      sentForExecution: bool(mo.sent_for_execution) ?? undefined,
      approvalsNum: num(mo.approvals_num) ?? undefined,
      expirationDate: num(mo.expiration_date) ?? undefined,
    };
  }
  const db = obj(v.data_boc);
  if (v.data_boc) f.dataBoc = { account: str(db.account)!, dataBoc: str(db.data_boc)!, pool: str(db.pool), lockWalletAddress: str(db.lock_wallet_address) };
  return f;
}

export interface LoadedTrace {
  trace: TraceInput;
  lookup: MapInterfaceLookup;
  raw: JsonObject;
}

/** A trace file's JSON (already parsed) as the classifier's input and facts. */
export function traceFromJson(raw: JsonObject): LoadedTrace {
  const t = obj(raw.trace);
  const txs = (Array.isArray(raw.transactions) ? raw.transactions.map(obj) : []).map(transaction);
  txs.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const trace: TraceInput = {
    traceId: str(t.trace_id)!,
    externalHash: str(t.external_hash),
    externalHashNorm: str(t.external_hash_norm),
    mcSeqnoStart: num(t.mc_seqno_start) ?? 0,
    mcSeqnoEnd: num(t.mc_seqno_end) ?? 0,
    startLt: big(t.start_lt) ?? 0n,
    endLt: big(t.end_lt) ?? 0n,
    startUtime: num(t.start_utime) ?? 0,
    endUtime: num(t.end_utime) ?? 0,
    transactions: txs,
  };
  const map = new Map<string, ContractFacts>();
  for (const [addr, v] of Object.entries(obj(raw.interfaces))) map.set(addr, facts(obj(v)));
  return { trace, lookup: new MapInterfaceLookup(map), raw };
}

export function readJsonFile(path: string): JsonObject {
  return obj(JSON.parse(readFileSync(path, "utf8")) as Json);
}

/** traces/<trace_id>.json: the file name is the id in URL-safe base64. */
export function traceFilePath(dir: string, traceId: string): string {
  return join(dir, "traces", `${traceId.replaceAll("+", "-").replaceAll("/", "_")}.json`);
}

export function loadTraceFile(path: string): LoadedTrace {
  return traceFromJson(readJsonFile(path));
}

export interface FixtureCase {
  family: string;
  name: string;
  traceId: string;
  expected: { type: string; selector?: string; values: JsonObject }[];
  /** JSON pointers of values written as decimal strings */
  integersAsStrings: Set<string>;
}

export function loadFamilies(dir: string): Map<string, FixtureCase[]> {
  const out = new Map<string, FixtureCase[]>();
  const famDir = join(dir, "families");
  if (!existsSync(famDir)) return out;
  for (const file of readdirSync(famDir).filter((f) => f.endsWith(".json")).sort()) {
    const fam = readJsonFile(join(famDir, file));
    const family = str(fam.family) ?? file.replace(/\.json$/, "");
    const cases = (Array.isArray(fam.cases) ? fam.cases.map(obj) : []).map((c) => ({
      family,
      name: str(c.name) ?? "",
      traceId: str(c.trace_id) ?? "",
      expected: (Array.isArray(c.expected_actions) ? c.expected_actions.map(obj) : []).map((e) => {
        const sel = str(e.selector);
        return { type: str(e.type) ?? "", ...(sel ? { selector: sel } : {}), values: obj(e.values) };
      }),
      integersAsStrings: new Set((Array.isArray(c.integers_as_strings) ? c.integers_as_strings : []).flatMap((p) => (typeof p === "string" ? [p] : []))),
    }));
    out.set(family, cases);
  }
  return out;
}

// ---- comparison -------------------------------------------------------------------------------

/** An action in the fixtures' row shape (bigints as they are). */
export type RowValue = null | undefined | boolean | number | bigint | string | RowValue[] | { [k: string]: RowValue };

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** "a.b[0].c" on a row: a missing field, a null on the way or an index past the end give undefined. */
export function resolveKey(row: unknown, key: string): unknown {
  let cur: unknown = row;
  for (const seg of key.split(".")) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(seg);
    if (!m) return undefined;
    if (m[1] !== "") {
      if (!isRecord(cur)) return undefined;
      cur = cur[m[1]];
    }
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[Number(idx[1])];
    }
  }
  return cur;
}

function asInteger(v: unknown): bigint | null {
  if (typeof v === "bigint") return v;
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
  return null;
}

/** The README's comparison of an expected value (at JSON pointer `ptr`) with an actual one. */
export function matches(expected: Json, actual: unknown, ptr: string, intStrings: Set<string>): boolean {
  if (expected === null) return actual === null || actual === undefined;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    return expected.every((e, i) => actual.some((a) => matches(e, a, `${ptr}/${i}`, intStrings)));
  }
  if (typeof expected === "object") {
    if (!isRecord(actual)) return false;
    return Object.entries(expected).every(([k, e]) => k in actual && actual[k] !== undefined && matches(e, actual[k], `${ptr}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`, intStrings));
  }
  if (typeof expected === "string" && intStrings.has(ptr)) {
    const a = asInteger(actual);
    return a !== null && a === BigInt(expected);
  }
  if (typeof expected === "number") {
    if (Number.isInteger(expected)) {
      const a = asInteger(actual);
      return a !== null && a === BigInt(expected);
    }
    return typeof actual === "number" && actual === expected;
  }
  return actual === expected;
}

// ---- selectors: the Jinja subset {{ value.path ==|!= literal [and|or ...] }} with |length ----

type Tok = { t: "path"; path: string; length: boolean } | { t: "lit"; v: unknown } | { t: "op"; v: "==" | "!=" } | { t: "and" } | { t: "or" } | { t: "("} | { t: ")" };

const UNDEFINED = Symbol("undefined");

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "(" || c === ")") {
      out.push({ t: c });
      i++;
      continue;
    }
    if (src.startsWith("==", i) || src.startsWith("!=", i)) {
      out.push({ t: "op", v: src.startsWith("==", i) ? "==" : "!=" });
      i += 2;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new Error(`selector: unterminated string in ${src}`);
      out.push({ t: "lit", v: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const m = /^[A-Za-z0-9_.[\]+-]+(\s*\|\s*length)?/.exec(src.slice(i));
    if (!m) throw new Error(`selector: cannot read ${src.slice(i)}`);
    const word = m[0].replace(/\s*\|\s*length$/, "");
    const length = m[1] !== undefined;
    i += m[0].length;
    if (word === "and") out.push({ t: "and" });
    else if (word === "or") out.push({ t: "or" });
    else if (word === "None") out.push({ t: "lit", v: null });
    else if (word === "True") out.push({ t: "lit", v: true });
    else if (word === "False") out.push({ t: "lit", v: false });
    else if (/^-?0x[0-9a-fA-F]+$/.test(word)) out.push({ t: "lit", v: BigInt(word) });
    else if (/^-?\d+$/.test(word)) out.push({ t: "lit", v: BigInt(word) });
    else if (word.startsWith("value.") || word === "value") out.push({ t: "path", path: word.slice(6), length });
    else throw new Error(`selector: unknown word ${word}`);
  }
  return out;
}

function selectorEquals(a: unknown, b: unknown): boolean {
  if (a === UNDEFINED) return false;
  const ai = asInteger(a);
  const bi = asInteger(b);
  if (ai !== null && bi !== null) return ai === bi;
  if (a === undefined) return b === null;
  return a === b;
}

/** Evaluates a `{{ … }}` selector against one action. */
export function evalSelector(selector: string, action: unknown): boolean {
  const inner = selector.trim().replace(/^\{\{/, "").replace(/\}\}$/, "");
  const toks = tokenize(inner);
  let pos = 0;
  const operand = (): unknown => {
    const tk = toks[pos++];
    if (!tk) throw new Error("selector: unexpected end");
    if (tk.t === "lit") return tk.v;
    if (tk.t === "path") {
      const v = resolveKey(action, tk.path);
      const undef = v === undefined;
      if (tk.length) return undef || v === null ? 0n : Array.isArray(v) || typeof v === "string" ? BigInt(v.length) : isRecord(v) ? BigInt(Object.keys(v).length) : 0n;
      return undef ? UNDEFINED : v;
    }
    throw new Error("selector: expected a value");
  };
  const comparison = (): boolean => {
    if (toks[pos]?.t === "(") {
      pos++;
      const r = disjunction();
      if (toks[pos++]?.t !== ")") throw new Error("selector: expected )");
      return r;
    }
    const left = operand();
    const op = toks[pos];
    if (op?.t !== "op") return left !== UNDEFINED && left !== null && left !== false && left !== 0n && left !== "";
    pos++;
    const right = operand();
    if (op.v === "==") return selectorEquals(left, right);
    // undefined != anything is true
    return left === UNDEFINED ? true : !selectorEquals(left, right);
  };
  const conjunction = (): boolean => {
    let r = comparison();
    while (toks[pos]?.t === "and") {
      pos++;
      const next = comparison();
      r = r && next;
    }
    return r;
  };
  const disjunction = (): boolean => {
    let r = conjunction();
    while (toks[pos]?.t === "or") {
      pos++;
      const next = conjunction();
      r = r || next;
    }
    return r;
  };
  const result = disjunction();
  if (pos !== toks.length) throw new Error(`selector: trailing tokens in ${selector}`);
  return result;
}

export interface CaseResult {
  ok: boolean;
  /** why it failed */
  problems: string[];
}

/** Replays one case against the classifier's actions (rows in toncenter's shape). */
export function checkCase(c: FixtureCase, actions: readonly Record<string, unknown>[]): CaseResult {
  const problems: string[] = [];
  c.expected.forEach((exp, i) => {
    let candidates = actions.filter((a) => typeof a.type === "string" && a.type.toLowerCase() === exp.type.toLowerCase());
    if (exp.selector !== undefined && candidates.length > 0) {
      const picked = candidates.find((a) => evalSelector(exp.selector!, a));
      candidates = picked ? [picked] : [];
    }
    if (candidates.length !== 1) {
      problems.push(`expected_actions[${i}] ${exp.type}: ${candidates.length} candidates`);
      return;
    }
    const action = candidates[0];
    for (const [key, want] of Object.entries(exp.values)) {
      const got = resolveKey(action, key);
      const ptr = `/expected_actions/${i}/values/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (!matches(want, got, ptr, c.integersAsStrings)) problems.push(`expected_actions[${i}] ${exp.type}.${key}: want ${JSON.stringify(want)}, got ${stringify(got)}`);
    }
  });
  return { ok: problems.length === 0, problems };
}

export function stringify(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)) ?? "undefined";
}

// ---- the same expectations through API v3's rendering ----------------------------------------

/**
 * Checks an expected action's values against the action as API v3 renders it, through the
 * details fields of its type: a row key (or `<kind>_data` sub-key) that some details key is
 * read from must show the same value there (integers as decimal strings). Keys with no details
 * counterpart are skipped.
 */
export function apiProblems(
  exp: { type: string; values: JsonObject },
  api: { details: Record<string, unknown> },
  fields: readonly (readonly [string, string, number, string | null])[] | undefined,
): string[] {
  if (!fields) return [];
  const problems: string[] = [];
  const check = (path: string, want: Json) => {
    for (const [key, , , p] of fields) {
      if (p !== path || key === "*") continue;
      const got = api.details[key];
      const ok =
        want === null
          ? got === null || got === undefined
          : typeof want === "number" && Number.isInteger(want)
            ? got === String(want) || got === want
            : typeof want === "string" || typeof want === "boolean"
              ? got === want || got === String(want)
              : true;
      if (!ok) problems.push(`details.${key} (${path}): want ${JSON.stringify(want)}, got ${stringify(got)}`);
    }
  };
  for (const [k, v] of Object.entries(exp.values)) {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) for (const [sk, sv] of Object.entries(v)) check(`${k}.${sk}`, sv);
    else check(k, v);
  }
  return problems;
}
