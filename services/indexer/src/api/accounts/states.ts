// /accountStates and /walletStates: the latest indexed states of accounts (latest_account_states),
// from the key index when it is complete (also in the key readers: ../key-readers/lookups.ts).
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
import { type KeySource, usableKeys } from "../blockchain/key-lookups.js";
import { rawAddress } from "../params.js";
import { opt, select, type Store } from "../sql.js";

export type LatestState = AccountStateRow & { last_trans_lt: string };

/**
 * The latest states of these accounts from the key index, which keeps each account's latest state as
 * latest_account_states FINAL has it; undefined while the index is not complete.
 */
export function latestStatesFromKeys(store: KeySource, accounts: string[], withBoc = true): Map<string, LatestState> | undefined {
  const keys = usableKeys(store);
  if (!keys) return undefined;
  const states = new Map<string, LatestState>();
  for (const [a, s] of keys.latestStates(accounts)) {
    const lt = s.last_trans_lt ?? "0";
    states.set(a, withBoc ? { ...s, last_trans_lt: lt } : { ...s, code_boc: null, data_boc: null, last_trans_lt: lt });
  }
  return states;
}

/** The latest states of these accounts (code and data BoCs with `withBoc`), by account. */
export async function latestStates(store: Store, accounts: string[], withBoc = true): Promise<Map<string, LatestState>> {
  if (!accounts.length) return new Map();
  const fromKeys = latestStatesFromKeys(store, accounts, withBoc);
  if (fromKeys) return fromKeys;
  const rows = await select<LatestState>(
    store,
    `SELECT account, hash, balance, balance_extra_currencies, account_status, frozen_hash, code_hash, data_hash,
            ${withBoc ? "code_boc, data_boc" : "NULL AS code_boc, NULL AS data_boc"}, last_trans_hash, last_trans_lt, timestamp
     FROM latest_account_states FINAL WHERE account IN {a:Array(String)}`,
    { a: accounts },
  );
  return new Map(rows.map((r) => [r.account, r]));
}

/** The request's addresses as raw accounts, each once, in the order asked. */
const requestedAccounts = (addresses: readonly string[]): string[] => [...new Set(addresses.map(rawAddress))];

/** Latest states in the order asked (each account once); accounts never seen are left out, as toncenter does. */
export async function accountStates(store: Store, req: AccountStatesRequest): Promise<AccountStatesResponse> {
  const accounts = requestedAccounts(req.address);
  return accountStatesOf(accounts, await latestStates(store, accounts, req.includeBoc ?? true));
}

/** /accountStates from the key index (a key reader runs it); undefined while the index is not complete. */
export function accountStatesFromKeys(store: KeySource, req: AccountStatesRequest): AccountStatesResponse | undefined {
  const accounts = requestedAccounts(req.address);
  const states = latestStatesFromKeys(store, accounts, req.includeBoc ?? true);
  return states && accountStatesOf(accounts, states);
}

function accountStatesOf(accounts: string[], states: Map<string, LatestState>): AccountStatesResponse {
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
  const accounts = requestedAccounts(req.address);
  return walletStatesOf(accounts, await latestStates(store, accounts));
}

/** /walletStates from the key index (a key reader runs it); undefined while the index is not complete. */
export function walletStatesFromKeys(store: KeySource, req: WalletStatesRequest): WalletStatesResponse | undefined {
  const accounts = requestedAccounts(req.address);
  const states = latestStatesFromKeys(store, accounts);
  return states && walletStatesOf(accounts, states);
}

function walletStatesOf(accounts: string[], states: Map<string, LatestState>): WalletStatesResponse {
  const wallets = accounts.flatMap((a) => {
    const s = states.get(a);
    return s ? [walletStateOf(a, s)] : [];
  });
  return create(WalletStatesResponseSchema, { wallets });
}
