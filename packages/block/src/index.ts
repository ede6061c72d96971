// @tongate/block: TL-B loaders and storers for TON blocks (block.tlb), shared by the indexer (parses
// real blocks) and localnet (builds them). One `loadX(slice)` / `storeX(value)(builder)` pair per
// TL-B type, @ton/core style; augmented dictionaries are rebuilt with their fork extras.
export * from "./dict.js";
export * from "./currency.js";
export * from "./shard.js";
export * from "./blockid.js";
export * from "./merkle.js";
export * from "./messages.js";
export * from "./accountblocks.js";
export * from "./mcblock.js";
export * from "./block.js";
export * from "./config.js";
export * from "./proof.js";
export * from "./state.js";
