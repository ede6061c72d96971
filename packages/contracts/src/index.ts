// @tongate/contracts: what tongate knows of TON's standard contracts, one folder per standard:
// code hashes (generated from the fixtures' manifest by scripts/gen-contract-hashes.ts),
// detection, storage loaders, get-method result readers and message body loaders/storers named
// after their TL-B constructors (@ton/core style: loadX(slice) / storeX(src)(builder)).
export * from "./common/index.js";
export * from "./wallets/index.js";
export * from "./jetton/index.js";
export * from "./nft/index.js";
export * from "./dns/index.js";
export * from "./multisig/index.js";
export * from "./vesting/index.js";
export * from "./staking/index.js";
export * from "./metadata/index.js";
export { contractByCodeHash, detectContract, type KnownContract, type Standard } from "./detect.js";
export { getMethodIds, MAX_METHOD_IDS, type LibraryResolver } from "./method-ids.js";
export { detectInterfaces, hasRole, interfaceByName, INTERFACES, type ContractInterface, type InterfaceInputs, type InterfaceRole } from "./interfaces.js";
export { ContractDataError } from "./errors.js";
export { StackReader, type StackItem } from "./stack.js";
export * from "./tlb.js";
export * from "./out-actions.js";
export * from "./precompiled.js";
export { readStateByGetMethods, type GetMethodRunner } from "./get-method-state.js";
export * from "./dedust/liquidity.js";
export * from "./tonco/liquidity.js";
export * from "./stonfi/liquidity.js";
