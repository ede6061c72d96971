// TEP-74 get-method results: a jetton master's get_jetton_data and a jetton wallet's get_wallet_data.
import type { Address, Cell } from "@ton/core";
import { StackReader, type StackItem } from "../stack.js";

export interface JettonData {
  totalSupply: bigint;
  mintable: boolean;
  admin: Address | null;
  /** TEP-64 content (metadata/content.ts reads it). */
  content: Cell;
  walletCode: Cell;
}

/** get_jetton_data: (int total_supply, int mintable, slice admin_address, cell jetton_content, cell jetton_wallet_code). */
export function readJettonData(stack: StackItem[]): JettonData {
  const s = new StackReader("get_jetton_data", stack, 5);
  return { totalSupply: s.int(0), mintable: s.int(1) !== 0n, admin: s.address(2), content: s.cell(3), walletCode: s.cell(4) };
}

export interface JettonWalletData {
  balance: bigint;
  owner: Address | null;
  jetton: Address | null;
  walletCode: Cell;
}

/** get_wallet_data: (int balance, slice owner, slice jetton, cell jetton_wallet_code). */
export function readJettonWalletData(stack: StackItem[]): JettonWalletData {
  const s = new StackReader("get_wallet_data", stack, 4);
  return { balance: s.int(0), owner: s.address(1), jetton: s.address(2), walletCode: s.cell(3) };
}

/** get_wallet_address(slice owner) of a master: the wallet's address (null for addr_none). */
export function readWalletAddress(stack: StackItem[]): Address | null {
  return new StackReader("get_wallet_address", stack, 1).address(0);
}

/** Mintless jettons: is_claimed, when the wallet has it (an integer on top), else undefined. */
export function readIsClaimed(stack: StackItem[]): boolean | undefined {
  return stack[0]?.type === "int" ? stack[0].value !== 0n : undefined;
}
