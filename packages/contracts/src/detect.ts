// Which standard a contract follows, by the hash of its code (or of the library cell its code is).
import type { Cell } from "@ton/core";
import { DNS_CODE_HASHES, DNS_LIBRARY_CODE_HASHES } from "./dns/code-hashes.js";
import { JETTON_CODE_HASHES, JETTON_LIBRARY_CODE_HASHES } from "./jetton/code-hashes.js";
import { MULTISIG_CODE_HASHES, MULTISIG_LIBRARY_CODE_HASHES } from "./multisig/code-hashes.js";
import { NFT_CODE_HASHES, NFT_LIBRARY_CODE_HASHES } from "./nft/code-hashes.js";
import { STAKING_CODE_HASHES, STAKING_LIBRARY_CODE_HASHES } from "./staking/code-hashes.js";
import { VESTING_CODE_HASHES, VESTING_LIBRARY_CODE_HASHES } from "./vesting/code-hashes.js";
import { WALLETS_CODE_HASHES, WALLETS_LIBRARY_CODE_HASHES } from "./wallets/code-hashes.js";

/** The folders of this package, one per standard. */
export type Standard = "wallets" | "jetton" | "nft" | "dns" | "multisig" | "vesting" | "staking";

export interface KnownContract {
  standard: Standard;
  /** The contract's name in the fixtures' manifest, e.g. "jetton2_wallet". */
  name: string;
  /** The hash is of the library reference cell, not of the code itself. */
  library: boolean;
}

const TABLES: [Standard, Record<string, string>, Record<string, string | undefined>][] = [
  ["wallets", WALLETS_CODE_HASHES, WALLETS_LIBRARY_CODE_HASHES],
  ["jetton", JETTON_CODE_HASHES, JETTON_LIBRARY_CODE_HASHES],
  ["nft", NFT_CODE_HASHES, NFT_LIBRARY_CODE_HASHES],
  ["dns", DNS_CODE_HASHES, DNS_LIBRARY_CODE_HASHES],
  ["multisig", MULTISIG_CODE_HASHES, MULTISIG_LIBRARY_CODE_HASHES],
  ["vesting", VESTING_CODE_HASHES, VESTING_LIBRARY_CODE_HASHES],
  ["staking", STAKING_CODE_HASHES, STAKING_LIBRARY_CODE_HASHES],
];

const BY_HASH = new Map<string, KnownContract>();
for (const [standard, code, library] of TABLES) {
  for (const [name, hash] of Object.entries(code)) BY_HASH.set(hash, { standard, name, library: false });
  for (const [name, hash] of Object.entries(library)) if (hash) BY_HASH.set(hash, { standard, name, library: true });
}

/** The known contract whose code (or library cell) has this representation hash (standard base64). */
export function contractByCodeHash(codeHash: string | null | undefined): KnownContract | undefined {
  return codeHash ? BY_HASH.get(codeHash) : undefined;
}

export function detectContract(code: Cell | undefined): KnownContract | undefined {
  return code ? contractByCodeHash(code.hash().toString("base64")) : undefined;
}
