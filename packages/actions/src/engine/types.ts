// Internal kinds (what a matcher builds, what action ids and ancestor_type hold) → the public
// type an action is published as. Kinds not listed are published under their own name; a block's
// fill() may still choose another type (e.g. a nominator withdrawal with a payout).
const PUBLIC_TYPE: Record<string, string> = {
  tonstakers_deposit: "stake_deposit",
  tonstakers_withdraw_request: "stake_withdrawal_request",
  tonstakers_withdraw: "stake_withdrawal",
  nominator_pool_deposit: "stake_deposit",
  nominator_pool_withdraw_request: "stake_withdrawal_request",
  ethena_deposit: "stake_deposit",
  ethena_withdrawal_request: "stake_withdrawal_request",
  tonco_deposit_liquidity: "dex_deposit_liquidity",
  tonco_withdraw_liquidity: "dex_withdraw_liquidity",
  tgbtc_dkg_log: "tgbtc_dkg_log_fallback",
};

export function publicTypeOf(kind: string): string {
  return PUBLIC_TYPE[kind] ?? kind;
}
