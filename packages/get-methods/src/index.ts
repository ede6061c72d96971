// @tongate/get-methods: the standard get-methods of an account run in TON's emulator
// (@tongate/emulator's pool, with its time and memory bounds, and a gas limit), read into
// @tongate/contracts' typed views. For contracts whose code is not a known hash, where a storage
// loader cannot read the data. A run that gives no value is a ReadFailure, never a throw.
export { callGetMethod, GAS_LIMIT, readGetMethod, type AccountState, type GetMethodContext, type Read, type ReadFailure } from "./run.js";
export { confirmJettonWallet, confirmNftItem, getCollectionData, getJettonData, getNftContent, getNftData, getWalletData, isClaimed, type Confirmation } from "./readers.js";
export { MAX_RESULT_ENTRIES, readVmStack } from "./vm-stack.js";
export { confirmDedustPool, type DedustPoolConfirmation } from "./dedust.js";
