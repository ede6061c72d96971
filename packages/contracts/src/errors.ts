// What a contract answered does not fit its standard. A service maps it to its own status at its
// boundary (lite-proxy: toncenter's 500 "Failed to unpack token data: ..." / "Invalid uri: ...").
export class ContractDataError extends Error {
  constructor(
    message: string,
    /** "uri": an off-chain metadata URI that is not UTF-8; "unpack": any other value that does not fit. */
    readonly kind: "unpack" | "uri" = "unpack",
  ) {
    super(message);
    this.name = "ContractDataError";
  }
}
