// toncenter's API v3 jetton pages served from PostgreSQL, for bench:v3-token-reads: a minimal
// node:http server with a pg.Pool doing what ton-index-go does (crud_jettons.go, QueryJettonWallets
// and QueryJettonTransfers, on one pooled connection) for
//   GET /api/v3/jetton/wallets?owner_address=&limit=&offset=   (its default order: by owner, then id)
//   GET /api/v3/jetton/transfers?owner_address=&limit=&offset=&sort=   (not aborted, by lt)
// the page query, then the address book of the page's addresses (latest states' code hashes joined
// with contract_methods, interfaces detected from them as ton-index-go's detect does, then the DNS
// names of dns_entries) — three queries in turn — rendered as toncenter's JSON. Each query is a named
// prepared statement with bound values (ton-index-go formats literals into the SQL; preparing once is
// the faster of the two: PostgreSQL's best case). Not done: ton-index-go's metadata query (token
// metadata of address_metadata), which tongate does not answer yet either.
//
// Run in its own process: PGHOST (the socket directory), PGPORT, POOL_SIZE, PORT; prints `listening PORT`.
import http from "node:http";
import pg from "pg";
import { detectInterfaces, walletByCodeHash } from "@tongate/contracts";
import { formatFriendly } from "@tongate/ton";

const pool = new pg.Pool({
  host: process.env.PGHOST,
  port: Number(process.env.PGPORT),
  user: "postgres",
  database: "postgres",
  max: Number(process.env.POOL_SIZE ?? 32),
});

const STATEMENTS = {
  wallets: `select J.address, J.balance, J.owner, J.jetton, J.last_transaction_lt, J.code_hash, J.data_hash,
    J.mintless_is_claimed, J.mintless_amount, J.mintless_start_from, J.mintless_expire_at, MJM.custom_payload_api_uri
    from jetton_wallets as J left join mintless_jetton_masters as MJM on J.jetton = MJM.address
    where J.owner = $1 order by J.owner, J.id asc limit $2 offset $3`,
  transfersDesc: `select T.tx_hash, T.tx_lt, T.tx_now, T.tx_aborted, T.query_id, T.amount, T.source, T.destination, T.jetton_wallet_address,
    T.jetton_master_address, T.response_destination, T.custom_payload, T.forward_ton_amount, T.forward_payload, T.trace_id
    from jetton_transfers as T where T.tx_aborted is false and (T.source = $1 or T.destination = $1) order by T.tx_lt desc limit $2 offset $3`,
  transfersAsc: `select T.tx_hash, T.tx_lt, T.tx_now, T.tx_aborted, T.query_id, T.amount, T.source, T.destination, T.jetton_wallet_address,
    T.jetton_master_address, T.response_destination, T.custom_payload, T.forward_ton_amount, T.forward_payload, T.trace_id
    from jetton_transfers as T where T.tx_aborted is false and (T.source = $1 or T.destination = $1) order by T.tx_lt asc limit $2 offset $3`,
  book: `select las.account, las.code_hash, cm.methods from latest_account_states las
    left join contract_methods cm on las.code_hash = cm.code_hash where las.account = any($1)`,
  dns: `select distinct on (nft_item_owner) nft_item_owner, domain from dns_entries
    where nft_item_owner = any($1) and nft_item_owner = dns_wallet order by nft_item_owner, length(domain)`,
};

type Row = Record<string, unknown>;
type Json = Record<string, unknown>;
type Query = (name: keyof typeof STATEMENTS, values: unknown[]) => Promise<Row[]>;

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
/** tonhash is char(44): a shorter value comes back space-padded. */
const hash = (v: unknown): string | null => (v === null || v === undefined ? null : String(v).trimEnd());
/** An object without its null/undefined fields (toncenter leaves them out). */
function compact(o: Json): Json {
  for (const k of Object.keys(o)) if (o[k] === null || o[k] === undefined) delete o[k];
  return o;
}

