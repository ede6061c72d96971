// ActionRow → the Action object of API v3 (/api/v3/actions, traces' actions, events): toncenter's
// ton-index-go ParseRawAction. Logical times and amounts are decimal strings, opcodes "0x%08x",
// addresses raw upper-case; `details` per type (render-fields.ts) with the computed parts here:
// extra currencies, comments read from NFT payloads, marketplace names, staking provider names,
// nested swap/liquidity/LayerZero objects.
import { Cell } from "@ton/core";
import type { ActionRow } from "./action.js";
import { commentText, loadSnakeBytes, normalizeAddress } from "./engine/cells.js";
import { DETAIL_FIELDS, type DetailField } from "./render-fields.js";

export type ApiValue = null | boolean | number | string | ApiValue[] | { [k: string]: ApiValue };
export type ApiObject = { [k: string]: ApiValue };

export interface ApiAction {
  trace_id: string;
  action_id: string;
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  transactions: string[];
  success: boolean;
  type: string;
  details: ApiObject;
  trace_external_hash?: string;
  trace_external_hash_norm?: string;
  accounts?: string[];
  finality: "pending" | "confirmed" | "finalized";
}

export interface RenderOptions {
  /** marketplace (or collection) address → the name `details.marketplace` shows */
  marketplaceNames?: ReadonlyMap<string, string>;
  /** false: leave `accounts` out (toncenter omits it unless include_accounts) */
  includeAccounts?: boolean;
  finality?: ApiAction["finality"];
}

/** The marketplaces toncenter names (its marketplace_names table), by raw address. */
export const MARKETPLACE_NAMES: ReadonlyMap<string, string> = new Map([
  [normalizeAddress("EQBYTuYbLf8INxFtD8tQeNk5ZLy-nAX9ahQbG_yl1qQ-GEMS"), "getgems"],
  // Telegram usernames and anonymous numbers: sold on Fragment (looked up by collection)
  [normalizeAddress("EQCA14o1-VWhS2efqoh_9M1b_A9DtKTuoqfmkn83AbJzwnPi"), "fragment"],
  [normalizeAddress("EQAOQdwdw8kGftJCSFgOErM1mBjYPe4DBPq8-AhF6vr9si5N"), "fragment"],
]);

const STAKING_PROVIDER_ALIASES: Record<string, string> = { tonstakers: "liquid_staking" };

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A row path like "jetton_transfer_data.query_id" or "extra.pubkey". */
function at(row: ActionRow, path: string): unknown {
  let cur: unknown = row;
  for (const seg of path.split(".")) {
    if (!isRecord(cur)) return null;
    cur = cur[seg];
  }
  return cur === undefined ? null : cur;
}

function decimal(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v).toString() : String(v);
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  return null;
}

function value(kind: DetailField[1], v: unknown): ApiValue {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case "a":
      return typeof v === "string" ? v : null;
    case "s":
      return decimal(v);
    case "b":
      return typeof v === "boolean" ? v : null;
    case "n":
      return typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : null;
    case "o":
      return typeof v === "number" || typeof v === "bigint" ? opcodeHex(v) : typeof v === "string" ? v : null;
    default:
      return toApiValue(v);
  }
}

/** The staking providers whose withdrawal request burns the amount (tonstakers, as stored before and after toncenter renamed it). */
export const LIQUID_STAKING_PROVIDERS: readonly string[] = ["tonstakers", "liquid_staking"];

export function opcodeHex(op: number | bigint): string {
  const n = Number(BigInt.asUintN(32, BigInt(op)));
  return "0x" + n.toString(16).padStart(8, "0");
}

/** Any row value as JSON: bigints as decimal strings. */
function toApiValue(v: unknown): ApiValue {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") return v;
  if (Array.isArray(v)) return v.map(toApiValue);
  if (isRecord(v)) {
    const o: ApiObject = {};
    for (const [k, x] of Object.entries(v)) o[k] = toApiValue(x);
    return o;
  }
  return null;
}

function marketplaceName(names: ReadonlyMap<string, string>, marketplace: unknown, collection: unknown): string | null {
  if (typeof marketplace === "string") return names.get(marketplace) ?? null;
  if (typeof collection === "string") return names.get(collection) ?? null;
  return null;
}

