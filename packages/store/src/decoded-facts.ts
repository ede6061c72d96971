// The contract facts a classification consults (@tongate/actions' ContractFacts), from the decoder's
// tables as of a masterchain block: the latest row per address at or before it (the rows of the
// block itself included: they are written before its traces are classified). Read by the decoder
// classifying a block's traces and by the send service classifying an emulated trace on the same
// confirmed facts. Only confirmed jetton wallets and NFT items count: a wallet whose master has not vouched for it is not a jetton wallet
// to the classifier (a fake one must not make a jetton_transfer).
import { addressesToLookUp, dataToLookUp, deriveDataFacts, relatedAddresses, relatedDataRequests, type ContractFacts, type DataRequest, type TraceInput } from "@tongate/actions";
import { select, type Store } from "./store.js";

/** Addresses per query (IN lists). */
const CHUNK = 5_000;

const latest = (table: string, columns: string): string =>
  `SELECT ${columns} FROM ${table} WHERE address IN {addresses:Array(String)} AND mc_seqno <= {mc:UInt32}
    ORDER BY last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY address`;

const big = (v: unknown): bigint => BigInt(String(v ?? 0));
const bigOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(String(v)));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined || v === "" ? null : String(v));
const bool = (v: unknown): boolean => v === true || v === 1 || v === "1" || v === "true";

/** An item's content (JSON text of strings) as the classifier takes it: its string values. */
function contentOf(text: unknown): Record<string, string> | null {
  try {
    const v: unknown = JSON.parse(String(text ?? ""));
    if (!v || typeof v !== "object" || Array.isArray(v)) return null;
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) if (typeof x === "string") out[k] = x;
    return out;
  } catch {
    return null;
  }
}

/**
 * What the decoder knows of these addresses at block `mcSeqno`. An address the decoder never saw
 * with code (no interfaces row, no state row) is absent: unknown to the classifier.
 */
export async function factsAt(store: Store, addresses: Iterable<string>, mcSeqno: number): Promise<Map<string, ContractFacts>> {
  const all = [...new Set(addresses)];
  const out = new Map<string, ContractFacts>();
  const entry = (a: string): ContractFacts => {
    let f = out.get(a);
    if (!f) out.set(a, (f = {}));
    return f;
  };
  for (let i = 0; i < all.length; i += CHUNK) {
    const params = { addresses: all.slice(i, i + CHUNK), mc: mcSeqno };
    const [interfaces, masters, wallets, items, sales, pools] = await Promise.all([
      select<Record<string, unknown>>(store, latest("account_interfaces", "address, interfaces"), params),
      select<Record<string, unknown>>(store, latest("jetton_masters", "address, admin_address"), params),
      select<Record<string, unknown>>(store, latest("jetton_wallets", "address, owner, jetton, balance, verdict"), params),
      select<Record<string, unknown>>(store, latest("nft_items", "address, init, nft_index, collection_address, owner_address, content, code_hash, verdict"), params),
      select<Record<string, unknown>>(
        store,
        latest("nft_sales", "address, type, nft_address, nft_owner_address, marketplace_address, full_price, is_complete, marketplace_fee_address, marketplace_fee, royalty_address, royalty_amount, last_bid, min_bid, max_bid, mp_fee_address, royalty_fee_address"),
        params,
      ),
      select<Record<string, unknown>>(store, latest("dedust_pools", "address, asset_1, asset_2"), params),
    ]);
    for (const r of interfaces) entry(String(r.address)).interfaces = Array.isArray(r.interfaces) ? r.interfaces.map(String) : [];
    for (const r of masters) entry(String(r.address)).jettonMaster = { address: String(r.address), admin: strOrNull(r.admin_address) };
    for (const r of wallets) {
      if (r.verdict !== "confirmed") continue;
      entry(String(r.address)).jettonWallet = { address: String(r.address), owner: String(r.owner), jetton: String(r.jetton), balance: big(r.balance) };
    }
    for (const r of items) {
      if (r.verdict !== "confirmed") continue;
      entry(String(r.address)).nftItem = {
        address: String(r.address),
        init: bool(r.init),
        index: big(r.nft_index),
        collectionAddress: strOrNull(r.collection_address),
        ownerAddress: strOrNull(r.owner_address),
        content: contentOf(r.content),
        codeHash: strOrNull(r.code_hash),
      };
    }
    for (const r of pools) {
      const asset = (v: unknown) => (strOrNull(v) === null ? { isTon: true, address: null } : { isTon: false, address: String(v) });
      entry(String(r.address)).dedustPool = { assets: [asset(r.asset_1), asset(r.asset_2)] };
    }
    for (const r of sales) {
      const address = String(r.address);
      if (r.type === "getgems_sale") {
        entry(address).nftSale = {
          address,
          marketplaceAddress: strOrNull(r.marketplace_address),
          nftAddress: String(r.nft_address),
          nftOwnerAddress: strOrNull(r.nft_owner_address),
          fullPrice: big(r.full_price),
          isComplete: bool(r.is_complete),
          marketplaceFeeAddress: strOrNull(r.marketplace_fee_address),
          marketplaceFee: bigOrNull(r.marketplace_fee),
          royaltyAddress: strOrNull(r.royalty_address),
          royaltyAmount: bigOrNull(r.royalty_amount),
        };
      } else if (r.type === "getgems_auction") {
        entry(address).nftAuction = {
          address,
          marketplaceAddress: strOrNull(r.marketplace_address),
          nftAddress: String(r.nft_address),
          nftOwnerAddress: strOrNull(r.nft_owner_address),
          lastBid: big(r.last_bid),
          minBid: bigOrNull(r.min_bid),
          maxBid: bigOrNull(r.max_bid),
          marketplaceFeeAddress: strOrNull(r.mp_fee_address),
          royaltyAddress: strOrNull(r.royalty_fee_address),
        };
      }
    }
  }
  // contracts whose matchers read their data themselves (a multisig order's signers and threshold)
  const withData = [...out].filter(([, f]) => f.interfaces?.some((i) => DATA_INTERFACES.has(i))).map(([a]) => a);
  for (let i = 0; i < withData.length; i += CHUNK) {
    const params = { addresses: withData.slice(i, i + CHUNK), mc: mcSeqno };
    for (const r of await select<{ account: string; latest_data: string }>(store, LATEST_DATA, params)) {
      entry(r.account).dataBoc = { account: r.account, dataBoc: r.latest_data };
    }
  }
  return out;
}

