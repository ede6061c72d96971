// Token metadata (toncenter's `metadata`: is_indexed and token_info per address) of the addresses an
// answer mentions, and /api/v3/metadata. As toncenter's QueryMetadataImpl: a jetton wallet gets a
// `jetton_wallets` entry (owner, jetton, balance in extra) and brings its jetton master into the
// answer; jetton masters, NFT collections and NFT items get their metadata from the decoder's
// token_metadata (their TEP-64 content) and metadata_fetches (what their URI gave), joined by
// @tongate/contracts' tokenMetadata; other addresses are left out. Read from the decoder's key
// tables when they are usable (the key readers read the same, so both answers are equal), else from
// ClickHouse at or before the decoder's checkpoint.
import { create, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { contentObject, TOKEN_TYPES, tokenMetadata, type FetchOutcome, type TokenType } from "@tongate/contracts";
import { type AddressMetadata, AddressMetadataSchema, type MetadataRequest, type MetadataResponse, MetadataResponseSchema, type TokenInfo, TokenInfoSchema } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { type DecodedKeys, fetchRow, KEY_COLUMNS, type KeyFetchRow, type KeyTokenRow, tokenRow } from "@tongate/store";
import { decodedUpTo } from "./decoded.js";
import { rawAddress } from "./params.js";
import { select, type Store } from "./sql.js";

/** A confirmed jetton wallet as its metadata shows it. */
interface WalletInfo {
  address: string;
  owner: string;
  jetton: string;
  balance: string;
}

/** Where the rows come from: the key tables or ClickHouse. */
interface MetadataRows {
  wallets(addresses: readonly string[]): Promise<WalletInfo[]> | WalletInfo[];
  tokens(addresses: readonly string[]): Promise<KeyTokenRow[]> | KeyTokenRow[];
  fetches(uris: readonly string[]): Promise<Map<string, KeyFetchRow>> | Map<string, KeyFetchRow>;
}

const isTokenType = (t: string): t is TokenType => (TOKEN_TYPES as readonly string[]).includes(t);

/** The metadata of `addresses` (raw), keyed by raw address: the wallets' masters included, addresses that are no token left out. */
async function metadataFrom(rows: MetadataRows, addresses: readonly string[]): Promise<Record<string, AddressMetadata>> {
  const asked = [...new Set(addresses.filter((a) => a !== ""))];
  if (!asked.length) return {};
  const wallets = await rows.wallets(asked);
  const masters = wallets.map((w) => w.jetton).filter((j) => j !== "" && !asked.includes(j));
  const tokens = (await rows.tokens([...asked, ...new Set(masters)])).filter((t) => isTokenType(t.type));
  const uris = [...new Set(tokens.map((t) => t.uri).filter((u) => u !== ""))];
  const fetches = uris.length ? await rows.fetches(uris) : new Map<string, KeyFetchRow>();

  const infos = new Map<string, TokenInfo[]>();
  const add = (address: string, info: TokenInfo, indexed: boolean) => {
    let list = infos.get(address);
    if (!list) infos.set(address, (list = []));
    list.push(info);
    if (!indexed) notIndexed.add(address);
  };
  const notIndexed = new Set<string>();
  for (const w of wallets) {
    add(w.address, create(TokenInfoSchema, { type: "jetton_wallets", valid: true, extra: { owner: w.owner, jetton: w.jetton, balance: w.balance } }), true);
  }
  // toncenter's order: items, collections, masters
  const order: Record<TokenType, number> = { nft_items: 0, nft_collections: 1, jetton_masters: 2 };
  tokens.sort((a, b) => order[a.type as TokenType] - order[b.type as TokenType]);
  for (const t of tokens) {
    const type = t.type as TokenType;
    const m = tokenMetadata(type, contentObject(t.content), t.uri === "" ? undefined : outcomeOf(fetches.get(t.uri)));
    const nftIndex = t.nft_index ?? undefined;
    if (!m.indexed) add(t.address, create(TokenInfoSchema, { type, nftIndex }), false);
    else if (!m.valid) add(t.address, create(TokenInfoSchema, { type, valid: false, nftIndex }), true);
    else {
      add(
        t.address,
        create(TokenInfoSchema, { type, valid: true, name: m.name, symbol: m.symbol, description: m.description, image: m.image, nftIndex, extra: m.extra && jsonObject(m.extra) }),
        true,
      );
    }
  }
  const out: Record<string, AddressMetadata> = {};
  for (const [address, tokenInfo] of infos) out[address] = create(AddressMetadataSchema, { isIndexed: !notIndexed.has(address), tokenInfo });
  return out;
}

function outcomeOf(f: KeyFetchRow | undefined): FetchOutcome | undefined {
  if (!f) return undefined;
  return f.ok ? { ok: true, json: contentObject(f.json) } : { ok: false, reason: f.reason };
}

/** A JSON object as the Struct field takes it (values that are not JSON, which JSON.parse never gives, become null). */
function jsonObject(o: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) out[k] = jsonValue(v);
  return out;
}

