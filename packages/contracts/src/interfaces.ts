// Contract interfaces as toncenter names and detects them (ton-index-go's index/detect): an
// account has an interface when its code hash is one listed for it, and then that one only;
// else every interface whose get-methods its code all declares (method-ids.ts reads them).
// Names and required get-methods are toncenter's; the code hashes are those of this package's
// known contracts that toncenter detects by hash (the fixtures' manifest says which).
import { getMethodId } from "@ton/core";
import { JETTON_LIBRARY_CODE_HASHES, JETTON_CODE_HASHES } from "./jetton/code-hashes.js";
import { MULTISIG_CODE_HASHES, MULTISIG_LIBRARY_CODE_HASHES } from "./multisig/code-hashes.js";
import { NFT_CODE_HASHES } from "./nft/code-hashes.js";
import { VESTING_CODE_HASHES } from "./vesting/code-hashes.js";
import { WALLETS_CODE_HASHES } from "./wallets/code-hashes.js";

/**
 * What an interface's state is read as: the standards the decoder reads state of, and the
 * kinds the action classifier tells apart. Interfaces tongate reads nothing of have none.
 */
export type InterfaceRole =
  | "wallet"
  | "jetton_master"
  | "jetton_wallet"
  | "nft_collection"
  | "nft_item"
  | "nft_sale"
  | "nft_auction"
  | "nft_offer"
  | "dns"
  | "multisig"
  | "multisig_order"
  | "vesting"
  | "nominator_pool";

export interface ContractInterface {
  /** toncenter's name (what API v3 lists in an address book's `interfaces`). */
  name: string;
  /** The get-methods a contract's code must all declare to have it; none: by code hash only. */
  getMethods: readonly string[];
  /** Their ids, crc16(name) | 0x10000. */
  methodIds: readonly number[];
  /** Code hashes (base64) that are this interface and no other. */
  codeHashes: readonly string[];
  role?: InterfaceRole;
  /** Not one of toncenter's: detected by tongate only (an API that answers as toncenter leaves it out). */
  tongateOnly?: boolean;
}

function iface(name: string, getMethods: string[], more: { codeHashes?: (string | undefined)[]; role?: InterfaceRole; tongateOnly?: boolean } = {}): ContractInterface {
  const codeHashes = (more.codeHashes ?? []).filter((h): h is string => h !== undefined);
  return { name, getMethods, methodIds: getMethods.map((m) => getMethodId(m)), codeHashes, ...(more.role && { role: more.role }), ...(more.tongateOnly && { tongateOnly: true }) };
}

const W = WALLETS_CODE_HASHES;
const N = NFT_CODE_HASHES;

