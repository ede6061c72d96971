// The Jettons requests the decoder's key-index tables answer (@tongate/store's decoded-keys): the
// wallets of one owner (or of one jetton, by address), the transfers of one owner or of one jetton —
// one range scan, no query. Each function returns undefined when the request has a filter only
// ClickHouse applies, or while the tables are not usable (being rebuilt, no decoder keeping them);
// the caller then queries ClickHouse (./queries.ts). Both answer the same: the tables show the
// decoder's state at a checkpointed block, with the ClickHouse path's rules (confirmed wallets only,
// transfers of confirmed wallets, not aborted) and orders (tests/e2e/decoded-key-readers.test.ts).
import { create } from "@bufbuild/protobuf";
import {
  type GetJettonTransfersRequest,
  type GetJettonWalletsRequest,
  type JettonTransfersResponse,
  JettonTransfersResponseSchema,
  type JettonWalletsResponse,
  JettonWalletsResponseSchema,
} from "@tongate/proto/gen/tongate/v3/jettons_pb.js";
import { DESTINATION, type KeyWalletRow, SOURCE, type TransferEntry } from "@tongate/store";
import { usableDecoded, type KeySource } from "../blockchain/key-lookups.js";
import { eventOrder, keyOf, validCursor } from "../decoded.js";
import { isAsc, nextCursor, pageOf } from "../params.js";
import { transferOf, unclaimed, walletOf } from "./models.js";
import { walletOrder } from "./queries.js";
import { transferFilters, walletFilters, type WalletFilters } from "./request.js";

/** Wallets of one owner sorted by balance at most: past it, ClickHouse sorts them. */
const MAX_SORTED = 10_000;

/** Listed as the ClickHouse path lists: confirmed, of the jettons asked, with a balance when zero balances are excluded. */
function listedWallet(f: WalletFilters): (r: KeyWalletRow) => boolean {
  const jettons = f.jettons.length ? new Set(f.jettons) : undefined;
  return (r) =>
    r.verdict === "confirmed" &&
    (!jettons || jettons.has(r.jetton)) &&
    // an unclaimed mintless airdrop counts as a balance (toncenter: balance + mintless_amount > 0)
    (!f.excludeZeroBalance || BigInt(r.balance) > 0n || (r.mintless_is_claimed === false && BigInt(r.mintless_amount ?? 0) > 0n));
}

/** /jetton/wallets of one owner (any jettons), or of one jetton in address order. */
export function jettonWalletsFromKeys(source: KeySource, req: GetJettonWalletsRequest): JettonWalletsResponse | undefined {
  const keys = usableDecoded(source);
  if (!keys) return undefined;
  const f = walletFilters(req);
  if (f.addresses.length) return undefined;
  const byOwner = f.owners.length === 1;
  if (!byOwner && !(f.owners.length === 0 && f.jettons.length === 1 && req.sort === undefined)) return undefined;
  const order = walletOrder(req.sort);
  const page = pageOf("jetton/wallets", order.asc, req, order.kinds.map(() => "string"));
  if (page.after && !validCursor(page.after, order.kinds)) return undefined;
  const listed = listedWallet(f);
  const of = (after?: string) => keys.walletsBy(byOwner ? "owner" : "jetton", byOwner ? f.owners[0]! : f.jettons[0]!, after);
  let rows: KeyWalletRow[] = [];
  if (req.sort === undefined) {
    let skip = page.offset;
    for (const r of of(page.after === undefined ? undefined : String(page.after[0]))) {
      if (!listed(r)) continue;
      if (skip > 0) skip--;
      else if (rows.push(r) >= page.limit) break;
    }
  } else {
    for (const r of of()) {
      if (!listed(r)) continue;
      if (rows.push(r) > MAX_SORTED) return undefined;
    }
    const sign = order.asc ? 1 : -1;
    const cmp = (a: { balance: string; address: string }, b: { balance: string; address: string }): number => {
      const x = BigInt(a.balance);
      const y = BigInt(b.balance);
      return sign * (x === y ? (a.address < b.address ? -1 : a.address > b.address ? 1 : 0) : x < y ? -1 : 1);
    };
    rows.sort(cmp);
    if (page.after) {
      const after = { balance: String(page.after[0]), address: String(page.after[1]) };
      rows = rows.filter((r) => cmp(r, after) > 0);
    }
    rows = rows.slice(page.offset, page.offset + page.limit);
  }
  // a mintless airdrop shows its master's custom payload API, which ClickHouse has
  if (rows.some((r) => unclaimed(r) !== null)) return undefined;
  return create(JettonWalletsResponseSchema, {
    jettonWallets: rows.map((r) => walletOf(r, new Map())),
    nextCursor: nextCursor("jetton/wallets", order.asc, page, rows, (r) => keyOf(r, order.columns)),
  });
}

