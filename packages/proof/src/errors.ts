// ProofError: every rejection of a liteserver answer by this package is one of these, with a message that
// names the answer, the proof part and what did not match.

export class ProofError extends Error {
  override readonly name = "ProofError";
}

export function fail(message: string): never {
  throw new ProofError(message);
}

/**
 * Runs `fn`; any error that is not already a ProofError (a malformed BoC, a TL-B constructor that does not
 * parse, a read into a pruned branch that was not expected, …) becomes a ProofError prefixed with `what`.
 */
export function guard<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ProofError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    // @ton/core's refusal to read a pruned branch (or other exotic cell) as data.
    if (msg === "Exotic cells cannot be parsed") throw new ProofError(`${what}: the proof prunes data that must be present`);
    throw new ProofError(`${what}: ${msg}`);
  }
}
