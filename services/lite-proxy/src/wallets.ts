// API v2: getWalletInformation, getExtendedAddressInformation.
import type { ChainReader } from "./chain.js";

export function walletsMethods(_chain: ChainReader) {
  return {};
}
