// The contract facts the classifier may consult, by address: what toncenter's interface repository
// holds (jetton wallets with their owner and master, NFT items, sales, auctions, ...). The decoder
// supplies them from its own tables (only confirmed wallets and items); the replay harness from a
// trace file's `interfaces`. The lookup is synchronous: the caller gathers the facts of
// `addressesToLookUp(trace)` before classifying.

export interface JettonWalletFacts {
  address: string;
  owner: string;
  /** the jetton master */
  jetton: string;
  balance: bigint;
}

export interface JettonMasterFacts {
  address: string;
  admin: string | null;
}

export interface NftItemFacts {
  address: string;
  init: boolean;
  index: bigint;
  collectionAddress: string | null;
  ownerAddress: string | null;
  /** whatever metadata is known (name, description, image, uri, domain, ...) */
  content: Record<string, string> | null;
  /** the item's code hash (base64), when known: tells .ton domains apart */
  codeHash?: string | null;
}

export interface NftSaleFacts {
  address: string;
  marketplaceAddress: string | null;
  nftAddress: string;
  nftOwnerAddress: string | null;
  fullPrice: bigint;
  isComplete: boolean;
  marketplaceFeeAddress?: string | null;
  marketplaceFee?: bigint | null;
  royaltyAddress?: string | null;
  royaltyAmount?: bigint | null;
}

export interface NftAuctionFacts {
  address: string;
  marketplaceAddress: string | null;
  nftAddress: string;
  nftOwnerAddress: string | null;
  lastBid: bigint;
  minBid?: bigint | null;
  maxBid?: bigint | null;
  marketplaceFeeAddress?: string | null;
  royaltyAddress?: string | null;
}

/** A multisig v2 order contract (toncenter's MultisigOrder: its get_order_data, or read from its data). */
export interface MultisigOrderFacts {
  address: string;
  multisigAddress: string | null;
  orderSeqno: bigint;
  threshold: number | null;
  sentForExecution: boolean;
  approvalsMask: bigint;
  approvalsNum: number;
  expirationDate: number | null;
  /** base64 BoC of the order's actions */
  orderBoc: string | null;
  /** the signers of the order, raw addresses in index order */
  signers: string[];
}

export interface DedustPoolFacts {
  assets: { isTon: boolean; address: string | null }[];
}

/** The contract's persistent data, for matchers that parse it themselves. */
export interface DataBocFacts {
  account: string;
  /** base64 BoC */
  dataBoc: string;
  /** JVault stake wallets */
  pool?: string | null;
  /** JVault pools */
  lockWalletAddress?: string | null;
}

/** toncenter's NominatorPool: an account whose code is the TON nominator pool's (tv_pool). */
export interface NominatorPoolFacts {
  address: string;
}

/** What is known of one address: absent keys are interfaces it does not have. */
export interface ContractFacts {
  jettonWallet?: JettonWalletFacts;
  jettonMaster?: JettonMasterFacts;
  nftItem?: NftItemFacts;
  nftSale?: NftSaleFacts;
  nftAuction?: NftAuctionFacts;
  dedustPool?: DedustPoolFacts;
  multisigOrder?: MultisigOrderFacts;
  dataBoc?: DataBocFacts;
  nominatorPool?: NominatorPoolFacts;
  /** toncenter's interface names the decoder detected (e.g. "nft_collection", "multisig_v2", "vesting_wallet"), when known */
  interfaces?: string[];
}

export interface InterfaceLookup {
  /** undefined: the address is unknown; {}: known to have no recognised interface */
  facts(address: string): ContractFacts | undefined;
}

/** A lookup over a map (tests, the harness, the decoder's prefetched facts). */
export class MapInterfaceLookup implements InterfaceLookup {
  constructor(private readonly map: ReadonlyMap<string, ContractFacts>) {}
  facts(address: string): ContractFacts | undefined {
    return this.map.get(address);
  }
}

/**
 * Addresses outside the trace whose facts a matcher may read because of what `f` says (an auction's
 * item: a bid shows the item's collection and index). The caller gathers them in a second round
 * after the facts of addressesToLookUp.
 */
export function relatedAddresses(f: ContractFacts): string[] {
  const out: string[] = [];
  if (f.nftAuction) out.push(f.nftAuction.nftAddress);
  if (f.nftSale) out.push(f.nftSale.nftAddress);
  // a JVault stake wallet's pool, a pool's lock wallet (extra-requests.ts derives them from the data)
  if (f.dataBoc?.pool) out.push(f.dataBoc.pool);
  if (f.dataBoc?.lockWalletAddress) out.push(f.dataBoc.lockWalletAddress);
  return out;
}
