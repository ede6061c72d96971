// The address book: how each raw address of an answer is shown to people (toncenter's
// address_book). The step that fills it into every v3 answer is book-step.ts.
import { create } from "@bufbuild/protobuf";
import { type AddressBookRow, AddressBookRowSchema } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { LruMap } from "@tongate/runtime";
import type { DecodedKeys } from "@tongate/store";
import { walletByCodeHash } from "@tongate/contracts";
import { formatFriendly } from "@tongate/ton";
import type { KeyIndex } from "../store/key-index/key-index.js";
import { decodedUpTo } from "./decoded.js";
import { select, type Store } from "./sql.js";

/**
 * The latest code hash per account, remembered for CODE_HASH_TTL_MS per store: the address book
 * only tells wallets and undeployed accounts from other contracts, which changes with a deploy or
 * a destruction, so an answer up to that old is good enough and saves a query per page.
 */
const CODE_HASH_TTL_MS = 2000;
const codeHashCache = new WeakMap<Store, LruMap<string, { code: string | null; at: number }>>();

/** code_hash of the latest state of each account (null: no code, or not indexed). */
export async function codeHashes(store: Store, accounts: readonly string[]): Promise<Map<string, string | null>> {
  // the key index is written with each block: current, no cache needed
  if (store.keys?.complete) return store.keys.codeHashes(accounts);
  let cache = codeHashCache.get(store);
  if (!cache) codeHashCache.set(store, (cache = new LruMap(50_000)));
  const at = Date.now();
  const found = new Map<string, string | null>();
  const missing: string[] = [];
  for (const a of accounts) {
    const hit = cache.get(a);
    if (hit && at - hit.at < CODE_HASH_TTL_MS) found.set(a, hit.code);
    else missing.push(a);
  }
  if (!missing.length) return found;
  const rows = await select<{ account: string; code_hash: string | null }>(
    store,
    "SELECT account, code_hash FROM latest_account_states FINAL WHERE account IN {c:Array(String)}",
    { c: missing },
  );
  const read = new Map(rows.map((r) => [r.account, r.code_hash]));
  for (const a of missing) {
    // an absent row: no code
    const code = read.get(a) ?? null;
    found.set(a, code);
    cache.set(a, { code, at });
  }
  return found;
}

/** Wallet interfaces by toncenter's names (ton-index-go detect): "wallet v4 r2" → "wallet_v4r2". */
export const walletInterface = (type: string): string => type.replace(/^wallet /, "wallet_").replace(/ /g, "");

const interfacesCache = new WeakMap<Store, LruMap<string, { interfaces: string[]; at: number }>>();

/**
 * The interfaces the decoder detected of these accounts (its account_interfaces, at or before its
 * checkpoint), remembered as long as code hashes are: none before the decoder has decoded a block.
 */
export async function detectedInterfaces(store: Store, accounts: readonly string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  if (!accounts.length) return found;
  // the decoder's key tables are current with its checkpoint: no cache needed
  if (store.decoded?.usable) return store.decoded.interfaces(accounts);
  let cache = interfacesCache.get(store);
  if (!cache) interfacesCache.set(store, (cache = new LruMap(50_000)));
  const at = Date.now();
  const missing: string[] = [];
  for (const a of accounts) {
    const hit = cache.get(a);
    if (hit && at - hit.at < CODE_HASH_TTL_MS) found.set(a, hit.interfaces);
    else missing.push(a);
  }
  if (!missing.length) return found;
  const upTo = await decodedUpTo(store);
  const rows = upTo === null ? [] : await interfacesAt(store, missing, upTo);
  const read = new Map(rows.map((r) => [r.address, r.interfaces]));
  for (const a of missing) {
    const interfaces = read.get(a) ?? [];
    found.set(a, interfaces);
    cache.set(a, { interfaces, at });
  }
  return found;
}

/** The latest interfaces of each account at or before the decoder's checkpoint `upTo`. */
const interfacesAt = (store: Store, accounts: readonly string[], upTo: number) =>
  select<{ address: string; interfaces: string[] }>(
    store,
    `SELECT address, argMax(interfaces, (last_transaction_lt, mc_seqno)) AS interfaces FROM account_interfaces
     WHERE address IN {a:Array(String)} AND mc_seqno <= {upTo:UInt32} GROUP BY address`,
    { a: accounts, upTo },
  );

/**
 * toncenter's address_book for raw addresses: the user-friendly form is non-bounceable for
 * wallets and for accounts without code (not deployed), bounceable otherwise; the interfaces of
 * wallets are known by their code hash, those of other contracts are the decoder's. Keys are the
 * addresses as given.
 */
export async function addressBook(store: Store, addresses: Iterable<string | null | undefined>): Promise<Record<string, AddressBookRow>> {
  const keys = distinct(addresses);
  if (!keys.length) return {};
  const codes = await codeHashes(store, keys);
  const contracts = keys.filter((a) => isContract(codes.get(a) ?? null));
  return bookOf(keys, codes, await detectedInterfaces(store, contracts));
}

/**
 * The same address book from a complete key index alone (a key reader's thread: api/key-readers),
 * with the decoder's interfaces when its tables are usable.
 */
export function addressBookFromKeys(index: KeyIndex, addresses: Iterable<string | null | undefined>, decoded?: DecodedKeys): Record<string, AddressBookRow> {
  const keys = distinct(addresses);
  if (!keys.length) return {};
  const codes = index.codeHashes(keys);
  const detected = decoded?.usable ? decoded.interfaces(keys.filter((a) => isContract(codes.get(a) ?? null))) : undefined;
  return bookOf(keys, codes, detected);
}

/** An account with code that is not a wallet: its interfaces are the decoder's. */
const isContract = (code: string | null): boolean => code !== null && !walletByCodeHash(code);

const distinct = (addresses: Iterable<string | null | undefined>): string[] => [...new Set([...addresses].filter((a): a is string => !!a))];

/**
 * The address book of `addresses` from their code hashes (an address without a latest state has no
 * code) and the interfaces the decoder detected of contracts that are not wallets.
 */
function bookOf(addresses: Iterable<string>, codeHash: ReadonlyMap<string, string | null>, detected?: ReadonlyMap<string, string[]>): Record<string, AddressBookRow> {
  const book: Record<string, AddressBookRow> = {};
  for (const a of addresses) {
    if (book[a]) continue;
    const [wc, hex] = a.split(":") as [string, string];
    const code = codeHash.get(a) ?? null;
    const wallet = walletByCodeHash(code);
    book[a] = create(AddressBookRowSchema, {
      userFriendly: formatFriendly(Number(wc), Buffer.from(hex, "hex"), { bounceable: code !== null && !wallet }),
      interfaces: wallet ? [walletInterface(wallet.type)] : (detected?.get(a) ?? []),
    });
  }
  return book;
}
