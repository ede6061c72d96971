// @tongate/contracts: what tongate knows of TON's standard contracts, one folder per standard:
// code hashes (generated from the fixtures' manifest by scripts/gen-contract-hashes.ts),
// detection, storage and get-method result readers.
export * from "./wallets/index.js";
export * from "./jetton/index.js";
export * from "./nft/index.js";
export * from "./dns/index.js";
export * from "./multisig/index.js";
export * from "./vesting/index.js";
export * from "./staking/index.js";
export * from "./metadata/index.js";
export { contractByCodeHash, detectContract, type KnownContract, type Standard } from "./detect.js";
export { ContractDataError } from "./errors.js";
export { StackReader, type StackItem } from "./stack.js";