/** A comment in a forward payload BoC (TEP-74/62 text or encrypted comment). */
export function commentFromPayload(boc: string): { comment: string; encrypted: boolean } | null {
  let s;
  try {
    s = Cell.fromBase64(boc).beginParse();
  } catch {
    return null;
  }
  if (s.remainingBits < 32) return null;
  const op = s.loadUint(32) >>> 0;
  try {
    if (op === 0x2167da4b) return { comment: loadSnakeBytes(s).toString("base64"), encrypted: true };
    if (op === 0) return { comment: commentText(loadSnakeBytes(s)), encrypted: false };
  } catch {
    return null;
  }
  return null;
}

function swapTransfer(v: unknown): ApiObject {
  const t = isRecord(v) ? v : {};
  return {
    asset: value("a", t.asset),
    source: value("a", t.source),
    destination: value("a", t.destination),
    source_jetton_wallet: value("a", t.source_jetton_wallet),
    destination_jetton_wallet: value("a", t.destination_jetton_wallet),
    amount: value("s", t.amount),
  };
}

const EVAA_TON_ASSET_ID = "0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8a";

/** EVAA's asset ids (sha256 of the asset's name) → jetton masters, mainnet. */
const EVAA_ASSETS: ReadonlyMap<string, string> = new Map([
  ["0xb387968236197958ca4ac55e9b5be38e688c7631af84c86756431f49a878ef33", "0:729C13B6DF2C07CBF0A06AB63D34AF454F3D320EC1BCD8FB5C6D24D0806A17C2"],
  ["0x83d916c68510802104d1f75aa6ce30eb1e477aede0d380eee2188e0e56581fc6", "0:7E30FC2B7751BA58A3642F3FD59D5E96A810DDD78D8A310BFE8353BEF10500DF"],
  ["0x495668e908644f30322b997de8faaafc21f05aa52f8982f042dac1fe0b4d09d0", "0:CD872FA7C5816052ACDF5332260443FAEC9AACC8C21CCA4D92E7F47034D11892"],
  ["0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7", "0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000"],
  ["0xca9006bd3fb03d355daeeff93b24be90afaa6e3ca0073ff5720f8a852c933278", "0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE"],
  ["0xe025e6a575f174da6d62577c1fe204ccaa5d1e47c55c6b20c67daee56c357b60", "0:3E5FFCA8DDFCF36C36C9FF46F31562AAB51B9914845AD6C26CBDE649D58A5588"],
  ["0x9c77a4d798a8f500dcfb877a07227c4ca9d6782504cdc7ce2ad0051e5641c032", "0:8D636010DD90D8C0902AC7F9F397D8BD5E177F131EE2CCA24CE894F15D19CEEA"],
  ["0x6bfa124cc1343d14ba57ded299f6f514f5f26777099e3c378922ce4081ecbf91", "0:AEA78C710AE94270DC263A870CF47B4360F53CC5ED38E3DB502E9E9AFB904B11"],
  ["0xe08b1f092e7240fb61bf8249d71aa635102acdd50122138105c35dd2896b5331", "0:FE72F474373E97032441BDB873F9A6D3AD10BAB08E6DBC7BEFA5E42B695F5400"],
  ["0x70930360b81e5f4ef2e06d2bf64978b44d4b87fb85d78788e001cdf8812d13d1", "0:AFC49CB8786F21C87045B19EDE78FC6B46C51048513F8E9A6D44060199C1BF0C"],
  ["0x8be3365cabaa6a0f90d2e64f03fa78268c135fe0b0758b576b447e9b2068d75d", "0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC"],
  ["0xb372eaca5210612d285f3fdd30e87a0c3a443f1bb7578e16da72563241997ca1", "0:1F1798F724C2296652E6002BFB51BED11FB5A689532E5788AF7203581EF367A8"],
  ["0xb8a51f42ccbb912d973e58a22dda26decc7dfc83718c325c24432045ad78dc5a", "0:E8CB571401B1AADB9DEFC1FA0F72A4A5A0E0D5016903067891D763C91541E72B"],
  ["0xc585bac25948a5feea8f2a9e052eb45995882b15dfb784b37cd271cc163f3aea", "0:5EE20B5240CC4CE51A4C60BAF8C9D358EF617C26463E89C6571B534972C8EEF1"],
  ["0xd9496f9b279a4e26c49eb65d5c47c79b6dfdea16c9baefa9158a7dfbbbcac04a", "0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC"],
  ["0x4a4bae807cc87355de2ead44b21a739d9d35e9bba9a217f5cc9c0108197ad137", "0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D"],
]);