/** (lt, hash as text) order, as ClickHouse orders (UInt64, String); `sign` -1 reverses it. */
const byLtHash = (sign: number) => (a: { lt: bigint; hash: string }, b: { lt: bigint; hash: string }): number =>
  sign * (a.lt === b.lt ? (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0) : a.lt < b.lt ? -1 : 1);

/** /jetton/transfers of one owner (a direction, a jetton, an lt range), or of one jetton (an lt range), in lt order. */
export function jettonTransfersFromKeys(source: KeySource, req: GetJettonTransfersRequest): JettonTransfersResponse | undefined {
  const keys = usableDecoded(source);
  if (!keys) return undefined;
  const f = transferFilters(req);
  // a time range orders by time: ClickHouse
  if (f.wallets.length || f.startUtime !== undefined || f.endUtime !== undefined) return undefined;
  const byOwner = f.owners.length === 1;
  if (!byOwner && !(f.owners.length === 0 && f.master !== undefined)) return undefined;
  const asc = isAsc(req.sort);
  const order = eventOrder(f);
  const page = pageOf("jetton/transfers", asc, req, order.kinds.map(() => "string"));
  if (page.after && !validCursor(page.after, order.kinds)) return undefined;
  const after = page.after && { lt: BigInt(page.after[0]!), hash: String(page.after[1]) };
  let startLt = f.startLt;
  let endLt = f.endLt;
  if (after && asc && (startLt === undefined || after.lt > startLt)) startLt = after.lt;
  if (after && !asc && (endLt === undefined || after.lt < endLt)) endLt = after.lt;
  const sides = !byOwner || f.direction === undefined || f.direction === "both" ? SOURCE | DESTINATION : f.direction === "in" ? DESTINATION : SOURCE;
  const cmp = byLtHash(asc ? 1 : -1);
  const wanted = (e: TransferEntry): boolean =>
    (!byOwner || (e.sides & sides) !== 0) && (f.master === undefined || e.master === f.master) && (!after || cmp(e, after) > 0);
  // each lt's entries read whole: within one lt they are sorted by the hash's text, as ClickHouse does
  const need = page.offset + page.limit;
  const picked: TransferEntry[] = [];
  let lastLt: bigint | undefined;
  for (const e of keys.transferEntries(byOwner ? "owner" : "jetton", byOwner ? f.owners[0]! : f.master!, { reverse: !asc, startLt, endLt })) {
    if (picked.length >= need && e.lt !== lastLt) break;
    lastLt = e.lt;
    if (wanted(e)) picked.push(e);
  }
  const rows = picked
    .sort(cmp)
    .slice(page.offset, need)
    .flatMap((e) => keys.transfer(e.hash) ?? []);
  return create(JettonTransfersResponseSchema, {
    jettonTransfers: rows.map(transferOf),
    nextCursor: nextCursor("jetton/transfers", asc, page, rows, (r) => keyOf(r, order.columns)),
  });
}
