/** The scheme text is not TL-B this package understands (a parse or a resolution error, with its line). */
export class TlbSchemeError extends Error {
  override name = "TlbSchemeError";
}

/**
 * A cell does not match the scheme: `path` names the constructors and fields from the outermost
 * value to the one where reading stopped (e.g. `jetton_transfer.forward_payload > second_from_either.value`).
 */
export class TlbReadError extends Error {
  override name = "TlbReadError";
  constructor(
    readonly reason: string,
    readonly path: readonly string[],
  ) {
    super(path.length ? `${path.join(" > ")}: ${reason}` : reason);
  }
}
