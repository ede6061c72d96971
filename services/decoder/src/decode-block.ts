// One masterchain block decoded: the interfaces and token state of every account whose state the
// block changed, the verdicts of its jetton wallets and NFT items, and the token events of its
// transactions. Pure reading of the store and the chain: the caller writes what this returns.
import { Address, type Cell } from "@ton/core";
import { contentUri, isDedustPoolCode, parseTokenContent, type InterfaceState, type TokenType } from "@tongate/contracts";
import { select, type Store } from "@tongate/store";
import { eventsOf, type TokenEvents } from "./events.js";
import { readBlockInputs, type AccountStateAfter } from "./inputs.js";
import type { ItemContents } from "./item-content.js";
import type { StateReader } from "./read-state.js";
import { cellHashOf, emptyRows, raw, rawOrNull, type DecodedRows, type NftItemRow, type NftSaleRow, type StateVersion, type TokenMetadataRow, type Verdict } from "./rows.js";
import type { Verdicts } from "./verdicts.js";
import type { TransientPolicy } from "./transient.js";

/** TEP-64 content as the JSON text the tables keep: on-chain attributes, or {"uri"} of off-chain content; {} when it does not parse. */
export function contentJson(cell: Cell | null | undefined, what: string): string {
  if (!cell) return "{}";
  try {
    const c = parseTokenContent(cell, what);
    return JSON.stringify(c.type === "offchain" ? { uri: c.data } : c.data);
  } catch {
    return "{}";
  }
}

/** The row a token's metadata is made from (its content JSON text, and the URI the worker fetches). */
export function tokenMetadataRow(address: string, type: TokenType, content: string, v: StateVersion, nftIndex: string | null = null): TokenMetadataRow {
  let uri = "";
  try {
    uri = contentUri(JSON.parse(content) as Record<string, unknown>) ?? "";
  } catch {
    // content the tables keep is JSON: nothing to fetch otherwise
  }
  return { address, type, nft_index: nftIndex, content, uri, last_transaction_lt: v.last_transaction_lt, mc_seqno: v.mc_seqno };
}

const version = (s: AccountStateAfter, mcSeqno: number): StateVersion => ({
  code_hash: s.codeHash ?? "",
  data_hash: s.dataHash ?? "",
  last_transaction_lt: s.lastLt.toString(),
  last_transaction_now: s.lastNow,
  mc_seqno: mcSeqno,
});


