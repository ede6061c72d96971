// Wallet contracts recognized by the representation hash of their code cell (toncenter C++'s
// table, v2-api.md "getWalletInformation"), and what their data cell says: seqno, wallet_id and,
// for v5, whether signed external messages are allowed.
import type { Cell } from "@ton/core";
import { WALLETS_CODE_HASHES as H } from "./code-hashes.js";

export interface WalletKind {
  /** toncenter's wallet_type, e.g. "wallet v4 r2". */
  type: string;
  version: 1 | 2 | 3 | 4 | 5;
  /** tonlib's revision of this wallet code (fullAccountState.revision); 0 for the v5 codes tonlib does not know. */
  revision: number;
}

const WALLETS: Record<string, WalletKind> = {
  [H.wallet_v1r1]: { type: "wallet v1 r1", version: 1, revision: 1 },
  [H.wallet_v1r2]: { type: "wallet v1 r2", version: 1, revision: 2 },
  [H.wallet_v1r3]: { type: "wallet v1 r3", version: 1, revision: 3 },
  [H.wallet_v2r1]: { type: "wallet v2 r1", version: 2, revision: 1 },
  [H.wallet_v2r2]: { type: "wallet v2 r2", version: 2, revision: 2 },
  [H.wallet_v3r1]: { type: "wallet v3 r1", version: 3, revision: 1 },
  [H.wallet_v3r2]: { type: "wallet v3 r2", version: 3, revision: 2 },
  [H.wallet_v4r1]: { type: "wallet v4 r1", version: 4, revision: 1 },
  [H.wallet_v4r2]: { type: "wallet v4 r2", version: 4, revision: 2 },
  // Not among the fixtures: the v5 beta code (toncenter C++'s table).
  "89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M=": { type: "wallet v5 beta", version: 5, revision: 0 },
  [H.wallet_v5r1]: { type: "wallet v5 r1", version: 5, revision: 0 },
};

export function detectWallet(code: Cell | undefined): WalletKind | undefined {
  return code ? walletByCodeHash(code.hash().toString("base64")) : undefined;
}

/** The wallet whose code has this representation hash (standard base64). */
export function walletByCodeHash(codeHash: string | null | undefined): WalletKind | undefined {
  return codeHash ? WALLETS[codeHash] : undefined;
}

export interface WalletData {
  seqno: number;
  /** v3 and later. */
  walletId?: number;
  /** v5 only. */
  isSignatureAllowed?: boolean;
}

/**
 * The wallet fields of a recognized wallet's data cell (bit offsets as toncenter reads them):
 * v1/v2 seqno:uint32; v3/v4 seqno:uint32 wallet_id:uint32; v5 a flag bit, seqno:uint32, wallet_id:uint32.
 * The v5 flag is is_signature_allowed in r1; in v5 beta it is the sign of an int33 seqno, set when
 * signatures are disabled (toncenter reads it as r1's flag; we do not). Undefined when the data is too short.
 */
export function walletData(kind: WalletKind, data: Cell): WalletData | undefined {
  const s = data.beginParse();
  const need = kind.version <= 2 ? 32 : kind.version === 5 ? 65 : 64;
  if (s.remainingBits < need) return undefined;
  if (kind.version <= 2) return { seqno: s.loadUint(32) };
  if (kind.version <= 4) return { seqno: s.loadUint(32), walletId: s.loadUint(32) };
  const flag = s.loadBit();
  return { isSignatureAllowed: kind.type === "wallet v5 beta" ? !flag : flag, seqno: s.loadUint(32), walletId: s.loadUint(32) };
}
