// Wallets v1–v5 and highload v1–v3: code hashes, detection, data-cell readers.
export * from "./code-hashes.js";
export { detectWallet, walletByCodeHash, walletData, type WalletData, type WalletKind } from "./wallet.js";
