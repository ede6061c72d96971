// /accountStates, /walletStates, /addressBook, /topAccountsByBalance and the index side of
// /addressInformation and /walletInformation: all read latest_account_states.
import { create } from "@bufbuild/protobuf";
import { Cell } from "@ton/core";
import {
  type AccountStatesRequest,
  type AccountStatesResponse,
  AccountStatesResponseSchema,
  AccountStateFullSchema,
  type AddressBookRequest,
  type AddressBookResponse,
  AddressBookResponseSchema,
  AddressBookRowSchema,
  type AddressInformationResponse,
  AddressInformationResponseSchema,
  type TopAccountsByBalanceRequest,
  type TopAccountsByBalanceResponse,
  TopAccountsByBalanceResponseSchema,
  type WalletInformationResponse,
  WalletInformationResponseSchema,
  type WalletState,
  WalletStateSchema,
  type WalletStatesRequest,
  type WalletStatesResponse,
  WalletStatesResponseSchema,
} from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { apiError } from "@tongate/runtime";
import { walletByCodeHash, walletData } from "@tongate/contracts";
import type { AccountStateRow } from "../../rows/types.js";
import { select, type Store } from "../../store/store.js";
import { opt } from "../models.js";
import { DEFAULT_LIMIT, rawAddress } from "../params.js";
import { addressBook, walletInterface } from "./common.js";

type LatestState = AccountStateRow & { last_trans_lt: string };

const ZERO_HASH = Buffer.alloc(32).toString("base64");

async function latestStates(store: Store, accounts: string[], withBoc = true): Promise<Map<string, LatestState>> {
  if (!accounts.length) return new Map();
  // the key index keeps each account's latest state as latest_account_states FINAL has it
  if (store.keys?.complete) {
    const states = new Map<string, LatestState>();
    for (const [a, s] of store.keys.latestStates(accounts)) {
      states.set(a, withBoc ? { ...s, last_trans_lt: s.last_trans_lt ?? "0" } : { ...s, code_boc: null, data_boc: null, last_trans_lt: s.last_trans_lt ?? "0" });
    }
    return states;
  }
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
  return create(AccountStatesResponseSchema, { accounts: list, addressBook: await addressBook(store, accounts) });
}

function walletStateOf(address: string, s: LatestState): WalletState {
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
  return create(WalletStatesResponseSchema, { wallets, addressBook: await addressBook(store, accounts) });
}

/** Keyed by each address as it was asked; an address that does not parse gets user_friendly null. */
export async function addressBookOf(store: Store, req: AddressBookRequest): Promise<AddressBookResponse> {
  const raw = new Map<string, string | undefined>();
  for (const a of req.address) {
    try {
      raw.set(a, rawAddress(a));
    } catch {
      raw.set(a, undefined);
    }
  }
  const book = await addressBook(store, raw.values());
  const out: AddressBookResponse["addressBook"] = {};
  for (const [given, r] of raw) out[given] = r ? book[r]! : create(AddressBookRowSchema, {});
  return create(AddressBookResponseSchema, { addressBook: out });
}

/** Balance descending, then account ascending (a unique order for paging). */
export async function topAccountsByBalance(store: Store, req: TopAccountsByBalanceRequest): Promise<TopAccountsByBalanceResponse> {
  const rows = await select<{ account: string; balance: string }>(
    store,
    `SELECT account, toString(balance) AS balance FROM latest_account_states FINAL
     ORDER BY balance DESC, account ASC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { limit: req.limit ?? DEFAULT_LIMIT, offset: req.offset ?? 0 },
  );
  return create(TopAccountsByBalanceResponseSchema, { accounts: rows });
}

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

