// The Jettons requests as filters in the store's forms (raw addresses), with toncenter's rules across
// parameters (v3-api.md §1.3) answered with 422 naming the parameter. The gateway has already
// checked each parameter on its own (formats, bounds, one_of).
import type {
  GetJettonBurnsRequest,
  GetJettonMastersRequest,
  GetJettonTransfersRequest,
  GetJettonWalletsRequest,
} from "@tongate/proto/gen/tongate/v3/jettons_pb.js";
import { apiError } from "@tongate/runtime";
import { checkDirection, type EventFilters } from "../decoded.js";
import { rawAddress } from "../params.js";

export interface MasterFilters {
  addresses: string[];
  admins: string[];
}

export const masterFilters = (req: GetJettonMastersRequest): MasterFilters => ({
  addresses: req.address.map(rawAddress),
  admins: req.adminAddress.map(rawAddress),
});

export interface WalletFilters {
  addresses: string[];
  owners: string[];
  jettons: string[];
  excludeZeroBalance: boolean;
}

export function walletFilters(req: GetJettonWalletsRequest): WalletFilters {
  // toncenter's rule: a list over several jettons is one owner's portfolio, not a scan of holders
  if (req.jettonAddress.length > 1 && req.ownerAddress.length !== 1) {
    throw apiError(422, `jetton_address: more than one (${req.jettonAddress.length} given) needs exactly one owner_address`);
  }
  return {
    addresses: req.address.map(rawAddress),
    owners: req.ownerAddress.map(rawAddress),
    jettons: req.jettonAddress.map(rawAddress),
    excludeZeroBalance: req.excludeZeroBalance === true,
  };
}

export interface TransferFilters extends EventFilters {
  owners: string[];
  wallets: string[];
  master: string | undefined;
}

export function transferFilters(req: GetJettonTransfersRequest): TransferFilters {
  checkDirection(req.ownerAddress, "owner_address", req.direction);
  return {
    owners: req.ownerAddress.map(rawAddress),
    wallets: req.jettonWallet.map(rawAddress),
    master: req.jettonMaster === undefined ? undefined : rawAddress(req.jettonMaster),
    direction: req.direction,
    startUtime: req.startUtime,
    endUtime: req.endUtime,
    startLt: req.startLt,
    endLt: req.endLt,
  };
}

export interface BurnFilters extends EventFilters {
  owners: string[];
  wallets: string[];
  master: string | undefined;
}

export const burnFilters = (req: GetJettonBurnsRequest): BurnFilters => ({
  owners: req.address.map(rawAddress),
  wallets: req.jettonWallet.map(rawAddress),
  master: req.jettonMaster === undefined ? undefined : rawAddress(req.jettonMaster),
  startUtime: req.startUtime,
  endUtime: req.endUtime,
  startLt: req.startLt,
  endLt: req.endLt,
});
