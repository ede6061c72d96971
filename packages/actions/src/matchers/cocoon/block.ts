// The one block every Cocoon action builds: its row columns and its `<kind>_data` object, as
// toncenter's _fill_cocoon_*_action write them.
import { Address } from "@ton/core";
import type { CocoonAddress } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";

export type CocoonKind =
  | "cocoon_worker_payout"
  | "cocoon_proxy_payout"
  | "cocoon_proxy_charge"
  | "cocoon_client_top_up"
  | "cocoon_register_proxy"
  | "cocoon_unregister_proxy"
  | "cocoon_client_register"
  | "cocoon_client_change_secret_hash"
  | "cocoon_client_request_refund"
  | "cocoon_grant_refund"
  | "cocoon_client_increase_stake"
  | "cocoon_client_withdraw";

export interface CocoonColumns {
  source?: string | null;
  sourceSecondary?: string | null;
  destination?: string | null;
  destinationSecondary?: string | null;
  amount?: bigint | null;
}

export class CocoonBlock extends Block {
  constructor(
    kind: CocoonKind,
    readonly columns: CocoonColumns,
    readonly data: Record<string, unknown>,
  ) {
    super(kind, []);
  }

  override fill(row: ActionRow): void {
    const c = this.columns;
    if (c.source !== undefined) row.source = c.source;
    if (c.sourceSecondary !== undefined) row.source_secondary = c.sourceSecondary;
    if (c.destination !== undefined) row.destination = c.destination;
    if (c.destinationSecondary !== undefined) row.destination_secondary = c.destinationSecondary;
    if (c.amount !== undefined) row.amount = c.amount;
    row[`${this.btype}_data`] = this.data;
  }
}

/** The account of a std address (an external or no address names none). */
export function accountOf(a: CocoonAddress): string | null {
  return Address.isAddress(a) ? rawAddress(a) : null;
}

/**
 * A payload's expected address as toncenter prints it: a std address raw upper-case, an external
 * one as "<bits>;<hex value>" (pytoniq's ExternalAddress fields), none as null.
 */
export function expectedAddressText(a: CocoonAddress): string | null {
  if (a === null) return null;
  if (Address.isAddress(a)) return rawAddress(a);
  return `${a.bits};${a.value.toString(16)}`;
}

/** Whether the block's transaction aborted (toncenter's message.transaction.aborted). */
export function aborted(block: Block): boolean {
  return block.node.tx.aborted;
}
