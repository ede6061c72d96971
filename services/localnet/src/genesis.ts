// Genesis: the config and the funded wallets a new chain starts with, all
// derived from the seed, and the masterchain's special accounts (elector, config).
import { Address, beginCell, Cell, storeShardAccount, storeStateInit, type ShardAccount, type StateInit } from "@ton/core";
import type { KeyPair } from "@ton/crypto";
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { loadBaseConfig, localnetConfig } from "./config.js";
import { deriveKeyPair } from "./keys.js";
import { specialGenesisContracts } from "./special-accounts.js";

export interface GenesisWallet {
  version: "v4r2" | "v5r1";
  address: Address;
  keyPair: KeyPair;
  init: StateInit;
}

export interface Genesis {
  seed: string;
  globalId: number;
  now: number;
  config: Cell;
  validator: KeyPair;
  wallets: GenesisWallet[];
  /** Account id (hex) → ShardAccount, the initial state of workchain 0. */
  accounts: Map<string, ShardAccount>;
  /** Account id (hex) → ShardAccount, the initial state of the masterchain: its special accounts (special-accounts.ts). */
  masterchainAccounts: Map<string, ShardAccount>;
}

export interface GenesisOptions {
  seed: string;
  /** Number of funded wallets of each kind (v4r2 and v5r1). */
  wallets?: number;
  /** Balance of each wallet, nanotons. */
  balance?: bigint;
  now?: number;
  /** global_id of the chain (mainnet -239: v5 wallet ids computed for mainnet work unchanged). */
  globalId?: number;
}

export function createGenesis(o: GenesisOptions): Genesis {
  const now = o.now ?? Math.floor(Date.now() / 1000);
  const globalId = o.globalId ?? -239;
  const validator = deriveKeyPair(o.seed, "validator/0");
  const config = localnetConfig(loadBaseConfig(), [{ publicKey: validator.publicKey, weight: 1n }], now);
  const wallets: GenesisWallet[] = [];
  const n = o.wallets ?? 4;
  for (let i = 0; i < n; i++) {
    const kp4 = deriveKeyPair(o.seed, `wallet/v4r2/${i}`);
    const v4 = WalletContractV4.create({ workchain: 0, publicKey: kp4.publicKey });
    wallets.push({ version: "v4r2", address: v4.address, keyPair: kp4, init: v4.init });
    const kp5 = deriveKeyPair(o.seed, `wallet/v5r1/${i}`);
    const v5 = WalletContractV5R1.create({ workchain: 0, publicKey: kp5.publicKey, walletId: { networkGlobalId: globalId } });
    wallets.push({ version: "v5r1", address: v5.address, keyPair: kp5, init: v5.init });
  }
  const balance = o.balance ?? 1_000_000n * 1_000_000_000n;
  const accounts = new Map<string, ShardAccount>();
  for (const w of wallets) accounts.set(w.address.hash.toString("hex"), activeAccount(w.address, w.init, balance, now));
  const masterchainAccounts = new Map<string, ShardAccount>();
  for (const s of specialGenesisContracts(config)) masterchainAccounts.set(s.address.hash.toString("hex"), activeAccount(s.address, s.init, s.balance, now));
  return { seed: o.seed, globalId, now, config, validator, wallets, accounts, masterchainAccounts };
}

/** An active account holding `init`, as if deployed before the first block. */
export function activeAccount(address: Address, init: StateInit, balance: bigint, now: number): ShardAccount {
  const stateInit = beginCell().store(storeStateInit(init)).endCell();
  return {
    account: {
      addr: address,
      storageStats: {
        used: { cells: BigInt(countCells(stateInit)), bits: BigInt(countBits(stateInit)) },
        lastPaid: now,
        duePayment: null,
        storageExtra: null,
      },
      storage: { lastTransLt: 0n, balance: { coins: balance }, state: { type: "active", state: init } },
    },
    lastTransactionLt: 0n,
    lastTransactionHash: 0n,
  };
}

export function shardAccountCell(sa: ShardAccount): Cell {
  return beginCell().store(storeShardAccount(sa)).endCell();
}

function countCells(c: Cell, seen = new Set<string>()): number {
  const h = c.hash().toString("hex");
  if (seen.has(h)) return 0;
  seen.add(h);
  return 1 + c.refs.reduce((n, r) => n + countCells(r, seen), 0);
}

function countBits(c: Cell, seen = new Set<string>()): number {
  const h = c.hash().toString("hex");
  if (seen.has(h)) return 0;
  seen.add(h);
  return c.bits.length + c.refs.reduce((n, r) => n + countBits(r, seen), 0);
}
