// Blocks → action rows (toncenter's block_tree_serializer): the base fields every action has, the
// block's own fields (Block.fill), toncenter's action id, and the inner actions of composite
// blocks with their parent id and ancestor kinds.
import { createHash } from "node:crypto";
import type { ActionRow } from "../action.js";
import type { TraceInput } from "../trace.js";
import type { Block } from "./block.js";
import { CallContractBlock } from "./basic.js";
import { publicTypeOf } from "./types.js";

/** sha256(<hash of the in-message of the block's earliest node><internal kind>), base64. */
export function actionIdOf(block: Block): string {
  let root = block.nodes[0];
  for (const n of block.nodes) if (n.lt < root.lt) root = n;
  return createHash("sha256").update(root.msgHash + block.btype, "utf8").digest("base64");
}

function emptyRow(trace: TraceInput, type: string, actionId: string): ActionRow {
  return {
    trace_id: trace.traceId,
    action_id: actionId,
    type,
    tx_hashes: [],
    accounts: [],
    success: true,
    start_lt: 0n,
    end_lt: 0n,
    start_utime: 0,
    end_utime: 0,
    mc_seqno_end: null,
    trace_end_lt: trace.endLt,
    trace_end_utime: trace.endUtime,
    trace_external_hash: trace.externalHash,
    trace_external_hash_norm: trace.externalHashNorm,
    trace_mc_seqno_end: trace.mcSeqnoEnd,
    source: null,
    source_secondary: null,
    destination: null,
    destination_secondary: null,
    asset: null,
    asset_secondary: null,
    asset2: null,
    asset2_secondary: null,
    amount: null,
    value: null,
    opcode: null,
    value_extra_currencies: {},
    parent_action_id: null,
    ancestor_type: [],
    extra: null,
  };
}

/** One block's action row (no parent link). */
export function blockToAction(block: Block, trace: TraceInput): ActionRow {
  const row = emptyRow(trace, publicTypeOf(block.btype), actionIdOf(block));
  const txHashes = new Set<string>();
  const accounts: (string | null)[] = [];
  let mcSeqnoEnd: number | null = null;
  for (const n of block.nodes) {
    txHashes.add(n.tx.hash);
    accounts.push(n.tx.account);
    if (mcSeqnoEnd === null || n.tx.mcBlockSeqno > mcSeqnoEnd) mcSeqnoEnd = n.tx.mcBlockSeqno;
  }
  row.start_lt = block.minLt;
  row.end_lt = block.maxLt;
  row.start_utime = block.minUtime;
  row.end_utime = block.maxUtime;
  row.success = !block.failed;
  row.mc_seqno_end = mcSeqnoEnd;
  block.fill(row);
  // fill() may name accounts of its own in row.accounts (as toncenter's fillers append to them)
  accounts.push(...row.accounts);
  accounts.push(row.source, row.source_secondary);
  if (!block.ghost) accounts.push(row.destination, row.destination_secondary);
  accounts.push(...block.extraAccounts());
  if (block.initiating !== null) {
    txHashes.add(block.initiating.tx.hash);
    if (!block.initiating.isTickTock) accounts.push(block.initiating.tx.account);
  }
  row.tx_hashes = [...txHashes];
  row.accounts = [...new Set(accounts.filter((a): a is string => a !== null))];
  return row;
}

/** Internal kinds whose inner actions are not published (the plain transfers and v1 kinds). */
export const KINDS_WITHOUT_INNER_ACTIONS = new Set([
  "call_contract", "contract_deploy", "jetton_burn", "tick_tock", "jetton_transfer", "nft_transfer", "nft_mint",
  "jetton_mint", "ton_transfer", "stake_deposit", "stake_withdrawal", "stake_withdrawal_request",
  "dex_deposit_liquidity", "jetton_swap", "change_dns", "delete_dns", "renew_dns", "subscribe",
  "dex_withdraw_liquidity", "unsubscribe", "election_deposit", "election_recover", "auction_bid",
  "nominator_pool_deposit", "nominator_pool_withdraw_request", "dedust_deposit_liquidity",
  "dedust_deposit_liquidity_partial", "tonstakers_deposit", "tonstakers_withdraw_request", "tonstakers_withdraw",
  "ethena_withdrawal_request", "ethena_deposit", "tonco_deposit_liquidity", "tonco_withdraw_liquidity",
  "coffee_deposit_liquidity",
  "dedust_v2_deposit_liquidity", "dedust_v2_deposit_liquidity_partial",
]);

/** Whether a block is published as an action at all (logs and external-ins are not). */
export function isPublished(block: Block): boolean {
  if (block.btype === "root" || block.btype === "empty") return false;
  if (block instanceof CallContractBlock && (block.destination === null || block.source === null)) return false;
  return true;
}

export interface Serialized {
  actions: ActionRow[];
  broken: boolean;
}

/** Rows of `blocks` and, below composite kinds, of their children. */
export function serializeBlocks(blocks: readonly Block[], trace: TraceInput, parentActionId: string | null = null): Serialized {
  const actions: ActionRow[] = [];
  const ids = new Set<string>();
  let broken = false;
  for (const block of blocks) {
    if (!isPublished(block)) continue;
    if (block.broken) broken = true;
    const row = blockToAction(block, trace);
    if (parentActionId !== null && row.action_id === parentActionId) continue;
    row.parent_action_id = parentActionId;
    ids.add(row.action_id);
    actions.push(row);
    if (KINDS_WITHOUT_INNER_ACTIONS.has(block.btype)) continue;
    const inner = serializeBlocks(block.children, trace, row.action_id);
    for (const child of inner.actions) {
      if (child.type === "contract_deploy") continue;
      if (!child.ancestor_type.includes(block.btype)) child.ancestor_type.push(block.btype);
      if (ids.has(child.action_id)) throw new Error(`duplicate action id ${child.action_id}`);
      ids.add(child.action_id);
      actions.push(child);
    }
    if (inner.broken) broken = true;
  }
  return { actions, broken };
}

/** toncenter's fallback for a trace nothing matched: one action over the whole trace, id = trace id. */
export function unknownAction(trace: TraceInput): ActionRow {
  const row = emptyRow(trace, "unknown", trace.traceId);
  row.tx_hashes = trace.transactions.map((t) => t.hash);
  row.success = !trace.transactions.some((t) => t.aborted);
  row.start_lt = trace.startLt;
  row.end_lt = trace.endLt;
  row.start_utime = trace.startUtime;
  row.end_utime = trace.endUtime;
  row.mc_seqno_end = trace.mcSeqnoEnd;
  row.accounts = [...new Set(trace.transactions.map((t) => t.account))];
  return row;
}
