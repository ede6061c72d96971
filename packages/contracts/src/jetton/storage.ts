// Jetton minter and wallet data cells (the contracts' load_data), by family: the 2022 reference and
// token-contract (wallet code in the data), and Jetton 2.0, the stablecoin and mintless jettons
// (a status field, the wallet code as a library, a next admin, the metadata URI).
import type { Address, Builder, Cell, Slice } from "@ton/core";

/** total_supply:Coins admin_address:MsgAddress content:^Cell jetton_wallet_code:^Cell (reference minter, token-contract). */
export interface JettonMinterStorage {
  totalSupply: bigint;
  adminAddress: Address | null;
  /** TEP-64 content (parseTokenContent reads it). */
  content: Cell;
  jettonWalletCode: Cell;
}

export function loadJettonMinterStorage(s: Slice): JettonMinterStorage {
  return { totalSupply: s.loadCoins(), adminAddress: s.loadMaybeAddress(), content: s.loadRef(), jettonWalletCode: s.loadRef() };
}

export const storeJettonMinterStorage = (src: JettonMinterStorage) => (b: Builder) =>
  b.storeCoins(src.totalSupply).storeAddress(src.adminAddress).storeRef(src.content).storeRef(src.jettonWalletCode);

/**
 * total_supply:Coins admin_address:MsgAddress next_admin_address:MsgAddress jetton_wallet_code:^Cell
 * metadata_uri:^Cell, and for mintless minters merkle_root:uint256 (Jetton 2.0, stablecoin, mintless).
 */
export interface JettonMinterV2Storage {
  totalSupply: bigint;
  adminAddress: Address | null;
  nextAdminAddress: Address | null;
  jettonWalletCode: Cell;
  /** The metadata URI's bytes (snake data). */
  metadataUri: Cell;
  /** Mintless minters: the root of the airdrop's Merkle tree. */
  merkleRoot?: bigint;
}

export function loadJettonMinterV2Storage(s: Slice): JettonMinterV2Storage {
  const st: JettonMinterV2Storage = {
    totalSupply: s.loadCoins(),
    adminAddress: s.loadMaybeAddress(),
    nextAdminAddress: s.loadMaybeAddress(),
    jettonWalletCode: s.loadRef(),
    metadataUri: s.loadRef(),
  };
  if (s.remainingBits >= 256) st.merkleRoot = s.loadUintBig(256);
  return st;
}

export function storeJettonMinterV2Storage(src: JettonMinterV2Storage): (b: Builder) => void {
  return (b) => {
    b.storeCoins(src.totalSupply).storeAddress(src.adminAddress).storeAddress(src.nextAdminAddress).storeRef(src.jettonWalletCode).storeRef(src.metadataUri);
    if (src.merkleRoot !== undefined) b.storeUint(src.merkleRoot, 256);
  };
}

/** balance:Coins owner_address:MsgAddressInt jetton_master_address:MsgAddressInt jetton_wallet_code:^Cell (reference wallet, token-contract). */
export interface JettonWalletStorage {
  balance: bigint;
  ownerAddress: Address;
  jettonMasterAddress: Address;
  jettonWalletCode: Cell;
}

export function loadJettonWalletStorage(s: Slice): JettonWalletStorage {
  return { balance: s.loadCoins(), ownerAddress: s.loadAddress(), jettonMasterAddress: s.loadAddress(), jettonWalletCode: s.loadRef() };
}

export const storeJettonWalletStorage = (src: JettonWalletStorage) => (b: Builder) =>
  b.storeCoins(src.balance).storeAddress(src.ownerAddress).storeAddress(src.jettonMasterAddress).storeRef(src.jettonWalletCode);

/**
 * status:uint4 balance:Coins owner_address:MsgAddress jetton_master_address:MsgAddress, and for
 * mintless wallets merkle_root:uint256 salt:uint10 (Jetton 2.0, stablecoin, mintless).
 */
export interface JettonWalletV2Storage {
  /** Stablecoin: bit 0 blocks sending, bit 1 receiving (set_status). */
  status: number;
  balance: bigint;
  ownerAddress: Address | null;
  jettonMasterAddress: Address | null;
  /** Mintless wallets. */
  mintless?: { merkleRoot: bigint; salt: number };
}

export function loadJettonWalletV2Storage(s: Slice): JettonWalletV2Storage {
  const st: JettonWalletV2Storage = { status: s.loadUint(4), balance: s.loadCoins(), ownerAddress: s.loadMaybeAddress(), jettonMasterAddress: s.loadMaybeAddress() };
  if (s.remainingBits >= 266) st.mintless = { merkleRoot: s.loadUintBig(256), salt: s.loadUint(10) };
  return st;
}

export function storeJettonWalletV2Storage(src: JettonWalletV2Storage): (b: Builder) => void {
  return (b) => {
    b.storeUint(src.status, 4).storeCoins(src.balance).storeAddress(src.ownerAddress).storeAddress(src.jettonMasterAddress);
    if (src.mintless) b.storeUint(src.mintless.merkleRoot, 256).storeUint(src.mintless.salt, 10);
  };
}
