// The compiled code of real TON contracts (../shared/fixtures/contracts, manifest.json there says
// where each comes from), for the token and action scenarios.
import { readFileSync } from "node:fs";
import { Cell } from "@ton/core";

const DIR = new URL("../../../../shared/fixtures/contracts/", import.meta.url);

/** The fixture contracts the scenarios deploy. */
export type FixtureContract =
  | "jetton_minter_legacy"
  | "jetton_wallet_legacy"
  | "jetton2_minter"
  | "jetton2_wallet"
  | "stablecoin_minter"
  | "stablecoin_wallet"
  | "nft_collection_editable"
  | "nft_item"
  | "nft_sale_getgems_v3r3"
  | "nft_auction_getgems_v3r3"
  | "telemint_collection"
  | "telemint_item"
  | "multisig_v2"
  | "multisig_order_v2"
  | "vesting_wallet"
  | "nominator_pool";

/** The contracts whose code mainnet accounts hold as a library cell. */
export type LibraryContract = "jetton2_wallet" | "stablecoin_wallet" | "multisig_order_v2";

const cells = new Map<string, Cell>();

function load(file: string): Cell {
  let c = cells.get(file);
  if (!c) {
    c = Cell.fromBoc(readFileSync(new URL(file, DIR)))[0]!;
    cells.set(file, c);
  }
  return c;
}

/** The contract's code cell (<name>.code.boc). */
export const fixtureCode = (name: FixtureContract): Cell => load(`${name}.code.boc`);

/** The library cell (exotic, type 2) standing for the contract's code (<name>.library.boc). */
export const fixtureLibrary = (name: LibraryContract): Cell => load(`${name}.library.boc`);