/** Every interface, in toncenter's order. */
export const INTERFACES: readonly ContractInterface[] = [
  iface("airdrop_interlocker_v1", ["get_contract_data"]),
  iface("airdrop_interlocker_v2", ["get_distribution_info", "get_unlocks_info", "get_available_claim_amount"]),
  iface("bidask_pool", ["get_pool_info", "get_current_bin", "get_sqrt_p", "get_active_range"]),
  iface("bidask_range", ["get_pool_addr", "get_lp_multitoken_wallet"]),
  iface("bidask_lp_multitoken", ["get_bins_number", "get_nft_data"]),
  iface("bidask_internal_liquidity_vault", ["get_liquidity_data"]),
  iface("cron", ["get_cron_info"]),
  iface("daolama_vault", ["get_pool_data"]),
  iface("dedust_factory", ["get_vault_address", "get_pool_address", "get_liquidity_deposit_address"]),
  // toncenter's name has this trailing space.
  iface("dedust_liquidity_deposit ", ["get_balances", "get_target_balances"]),
  iface("dedust_pool", ["get_reserves", "get_assets", "get_jetton_data", "is_stable", "get_trade_fee", "estimate_swap_out"]),
  iface("dedust_vault", ["get_asset"]),
  iface("dns", ["dnsresolve"], { role: "dns" }),
  iface("gram_miner", ["get_pow_params"]),
  iface("jetton_master", ["get_jetton_data", "get_wallet_address"], { role: "jetton_master" }),
  iface("jetton_wallet", ["get_wallet_data"], { role: "jetton_wallet" }),
  iface("jetton_wallet_v1", [], { codeHashes: [JETTON_CODE_HASHES.jetton_wallet_legacy], role: "jetton_wallet" }),
  // Jetton 2.0 and stablecoin wallets are detected by the library cell mainnet accounts hold as code.
  iface("jetton_wallet_v2", [], { codeHashes: [JETTON_LIBRARY_CODE_HASHES.jetton2_wallet], role: "jetton_wallet" }),
  iface("jetton_wallet_governed", [], { codeHashes: [JETTON_LIBRARY_CODE_HASHES.stablecoin_wallet], role: "jetton_wallet" }),
  iface("tonstake_pool", ["get_pool_full_data"]),
  iface("validator_controller", ["get_validator_controller_data"]),
  iface("locker", ["get_locker_data", "get_bill_address"]),
  iface("locker_bill", ["get_locker_bill_data"]),
  iface("lockup_vesting", ["get_lockup_data"]),
  iface("lockup_universal", ["get_balances"]),
  iface("megatonfi_router", ["get_mining_data", "get_lp_data"]),
  iface("megatonfi_exchange", ["get_lp_swap_data", "get_lp_mining_data"]),
  iface("moon_pool", ["get_jetton_data", "get_reserves", "get_assets", "get_wallet_address"]),
  iface("moon_booster", ["get_status", "get_pool"]),
  iface("moon_order_factory", ["get_id", "get_pipe"]),
  iface("moon_order", ["get_status", "get_order_amount", "get_fill_out", "get_vesting_data"]),
  iface("multisig_v2", ["get_multisig_data", "get_order_address"], { codeHashes: [MULTISIG_CODE_HASHES.multisig_v2], role: "multisig" }),
  iface("multisig_order_v2", ["get_order_data"], { codeHashes: [MULTISIG_LIBRARY_CODE_HASHES.multisig_order_v2], role: "multisig_order" }),
  iface("nft_sale", ["get_sale_data"], { role: "nft_sale" }),
  // getgems' v1 auction answers get_sale_data too: a sale or an auction of v1 has both names, as on toncenter.
  iface("nft_auction_v1", ["get_sale_data"], { role: "nft_auction" }),
  iface("nft_offer_getgems_v1", [], { codeHashes: [N.nft_offer_getgems_v1r3], role: "nft_offer" }),
  iface("nft_sale_getgems_v4", ["get_fix_price_data_v4"], { codeHashes: [N.nft_sale_getgems_v4r1], role: "nft_sale" }),
  iface("nft_sale_getgems_v3", [], { codeHashes: [N.nft_sale_getgems_v3, N.nft_sale_getgems_v3r2, N.nft_sale_getgems_v3r3], role: "nft_sale" }),
  iface("nft_sale_getgems_v2", [], { codeHashes: [N.nft_sale_getgems_v2], role: "nft_sale" }),
  iface("nft_auction_getgems_v3", [], { codeHashes: [N.nft_auction_getgems_v2, N.nft_auction_getgems_v3r2], role: "nft_auction" }),
  iface("nft_auction_getgems_v4", ["get_auction_data_v4"], { codeHashes: [N.nft_auction_getgems_v4r1], role: "nft_auction" }),
  iface("nft_collection", ["get_nft_content", "get_collection_data", "get_nft_address_by_index"], { role: "nft_collection" }),
  iface("nft_item", ["get_nft_data"], { role: "nft_item" }),
  iface("nft_item_simple", [], { codeHashes: [N.nft_item], role: "nft_item" }),
  iface("editable", ["get_editor"]),
  iface("sbt", ["get_authority_address"]),
  iface("payment_channel", ["get_channel_data"]),
  iface("pyth_price_oracle", [
    "get_update_fee",
    "get_single_update_fee",
    "get_governance_data_source_index",
    "get_governance_data_source",
    "get_last_executed_governance_sequence",
    "get_is_valid_data_source",
    "get_price_unsafe",
    "get_price_no_older_than",
    "get_ema_price_unsafe",
    "get_ema_price_no_older_than",
    "get_chain_id",
    "get_current_guardian_set_index",
    "get_guardian_set",
    "get_governance_chain_id",
    "get_governance_contract",
    "governance_action_is_consumed",
  ]),
  iface("stonfi_pool", ["get_pool_data", "get_expected_outputs", "get_expected_tokens", "get_expected_liquidity", "get_lp_account_address"]),
  iface("stonfi_pool_v2", ["get_pool_data", "get_pool_type", "get_lp_account_address", "get_jetton_data", "get_wallet_address"]),
  iface("stonfi_router_v2", ["get_vault_address", "get_pool_address", "get_router_data", "get_router_version"]),
  iface("stonfi_router", ["get_router_data", "get_pool_address"]),
  iface("stonfi_lp_account_v2", ["get_lp_account_data"]),
  iface("stonfi_vault_v2", ["get_vault_data"]),
  iface("storage_provider", ["get_wallet_params", "get_storage_params", "seqno", "get_public_key", "get_storage_contract_address"]),
  iface("storage_contract", ["get_storage_contract_data", "get_torrent_hash", "is_active", "get_next_proof_info"]),
  iface("storm_vamm", ["get_amm_name", "get_amm_status", "get_amm_contract_data", "get_exchange_settings", "get_spot_price", "get_terminal_amm_price", "get_vamm_type"]),
  iface("storm_referral", ["get_nft_data", "get_referral_data"]),
  iface("storm_referral_collection", ["get_referral_vaults_whitelist"]),
  iface("storm_executor", ["get_nft_data", "get_executor_balances"]),
  iface("storm_executor_collection", ["get_amm_name"]),
  iface("storm_vault", ["get_executor_collection_address", "get_referral_collection_address", "get_vault_contract_data", "get_lp_minter_address", "get_vault_whitelisted_addresses", "get_vault_data", "get_vault_type"]),
  iface("storm_position_manager", ["get_position_manager_contract_data"]),
  iface("subscription_v1", ["get_subscription_data"]),
  iface("subscription_v2", ["get_subscription_info", "get_payment_info", "get_cron_info"]),
  iface("coffee_staking_master", ["get_stored_data", "get_collection_data", "get_nft_address_by_index", "get_nft_content"]),
  iface("coffee_staking_vault", ["get_stored_data", "get_master_address"]),
  iface("coffee_staking_item", ["get_stored_data", "get_nft_data"]),
  iface("coffee_factory", [
    "get_vault_address",
    "get_pool_address",
    "get_pool_address_no_settings",
    "get_pool_creator_address",
    "get_pool_creator_address_no_settings",
    "get_liquidity_depository_address",
    "get_liquidity_depository_address_no_settings",
    "get_admin_address",
    "get_code",
  ]),
  iface("coffee_vault", ["get_asset", "is_active"]),
  iface("coffee_pool", ["get_jetton_data", "get_wallet_address", "get_pool_data", "estimate_swap_amount", "estimate_liquidity_withdraw_amount", "estimate_liquidity_deposit_amount"]),
  // A Telegram username or number: an NFT item with its own auction.
  iface("teleitem", ["get_telemint_auction_state", "get_telemint_auction_config", "get_telemint_token_name"], { role: "nft_item" }),
  iface("tonco_pool", ["get_collection_data", "getIsActive", "getPoolStateAndConfiguration", "getChildContracts", "getAllTickInfos"]),
  iface("tonco_router", ["getRouterState", "getPoolAddress", "getChildContracts"]),
  iface("tonkeeper_2fa", ["get_wallet_addr", "get_root_pubkey", "get_seed_pubkey", "get_delegation_state", "get_estimated_attached_value"]),
  iface("tv_pool", ["get_pool_data", "get_nominator_data", "list_nominators", "list_votes"], { role: "nominator_pool" }),
  // toncenter requires this few of the wallets' get-methods: any code with seqno has wallet_v1r2 …
  iface("wallet_v1r1", [], { codeHashes: [W.wallet_v1r1], role: "wallet" }),
  iface("wallet_v1r2", ["seqno"], { codeHashes: [W.wallet_v1r2], role: "wallet" }),
  iface("wallet_v1r3", ["seqno", "get_public_key"], { codeHashes: [W.wallet_v1r3], role: "wallet" }),
  iface("wallet_v2r1", ["seqno"], { codeHashes: [W.wallet_v2r1], role: "wallet" }),
  iface("wallet_v2r2", ["seqno", "get_public_key"], { codeHashes: [W.wallet_v2r2], role: "wallet" }),
  iface("wallet_v3r1", ["seqno"], { codeHashes: [W.wallet_v3r1], role: "wallet" }),
  iface("wallet_v3r2", ["get_public_key", "seqno"], { codeHashes: [W.wallet_v3r2], role: "wallet" }),
  iface("wallet_v4r1", ["get_plugin_list", "is_plugin_installed", "get_public_key", "seqno", "get_subwallet_id"], { codeHashes: [W.wallet_v4r1], role: "wallet" }),
  iface("wallet_v4r2", ["get_plugin_list", "is_plugin_installed", "get_public_key", "seqno", "get_subwallet_id"], { codeHashes: [W.wallet_v4r2], role: "wallet" }),
  iface("wallet_v5_beta", ["seqno"], { role: "wallet" }),
  iface("wallet_v5r1", ["seqno", "get_public_key", "get_subwallet_id", "get_extensions", "is_signature_allowed"], { codeHashes: [W.wallet_v5r1], role: "wallet" }),
  iface("wallet_highload_v1r1", [], { codeHashes: [W.wallet_highload_v1r1], role: "wallet" }),
  iface("wallet_highload_v1r2", [], { codeHashes: [W.wallet_highload_v1r2], role: "wallet" }),
  iface("wallet_highload_v2", ["get_public_key"], { codeHashes: [W.wallet_highload_v2], role: "wallet" }),
  iface("wallet_highload_v2r1", [], { codeHashes: [W.wallet_highload_v2r1], role: "wallet" }),
  iface("wallet_highload_v2r2", [], { codeHashes: [W.wallet_highload_v2r2], role: "wallet" }),
  iface("wallet_highload_v3r1", ["get_public_key", "get_subwallet_id", "get_timeout"], { codeHashes: [W.wallet_highload_v3r1], role: "wallet" }),
  iface("wallet_vesting", ["seqno", "get_public_key", "get_vesting_data"], { codeHashes: [VESTING_CODE_HASHES.vesting_wallet], role: "vesting" }),
  iface("whales_pool", ["get_staking_status", "get_pool_status", "get_member", "get_members_raw", "get_params"], { role: "nominator_pool" }),
  iface("x1000_affiliate_account", ["get_affiliate_account_data"]),
  iface("x1000_affiliate_program", ["get_affiliate_account_address"]),
  // A staking standard of this package that toncenter does not list.
  iface("single_nominator", ["get_roles", "get_pool_data"], { role: "nominator_pool", tongateOnly: true }),
];