function jsonValue(v: unknown): JsonValue {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (Array.isArray(v)) return v.map(jsonValue);
  if (typeof v === "object") return jsonObject(v as Record<string, unknown>);
  return null;
}

/** The rows from the decoder's key tables (a key reader's thread, or the service's while they are usable). */
export function keyMetadataRows(decoded: DecodedKeys): MetadataRows {
  return {
    wallets: (addresses) => [...decoded.walletRows(addresses).values()].filter((w) => w.verdict === "confirmed"),
    tokens: (addresses) => decoded.tokenRows(addresses, TOKEN_TYPES),
    fetches: (uris) => decoded.fetchRows(uris),
  };
}

/** The rows from ClickHouse at or before the decoder's checkpoint `upTo`. */
function clickHouseMetadataRows(store: Store, upTo: number): MetadataRows {
  return {
    wallets: (addresses) =>
      select<WalletInfo & { verdict: string }>(
        store,
        `SELECT address, owner, jetton, toString(balance) AS balance, verdict FROM jetton_wallets
          WHERE address IN {a:Array(String)} AND mc_seqno <= {upTo:UInt32}
          ORDER BY last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY address`,
        { a: addresses, upTo },
      ).then((rows) => rows.filter((w) => w.verdict === "confirmed").map(({ address, owner, jetton, balance }) => ({ address, owner, jetton, balance }))),
    tokens: async (addresses) =>
      (
        await select<Record<string, unknown>>(
          store,
          `SELECT ${KEY_COLUMNS.token_metadata} FROM token_metadata WHERE address IN {a:Array(String)} AND mc_seqno <= {upTo:UInt32}
            ORDER BY last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY address, type`,
          { a: addresses, upTo },
        )
      ).map(tokenRow),
    fetches: async (uris) => {
      const rows = await select<Record<string, unknown>>(
        store,
        `SELECT ${KEY_COLUMNS.metadata_fetches} FROM metadata_fetches WHERE uri IN {u:Array(String)} ORDER BY fetched_at DESC LIMIT 1 BY uri`,
        { u: uris },
      );
      return new Map(rows.map(fetchRow).map((r) => [r.uri, r]));
    },
  };
}

/** The metadata of an answer's addresses: from the key tables when usable, else ClickHouse; none before the decoder has decoded a block. */
export async function tokenMetadataOf(store: Store, addresses: readonly string[]): Promise<Record<string, AddressMetadata>> {
  if (!addresses.length) return {};
  if (store.decoded?.usable) return metadataFrom(keyMetadataRows(store.decoded), addresses);
  const upTo = await decodedUpTo(store);
  if (upTo === null) return {};
  return metadataFrom(clickHouseMetadataRows(store, upTo), addresses);
}

/** The same from the key tables alone (a key reader's thread); empty while they are not usable, as the service's answer then comes from ClickHouse. */
export function tokenMetadataFromKeys(decoded: DecodedKeys, addresses: readonly string[]): Promise<Record<string, AddressMetadata>> {
  return decoded.usable ? metadataFrom(keyMetadataRows(decoded), addresses) : Promise.resolve({});
}

/** /api/v3/metadata: keyed by raw address (the addresses are checked by the request's rules). */
export async function metadataOf(store: Store, req: MetadataRequest): Promise<MetadataResponse> {
  const raw = req.address.map((a) => rawAddress(a));
  return create(MetadataResponseSchema, { metadata: await tokenMetadataOf(store, raw) });
}