/** ton-index-go's address book row: user-friendly form (non-bounceable for wallets and accounts without code), interfaces from code hash and get-methods. */
function bookRow(account: string, codeHash: string | null, methods: number[] | null): Json {
  const [wc, hex] = account.split(":") as [string, string];
  return {
    user_friendly: formatFriendly(Number(wc), Buffer.from(hex, "hex"), { bounceable: codeHash !== null && !walletByCodeHash(codeHash) }),
    interfaces: codeHash === null && methods === null ? [] : detectInterfaces({ codeHash, methodIds: methods }),
  };
}

async function addressBook(q: Query, addresses: readonly (string | null)[]): Promise<Record<string, Json>> {
  const list = [...new Set(addresses.filter((a): a is string => !!a))];
  if (!list.length) return {};
  const found = new Map((await q("book", [list])).map((r) => [r.account as string, r]));
  const domains = new Map((await q("dns", [list])).map((r) => [r.nft_item_owner as string, r.domain]));
  const book: Record<string, Json> = {};
  for (const a of list) {
    const r = found.get(a);
    const methods = r?.methods ? (r.methods as unknown[]).map(Number) : null;
    book[a] = compact({ ...bookRow(a, hash(r?.code_hash ?? null), methods), domain: domains.get(a) });
  }
  return book;
}

async function onConnection<T>(work: (q: Query) => Promise<T>): Promise<T> {
  const conn = await pool.connect();
  try {
    return await work(async (name, values) => (await conn.query({ name, text: STATEMENTS[name], values })).rows as Row[]);
  } finally {
    conn.release();
  }
}

const walletsPage = (owner: string, limit: number, offset: number) =>
  onConnection(async (q) => {
    const rows = await q("wallets", [owner, limit, offset]);
    const jetton_wallets = rows.map((w) =>
      compact({
        address: w.address,
        balance: str(w.balance),
        owner: w.owner,
        jetton: w.jetton,
        last_transaction_lt: str(w.last_transaction_lt),
        code_hash: hash(w.code_hash),
        data_hash: hash(w.data_hash),
        mintless_info:
          w.mintless_is_claimed === false
            ? { amount: str(w.mintless_amount), start_from: w.mintless_start_from, expire_at: w.mintless_expire_at, custom_payload_api_uri: w.custom_payload_api_uri }
            : null,
      }),
    );
    const address_book = await addressBook(q, rows.flatMap((w) => [w.address as string, w.owner as string, w.jetton as string]));
    return { jetton_wallets, address_book, metadata: {} };
  });

const transfersPage = (owner: string, limit: number, offset: number, asc: boolean) =>
  onConnection(async (q) => {
    const rows = await q(asc ? "transfersAsc" : "transfersDesc", [owner, limit, offset]);
    const jetton_transfers = rows.map((t) =>
      compact({
        query_id: str(t.query_id),
        source: t.source,
        destination: t.destination,
        amount: str(t.amount),
        source_wallet: t.jetton_wallet_address,
        jetton_master: t.jetton_master_address,
        transaction_hash: hash(t.tx_hash),
        transaction_lt: str(t.tx_lt),
        transaction_now: t.tx_now,
        transaction_aborted: t.tx_aborted,
        response_destination: t.response_destination,
        custom_payload: t.custom_payload,
        forward_ton_amount: str(t.forward_ton_amount),
        forward_payload: t.forward_payload,
        trace_id: hash(t.trace_id),
      }),
    );
    const addresses = rows.flatMap((t) => [t.source, t.destination, t.jetton_wallet_address, t.jetton_master_address, t.response_destination] as (string | null)[]);
    return { jetton_transfers, address_book: await addressBook(q, addresses), metadata: {} };
  });

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  const owner = url.searchParams.get("owner_address");
  const limit = Number(url.searchParams.get("limit") ?? 10);
  const offset = Number(url.searchParams.get("offset") ?? 0);
  if (!owner || !/^-?\d+:[0-9A-F]{64}$/.test(owner)) return send(res, 422, { error: "owner_address: a raw address WC:HEX (upper-case) is expected" });
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return send(res, 422, { error: "limit: 1..1000" });
  let page: Promise<Json>;
  if (url.pathname === "/api/v3/jetton/wallets") page = walletsPage(owner, limit, offset);
  else if (url.pathname === "/api/v3/jetton/transfers") page = transfersPage(owner, limit, offset, url.searchParams.get("sort") === "asc");
  else return send(res, 404, { error: "not found" });
  page.then(
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
