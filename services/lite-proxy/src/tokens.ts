// API v2: getTokenData. The kind of token is found by running the standard
// get-methods in toncenter's (CPP) order, jetton master, jetton wallet, NFT
// collection, NFT item: the first that exits with code 0 decides. A jetton
// wallet must be confirmed by its master (get_wallet_address), an NFT item by
// its collection (get_nft_address_by_index), whose get_nft_content also gives
// the item's full content. Every get-method of one call runs at one block.
import { create, fromJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Address, beginCell, type Cell, type TupleItem } from "@ton/core";
import { apiError } from "@tongate/runtime";
import { formatFriendly, packAddress } from "@tongate/ton";
import {
  GetTokenDataResponseSchema,
  JettonMasterDataSchema,
  JettonWalletDataSchema,
  NftCollectionDataSchema,
  NftItemContentSchema,
  NftItemDataSchema,
  TokenContentSchema,
  type GetTokenDataRequest,
  type GetTokenDataResponse,
} from "@tongate/proto/gen/tongate/v2/accounts_pb.js";
import type { ChainReader } from "./chain.js";
import { addressParam, cellBoc } from "./values.js";
import { runSmcMethod, type SmcRunResult } from "./smc.js";
import { parseTokenContent, unpackError } from "./token-content.js";
import type { StackItem } from "./tvm-stack.js";

const METHOD = "getTokenData";

/** A get-method's result stack, read with errors that say which value did not fit. */
class TokenStack {
  constructor(
    private readonly getMethod: string,
    private readonly items: StackItem[],
    size: number,
  ) {
    if (items.length < size) throw unpackError(`${getMethod} returned ${items.length} values, ${size} expected`);
  }

  private item(i: number, expected: string, ok: (t: StackItem["type"]) => boolean): StackItem {
    const item = this.items[i]!;
    if (!ok(item.type)) throw unpackError(`${this.getMethod} value ${i + 1} is a ${item.type}, ${expected} expected`);
    return item;
  }

  int(i: number): bigint {
    return (this.item(i, "an integer", (t) => t === "int") as { value: bigint }).value;
  }

  cell(i: number): Cell {
    return (this.item(i, "a cell", (t) => t === "cell" || t === "slice") as { cell: Cell }).cell;
  }

  /** A cell or null. */
  optionalCell(i: number): Cell | null {
    return this.items[i]!.type === "null" ? null : this.cell(i);
  }

  /** A slice holding a MsgAddress: null for addr_none (or a null entry); only addr_std is a token address. */
  address(i: number): Address | null {
    if (this.items[i]!.type === "null") return null;
    const cell = this.item(i, "a slice with an address", (t) => t === "slice" || t === "cell") as { cell: Cell };
    let a;
    try {
      a = cell.cell.beginParse().loadAddressAny();
    } catch (e) {
      throw unpackError(`${this.getMethod} value ${i + 1} is not an address: ${(e as Error).message}`);
    }
    if (a !== null && !Address.isAddress(a)) throw unpackError(`${this.getMethod} value ${i + 1} is not a standard address`);
    return a;
  }
}

/** As toncenter writes addresses it read from a contract: user-friendly, bounceable, url-safe. */
const friendly = (a: Address) => formatFriendly(a.workChain, a.hash);
const optionalFriendly = (a: Address | null) => (a ? friendly(a) : undefined);
const tokenContent = (cell: Cell, what: string) => {
  const c = parseTokenContent(cell, what);
  return create(TokenContentSchema, { type: c.type, data: fromJson(ValueSchema, c.data) });
};
const addressArg = (a: Address): TupleItem => ({ type: "slice", cell: beginCell().storeAddress(a).endCell() });

const notToken = () => apiError(409, "Smart contract is not Jetton or NFT");

/**
 * Checks that a master's get_wallet_address or a collection's get_nft_address_by_index answered
 * `expected`; a 409 worded by `failure(what it gave instead)` otherwise.
 */
function verify(r: SmcRunResult, getMethod: string, expected: Address, failure: (gave: string) => string): void {
  const got = r.exitCode === 0 ? new TokenStack(getMethod, r.stack, 1).address(0) : null;
  if (got?.equals(expected)) return;
  throw apiError(409, failure(r.exitCode !== 0 ? `exit code ${r.exitCode}` : got ? friendly(got) : "no address"));
}

type Variant = GetTokenDataResponse["variant"];
/** Runs a get-method at the block of the call. */
type Run = (on: Address, getMethod: string, stack: TupleItem[]) => Promise<SmcRunResult>;

