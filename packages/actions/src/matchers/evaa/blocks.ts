// EVAA's action blocks: supply, withdraw, liquidate. Asset ids are EVAA's (sha256 of the asset's
// name), shown as toncenter's hex(): "0x" and lower-case digits without leading zeros.
import type { ActionRow } from "../../action.js";
import { Block } from "../../engine/block.js";

export const evaaAssetIdHex = (id: bigint): string => `0x${id.toString(16)}`;

export interface EvaaSupplyData {
  sender: string | null;
  recipient: string | null;
  /** the recipient's EVAA user contract */
  recipientContract: string | null;
  amount: bigint;
  isSuccess: boolean;
  isTon: boolean;
  assetId: bigint;
  senderJettonWallet: string | null;
  recipientJettonWallet: string | null;
  masterJettonWallet: string | null;
  master: string | null;
  /** the supplied jetton's master; null for TON */
  asset: string | null;
}

export class EvaaSupplyBlock extends Block {
  constructor(readonly data: EvaaSupplyData) {
    super("evaa_supply", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.source_secondary = d.senderJettonWallet;
    row.destination = d.recipient;
    row.destination_secondary = d.recipientContract;
    row.amount = d.amount;
    row.asset = d.asset;
    row.success = d.isSuccess && !this.failed;
    row.evaa_supply_data = {
      is_ton: d.isTon,
      asset_id: evaaAssetIdHex(d.assetId),
      master: d.master,
      recipient_jetton_wallet: d.recipientJettonWallet,
      master_jetton_wallet: d.masterJettonWallet,
    };
  }
}

export interface EvaaWithdrawData {
  owner: string | null;
  /** the owner's EVAA user contract */
  ownerContract: string | null;
  recipient: string | null;
  assetId: bigint;
  amount: bigint;
  isSuccess: boolean;
  isTon: boolean;
  recipientJettonWallet: string | null;
  masterJettonWallet: string | null;
  failReason: string | null;
  master: string | null;
  asset: string | null;
}

export class EvaaWithdrawBlock extends Block {
  constructor(readonly data: EvaaWithdrawData) {
    super("evaa_withdraw", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.owner;
    row.destination = d.recipient;
    row.destination_secondary = d.ownerContract;
    row.amount = d.amount;
    row.asset = d.asset;
    row.success = d.isSuccess && !this.failed;
    row.evaa_withdraw_data = {
      is_ton: d.isTon,
      recipient_jetton_wallet: d.recipientJettonWallet,
      master_jetton_wallet: d.masterJettonWallet,
      fail_reason: d.failReason,
      master: d.master,
      asset_id: evaaAssetIdHex(d.assetId),
    };
  }
}

export interface EvaaLiquidateData {
  liquidator: string | null;
  /** the borrower being liquidated */
  borrower: string | null;
  borrowerContract: string | null;
  collateralAssetId: bigint;
  collateralAmount: bigint;
  debtAmount: bigint;
  isSuccess: boolean;
  failReason: string | null;
}

export class EvaaLiquidateBlock extends Block {
  constructor(readonly data: EvaaLiquidateData) {
    super("evaa_liquidate", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.liquidator;
    row.destination = d.borrower;
    row.destination_secondary = d.borrowerContract;
    row.amount = d.collateralAmount;
    row.success = d.isSuccess;
    row.evaa_liquidate_data = { asset_id: evaaAssetIdHex(d.collateralAssetId), fail_reason: d.failReason, debt_amount: d.debtAmount };
  }
}
