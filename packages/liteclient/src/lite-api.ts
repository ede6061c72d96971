// Typed lite_api calls: a function object (`{ kind: "liteServer.getAccountState", id, account }`) in, its
// answer's generated type (@tongate/tl's LiteAnswers, from lite_api.tl) out.
import type { LiteAnswers, LiteFunctions } from "@tongate/tl";

/**
 * What the encoder accepts for a decoded shape T: nested objects may leave out `kind` (bare fields), Uint8Array
 * for bytes/int256, a safe-integer number for a long, false for an absent `mode.N?true` flag.
 */
export type LiteInput<T> = T extends Buffer
  ? Uint8Array
  : T extends true
    ? boolean
  : T extends bigint
    ? bigint | number
    : T extends readonly (infer E)[]
      ? readonly LiteInput<E>[]
      : T extends { kind: string }
        ? { kind?: T["kind"] } & { [P in keyof T as P extends "kind" ? never : P]: LiteInput<T[P]> }
        : T;

/** lite_api functions sent as a query (the liteServer.query / queryPrefix / waitMasterchainSeqno wrappers are the pool's). */
export type LiteQueryName = Exclude<keyof LiteFunctions, "liteServer.query" | "liteServer.queryPrefix" | "liteServer.waitMasterchainSeqno">;

/** A call of lite_api function K, as the pool's query() takes it. */
export type LiteCall<K extends LiteQueryName> = { kind: K } & { [P in keyof LiteFunctions[K] as P extends "kind" ? never : P]: LiteInput<LiteFunctions[K][P]> };

/** The decoded answer of lite_api function K. */
export type LiteAnswer<K extends LiteQueryName> = LiteAnswers[K];

/** Any lite_api call. */
export type AnyLiteCall = { [K in LiteQueryName]: LiteCall<K> }[LiteQueryName];