export function tokensMethods(chain: ChainReader) {
  return {
    async getTokenData(req: GetTokenDataRequest) {
      const address = addressParam("address", req.address);
      const shown = packAddress(req.address); // the input, normalized as CPP echoes it
      const ok = (r: SmcRunResult) => r.exitCode === 0;
      // The first run fixes the block every other one runs at.
      const master = await runSmcMethod(chain, METHOD, address, "get_jetton_data", [], req.seqno);
      const run: Run = (on, getMethod, stack) => runSmcMethod(chain, METHOD, on, getMethod, stack, master.block.seqno);
      let variant: Variant;
      if (ok(master)) variant = jettonMaster(shown, master);
      else {
        const [wallet, collection, item] = await Promise.all(["get_wallet_data", "get_collection_data", "get_nft_data"].map((m) => run(address, m, [])));
        if (ok(wallet!)) variant = await jettonWallet(shown, address, wallet!, run);
        else if (ok(collection!)) variant = nftCollection(shown, collection!);
        else if (ok(item!)) variant = await nftItem(shown, address, item!, run);
        else throw notToken();
      }
      return create(GetTokenDataResponseSchema, { variant });
    },
  };
}

function jettonMaster(shown: string, r: SmcRunResult): Variant {
  const s = new TokenStack("get_jetton_data", r.stack, 5);
  return {
    case: "jettonMaster",
    value: create(JettonMasterDataSchema, {
      address: shown,
      contractType: "jetton_master",
      totalSupply: s.int(0).toString(),
      mintable: s.int(1) !== 0n,
      adminAddress: optionalFriendly(s.address(2)),
      jettonContent: tokenContent(s.cell(3), "jetton_content"),
      jettonWalletCode: cellBoc(s.cell(4)),
    }),
  };
}

async function jettonWallet(shown: string, address: Address, r: SmcRunResult, run: Run): Promise<Variant> {
  const s = new TokenStack("get_wallet_data", r.stack, 4);
  const owner = s.address(1);
  const jetton = s.address(2);
  if (!owner || !jetton) throw unpackError("get_wallet_data gave no owner or no jetton master address");
  const [confirm, claimed] = await Promise.all([run(jetton, "get_wallet_address", [addressArg(owner)]), run(address, "is_claimed", [])]);
  verify(confirm, "get_wallet_address", address, (gave) => `Verification on master failed: the jetton master ${friendly(jetton)} gives ${gave} as the wallet of ${friendly(owner)}, not ${shown}`);
  // Mintless jettons (CPP): is_claimed, when the wallet has it.
  const mintlessIsClaimed = claimed.exitCode === 0 && claimed.stack[0]?.type === "int" ? claimed.stack[0].value !== 0n : undefined;
  return {
    case: "jettonWallet",
    value: create(JettonWalletDataSchema, {
      address: shown,
      contractType: "jetton_wallet",
      balance: s.int(0).toString(),
      owner: friendly(owner),
      jetton: friendly(jetton),
      mintlessIsClaimed,
      jettonWalletCode: cellBoc(s.cell(3)),
    }),
  };
}

function nftCollection(shown: string, r: SmcRunResult): Variant {
  const s = new TokenStack("get_collection_data", r.stack, 3);
  return {
    case: "nftCollection",
    value: create(NftCollectionDataSchema, {
      address: shown,
      contractType: "nft_collection",
      nextItemIndex: s.int(0).toString(),
      collectionContent: tokenContent(s.cell(1), "collection_content"),
      ownerAddress: optionalFriendly(s.address(2)),
    }),
  };
}

async function nftItem(shown: string, address: Address, r: SmcRunResult, run: Run): Promise<Variant> {
  const s = new TokenStack("get_nft_data", r.stack, 5);
  const index = s.int(1);
  const collection = s.address(2);
  const individual = s.optionalCell(4);
  let content: Cell | null = individual;
  if (collection) {
    const indexArg: TupleItem = { type: "int", value: index };
    const [byIndex, full] = await Promise.all([
      run(collection, "get_nft_address_by_index", [indexArg]),
      individual ? run(collection, "get_nft_content", [indexArg, { type: "cell", cell: individual }]) : undefined,
    ]);
    verify(byIndex, "get_nft_address_by_index", address, (gave) => `Verification on collection failed: the collection ${friendly(collection)} gives ${gave} as item ${index}, not ${shown}`);
    if (full) {
      if (full.exitCode !== 0) throw apiError(500, `Exit code ${full.exitCode} != 0: get_nft_content of the collection ${friendly(collection)} for item ${index}`);
      content = new TokenStack("get_nft_content", full.stack, 1).cell(0);
    }
  }
  return {
    case: "nftItem",
    value: create(NftItemDataSchema, {
      address: shown,
      contractType: "nft_item",
      init: s.int(0) !== 0n,
      index: index.toString(),
      collectionAddress: optionalFriendly(collection),
      ownerAddress: optionalFriendly(s.address(3)),
      // An item not initialized yet has no content.
      content: content ? create(NftItemContentSchema, { variant: { case: "token", value: tokenContent(content, "content") } }) : undefined,
    }),
  };
}
