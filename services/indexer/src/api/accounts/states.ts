// /accountStates and /walletStates: the latest indexed states of accounts (latest_account_states).
import { create } from "@bufbuild/protobuf";
import { Cell } from "@ton/core";
import {
  type AccountStatesRequest,
  type AccountStatesResponse,
  AccountStatesResponseSchema,
  AccountStateFullSchema,
  type WalletState,
  WalletStateSchema,
  type WalletStatesRequest,
  type WalletStatesResponse,
  WalletStatesResponseSchema,
} from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { walletByCodeHash, walletData } from "@tongate/contracts";
import type { AccountStateRow } from "../../rows/types.js";
import { walletInterface } from "../book.js";
import { rawAddress } from "../params.js";
import { opt, select, type Store } from "../sql.js";

export type LatestState = AccountStateRow & { last_trans_lt: string };

/** The latest states of these accounts (code and data BoCs with `withBoc`), by account. */
export async function latestStates(store: Store, accounts: string[], withBoc = true): Promise<Map<string, LatestState>> {
  if (!accounts.length) return new Map();
  const rows = await select<LatestState>(
    store,
    `SELECT account, hash, balance, balance_extra_currencies, account_status, frozen_hash, code_hash, data_hash,
            ${withBoc ? "code_boc, data_boc" : "NULL AS code_boc, NULL AS data_boc"}, last_trans_hash, last_trans_lt, timestamp
     FROM latest_account_states FINAL WHERE account IN {a:Array(String)}`,
    { a: accounts },
  );
  return new Map(rows.map((r) => [r.account, r]));
}

/** Latest states in the order asked (each account once); accounts never seen are left out, as toncenter does. */
export async function accountStates(store: Store, req: AccountStatesRequest): Promise<AccountStatesResponse> {
  const accounts = [...new Set(req.address.map(rawAddress))];
  const states = await latestStates(store, accounts, req.includeBoc ?? true);
  const list = accounts.flatMap((a) => {
    const s = states.get(a);
    if (!s) return [];
    const wallet = walletByCodeHash(s.code_hash);
    return [
      create(AccountStateFullSchema, {
        address: a,
        accountStateHash: s.hash,
        balance: s.balance,
        extraCurrencies: s.balance_extra_currencies,
        status: s.account_status,
        frozenHash: opt(s.frozen_hash),
        lastTransactionHash: opt(s.last_trans_hash),
        lastTransactionLt: s.last_trans_lt === null ? undefined : BigInt(s.last_trans_lt),
        dataHash: opt(s.data_hash),
        codeHash: opt(s.code_hash),
        dataBoc: opt(s.data_boc),
        codeBoc: opt(s.code_boc),
        interfaces: wallet ? [walletInterface(wallet.type)] : [],
      }),
    ];
  });
  return create(AccountStatesResponseSchema, { accounts: list });
}

/** A latest state as a wallet: its kind by code hash, seqno and wallet id from its data. */
export function walletStateOf(address: string, s: LatestState): WalletState {
  const kind = walletByCodeHash(s.code_hash);
  const data = kind && s.data_boc ? walletData(kind, Cell.fromBase64(s.data_boc)) : undefined;
  return create(WalletStateSchema, {
    address,
    isWallet: kind !== undefined,
    walletType: kind?.type,
    seqno: data?.seqno,
    walletId: data?.walletId,
    isSignatureAllowed: data?.isSignatureAllowed,
    balance: s.balance,
    extraCurrencies: s.balance_extra_currencies,
    status: s.account_status,
    codeHash: opt(s.code_hash),
    lastTransactionHash: opt(s.last_trans_hash),
    lastTransactionLt: s.last_trans_lt === null ? undefined : BigInt(s.last_trans_lt),
  });
}

export async function walletStates(store: Store, req: WalletStatesRequest): Promise<WalletStatesResponse> {
  const accounts = [...new Set(req.address.map(rawAddress))];
  const states = await latestStates(store, accounts);
  const wallets = accounts.flatMap((a) => {
    const s = states.get(a);
    return s ? [walletStateOf(a, s)] : [];
  });
  return create(WalletStatesResponseSchema, { wallets });
}
