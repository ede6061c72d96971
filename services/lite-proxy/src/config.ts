// API v2: getConfigParam, getConfigAll, getLibraries.
import type { ChainReader } from "./chain.js";

export function configMethods(_chain: ChainReader) {
  return {};
}
