// toncenter's API v3 transaction page served from PostgreSQL, for bench:v3-reads: a minimal node:http
// server with a pg.Pool, doing for `GET /api/v3/transactions?account=&limit=&sort=` what ton-index-go
// does (crud_transactions.go, QueryTransactions on one pooled connection): the page query, the
// before/after account states by hash, the messages of the page with their contents (two left joins
// on message_contents), then the address book (latest states' code hashes joined with
// contract_methods, and the DNS names of dns_entries) — five queries in turn — rendered as the JSON
// toncenter answers (the same shape as tongate's, without next_cursor). Each query is a named
// prepared statement with bound values (ton-index-go formats literals into the SQL; preparing once is
// the faster of the two, so PostgreSQL gets its best case).
//
// Run in its own process: PGHOST (the socket directory), PGPORT, POOL_SIZE, PORT; prints `listening PORT`.
import http from "node:http";
import pg from "pg";
import { walletByCodeHash } from "@tongate/contracts";
import { formatFriendly } from "@tongate/ton";

const pool = new pg.Pool({
  host: process.env.PGHOST,
  port: Number(process.env.PGPORT),
  user: "postgres",
  database: "postgres",
  max: Number(process.env.POOL_SIZE ?? 32),
});

const TX_COLUMNS = `T.account, T.hash, T.lt, T.block_workchain, T.block_shard, T.block_seqno, T.mc_block_seqno, T.trace_id,
  T.prev_trans_hash, T.prev_trans_lt, T.now, T.orig_status, T.end_status, T.total_fees, T.total_fees_extra_currencies,
  T.account_state_hash_before, T.account_state_hash_after, T.descr, T.aborted, T.destroyed, T.credit_first, T.is_tock,
  T.installed, T.storage_fees_collected, T.storage_fees_due, T.storage_status_change, T.credit_due_fees_collected, T.credit,
  T.credit_extra_currencies, T.compute_skipped, T.skipped_reason, T.compute_success, T.compute_msg_state_used, T.compute_account_activated,
  T.compute_gas_fees, T.compute_gas_used, T.compute_gas_limit, T.compute_gas_credit, T.compute_mode, T.compute_exit_code, T.compute_exit_arg,
  T.compute_vm_steps, T.compute_vm_init_state_hash, T.compute_vm_final_state_hash, T.action_success, T.action_valid, T.action_no_funds,
  T.action_status_change, T.action_total_fwd_fees, T.action_total_action_fees, T.action_result_code, T.action_result_arg,
  T.action_tot_actions, T.action_spec_actions, T.action_skipped_actions, T.action_msgs_created, T.action_action_list_hash,
  T.action_tot_msg_size_cells, T.action_tot_msg_size_bits, T.bounce, T.bounce_msg_size_cells, T.bounce_msg_size_bits,
  T.bounce_req_fwd_fees, T.bounce_msg_fees, T.bounce_fwd_fees, T.split_info_cur_shard_pfx_len, T.split_info_acc_split_depth,
  T.split_info_this_addr, T.split_info_sibling_addr`;

const STATEMENTS = {
  pageDesc: `select ${TX_COLUMNS} from transactions as T where T.account = $1 order by account asc, T.lt desc limit $2 offset $3`,
  pageAsc: `select ${TX_COLUMNS} from transactions as T where T.account = $1 order by account asc, T.lt asc limit $2 offset $3`,
  states: `select S.hash, S.account, S.balance, S.balance_extra_currencies, S.account_status, S.frozen_hash, S.data_hash, S.code_hash
    from account_states S where hash = any($1)`,
  messages: `select M.tx_hash, M.tx_lt, M.msg_hash, M.direction, M.trace_id, M.source, M.destination, M.value, M.value_extra_currencies,
    M.fwd_fee, M.ihr_fee, M.extra_flags, M.created_lt, M.created_at, M.opcode, M.ihr_disabled, M.bounce, M.bounced, M.import_fee,
    M.body_hash, M.init_state_hash, M.msg_hash_norm, B.body as body_boc, I.body as init_boc
    from messages as M left join message_contents as B on M.body_hash = B.hash left join message_contents as I on M.init_state_hash = I.hash
    where M.tx_hash = any($1)`,
  book: `select las.account, las.code_hash, cm.methods from latest_account_states las
    left join contract_methods cm on las.code_hash = cm.code_hash where las.account = any($1)`,
  dns: `select distinct on (nft_item_owner) nft_item_owner, domain from dns_entries
    where nft_item_owner = any($1) and nft_item_owner = dns_wallet order by nft_item_owner, length(domain)`,
};