/** Interfaces whose matchers parse the contract's data (ContractFacts.dataBoc). */
const DATA_INTERFACES = new Set(["multisig_order_v2"]);

/**
 * The latest data of each account among its states up to the block's last transaction (an order
 * destroyed when it executes keeps the data it had before).
 */
const LATEST_DATA = `SELECT account, argMax(data_boc, last_trans_lt) AS latest_data FROM account_states
  WHERE account IN {addresses:Array(String)} AND data_boc IS NOT NULL
    AND last_trans_lt <= (SELECT max(lt) FROM transactions WHERE account IN {addresses:Array(String)} AND mc_seqno <= {mc:UInt32})
  GROUP BY account`;

/** Rounds of facts that name more facts (a JVault stake wallet → its pool → the pool's lock wallet). */
const ROUNDS = 4;

/**
 * The facts the classifier may consult for these traces at block `mcSeqno`: those of
 * addressesToLookUp, the data of dataToLookUp (derived as toncenter's extra requests derive it),
 * then what those name outside the traces (relatedAddresses, relatedDataRequests), round after round.
 */
export async function factsForTraces(store: Store, traces: readonly TraceInput[], mcSeqno: number): Promise<Map<string, ContractFacts>> {
  const addresses = traces.flatMap(addressesToLookUp);
  let requests = traces.flatMap(dataToLookUp);
  const known = addresses.length ? await factsAt(store, addresses, mcSeqno) : new Map<string, ContractFacts>();
  const asked = new Set(known.keys());
  for (const a of addresses) asked.add(a);
  const dataRead = new Set<string>();
  for (let round = 0; round < ROUNDS && (requests.length > 0 || round === 0); round++) {
    for (const r of requests) dataRead.add(r.account);
    for (const [account, f] of await dataOf(store, requests, mcSeqno)) known.set(account, { ...known.get(account), dataBoc: f });
    const named = [...known.values()];
    requests = named.flatMap((f) => (f.dataBoc ? relatedDataRequests(f.dataBoc) : [])).filter((r) => !dataRead.has(r.account));
    const related = [...new Set([...named.flatMap(relatedAddresses), ...requests.map((r) => r.account)])].filter((a) => !asked.has(a));
    for (const a of related) asked.add(a);
    if (related.length) for (const [a, f] of await factsAt(store, related, mcSeqno)) known.set(a, { ...f, ...known.get(a) });
  }
  return known;
}

/** The latest data of the requested accounts up to the block, derived as their role says. */
async function dataOf(store: Store, requests: readonly DataRequest[], mcSeqno: number): Promise<Map<string, NonNullable<ContractFacts["dataBoc"]>>> {
  const out = new Map<string, NonNullable<ContractFacts["dataBoc"]>>();
  const byAccount = new Map(requests.map((r) => [r.account, r]));
  const accounts = [...byAccount.keys()];
  for (let i = 0; i < accounts.length; i += CHUNK) {
    for (const r of await select<{ account: string; latest_data: string }>(store, LATEST_DATA, { addresses: accounts.slice(i, i + CHUNK), mc: mcSeqno })) {
      out.set(r.account, deriveDataFacts(byAccount.get(r.account)!, r.latest_data));
    }
  }
  return out;
}
