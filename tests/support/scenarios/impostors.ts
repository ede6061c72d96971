// Jetton wallets whose master has a say in them: impostors (a real wallet's code and data naming
// an existing master, deployed by someone else, so the master's get_wallet_address(owner) names
// another address) and a wallet deployed with its StateInit before its master existed (the
// master, deployed afterwards, names it). Read back from the chain.
import { beginCell, contractAddress, toNano, type Address } from "@ton/core";
import { readJettonWalletData, readWalletAddress, storeJettonMinterStorage, storeJettonWalletStorage, storeJettonWalletV2Storage, storeTopUp } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { offchainContent } from "../contracts/index.js";
import { accountNow, addressArg, getMethod, txRef, type Actors, type TxRef } from "./chain.js";
import { fixtureCode, fixtureLibrary, type FixtureContract } from "./fixtures.js";
import { jettonMasterState, jettonWalletState, mintBody, type JettonMasterState, type JettonWalletState } from "./jettons.js";

/** A wallet its claimed master does not recognise. */
export interface ImpostorWallet {
  contract: FixtureContract;
  wallet: JettonWalletState;
  /** What the claimed master's get_wallet_address(owner) names instead. */
  masterSays: Address;
  deploy: TxRef;
}

/**
 * Deploys, from carol's wallet, a wallet with `contract`'s code (the library cell for Jetton 2.0)
 * whose data claims `master` and `owner` and a balance the master never minted: its address is not
 * the one the master computes, whose data starts at balance 0.
 */
export async function impostorWallet(net: Localnet, actors: Actors, contract: "jetton_wallet_legacy" | "jetton2_wallet", master: Address, owner: Address): Promise<ImpostorWallet> {
  const balance = 10n ** 18n;
  const init =
    contract === "jetton_wallet_legacy"
      ? { code: fixtureCode(contract), data: beginCell().store(storeJettonWalletStorage({ balance, ownerAddress: owner, jettonMasterAddress: master, jettonWalletCode: fixtureCode(contract) })).endCell() }
      : { code: fixtureLibrary(contract), data: beginCell().store(storeJettonWalletV2Storage({ status: 0, balance, ownerAddress: owner, jettonMasterAddress: master })).endCell() };
  const address = contractAddress(0, init);
  // the Jetton 2.0 wallet reads an opcode from every message: a top-up
  const block = await actors.carol.send({ to: address, value: toNano("0.1"), init, body: contract === "jetton2_wallet" ? beginCell().store(storeTopUp({ queryId: 0n })).endCell() : beginCell().endCell() });
  const deployTx = block.find((t) => t.address === BigInt(`0x${address.hash.toString("hex")}`));
  if (!deployTx || accountNow(net, address).status !== "active") throw new Error(`impostor ${contract} ${address.toRawString()} was not deployed`);
  const masterSays = readWalletAddress(await getMethod(net, master, "get_wallet_address", [addressArg(owner)]))!;
  return { contract, wallet: await jettonWalletState(net, address), masterSays, deploy: txRef(net, block, deployTx) };
}

/** A legacy wallet deployed before its master, and the master deployed afterwards. */
export interface EarlyWallet {
  /** The wallet as get_wallet_data answered before the master existed. */
  before: { address: Address; owner: Address | null; jetton: Address | null; balance: bigint; deploy: TxRef };
  /** The master, deployed after the wallet (and minting to another owner, alice). */
  master: JettonMasterState;
  masterDeploy: TxRef;
  /** The wallet at the end: its master's get_wallet_address(owner) names it. */
  wallet: JettonWalletState;
}

/**
 * bob deploys the wallet a legacy master (off-chain content) will compute for him, from its
 * StateInit (balance 0); then the admin deploys that master and mints to alice. bob's wallet does
 * nothing after the master appears: a decoder learns that the master confirms it from the master alone.
 */
export async function earlyWallet(net: Localnet, actors: Actors): Promise<EarlyWallet> {
  const { admin, alice, bob } = actors;
  const walletCode = fixtureCode("jetton_wallet_legacy");
  const masterInit = {
    code: fixtureCode("jetton_minter_legacy"),
    data: beginCell().store(storeJettonMinterStorage({ totalSupply: 0n, adminAddress: admin.address, content: offchainContent("https://example.org/early-wallet-jetton.json"), jettonWalletCode: walletCode })).endCell(),
  };
  const masterAddress = contractAddress(0, masterInit);
  const walletInit = { code: walletCode, data: beginCell().store(storeJettonWalletStorage({ balance: 0n, ownerAddress: bob.address, jettonMasterAddress: masterAddress, jettonWalletCode: walletCode })).endCell() };
  const wallet = contractAddress(0, walletInit);
  if (accountNow(net, masterAddress).status !== "nonexist") throw new Error(`the early wallet's master ${masterAddress.toRawString()} exists already`);

  const walletBlock = await bob.send({ to: wallet, value: toNano("0.1"), init: walletInit, body: beginCell().endCell() });
  const walletTx = walletBlock.find((t) => t.address === BigInt(`0x${wallet.hash.toString("hex")}`));
  if (!walletTx) throw new Error(`the early wallet ${wallet.toRawString()} was not deployed`);
  const before = readJettonWalletData(await getMethod(net, wallet, "get_wallet_data"));
  const beforeState = { address: wallet, balance: before.balance, owner: before.owner, jetton: before.jetton, deploy: txRef(net, walletBlock, walletTx) };

  const masterBlock = await admin.send({ to: masterAddress, value: toNano("0.5"), init: masterInit, body: beginCell().endCell() });
  const masterTx = masterBlock.find((t) => t.address === BigInt(`0x${masterAddress.hash.toString("hex")}`))!;
  const named = readWalletAddress(await getMethod(net, masterAddress, "get_wallet_address", [addressArg(bob.address)]));
  if (!named?.equals(wallet)) throw new Error(`the master ${masterAddress.toRawString()} names ${named?.toRawString()} for bob, not the early wallet`);
  await admin.send({ to: masterAddress, value: toNano("0.2"), body: mintBody("legacy", { queryId: 1n, to: alice.address, amount: 5_000_000n, responseTo: admin.address }) });
  return { before: beforeState, master: await jettonMasterState(net, masterAddress), masterDeploy: txRef(net, masterBlock, masterTx), wallet: await jettonWalletState(net, wallet) };
}