type Row = Record<string, unknown>;
type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
/** tonhash is char(44): a shorter value comes back space-padded. */
const hash = (v: unknown): string | null => (v === null || v === undefined ? null : String(v).trimEnd());
/** An object without its null/undefined fields (toncenter leaves them out). */
function compact(o: Json): Json {
  for (const k of Object.keys(o)) if (o[k] === null || o[k] === undefined) delete o[k];
  return o;
}
const shardHex = (signed: unknown) => BigInt.asUintN(64, BigInt(String(signed))).toString(16).toUpperCase().padStart(16, "0");
const opcodeHex = (v: unknown) => (v === null ? null : `0x${((Number(v) >>> 0).toString(16)).padStart(8, "0")}`);

/** The description object from ton-indexer's flattened columns. */
function descriptionOf(t: Row): Json {
  const size = (cells: unknown, bits: unknown) => (cells === null ? null : { cells: str(cells), bits: str(bits) });
  return compact({
    type: t.descr,
    aborted: t.aborted,
    destroyed: t.destroyed,
    credit_first: t.credit_first,
    is_tock: t.is_tock,
    installed: t.installed,
    storage_ph:
      t.storage_fees_collected === null
        ? null
        : compact({ storage_fees_collected: str(t.storage_fees_collected), storage_fees_due: str(t.storage_fees_due), status_change: t.storage_status_change }),
    credit_ph: t.credit === null ? null : compact({ due_fees_collected: str(t.credit_due_fees_collected), credit: str(t.credit), credit_extra_currencies: t.credit_extra_currencies }),
    compute_ph:
      t.compute_skipped === null
        ? null
        : compact({
            skipped: t.compute_skipped,
            reason: t.skipped_reason,
            success: t.compute_success,
            msg_state_used: t.compute_msg_state_used,
            account_activated: t.compute_account_activated,
            gas_fees: str(t.compute_gas_fees),
            gas_used: str(t.compute_gas_used),
            gas_limit: str(t.compute_gas_limit),
            gas_credit: str(t.compute_gas_credit),
            mode: t.compute_mode,
            exit_code: t.compute_exit_code,
            exit_arg: t.compute_exit_arg,
            vm_steps: t.compute_vm_steps === null ? null : Number(t.compute_vm_steps),
            vm_init_state_hash: hash(t.compute_vm_init_state_hash),
            vm_final_state_hash: hash(t.compute_vm_final_state_hash),
          }),
    action:
      t.action_success === null
        ? null
        : compact({
            success: t.action_success,
            valid: t.action_valid,
            no_funds: t.action_no_funds,
            status_change: t.action_status_change,
            total_fwd_fees: str(t.action_total_fwd_fees),
            total_action_fees: str(t.action_total_action_fees),
            result_code: t.action_result_code,
            result_arg: t.action_result_arg,
            tot_actions: t.action_tot_actions,
            spec_actions: t.action_spec_actions,
            skipped_actions: t.action_skipped_actions,
            msgs_created: t.action_msgs_created,
            action_list_hash: hash(t.action_action_list_hash),
            tot_msg_size: size(t.action_tot_msg_size_cells, t.action_tot_msg_size_bits),
          }),
    bounce:
      t.bounce === null
        ? null
        : compact({
            type: t.bounce,
            msg_size: size(t.bounce_msg_size_cells, t.bounce_msg_size_bits),
            req_fwd_fees: str(t.bounce_req_fwd_fees),
            msg_fees: str(t.bounce_msg_fees),
            fwd_fees: str(t.bounce_fwd_fees),
          }),
    split_info:
      t.split_info_cur_shard_pfx_len === null
        ? null
        : {
            cur_shard_pfx_len: t.split_info_cur_shard_pfx_len,
            acc_split_depth: t.split_info_acc_split_depth,
            this_addr: hash(t.split_info_this_addr),
            sibling_addr: hash(t.split_info_sibling_addr),
          },
  });
}

function messageOf(m: Row): Json {
  return compact({
    hash: hash(m.msg_hash),
    source: m.source,
    destination: m.destination,
    value: str(m.value),
    value_extra_currencies: m.value_extra_currencies,
    fwd_fee: str(m.fwd_fee),
    ihr_fee: str(m.ihr_fee),
    extra_flags: str(m.extra_flags),
    created_lt: str(m.created_lt),
    created_at: str(m.created_at),
    opcode: opcodeHex(m.opcode),
    ihr_disabled: m.ihr_disabled,
    bounce: m.bounce,
    bounced: m.bounced,
    import_fee: str(m.import_fee),
    message_content: { hash: hash(m.body_hash), body: m.body_boc ?? "" },
    init_state: m.init_state_hash === null ? null : { hash: hash(m.init_state_hash), body: m.init_boc ?? "" },
    hash_norm: hash(m.msg_hash_norm),
  });
}