function details(row: ActionRow, names: ReadonlyMap<string, string>): { type: string; details: ApiObject } {
  let type = row.type;
  const fields = DETAIL_FIELDS[type];
  if (!fields) return { type, details: { error: `unsupported action type: '${type}'` } };
  const d: ApiObject = {};
  for (const [key, kind, omit, path] of fields) {
    if (key === "*") {
      const data = path ? at(row, path) : null;
      if (isRecord(data)) for (const [k, x] of Object.entries(data)) if (!(k in d) && !fields.some((f) => f[3] === `${path}.${k}`)) d[k] = toApiValue(x);
      continue;
    }
    const v = path === null ? null : value(kind, at(row, path));
    if (v === null && omit) continue;
    d[key] = v;
  }
  const provider = () => {
    const p = at(row, "staking_data.provider");
    return typeof p === "string" ? (STAKING_PROVIDER_ALIASES[p] ?? p) : null;
  };
  const extra = row.value_extra_currencies ?? {};
  switch (type) {
    case "call_contract":
    case "ton_transfer":
      d[type === "call_contract" ? "extra_currencies" : "value_extra_currencies"] = toApiValue(extra);
      if (Object.keys(extra).length > 0) type = "extra_currency_transfer";
      break;
    case "change_dns": {
      const schema = at(row, "change_dns_record_data.value_schema");
      const rec = at(row, "change_dns_record_data.value");
      const flags = at(row, "change_dns_record_data.flags");
      const val: ApiObject = {
        sum_type: value("s", schema),
        dns_smc_address: null,
        dns_adnl_address: null,
        dns_text: null,
        dns_next_resolver_address: null,
        dns_storage_address: null,
        flags: value("n", flags),
      };
      const r = value("s", rec);
      if (schema === "DNSNextResolver") val.dns_next_resolver_address = r;
      else if (schema === "DNSAdnlAddress") val.dns_adnl_address = r;
      else if (schema === "DNSSmcAddress") val.dns_smc_address = r;
      // toncenter publishes a text record in dns_storage_address too
      else if (schema === "DNSStorageAddress" || schema === "DNSText") val.dns_storage_address = r;
      d.value = val;
      break;
    }
    case "dex_deposit_liquidity": {
      const dex = at(row, "dex_deposit_liquidity_data.dex");
      d.destination_liquidity = value("a", dex === "dedust" || dex === "dedust_v2" ? row.destination_secondary : row.destination);
      const ex = at(row, "dex_deposit_liquidity_data.vault_excesses");
      d.vault_excesses = Array.isArray(ex) ? ex.map((e) => ({ asset: value("a", isRecord(e) ? e.asset : null), amount: value("s", isRecord(e) ? e.amount : null) })) : [];
      break;
    }
    case "dex_withdraw_liquidity":
      d.is_refund = value("b", at(row, "dex_withdraw_liquidity_data.is_refund"));
      break;
    case "jetton_swap": {
      d.dex_incoming_transfer = swapTransfer(at(row, "jetton_swap_data.dex_incoming_transfer"));
      d.dex_outgoing_transfer = swapTransfer(at(row, "jetton_swap_data.dex_outgoing_transfer"));
      const peers = at(row, "jetton_swap_data.peer_swaps");
      d.peer_swaps = Array.isArray(peers)
        ? peers.map((p) => {
            const q = isRecord(p) ? p : {};
            return { asset_in: value("a", q.asset_in), amount_in: value("s", q.amount_in), asset_out: value("a", q.asset_out), amount_out: value("s", q.amount_out) };
          })
        : [];
      const dex = at(row, "jetton_swap_data.dex");
      if (dex === "tonco" || dex === "dedust_v2") d.min_out_amount = value("s", at(row, "jetton_swap_data.min_out_amount"));
      break;
    }
    case "nft_transfer":
    case "nft_purchase": {
      const purchase = at(row, "nft_transfer_data.is_purchase") === true || type === "nft_purchase";
      if (purchase) d.marketplace = marketplaceName(names, at(row, "nft_transfer_data.marketplace_address"), row.asset);
      const payload = at(row, "nft_transfer_data.forward_payload");
      if (typeof payload === "string") {
        const c = commentFromPayload(payload);
        if (c) {
          d.comment = c.comment;
          d.is_encrypted_comment = c.encrypted;
        }
      }
      if (type === "nft_purchase") {
        d.payout_address = d.real_old_owner ?? null;
        d.royalty_address = null;
      }
      break;
    }
    case "nft_put_on_sale":
    case "nft_cancel_sale":
    case "nft_cancel_auction":
    case "teleitem_cancel_auction":
    case "nft_finish_auction":
    case "nft_update_sale":
      d.marketplace = marketplaceName(names, at(row, "nft_transfer_data.marketplace_address"), row.asset);
      break;
    case "auction_outbid": {
      const m = marketplaceName(names, at(row, "nft_transfer_data.marketplace_address"), row.asset);
      if (m !== null) d.marketplace = m;
      break;
    }
    case "nft_put_on_auction":
    case "teleitem_start_auction":
      d.marketplace = marketplaceName(names, row.destination_secondary, row.asset);
      break;
    case "stake_deposit":
      d.provider = provider();
      if (d.provider !== "ethena") delete d.source_asset;
      break;
    case "stake_withdrawal":
      d.provider = provider();
      break;
    case "stake_withdrawal_request": {
      d.provider = provider();
      // the burnt amount is liquid staking's (tonstakers), the minted one ethena's. toncenter's API
      // aliases tonstakers to liquid_staking before it tests for tonstakers, so it never shows
      // tokens_burnt; tongate shows it (README, API v3)
      const raw = at(row, "staking_data.provider");
      d.tokens_burnt = LIQUID_STAKING_PROVIDERS.includes(String(raw)) ? value("s", row.amount) : null;
      delete d.tokens_minted;
      if (raw === "ethena") {
        const minted = value("s", at(row, "staking_data.tokens_minted"));
        if (minted !== null) d.tokens_minted = minted;
      }
      break;
    }
    case "evaa_liquidate": {
      const id = at(row, "evaa_liquidate_data.asset_id");
      d.asset = null;
      d.is_known_asset = false;
      if (typeof id === "string") {
        const master = EVAA_ASSETS.get(id);
        if (id === EVAA_TON_ASSET_ID) d.is_known_asset = true;
        else if (master !== undefined) {
          d.asset = master;
          d.is_known_asset = true;
        }
      }
      break;
    }
    case "jvault_claim": {
      const jettons = at(row, "jvault_claim_data.claimed_jettons");
      const amounts = at(row, "jvault_claim_data.claimed_amounts");
      d.claimed_rewards =
        Array.isArray(jettons) && Array.isArray(amounts) && jettons.length === amounts.length ? jettons.map((j, i) => ({ jetton: value("a", j), amount: value("s", amounts[i]) })) : [];
      break;
    }
    case "layerzero_send":
    case "layerzero_send_tokens":
    case "layerzero_receive":
    case "layerzero_commit_packet": {
      if (type === "layerzero_send" || type === "layerzero_send_tokens") {
        const s = (k: string) => at(row, `layerzero_send_data.${k}`);
        d.layerzero_send_data = {
          send_request_id: value("n", s("send_request_id")),
          msglib_manager: value("s", s("msglib_manager")),
          msglib: value("s", s("msglib")),
          uln: value("a", s("uln")),
          native_fee: value("n", s("native_fee")),
          zro_fee: value("n", s("zro_fee")),
          endpoint: value("a", s("endpoint")),
          channel: value("a", s("channel")),
        };
      }
      const p = (k: string) => at(row, `layerzero_packet_data.${k}`);
      d.layerzero_packet_data = {
        src_oapp: value("s", p("src_oapp")),
        dst_oapp: value("s", p("dst_oapp")),
        src_eid: value("n", p("src_eid")),
        dst_eid: value("n", p("dst_eid")),
        nonce: value("n", p("nonce")),
        guid: value("s", p("guid")),
        message: value("s", p("message")),
      };
      break;
    }
  }
  return { type, details: d };
}

/** One action as API v3 shows it. */
export function renderAction(row: ActionRow, options: RenderOptions = {}): ApiAction {
  const { type, details: d } = details(row, options.marketplaceNames ?? MARKETPLACE_NAMES);
  const out: Omit<ApiAction, "finality"> = {
    trace_id: row.trace_id,
    action_id: row.action_id,
    start_lt: row.start_lt.toString(),
    end_lt: row.end_lt.toString(),
    start_utime: row.start_utime,
    end_utime: row.end_utime,
    trace_end_lt: row.trace_end_lt.toString(),
    trace_end_utime: row.trace_end_utime,
    trace_mc_seqno_end: row.trace_mc_seqno_end,
    transactions: [...row.tx_hashes],
    success: row.success,
    type,
    details: d,
  };
  if (row.trace_external_hash) out.trace_external_hash = row.trace_external_hash;
  if (row.trace_external_hash_norm) out.trace_external_hash_norm = row.trace_external_hash_norm;
  if (options.includeAccounts !== false && row.accounts.length > 0) out.accounts = [...row.accounts];
  // toncenter's key order: finality last
  return { ...out, finality: options.finality ?? "finalized" };
}
