// vesting: code hashes so far; storage loaders, get-method readers and message bodies come with the decoder.
export * from "./code-hashes.js";
