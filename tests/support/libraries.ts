// Public libraries in tests: the Jetton 2.0 wallet of the contract fixtures (its code and the
// library cell mainnet wallets hold as code), and accounts whose code is a library cell.
import { readFileSync } from "node:fs";
import { beginCell, Cell, type Address } from "@ton/core";
import { contractCode } from "./contracts/index.js";
import type { LocalnetSender } from "./localnet-deploy.js";

const fixture = (file: string) => Cell.fromBoc(readFileSync(new URL(`../../../shared/fixtures/contracts/${file}`, import.meta.url)))[0]!;

/** The Jetton 2.0 wallet's code (jetton2_wallet.code.boc). */
export const jetton2WalletCode = (): Cell => fixture("jetton2_wallet.code.boc");

/** The library cell (exotic, type 2) that stands for that code on mainnet (jetton2_wallet.library.boc). */
export const jetton2WalletLibrary = (): Cell => fixture("jetton2_wallet.library.boc");

/** A Jetton 2.0 wallet's data: status:uint4 balance:Coins owner_address:MsgAddress jetton_master_address:MsgAddress. */
export function jetton2WalletData(o: { balance: bigint; owner: Address; master: Address }): Cell {
  return beginCell().storeUint(0, 4).storeCoins(o.balance).storeAddress(o.owner).storeAddress(o.master).endCell();
}

/**
 * Makes an account whose code is `code` — a library cell too, published or not — and whose data
 * is `data`: it deploys the code setter (tests/support/contracts/code-setter.fc), whose first
 * message sets both in its action phase, where the new code does not run. `salt` tells accounts apart.
 */
export async function accountWithCode(sender: LocalnetSender, code: Cell, data: Cell, salt: number): Promise<Address> {
  const init = { code: await contractCode("code-setter"), data: beginCell().storeUint(salt, 32).endCell() };
  return sender.deploy(init, 2_000_000_000n, beginCell().storeRef(code).storeRef(data).endCell());
}