/** The /nft/sales row of a getgems sale or auction state; undefined for other states. */
export function saleRow(address: string, state: InterfaceState, v: StateVersion): NftSaleRow | undefined {
  const base = {
    ...v,
    address,
    nft_owner_address: null,
    marketplace_address: null,
    created_at: null,
    is_complete: null,
    full_price: null,
    marketplace_fee_address: null,
    marketplace_fee: null,
    royalty_address: null,
    royalty_amount: null,
    end_flag: null,
    last_bid: null,
    last_member: null,
    min_step: null,
    mp_fee_address: null,
    mp_fee_factor: null,
    mp_fee_base: null,
    royalty_fee_address: null,
    royalty_fee_factor: null,
    royalty_fee_base: null,
    last_bid_at: null,
    is_canceled: null,
    min_bid: null,
    max_bid: null,
    end_time: null,
    token_name: null,
    bidder_address: null,
    bid: null,
    bid_ts: null,
    beneficiary_address: null,
    initial_min_bid: null,
    min_bid_step: null,
    min_extend_time: null,
    duration: null,
    royalty_numerator: null,
    royalty_denominator: null,
    royalty_destination: null,
  };
  switch (state.kind) {
    case "nft_item": {
      // a telemint item is its own auction: a row while it has a name (initialised)
      const tm = state.telemint;
      if (!tm?.tokenName) return undefined;
      const a = tm.auctionState;
      const c = tm.auctionConfig;
      return {
        ...base,
        type: "telemint",
        nft_address: address,
        nft_owner_address: rawOrNull(state.nftData.owner),
        token_name: tm.tokenName.toString("utf8"),
        bidder_address: rawOrNull(a?.bidder),
        bid: a ? a.bid.toString() : null,
        bid_ts: a?.bidTs ?? null,
        min_bid: a ? a.minBid.toString() : null,
        end_time: a?.endTime ?? null,
        beneficiary_address: rawOrNull(c?.beneficiary),
        initial_min_bid: c ? c.initialMinBid.toString() : null,
        max_bid: c ? c.maxBid.toString() : null,
        min_bid_step: c?.minBidStep ?? null,
        min_extend_time: c?.minExtendTime ?? null,
        duration: c?.duration ?? null,
        royalty_numerator: tm.royaltyParams?.numerator ?? null,
        royalty_denominator: tm.royaltyParams?.denominator ?? null,
        royalty_destination: rawOrNull(tm.royaltyParams?.destination),
      };
    }
    case "nft_sale_v1":
    case "nft_sale": {
      const d = state.saleData;
      if (!d) return undefined;
      return {
        ...base,
        type: "getgems_sale",
        nft_address: d.nft ? raw(d.nft) : "",
        nft_owner_address: rawOrNull(d.nftOwner),
        marketplace_address: rawOrNull(d.marketplace),
        created_at: "createdAt" in d ? d.createdAt : null,
        is_complete: "isComplete" in d ? d.isComplete : null,
        full_price: d.fullPrice.toString(),
        marketplace_fee_address: rawOrNull(d.marketplaceFeeAddress),
        marketplace_fee: d.marketplaceFee.toString(),
        royalty_address: rawOrNull(d.royaltyAddress),
        royalty_amount: d.royaltyAmount.toString(),
      };
    }
    case "nft_sale_v4": {
      const d = state.fixPriceDataV4;
      return {
        ...base,
        type: "getgems_sale",
        nft_address: d.nft ? raw(d.nft) : "",
        nft_owner_address: rawOrNull(d.nftOwner),
        marketplace_address: rawOrNull(d.marketplace),
        created_at: d.createdAt,
        is_complete: d.isComplete,
        full_price: d.fullPrice.toString(),
        marketplace_fee_address: rawOrNull(d.marketplaceFeeAddress),
        royalty_address: rawOrNull(d.royaltyAddress),
      };
    }
    case "nft_auction":
    case "nft_auction_v4": {
      const d = state.kind === "nft_auction" ? state.saleData : state.auctionDataV4;
      if (!d) return undefined;
      return {
        ...base,
        type: "getgems_auction",
        nft_address: d.nft ? raw(d.nft) : "",
        nft_owner_address: rawOrNull(d.nftOwner),
        marketplace_address: rawOrNull(d.marketplace),
        created_at: d.createdAt,
        end_flag: d.end,
        last_bid: d.lastBid.toString(),
        last_member: rawOrNull(d.lastMember),
        min_step: d.minStep.toString(),
        mp_fee_address: rawOrNull(d.marketplaceFeeAddress),
        mp_fee_factor: d.marketplaceFeeFactor,
        mp_fee_base: d.marketplaceFeeBase,
        royalty_fee_address: rawOrNull(d.royaltyAddress),
        royalty_fee_factor: d.royaltyFactor,
        royalty_fee_base: d.royaltyBase,
        last_bid_at: d.lastBidAt,
        is_canceled: d.isCanceled,
        min_bid: d.minBid.toString(),
        max_bid: d.maxBid.toString(),
        end_time: d.endTime,
      };
    }
    default:
      return undefined;
  }
}

/** Whether a sale still holds its NFT (not sold, ended or cancelled). */
const saleOpen = (s: Pick<NftSaleRow, "type" | "is_complete" | "end_flag" | "is_canceled">): boolean =>
  s.type === "getgems_sale" ? s.is_complete !== true : s.end_flag !== true && s.is_canceled !== true;

export interface DecodedBlock {
  rows: DecodedRows;
  /** accounts whose state could not be read, and why */
  failures: { account: string; reason: string }[];
}