function stateOf(h: unknown, s: Row | undefined): Json {
  if (!s) return { hash: hash(h) };
  return compact({
    hash: hash(s.hash),
    balance: str(s.balance),
    extra_currencies: s.balance_extra_currencies,
    account_status: s.account_status,
    frozen_hash: hash(s.frozen_hash),
    data_hash: hash(s.data_hash),
    code_hash: hash(s.code_hash),
  });
}

/** toncenter's user-friendly form: non-bounceable for wallets and accounts without code, bounceable otherwise. */
function bookRow(account: string, codeHash: string | null): Json {
  const [wc, hex] = account.split(":") as [string, string];
  const wallet = walletByCodeHash(codeHash);
  return {
    user_friendly: formatFriendly(Number(wc), Buffer.from(hex, "hex"), { bounceable: codeHash !== null && !wallet }),
    interfaces: wallet ? [wallet.type.replace(/^wallet /, "wallet_").replace(/ /g, "")] : [],
  };
}

async function transactionsPage(account: string, limit: number, offset: number, asc: boolean): Promise<Json> {
  const conn = await pool.connect();
  try {
    const q = async (name: keyof typeof STATEMENTS, values: unknown[]) => (await conn.query({ name, text: STATEMENTS[name], values })).rows as Row[];
    const txs = await q(asc ? "pageAsc" : "pageDesc", [account, limit, offset]);
    if (!txs.length) return { transactions: [], address_book: {} };
    const states = new Map((await q("states", [txs.flatMap((t) => [t.account_state_hash_before, t.account_state_hash_after])])).map((s) => [s.hash, s]));
    const inMsg = new Map<unknown, Json>();
    const outMsgs = new Map<unknown, Row[]>();
    for (const m of await q("messages", [txs.map((t) => t.hash)])) {
      if (m.direction === "in") inMsg.set(m.tx_hash, messageOf(m));
      else outMsgs.set(m.tx_hash, [...(outMsgs.get(m.tx_hash) ?? []), m]);
    }
    const transactions = txs.map((t) => {
      const outs = (outMsgs.get(t.hash) ?? []).sort((a, b) => Number(a.created_lt) - Number(b.created_lt));
      return compact({
        account: t.account,
        hash: hash(t.hash),
        lt: str(t.lt),
        now: t.now,
        mc_block_seqno: t.mc_block_seqno,
        trace_id: hash(t.trace_id),
        prev_trans_hash: hash(t.prev_trans_hash),
        prev_trans_lt: str(t.prev_trans_lt),
        orig_status: t.orig_status,
        end_status: t.end_status,
        total_fees: str(t.total_fees),
        total_fees_extra_currencies: t.total_fees_extra_currencies,
        description: descriptionOf(t),
        block_ref: { workchain: t.block_workchain, shard: shardHex(t.block_shard), seqno: t.block_seqno },
        in_msg: inMsg.get(t.hash),
        out_msgs: outs.map(messageOf),
        account_state_before: stateOf(t.account_state_hash_before, states.get(t.account_state_hash_before)),
        account_state_after: stateOf(t.account_state_hash_after, states.get(t.account_state_hash_after)),
        emulated: false,
        finality: "finalized",
      });
    });
    // ton-index-go's address list: each account, the source of its in message, the destinations of its out messages
    const addresses = new Set<string>();
    for (const t of transactions) {
      addresses.add(t.account as string);
      const src = (t.in_msg as Json | undefined)?.source;
      if (typeof src === "string") addresses.add(src);
      for (const m of t.out_msgs as Json[]) if (typeof m.destination === "string") addresses.add(m.destination);
    }
    const list = [...addresses];
    const codes = new Map((await q("book", [list])).map((r) => [r.account as string, hash(r.code_hash)]));
    const domains = new Map((await q("dns", [list])).map((r) => [r.nft_item_owner as string, r.domain]));
    const address_book: Record<string, Json> = {};
    for (const a of list) address_book[a] = compact({ ...bookRow(a, codes.get(a) ?? null), domain: domains.get(a) });
    return { transactions, address_book };
  } finally {
    conn.release();
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (url.pathname !== "/api/v3/transactions") return send(res, 404, { error: "not found" });
  const account = url.searchParams.get("account");
  const limit = Number(url.searchParams.get("limit") ?? 10);
  const offset = Number(url.searchParams.get("offset") ?? 0);
  if (!account || !/^-?\d+:[0-9A-F]{64}$/.test(account)) return send(res, 422, { error: "account: a raw address WC:HEX (upper-case) is expected" });
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return send(res, 422, { error: "limit: 1..1000" });
  transactionsPage(account, limit, offset, url.searchParams.get("sort") === "asc").then(
    (body) => send(res, 200, body),
    (e: Error) => send(res, 500, { error: e.message }),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === "object" && addr ? addr.port : ""}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
