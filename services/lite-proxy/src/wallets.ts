// API v2: getWalletInformation (toncenter's own wallet detection by code hash) and
// getExtendedAddressInformation (tonlib's fullAccountState: the account state by contract type).
import { create } from "@bufbuild/protobuf";
import { detectWallet, walletData, type WalletData, type WalletKind } from "@tongate/contracts";
import { packAddress } from "@tongate/ton";
import {
  AccountStateRawSchema,
  AccountStateSchema,
  AccountStateUninitedSchema,
  AccountStateWalletV3Schema,
  AccountStateWalletV4Schema,
  GetExtendedAddressInformationResponseSchema,
  GetWalletInformationResponseSchema,
  type AccountState,
  type GetExtendedAddressInformationRequest,
  type GetWalletInformationRequest,
} from "@tongate/proto/gen/tongate/v2/accounts_pb.js";
import { AccountAddressSchema } from "@tongate/proto/gen/tongate/v2/types_pb.js";
import type { AccountSnapshot, ChainReader } from "./chain.js";
import { addressParam, cellBoc, tonBlockId, transactionId } from "./values.js";


/** The recognized wallet of an active account and its data fields. */
function walletOf(a: AccountSnapshot): { kind: WalletKind; data: WalletData } | undefined {
  const kind = a.status === "active" ? detectWallet(a.code) : undefined;
  const data = kind && a.data ? walletData(kind, a.data) : undefined;
  return kind && data ? { kind, data } : undefined;
}

/**
 * tonlib's AccountState for the account: uninited (also for a frozen account, with its hash),
 * wallet.v3/wallet.v4 with wallet_id and seqno, raw code and data otherwise. v1, v2 and v5 wallets
 * are raw here, as tonlib has no account-state type for them (v2.json lists none).
 */
function accountState(a: AccountSnapshot, wallet: ReturnType<typeof walletOf>): AccountState {
  const state = (variant: AccountState["variant"]) => create(AccountStateSchema, { variant });
  if (a.status !== "active") return state({ case: "uninited", value: create(AccountStateUninitedSchema, { frozenHash: a.frozenHash ?? new Uint8Array() }) });
  const fields = { walletId: wallet?.data.walletId ?? 0, seqno: wallet?.data.seqno ?? 0 };
  if (wallet?.kind.version === 3) return state({ case: "walletV3", value: create(AccountStateWalletV3Schema, fields) });
  if (wallet?.kind.version === 4) return state({ case: "walletV4", value: create(AccountStateWalletV4Schema, fields) });
  return state({ case: "raw", value: create(AccountStateRawSchema, { code: cellBoc(a.code), data: cellBoc(a.data), frozenHash: new Uint8Array() }) });
}

export function walletsMethods(chain: ChainReader) {
  return {
    async getWalletInformation(req: GetWalletInformationRequest) {
      const a = await chain.account("getWalletInformation", addressParam("address", req.address), req.seqno);
      const w = walletOf(a);
      return create(GetWalletInformationResponseSchema, {
        wallet: w !== undefined,
        balance: a.balance,
        accountState: a.status,
        lastTransactionId: transactionId(a.lastTransLt, a.lastTransHash),
        ...(w && { walletType: w.kind.type, ...w.data }),
      });
    },
    async getExtendedAddressInformation(req: GetExtendedAddressInformationRequest) {
      const a = await chain.account("getExtendedAddressInformation", addressParam("address", req.address), req.seqno);
      const w = walletOf(a);
      return create(GetExtendedAddressInformationResponseSchema, {
        // tonlib's accountAddress: the input, user-friendly and url-safe with its flags (raw input: bounceable).
        address: create(AccountAddressSchema, { accountAddress: packAddress(req.address) }),
        balance: a.balance,
        extraCurrencies: [],
        lastTransactionId: transactionId(a.lastTransLt, a.lastTransHash),
        blockId: tonBlockId(a.block),
        syncUtime: a.syncUtime,
        accountState: accountState(a, w),
        revision: w?.kind.revision ?? 0,
      });
    },
  };
}