/** Decodes masterchain block `mcSeqno`; a transient failure (transient.ts) is thrown under the "retry" policy. */
export async function decodeBlock(store: Store, reader: StateReader, verdicts: Verdicts, mcSeqno: number, policy: TransientPolicy = "record", contents?: ItemContents): Promise<DecodedBlock> {
  const inputs = await readBlockInputs(store, mcSeqno);
  const rows = emptyRows();
  const failures: DecodedBlock["failures"] = [];
  const decoded = new Map<string, { state?: InterfaceState; verdict: Verdict }>();
  const sales = new Map<string, NftSaleRow>();
  const items: NftItemRow[] = [];
  /** the items' content to join with their collections' (ItemContents), by address */
  const itemContent = new Map<string, { input: Parameters<ItemContents["of"]>[0]; v: StateVersion }>();

  // the accounts' states and verdicts read several at a time (the emulator's processes and ClickHouse
  // work meanwhile), the rows made in the block's order
  const read = await mapInFlight([...inputs.states.values()], ACCOUNTS_IN_FLIGHT, async (s) => {
    const d = await reader.read(s, policy);
    // a DeDust pool's code: its assets, if the factory vouches for it (toncenter's dex_pools)
    const pool = s.code && s.status === "active" && isDedustPoolCode(s.code) ? await verdicts.dedustPool(s, mcSeqno, policy) : undefined;
    return { s, d, verdict: await verdictOf(verdicts, d.state, s, mcSeqno, policy), pool };
  });
  for (const { s, d, verdict, pool } of read) {
    if (pool?.verdict === "confirmed") {
      rows.dedust_pools.push({ address: s.account, asset_1: pool.asset1, asset_2: pool.asset2, is_stable: pool.isStable, last_transaction_lt: s.lastLt.toString(), mc_seqno: mcSeqno });
    }
    rows.account_interfaces.push({ address: s.account, interfaces: d.interfaces, code_hash: s.codeHash ?? "", last_transaction_lt: s.lastLt.toString(), mc_seqno: mcSeqno });
    if (d.failure) failures.push({ account: s.account, reason: d.failure });
    const state = d.state;
    const v = version(s, mcSeqno);
    if (state?.kind === "jetton_master") {
      const j = state.jettonData;
      if (j) {
        const content = contentJson(j.content, "jetton_content");
        rows.token_metadata.push(tokenMetadataRow(s.account, "jetton_masters", content, v));
        rows.jetton_masters.push({
          ...v,
          address: s.account,
          total_supply: j.totalSupply.toString(),
          mintable: j.mintable,
          admin_address: rawOrNull(j.admin),
          jetton_content: content,
          jetton_wallet_code_hash: cellHashOf(j.walletCode),
          custom_payload_api_uri: [],
        });
      }
    } else if (state?.kind === "jetton_wallet") {
      const w = state.walletData;
      rows.jetton_wallets.push({
        ...v,
        jetton: w.jetton ? raw(w.jetton) : "",
        owner: w.owner ? raw(w.owner) : "",
        address: s.account,
        balance: w.balance.toString(),
        verdict,
        mintless_is_claimed: state.isClaimed ?? null,
        mintless_amount: null,
        mintless_start_from: null,
        mintless_expire_at: null,
      });
    } else if (state?.kind === "nft_collection") {
      const c = state.collectionData;
      const content = contentJson(c.content, "collection_content");
      rows.token_metadata.push(tokenMetadataRow(s.account, "nft_collections", content, v));
      rows.nft_collections.push({ ...v, address: s.account, next_item_index: c.nextItemIndex.toString(), owner_address: rawOrNull(c.owner), collection_content: content });
    } else if (state?.kind === "nft_item") {
      const n = state.nftData;
      const owner = n.owner ? raw(n.owner) : "";
      items.push({
        ...v,
        collection_address: n.collection ? raw(n.collection) : "",
        nft_index: n.index.toString(),
        address: s.account,
        init: n.init,
        owner_address: owner,
        content: contentJson(n.individualContent, "content"),
        verdict,
        on_sale: false,
        sale_contract_address: null,
        auction_contract_address: null,
        real_owner: owner,
      });
      itemContent.set(s.account, { input: { collection: n.collection, index: n.index, individual: n.individualContent, now: s.lastNow }, v });
      const telemint = saleRow(s.account, state, v);
      if (telemint) sales.set(s.account, telemint);
    } else if (state) {
      const sale = saleRow(s.account, state, v);
      if (sale) sales.set(s.account, sale);
    }
    decoded.set(s.account, { state, verdict });
  }

  // an item held by an open getgems sale or auction: on sale, and owned by whoever listed it
  const owners = [...new Set(items.map((i) => i.owner_address).filter((o) => o && !sales.has(o)))];
  const earlier = owners.length ? await latestSales(store, owners, mcSeqno) : new Map<string, NftSaleRow>();
  for (const item of items) {
    const sale = sales.get(item.owner_address) ?? earlier.get(item.owner_address);
    if (sale && sale.nft_address === item.address && saleOpen(sale) && sale.nft_owner_address) {
      item.on_sale = true;
      if (sale.type === "getgems_auction") item.auction_contract_address = sale.address;
      else item.sale_contract_address = sale.address;
      item.real_owner = sale.nft_owner_address;
    }
  }
  rows.nft_items.push(...items);
  // an item's metadata is of its full content: its collection's common content joined
  const full = await mapInFlight([...itemContent], ACCOUNTS_IN_FLIGHT, async ([address, { input, v }]) => {
    const cell = contents ? await contents.of(input, mcSeqno, inputs.states, policy) : input.individual;
    return tokenMetadataRow(address, "nft_items", contentJson(cell, "content"), v, input.index.toString());
  });
  rows.token_metadata.push(...full);
  rows.nft_sales.push(...sales.values());

  const events: TokenEvents = { jettonTransfers: rows.jetton_transfers, jettonBurns: rows.jetton_burns, nftTransfers: rows.nft_transfers };
  for (const t of inputs.transactions) {
    const d = decoded.get(t.account);
    eventsOf(t, d?.state, d?.verdict ?? "pending", mcSeqno, events);
  }
  return { rows, failures };
}

