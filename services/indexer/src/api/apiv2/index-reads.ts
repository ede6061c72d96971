// /addressInformation and /walletInformation from the index (without use_v2): an account's latest
// indexed state in API v2's shape.
import { create } from "@bufbuild/protobuf";
import {
  type AddressInformationResponse,
  AddressInformationResponseSchema,
  type WalletInformationResponse,
  WalletInformationResponseSchema,
} from "@tongate/proto/gen/tongate/v3/apiv2_pb.js";
import { apiError } from "@tongate/runtime";
import { latestStates, walletStateOf } from "../accounts/states.js";
import { rawAddress } from "../params.js";
import { opt, type Store } from "../sql.js";

const ZERO_HASH = Buffer.alloc(32).toString("base64");

/** The index's view of an account; one never seen is uninit with a zero balance, as toncenter answers. */
export async function addressInformation(store: Store, address: string): Promise<AddressInformationResponse> {
  const a = rawAddress(address);
  const s = (await latestStates(store, [a])).get(a);
  if (!s) return create(AddressInformationResponseSchema, { balance: "0", lastTransactionLt: "0", lastTransactionHash: ZERO_HASH, status: "uninit" });
  return create(AddressInformationResponseSchema, {
    balance: s.balance,
    code: opt(s.code_boc),
    data: opt(s.data_boc),
    lastTransactionLt: s.last_trans_lt ?? "0",
    lastTransactionHash: s.last_trans_hash ?? ZERO_HASH,
    frozenHash: opt(s.frozen_hash),
    status: s.account_status,
  });
}

/** 409 "not a wallet" for an account whose code is no known wallet (or that is not indexed). */
export async function walletInformation(store: Store, address: string): Promise<WalletInformationResponse> {
  const a = rawAddress(address);
  const s = (await latestStates(store, [a])).get(a);
  const w = s ? walletStateOf(a, s) : undefined;
  if (!s || !w?.isWallet) throw apiError(409, "not a wallet");
  return create(WalletInformationResponseSchema, {
    balance: s.balance,
    walletType: w.walletType,
    seqno: w.seqno,
    walletId: w.walletId,
    lastTransactionLt: s.last_trans_lt ?? "0",
    lastTransactionHash: s.last_trans_hash ?? ZERO_HASH,
    status: s.account_status,
  });
}
