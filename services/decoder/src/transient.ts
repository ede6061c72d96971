// Failures that say nothing about the contract: the emulator's pool busy or closed, a run past its
// time bound or its process lost (a loaded machine), the liteserver not answering. Recorded as they
// are, a block's rows would depend on the machine's load at the time — a decoder restarted over the
// same blocks could write other rows. So a block that meets one is decoded again, a few times; on its
// last attempt the failures are recorded as the contract's (a contract that times out every time must
// not hold the decoder back).
import type { ReadFailure } from "@tongate/get-methods";

export class TransientFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TransientFailure";
  }
}

/** How a block's reads treat a transient failure: throw it (the block is decoded again) or record it. */
export type TransientPolicy = "retry" | "record";

const TRANSIENT_EMULATOR: ReadonlySet<string> = new Set(["busy", "closed", "timeout", "crash"]);

export const isTransient = (f: ReadFailure): boolean => f.reason === "emulator" && TRANSIENT_EMULATOR.has(f.emulator);

/** Throws `f` as a TransientFailure when it is one and the policy retries. */
export function throwIfTransient(f: ReadFailure, policy: TransientPolicy): void {
  if (policy === "retry" && isTransient(f)) throw new TransientFailure(`${f.method}: ${f.message}`);
}

/** A liteserver or emulator failure while preparing a run: thrown as transient, or undefined when recorded. */
export function unavailable(e: unknown, policy: TransientPolicy): undefined {
  if (policy === "retry") throw new TransientFailure(`get-methods cannot run now: ${e instanceof Error ? e.message : String(e)}`);
  return undefined;
}