/** The latest sale rows of these addresses decoded at or before `mcSeqno`. */
async function latestSales(store: Store, addresses: string[], mcSeqno: number): Promise<Map<string, NftSaleRow>> {
  const rows = await select<NftSaleRow>(
    store,
    `SELECT * FROM nft_sales WHERE address IN {addresses:Array(String)} AND mc_seqno <= {mc:UInt32}
      ORDER BY last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY address`,
    { addresses, mc: mcSeqno },
  );
  return new Map(rows.map((r) => [r.address, { ...r, is_complete: r.is_complete === null ? null : Boolean(r.is_complete), end_flag: r.end_flag === null ? null : Boolean(r.end_flag), is_canceled: r.is_canceled === null ? null : Boolean(r.is_canceled) }]));
}

const addressOf = (rawAddress: string): Address => Address.parseRaw(rawAddress);

/** Accounts of a block whose state and verdict are read at once. */
const ACCOUNTS_IN_FLIGHT = 8;

/** A jetton wallet's or an NFT item's verdict, as its master or collection gives it; other states are their own. */
function verdictOf(verdicts: Verdicts, state: InterfaceState | undefined, s: AccountStateAfter, mcSeqno: number, policy: TransientPolicy): Promise<Verdict> {
  if (state?.kind === "jetton_wallet") {
    const w = state.walletData;
    return w.jetton && w.owner ? verdicts.jettonWallet(w.jetton, w.owner, addressOf(s.account), mcSeqno, s.lastNow, policy) : Promise.resolve("denied");
  }
  if (state?.kind === "nft_item") {
    const n = state.nftData;
    // an item without a collection is its own
    return n.collection ? verdicts.nftItem(n.collection, n.index, addressOf(s.account), mcSeqno, s.lastNow, policy) : Promise.resolve("confirmed");
  }
  return Promise.resolve("confirmed");
}

/** `f` over `items`, at most `limit` at a time; the results in the items' order. */
async function mapInFlight<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
