// API v2: getTokenData. The kind of token is found by running the standard
// get-methods in toncenter's (CPP) order, jetton master, jetton wallet, NFT
// collection, NFT item: the first that exits with code 0 decides. A jetton
// wallet must be confirmed by its master (get_wallet_address), an NFT item by
// its collection (get_nft_address_by_index), whose get_nft_content also gives
// the item's full content. Every get-method of one call runs at one block.
import { create, fromJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { beginCell, type Address, type Cell, type TupleItem } from "@ton/core";
import {
  ContractDataError,
  parseTokenContent,
  readCollectionData,
  readIsClaimed,
  readJettonData,
  readJettonWalletData,
  readNftAddressByIndex,
  readNftContent,
  readNftData,
  readWalletAddress,
} from "@tongate/contracts";
import { apiError } from "@tongate/runtime";
import { formatFriendly, MAX_VM_STACK_DEPTH, packAddress } from "@tongate/ton";
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

const METHOD = "getTokenData";

/** A contract answered token data that does not fit the standards: toncenter's 500. */
const unpackError = (what: string) => apiError(500, `Failed to unpack token data: ${what}`);

/** What @tongate/contracts found wrong with a contract's answer, as toncenter words it. */
function tokenError(e: unknown): unknown {
  if (!(e instanceof ContractDataError)) return e;
  return e.kind === "uri" ? apiError(500, `Invalid uri: ${e.message}`) : unpackError(e.message);
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
function verify(r: SmcRunResult, read: (stack: SmcRunResult["stack"]) => Address | null, expected: Address, failure: (gave: string) => string): void {
  const got = r.exitCode === 0 ? read(r.stack) : null;
  if (got?.equals(expected)) return;
  throw apiError(409, failure(r.exitCode !== 0 ? `exit code ${r.exitCode}` : got ? friendly(got) : "no address"));
}

type Variant = GetTokenDataResponse["variant"];
/** Runs a get-method at the block of the call. */
type Run = (on: Address, getMethod: string, stack: TupleItem[]) => Promise<SmcRunResult>;

export function tokensMethods(chain: ChainReader) {
  return {
    async getTokenData(req: GetTokenDataRequest) {
      try {
        return await tokenData(req);
      } catch (e) {
        throw tokenError(e);
      }
    },
  };

  async function tokenData(req: GetTokenDataRequest) {
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
  }
}

function jettonMaster(shown: string, r: SmcRunResult): Variant {
  const d = readJettonData(r.stack);
  return {
    case: "jettonMaster",
    value: create(JettonMasterDataSchema, {
      address: shown,
      contractType: "jetton_master",
      totalSupply: d.totalSupply.toString(),
      mintable: d.mintable,
      adminAddress: optionalFriendly(d.admin),
      jettonContent: tokenContent(d.content, "jetton_content"),
      jettonWalletCode: cellBoc(d.walletCode),
    }),
  };
}

async function jettonWallet(shown: string, address: Address, r: SmcRunResult, run: Run): Promise<Variant> {
  const d = readJettonWalletData(r.stack);
  const { owner, jetton } = d;
  if (!owner || !jetton) throw unpackError("get_wallet_data gave no owner or no jetton master address");
  const [confirm, claimed] = await Promise.all([run(jetton, "get_wallet_address", [addressArg(owner)]), run(address, "is_claimed", [])]);
  verify(confirm, readWalletAddress, address, (gave) => `Verification on master failed: the jetton master ${friendly(jetton)} gives ${gave} as the wallet of ${friendly(owner)}, not ${shown}`);
  // Mintless jettons (CPP): is_claimed, when the wallet has it.
  const mintlessIsClaimed = claimed.exitCode === 0 ? readIsClaimed(claimed.stack) : undefined;
  return {
    case: "jettonWallet",
    value: create(JettonWalletDataSchema, {
      address: shown,
      contractType: "jetton_wallet",
      balance: d.balance.toString(),
      owner: friendly(owner),
      jetton: friendly(jetton),
      mintlessIsClaimed,
      jettonWalletCode: cellBoc(d.walletCode),
    }),
  };
}

function nftCollection(shown: string, r: SmcRunResult): Variant {
  const d = readCollectionData(r.stack);
  return {
    case: "nftCollection",
    value: create(NftCollectionDataSchema, {
      address: shown,
      contractType: "nft_collection",
      nextItemIndex: d.nextItemIndex.toString(),
      collectionContent: tokenContent(d.content, "collection_content"),
      ownerAddress: optionalFriendly(d.owner),
    }),
  };
}

async function nftItem(shown: string, address: Address, r: SmcRunResult, run: Run): Promise<Variant> {
  const d = readNftData(r.stack);
  const { index, collection } = d;
  const individual = d.individualContent;
  let content: Cell | null = individual;
  if (collection) {
    // The item's content goes back to the emulator as an argument, where a stack has a depth bound.
    if (individual && individual.depth() + 2 > MAX_VM_STACK_DEPTH) {
      throw unpackError(`get_nft_data's individual content is ${individual.depth()} cells deep, too deep to pass to get_nft_content (a get-method's stack may be ${MAX_VM_STACK_DEPTH} deep)`);
    }
    const indexArg: TupleItem = { type: "int", value: index };
    const [byIndex, full] = await Promise.all([
      run(collection, "get_nft_address_by_index", [indexArg]),
      individual ? run(collection, "get_nft_content", [indexArg, { type: "cell", cell: individual }]) : undefined,
    ]);
    verify(byIndex, readNftAddressByIndex, address, (gave) => `Verification on collection failed: the collection ${friendly(collection)} gives ${gave} as item ${index}, not ${shown}`);
    if (full) {
      if (full.exitCode !== 0) throw apiError(500, `Exit code ${full.exitCode} != 0: get_nft_content of the collection ${friendly(collection)} for item ${index}`);
      content = readNftContent(full.stack);
    }
  }
  return {
    case: "nftItem",
    value: create(NftItemDataSchema, {
      address: shown,
      contractType: "nft_item",
      init: d.init,
      index: index.toString(),
      collectionAddress: optionalFriendly(collection),
      ownerAddress: optionalFriendly(d.owner),
      // An item not initialized yet has no content.
      content: content ? create(NftItemContentSchema, { variant: { case: "token", value: tokenContent(content, "content") } }) : undefined,
    }),
  };
}