const BY_NAME = new Map(INTERFACES.map((i) => [i.name, i]));
const BY_HASH = new Map(INTERFACES.flatMap((i) => i.codeHashes.map((h) => [h, i] as const)));
const BY_METHODS = INTERFACES.filter((i) => i.methodIds.length > 0);

export const interfaceByName = (name: string): ContractInterface | undefined => BY_NAME.get(name);

export interface InterfaceInputs {
  /** The code's representation hash, base64 (of the library cell, for code that is one). */
  codeHash?: string | null;
  /** getMethodIds of the code (resolved, for code that is a library cell). */
  methodIds?: readonly number[] | null;
}

/**
 * The interfaces of a contract, as toncenter detects them: the one its code hash is listed for;
 * else, sorted by name, every interface whose get-methods its code all declares.
 */
export function detectInterfaces({ codeHash, methodIds }: InterfaceInputs): string[] {
  const byHash = codeHash ? BY_HASH.get(codeHash) : undefined;
  if (byHash) return [byHash.name];
  if (!methodIds?.length) return [];
  const declared = new Set(methodIds);
  return BY_METHODS.filter((i) => i.methodIds.every((id) => declared.has(id)))
    .map((i) => i.name)
    .sort();
}

/** Whether any of these interfaces (names, as detectInterfaces gives them) is read as `role`. */
export const hasRole = (names: readonly string[], role: InterfaceRole): boolean => names.some((n) => BY_NAME.get(n)?.role === role);
