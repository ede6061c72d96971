// The on-chain token scenarios the decoder's end-to-end tests check tongate against: jettons,
// a getgems collection with sales and auctions, a telemint username, and jetton wallets their
// master denies or confirms late, all on the real contract code of ../shared/fixtures/contracts,
// every step a signed message of a localnet genesis wallet. Each scenario returns what it did
// (the transactions of every transfer and burn, with the values the chain holds) and the state of
// its contracts read back with their get-methods once it is done; no later scenario touches them.
//
//   const net = await startTestLocalnet({ seed: "decoder", wallets: 3 });
//   const s = await runTokenScenarios(net);
//   s.jettons.legacy.wallets, s.getgems.sales.open.data, s.impostors[0]!.masterSays, …
//
// The modules under scenarios/ run one scenario each; this file runs them all, in one order.
import type { Address } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { actorsOf } from "./scenarios/chain.js";
import type { FixtureContract } from "./scenarios/fixtures.js";
import { earlyWallet, impostorWallet, type EarlyWallet, type ImpostorWallet } from "./scenarios/impostors.js";
import { jettonScenario, type JettonKind, type JettonScenario } from "./scenarios/jettons.js";
import { getgemsScenario, type GetgemsScenario } from "./scenarios/nfts.js";
import { telemintScenario, type TelemintScenario } from "./scenarios/telemint.js";

export type { TxRef, Actors } from "./scenarios/chain.js";
export type { FixtureContract } from "./scenarios/fixtures.js";
export type { EarlyWallet, ImpostorWallet } from "./scenarios/impostors.js";
export type { JettonBurnEvent, JettonKind, JettonMasterState, JettonMintEvent, JettonScenario, JettonTransferEvent, JettonWalletState } from "./scenarios/jettons.js";
export type { GetgemsAuction, GetgemsSale, GetgemsScenario, NftCollectionState, NftItemState, NftTransferEvent } from "./scenarios/nfts.js";
export type { TelemintItem, TelemintScenario } from "./scenarios/telemint.js";

export interface TokenScenarios {
  /** The genesis wallets that acted (see scenarios/chain.ts). */
  actors: { admin: Address; alice: Address; bob: Address; carol: Address };
  jettons: Record<JettonKind, JettonScenario>;
  getgems: GetgemsScenario;
  telemint: TelemintScenario;
  /** A legacy wallet claiming the legacy jetton, a Jetton 2.0 wallet (library code) claiming the Jetton 2.0 jetton. */
  impostors: ImpostorWallet[];
  earlyWallet: EarlyWallet;
  /** Every contract the scenarios deployed, with the fixture whose code it runs (library code for the Jetton 2.0 and stablecoin wallets). */
  contracts: { address: Address; contract: FixtureContract }[];
  /** The masterchain block after the last step: every state above is the chain's at it. */
  mcSeqno: number;
}

/**
 * Runs every scenario on `net`: a localnet with at least 3 genesis wallets of each kind, workchain 0
 * in one shard, and no timer sealing blocks (each step seals its own block and finds its whole
 * trace in it). The faucet wallet publishes the libraries meanwhile, so nothing else may use it.
 * Moves localnet's clock forward (auction ends) by about twenty minutes in all. About 15 s.
 */
export async function runTokenScenarios(net: Localnet): Promise<TokenScenarios> {
  const actors = actorsOf(net);
  const jettons = {
    legacy: await jettonScenario(net, actors, "legacy"),
    jetton2: await jettonScenario(net, actors, "jetton2"),
    stablecoin: await jettonScenario(net, actors, "stablecoin"),
  };
  const getgems = await getgemsScenario(net, actors);
  const telemint = await telemintScenario(net, actors);
  const impostors = [
    await impostorWallet(net, actors, "jetton_wallet_legacy", jettons.legacy.master.address, actors.alice.address),
    await impostorWallet(net, actors, "jetton2_wallet", jettons.jetton2.master.address, actors.alice.address),
  ];
  const early = await earlyWallet(net, actors);

  const contracts: TokenScenarios["contracts"] = [];
  for (const j of Object.values(jettons)) {
    contracts.push({ address: j.master.address, contract: j.minterContract });
    for (const w of j.wallets) contracts.push({ address: w.address, contract: j.walletContract });
  }
  contracts.push({ address: getgems.collection.address, contract: getgems.collection.contract });
  for (const i of getgems.items) contracts.push({ address: i.address, contract: i.contract });
  for (const s of [getgems.sales.sold, getgems.sales.open, getgems.auctions.settled, getgems.auctions.open]) contracts.push({ address: s.address, contract: s.contract });
  contracts.push({ address: telemint.collection.address, contract: telemint.collection.contract }, { address: telemint.item.address, contract: telemint.item.contract });
  for (const i of impostors) contracts.push({ address: i.wallet.address, contract: i.contract });
  contracts.push({ address: early.master.address, contract: "jetton_minter_legacy" }, { address: early.wallet.address, contract: "jetton_wallet_legacy" });

  return {
    actors: { admin: actors.admin.address, alice: actors.alice.address, bob: actors.bob.address, carol: actors.carol.address },
    jettons,
    getgems,
    telemint,
    impostors,
    earlyWallet: early,
    contracts,
    mcSeqno: net.chain.lastMasterchain!.id.seqno,
  };
}
