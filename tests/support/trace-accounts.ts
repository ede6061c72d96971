// Accounts of real contracts (the fixture code of ../shared/fixtures/contracts) for trace emulation:
// wallets v4r2 and v5r1 with a key, legacy (TEP-74 reference) jetton wallets, and the signed
// external messages and jetton transfer bodies a user's wallet sends. The accounts callback of
// emulateTrace is the seam: states are built here, no liteserver.
import { readFileSync } from "node:fs";
import { keyPairFromSeed, type KeyPair } from "@ton/crypto";
import { Address, beginCell, Cell, contractAddress, external, internal, storeMessage, storeShardAccount, toNano, SendMode, type MessageRelaxed } from "@ton/core";
import { createShardAccount, defaultConfig } from "@ton/sandbox";
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import type { TraceAccount, TraceEmulationInput } from "@tongate/emulator";

const CONTRACTS = new URL("../../../shared/fixtures/contracts/", import.meta.url);
export const code = (name: string): Cell => Cell.fromBoc(readFileSync(new URL(`${name}.code.boc`, CONTRACTS)))[0]!;

export const NOW = 1_760_000_000;

export interface FixtureAccount {
  address: Address;
  state: TraceAccount;
}

function active(c: Cell, data: Cell, balance: bigint, address?: Address): FixtureAccount {
  const sa = createShardAccount({ code: c, data, balance, address });
  sa.account!.storageStats.lastPaid = NOW;
  sa.lastTransactionLt = 1_000n;
  sa.account!.storage.lastTransLt = 1_001n;
  return { address: sa.account!.addr, state: { shardAccount: beginCell().store(storeShardAccount(sa)).endCell(), lastTransLt: sa.lastTransactionLt } };
}

/** A nonexistent account (account_none), as a liteserver answers for an address nothing was sent to. */
export const nonexistent = (): TraceAccount => ({ shardAccount: beginCell().store(storeShardAccount({ account: null, lastTransactionHash: 0n, lastTransactionLt: 0n })).endCell(), lastTransLt: 0n });

export interface Wallet extends FixtureAccount {
  key: KeyPair;
  /** A signed external message carrying `messages`. */
  transfer(messages: MessageRelaxed[], o?: { seqno?: number; secretKey?: Buffer }): Cell;
}

/** What wallets send with by default: fees paid apart, errors of an action ignored. */
const SEND_MODE: SendMode = SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS;

const keyOf = (n: number) => keyPairFromSeed(Buffer.alloc(32, n));

/** Wallet v4r2 (subwallet 698983191), seqno 0. */
export function walletV4(n: number, balance = toNano(10)): Wallet {
  const key = keyOf(n);
  const data = beginCell().storeUint(0, 32).storeUint(698983191, 32).storeBuffer(key.publicKey).storeBit(0).endCell();
  const acc = active(code("wallet_v4r2"), data, balance);
  const w = WalletContractV4.create({ workchain: 0, publicKey: key.publicKey });
  return {
    ...acc,
    key,
    transfer: (messages, o = {}) => externalTo(acc.address, w.createTransfer({ seqno: o.seqno ?? 0, secretKey: o.secretKey ?? key.secretKey, messages, sendMode: SEND_MODE, timeout: NOW + 60 })),
  };
}

/** Wallet v5r1 (mainnet basechain wallet id 2147483409), seqno 0. */
export function walletV5(n: number, balance = toNano(10)): Wallet {
  const key = keyOf(n);
  const data = beginCell().storeBit(1).storeUint(0, 32).storeUint(2147483409, 32).storeBuffer(key.publicKey).storeBit(0).endCell();
  const acc = active(code("wallet_v5r1"), data, balance);
  const w = WalletContractV5R1.create({ workchain: 0, publicKey: key.publicKey });
  return {
    ...acc,
    key,
    transfer: (messages, o = {}) => externalTo(acc.address, w.createTransfer({ seqno: o.seqno ?? 0, secretKey: o.secretKey ?? key.secretKey, messages, sendMode: SEND_MODE, timeout: NOW + 60 })),
  };
}

const externalTo = (to: Address, body: Cell): Cell => beginCell().store(storeMessage(external({ to, body }))).endCell();

/** The jetton master the fixture wallets belong to (never called: the transfers here do not reach it). */
export const JETTON_MASTER = new Address(0, Buffer.alloc(32, 0x77));

/** A legacy jetton wallet's data: balance:Coins owner_address master_address jetton_wallet_code:^Cell. */
const jettonWalletData = (balance: bigint, owner: Address) => beginCell().storeCoins(balance).storeAddress(owner).storeAddress(JETTON_MASTER).storeRef(code("jetton_wallet_legacy")).endCell();

/** The legacy jetton wallet of `owner`, at the address its master computes, holding `balance`. */
export function jettonWallet(owner: Address, balance: bigint): FixtureAccount {
  const c = code("jetton_wallet_legacy");
  const address = contractAddress(0, { code: c, data: jettonWalletData(0n, owner) });
  return active(c, jettonWalletData(balance, owner), toNano("0.05"), address);
}

/** transfer#0f8a7ea5 of TEP-74 with the forward payload inline. */
export function jettonTransferBody(o: { amount: bigint; destination: Address; responseDestination: Address; forwardTonAmount: bigint; forwardPayload?: Cell }): Cell {
  const b = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(7, 64).storeCoins(o.amount).storeAddress(o.destination).storeAddress(o.responseDestination).storeBit(0).storeCoins(o.forwardTonAmount);
  return (o.forwardPayload ? b.storeBit(0).storeSlice(o.forwardPayload.beginParse()) : b.storeBit(0)).endCell();
}

/** The emulation input of `message` on these accounts (others nonexistent), counting the reads per account. */
export function inputOf(message: Cell, accounts: FixtureAccount[], extra: Partial<TraceEmulationInput> = {}) {
  const reads = new Map<string, number>();
  const byAddress = new Map(accounts.map((a) => [a.address.toRawString(), a.state]));
  const input: TraceEmulationInput = {
    message,
    config: defaultConfig,
    account: async (address: Address): Promise<TraceAccount> => {
      reads.set(address.toRawString(), (reads.get(address.toRawString()) ?? 0) + 1);
      return byAddress.get(address.toRawString()) ?? nonexistent();
    },
    libraries: async () => null,
    now: NOW,
    lt: 50_000n,
    randomSeed: Buffer.alloc(32, 1),
    ...extra,
  };
  return { input, reads };
}

export { internal, toNano };
