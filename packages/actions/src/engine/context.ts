// What a matcher may consult while building: the contract facts of the trace's addresses
// (toncenter's interface repository), by kind.
import type { ContractFacts, DataBocFacts, DedustPoolFacts, InterfaceLookup, JettonMasterFacts, JettonWalletFacts, NftAuctionFacts, NftItemFacts, NftSaleFacts } from "../interfaces.js";

export class MatchContext {
  constructor(
    readonly lookup: InterfaceLookup,
    private readonly log?: (msg: string) => void,
  ) {}

  facts(address: string | null | undefined): ContractFacts | undefined {
    return address ? this.lookup.facts(address) : undefined;
  }

  jettonWallet(address: string | null | undefined): JettonWalletFacts | null {
    return this.facts(address)?.jettonWallet ?? null;
  }

  jettonMaster(address: string | null | undefined): JettonMasterFacts | null {
    return this.facts(address)?.jettonMaster ?? null;
  }

  nftItem(address: string | null | undefined): NftItemFacts | null {
    return this.facts(address)?.nftItem ?? null;
  }

  nftSale(address: string | null | undefined): NftSaleFacts | null {
    return this.facts(address)?.nftSale ?? null;
  }

  nftAuction(address: string | null | undefined): NftAuctionFacts | null {
    return this.facts(address)?.nftAuction ?? null;
  }

  dedustPool(address: string | null | undefined): DedustPoolFacts | null {
    return this.facts(address)?.dedustPool ?? null;
  }

  dataBoc(address: string | null | undefined): DataBocFacts | null {
    return this.facts(address)?.dataBoc ?? null;
  }

  /** Whether the decoder detected the toncenter interface `name` (e.g. "multisig_v2") on the address. */
  hasInterface(address: string | null | undefined, name: string): boolean {
    return this.facts(address)?.interfaces?.includes(name) ?? false;
  }

  debug(msg: string): void {
    this.log?.(msg);
  }
}
