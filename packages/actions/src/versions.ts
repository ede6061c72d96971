// supported_action_types (and X-Actions-Version): toncenter's versions and named shortcuts of the
// action types a client understands (ton-index-go models/action_versioning.go), and the rule that
// shows an action only when the client supports its type and none of the types it is inside of
// (so a client that knows tonstakers deposits does not also see the jetton mint inside one).

export const ACTION_TYPE_SHORTCUTS: Readonly<Record<string, readonly string[]>> = {
  v1: [
    "call_contract", "contract_deploy", "ton_transfer", "stake_deposit", "stake_withdrawal", "stake_withdrawal_request",
    "dex_deposit_liquidity", "jetton_transfer", "nft_transfer", "nft_mint", "jetton_burn", "jetton_mint", "jetton_swap",
    "change_dns", "delete_dns", "renew_dns", "subscribe", "dex_withdraw_liquidity", "unsubscribe", "election_deposit",
    "election_recover", "auction_bid", "tick_tock",
  ],
  v2: [
    "v1",
    "multisig_create_order", "multisig_approve", "multisig_execute", "vesting_send_message", "vesting_add_whitelist",
    "evaa_supply", "evaa_withdraw", "evaa_liquidate", "jvault_stake", "jvault_unstake", "jvault_claim",
    "jvault_unstake_request", "nft_discovery", "tonco_deploy_pool", "coffee_create_vault", "coffee_create_pool_creator",
    "coffee_create_pool", "coffee_mev_protect_hold_funds", "coffee_mev_protect_failed_swap", "coffee_staking_claim_rewards",
    "coffee_staking_deposit", "coffee_staking_withdraw", "unknown",
  ],
  v3: [
    "v2",
    "nft_put_on_sale", "nft_put_on_auction", "auction_outbid", "nft_cancel_sale", "nft_purchase", "nft_cancel_auction",
    "nft_finish_auction", "teleitem_start_auction", "teleitem_cancel_auction", "nft_update_sale", "dns_purchase",
    "dns_release", "layerzero_send", "layerzero_send_tokens", "layerzero_receive", "layerzero_commit_packet",
    "layerzero_dvn_verify",
  ],
  v4: [
    "v3",
    "cocoon_worker_payout", "cocoon_proxy_payout", "cocoon_proxy_charge", "cocoon_client_top_up", "cocoon_register_proxy",
    "cocoon_unregister_proxy", "cocoon_client_register", "cocoon_client_change_secret_hash", "cocoon_client_request_refund",
    "cocoon_grant_refund", "cocoon_client_increase_stake", "cocoon_client_withdraw",
  ],
  latest: ["v4"],
  staking: ["stake_deposit", "stake_withdrawal", "stake_withdrawal_request"],
  jettons: ["jetton_transfer", "jetton_burn", "jetton_mint"],
  nft: ["nft_transfer", "nft_mint", "auction_bid"],
  "nft.v3": [
    "nft", "nft_put_on_sale", "nft_put_on_auction", "auction_outbid", "nft_cancel_sale", "nft_purchase", "nft_cancel_auction",
    "nft_finish_auction", "teleitem_start_auction", "teleitem_cancel_auction", "nft_update_sale", "dns_purchase", "dns_release",
  ],
  dns: ["change_dns", "delete_dns", "renew_dns", "dns_purchase", "dns_release"],
  "dns.v2": ["dns", "dns_purchase", "dns_release"],
  multisig: ["multisig_create_order", "multisig_approve", "multisig_execute"],
  vesting: ["vesting_send_message", "vesting_add_whitelist"],
  evaa: ["evaa_supply", "evaa_withdraw", "evaa_liquidate"],
  jvault: ["jvault_stake", "jvault_unstake", "jvault_claim", "jvault_unstake_request"],
  coffee: [
    "coffee_create_vault", "coffee_create_pool_creator", "coffee_create_pool", "coffee_mev_protect_hold_funds",
    "coffee_staking_claim_rewards", "coffee_staking_deposit", "coffee_staking_withdraw",
  ],
  tgbtc: [
    "tgbtc_dkg_log_fallback", "tgbtc_new_key", "tgbtc_new_key_fallback", "tgbtc_burn", "tgbtc_burn_fallback", "tgbtc_mint",
    "tgbtc_mint_fallback",
  ],
  layerzero: ["layerzero_send", "layerzero_send_tokens", "layerzero_receive", "layerzero_commit_packet", "layerzero_dvn_verify"],
  cocoon: [
    "cocoon_worker_payout", "cocoon_proxy_payout", "cocoon_proxy_charge", "cocoon_client_top_up", "cocoon_register_proxy",
    "cocoon_unregister_proxy", "cocoon_client_register", "cocoon_client_change_secret_hash", "cocoon_client_request_refund",
    "cocoon_grant_refund", "cocoon_client_increase_stake", "cocoon_client_withdraw",
  ],
};

/** The versions a client may name (X-Actions-Version and supported_action_types). */
export const ACTION_VERSIONS = ["v1", "v2", "v3", "v4", "latest"] as const;

/** What toncenter assumes when a request names no types. */
export const DEFAULT_SUPPORTED_ACTION_TYPES: readonly string[] = ["latest"];

function expandInto(name: string, out: Set<string>, seen: Set<string>): void {
  const members = ACTION_TYPE_SHORTCUTS[name];
  if (members === undefined) {
    out.add(name);
    return;
  }
  if (seen.has(name)) return;
  seen.add(name);
  for (const m of members) expandInto(m, out, seen);
  seen.delete(name);
}

/**
 * The action types named by `names` (types and shortcuts, expanded recursively); v1's types are
 * always in. Names that are no shortcut are taken as types, as toncenter does.
 */
export function expandActionTypeShortcuts(names: readonly string[]): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>();
  for (const n of names.length > 0 ? names : DEFAULT_SUPPORTED_ACTION_TYPES) expandInto(n, out, seen);
  expandInto("v1", out, seen);
  return out;
}

/** Whether a client supporting `supported` sees an action: its type is supported and no ancestor's is. */
export function isActionVisible(action: { type: string; ancestor_type: readonly string[] }, supported: ReadonlySet<string>): boolean {
  if (!supported.has(action.type)) return false;
  for (const a of action.ancestor_type) if (supported.has(a)) return false;
  return true;
}
