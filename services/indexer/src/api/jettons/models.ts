// The decoder's jetton rows → API v3's Jettons objects, as toncenter renders them (ton-index-go
// models/jetton.go, parse/scan_jettons.go).
import { create } from "@bufbuild/protobuf";
import {
  type JettonBurn,
  JettonBurnSchema,
  type JettonMaster,
  JettonMasterSchema,
  type JettonTransfer,
  JettonTransferSchema,
  type JettonWallet,
  JettonWalletMintlessInfoSchema,
  JettonWalletSchema,
} from "@tongate/proto/gen/tongate/v3/jettons_pb.js";
import { jsonObject } from "../decoded.js";
import { opt } from "../sql.js";
import type { BurnRow, MasterRow, TransferRow, WalletRow } from "./queries.js";

export const masterOf = (r: MasterRow): JettonMaster =>
  create(JettonMasterSchema, {
    address: r.address,
    totalSupply: r.total_supply,
    mintable: r.mintable,
    adminAddress: opt(r.admin_address),
    jettonContent: jsonObject(r.jetton_content),
    jettonWalletCodeHash: r.jetton_wallet_code_hash,
    codeHash: r.code_hash,
    dataHash: r.data_hash,
    lastTransactionLt: BigInt(r.last_transaction_lt),
  });

/** The airdrop a mintless wallet has not claimed yet (toncenter shows mintless_info then), or null. */
export const unclaimed = (r: WalletRow): string | null => (r.mintless_is_claimed === false ? r.mintless_amount : null);

const seconds = (v: string | null): number | undefined => (v === null ? undefined : Number(v));

/** A wallet; `uris`: the custom_payload_api_uri of its master, for a mintless airdrop. */
export function walletOf(r: WalletRow, uris: ReadonlyMap<string, string[]>): JettonWallet {
  const amount = unclaimed(r);
  return create(JettonWalletSchema, {
    address: r.address,
    balance: r.balance,
    owner: r.owner,
    jetton: r.jetton,
    lastTransactionLt: BigInt(r.last_transaction_lt),
    codeHash: r.code_hash,
    dataHash: r.data_hash,
    mintlessInfo:
      amount !== null
        ? create(JettonWalletMintlessInfoSchema, {
            amount,
            startFrom: seconds(r.mintless_start_from),
            expireAt: seconds(r.mintless_expire_at),
            customPayloadApiUri: uris.get(r.jetton) ?? [],
          })
        : undefined,
  });
}

export const transferOf = (r: TransferRow): JettonTransfer =>
  create(JettonTransferSchema, {
    queryId: BigInt(r.query_id),
    source: r.source,
    destination: r.destination,
    amount: r.amount,
    sourceWallet: r.jetton_wallet,
    jettonMaster: r.jetton_master,
    transactionHash: r.transaction_hash,
    transactionLt: BigInt(r.transaction_lt),
    transactionNow: r.transaction_now,
    transactionAborted: r.transaction_aborted,
    responseDestination: opt(r.response_destination),
    customPayload: opt(r.custom_payload),
    forwardTonAmount: r.forward_ton_amount,
    forwardPayload: opt(r.forward_payload),
    traceId: opt(r.trace_id),
  });

export const burnOf = (r: BurnRow): JettonBurn =>
  create(JettonBurnSchema, {
    queryId: BigInt(r.query_id),
    owner: r.owner,
    jettonWallet: r.jetton_wallet,
    jettonMaster: r.jetton_master,
    transactionHash: r.transaction_hash,
    transactionLt: BigInt(r.transaction_lt),
    transactionNow: r.transaction_now,
    transactionAborted: r.transaction_aborted,
    amount: r.amount,
    responseDestination: opt(r.response_destination),
    customPayload: opt(r.custom_payload),
    traceId: opt(r.trace_id),
  });
