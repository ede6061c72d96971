// The test token contracts (the FunC sources beside this file): a TEP-74 jetton
// (minter and wallet) and a TEP-62 NFT collection with its items. They are
// compiled when first asked for with @ton-community/func-js (about 1.5 s for
// all four), so the code under test is always the source in the repository.
// Also here: the cells of their storage and admin messages, and TEP-64
// content, built independently of the code that parses them.
import { readFileSync } from "node:fs";
import { compileFunc } from "@ton-community/func-js";
import { beginCell, Cell, Dictionary, type Address } from "@ton/core";
import { createHash } from "node:crypto";

export type ContractName = "jetton-minter" | "jetton-wallet" | "nft-collection" | "nft-item" | "code-setter" | "big-results" | "hostile" | "stack-return";

const compiled = new Map<ContractName, Promise<Cell>>();

/** The code cell of a test contract. */
export function contractCode(name: ContractName): Promise<Cell> {
  let code = compiled.get(name);
  if (!code) {
    code = compile(name);
    compiled.set(name, code);
  }
  return code;
}

async function compile(name: ContractName): Promise<Cell> {
  const r = await compileFunc({ targets: [`${name}.fc`], sources: (path) => readFileSync(new URL(path, import.meta.url), "utf8") });
  if (r.status === "error") throw new Error(`${name}.fc: ${r.message}`);
  return Cell.fromBase64(r.codeBoc);
}

// ---- storage --------------------------------------------------------------

export function jettonMinterData(o: { totalSupply: bigint; admin: Address | null; content: Cell; walletCode: Cell }): Cell {
  return beginCell().storeCoins(o.totalSupply).storeAddress(o.admin).storeRef(o.content).storeRef(o.walletCode).endCell();
}

export function jettonWalletData(o: { balance: bigint; owner: Address; master: Address; walletCode: Cell }): Cell {
  return beginCell().storeCoins(o.balance).storeAddress(o.owner).storeAddress(o.master).storeRef(o.walletCode).endCell();
}

/** `commonContent`: the URI prefix of the items' off-chain content. */
export function nftCollectionData(o: { owner: Address; nextItemIndex: bigint; content: Cell; commonContent: string; itemCode: Cell }): Cell {
  const contents = beginCell().storeRef(o.content).storeRef(snake(Buffer.from(o.commonContent))).endCell();
  return beginCell().storeAddress(o.owner).storeUint(o.nextItemIndex, 64).storeRef(contents).storeRef(o.itemCode).endCell();
}

/**
 * An item's data: index and collection (null: a standalone item) before initialization; with an
 * owner and its content (a TEP-64 cell, or for items of a collection the collection's own part) after.
 */
export function nftItemData(o: { index: bigint; collection: Address | null; owner?: Address; content?: Cell }): Cell {
  const b = beginCell().storeUint(o.index, 64).storeAddress(o.collection);
  if (o.owner && o.content) b.storeAddress(o.owner).storeRef(o.content);
  return b.endCell();
}

// ---- messages -------------------------------------------------------------

const OP_MINT = 21;
const OP_DEPLOY_ITEM = 1;
const OP_JETTON_TRANSFER = 0x0f8a7ea5;
const OP_NFT_TRANSFER = 0x5fcc3d14;

/** To the minter from its admin: mint `amount` to `to`'s wallet, which gets `ton` nanotons. */
export function mintBody(o: { to: Address; ton: bigint; amount: bigint; queryId?: bigint }): Cell {
  return beginCell().storeUint(OP_MINT, 32).storeUint(o.queryId ?? 0n, 64).storeAddress(o.to).storeCoins(o.ton).storeCoins(o.amount).endCell();
}

/** TEP-74 transfer, to the sender's jetton wallet from its owner. */
export function jettonTransferBody(o: { amount: bigint; to: Address; responseTo: Address; forwardTon?: bigint; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(OP_JETTON_TRANSFER, 32)
    .storeUint(o.queryId ?? 0n, 64)
    .storeCoins(o.amount)
    .storeAddress(o.to)
    .storeAddress(o.responseTo)
    .storeMaybeRef(null)
    .storeCoins(o.forwardTon ?? 0n)
    .storeBit(0)
    .endCell();
}

/** To the collection from its owner: deploy item `index` for `owner` with `ton` nanotons; `content` is its own URI part. */
export function deployItemBody(o: { index: bigint; ton: bigint; owner: Address; content: string; queryId?: bigint }): Cell {
  const init = beginCell().storeAddress(o.owner).storeRef(snake(Buffer.from(o.content))).endCell();
  return beginCell().storeUint(OP_DEPLOY_ITEM, 32).storeUint(o.queryId ?? 0n, 64).storeUint(o.index, 64).storeCoins(o.ton).storeRef(init).endCell();
}

/** TEP-62 transfer, to the item from its owner. */
export function nftTransferBody(o: { newOwner: Address; responseTo: Address; forwardTon?: bigint; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(OP_NFT_TRANSFER, 32)
    .storeUint(o.queryId ?? 0n, 64)
    .storeAddress(o.newOwner)
    .storeAddress(o.responseTo)
    .storeMaybeRef(null)
    .storeCoins(o.forwardTon ?? 0n)
    .storeBit(0)
    .endCell();
}

// ---- TEP-64 content -------------------------------------------------------

/** Bytes as snake data after what `head` holds: each cell filled, the rest in its first ref. */
export function snake(bytes: Buffer, head = beginCell()): Cell {
  const room = Math.floor(head.availableBits / 8);
  head.storeBuffer(bytes.subarray(0, room));
  if (bytes.length > room) head.storeRef(snake(bytes.subarray(room)));
  return head.endCell();
}

/** Chunked data (prefix 0x01): chunks of at most 127 bytes in a dictionary keyed by their index. */
export function chunked(bytes: Buffer, chunkSize = 127): Cell {
  const chunks = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  for (let i = 0; i * chunkSize < bytes.length; i++) chunks.set(i, beginCell().storeBuffer(bytes.subarray(i * chunkSize, (i + 1) * chunkSize)).endCell());
  return beginCell().storeUint(1, 8).storeDict(chunks).endCell();
}

/** A value of on-chain content: a string or bytes in snake form, or a cell built by `chunked`. */
export type ContentValue = string | Buffer | Cell;

/** On-chain content (prefix 0x00): attributes keyed by the sha256 of their names. */
export function onchainContent(attributes: Record<string, ContentValue>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [name, value] of Object.entries(attributes)) {
    const key = BigInt(`0x${createHash("sha256").update(name).digest("hex")}`);
    dict.set(key, value instanceof Cell ? value : snake(Buffer.from(value), beginCell().storeUint(0, 8)));
  }
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

/** Off-chain content (prefix 0x01): the URI in snake form. */
export function offchainContent(uri: string): Cell {
  return snake(Buffer.from(uri), beginCell().storeUint(1, 8));
}
