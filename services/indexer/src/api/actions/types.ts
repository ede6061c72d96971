// TEMPORARY until @tongate/actions has its rendering and type versions (act-core): the two things the
// API needs from it, in one place.
import type { JsonObject } from "@bufbuild/protobuf";
import type { KeyActionRow } from "@tongate/store";

const V1 = ["call_contract", "contract_deploy", "ton_transfer", "stake_deposit", "stake_withdrawal", "stake_withdrawal_request", "dex_deposit_liquidity", "jetton_transfer", "nft_transfer", "nft_mint", "jetton_burn", "jetton_mint", "jetton_swap", "change_dns", "delete_dns", "renew_dns", "subscribe", "dex_withdraw_liquidity", "unsubscribe", "election_deposit", "election_recover", "auction_bid", "tick_tock"];
const LATEST = [...V1, "multisig_create_order", "multisig_approve", "multisig_execute", "vesting_send_message", "vesting_add_whitelist", "unknown", "nft_put_on_sale", "nft_purchase", "dns_purchase", "dns_release"];

/** The supported types (default latest), shortcuts expanded. */
export function supportedTypes(given: readonly string[]): Set<string> {
  const out = new Set(V1);
  for (const g of given.length ? given : ["latest"]) for (const t of g === "latest" || g === "v4" || g === "v3" ? LATEST : g === "v1" ? V1 : [g]) out.add(t);
  return out;
}

/** The public type and the details of a stored action. */
export function typeAndDetails(r: KeyActionRow): { type: string; details: JsonObject } {
  const row = JSON.parse(r.row) as Record<string, unknown>;
  return { type: r.type, details: { source: (row.source as string | null) ?? null, destination: (row.destination as string | null) ?? null, value: row.value === null || row.value === undefined ? null : String(row.value) } };
}
