// Jetton scenarios on real contract code: the 2022 reference jetton (minter.ton.org's pair),
// Jetton 2.0 and the stablecoin (USDT's pair), the last two with their wallet code a published
// library as on mainnet. Each deploys a master, mints to two owners, transfers with a forward TON
// amount and a forward payload (a text comment in the body, binary data in a ref; the second
// transfer deploys a third owner's wallet) and burns; what it returns is read back from the chain.
import { beginCell, toNano, type Address, type Cell, type Transaction } from "@ton/core";
import {
  JETTON_OPCODES,
  loadTextComment,
  readJettonData,
  readJettonWalletData,
  readWalletAddress,
  storeJettonBurn,
  storeJettonCallTo,
  storeJettonInternalTransfer,
  storeJettonMinterStorage,
  storeJettonMinterV2Storage,
  storeJettonMint,
  storeJettonTransfer,
  storeMinterJettonMint,
  storeSnakeBytes,
  storeTextComment,
  storeTopUp,
  type EitherCell,
  type JettonData,
} from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { onchainContent } from "../contracts/index.js";
import type { LocalnetSender } from "../localnet-deploy.js";
import { accountNow, addressArg, getMethod, inBody, txByOp, txRef, type Actors, type Block, type TxRef } from "./chain.js";
import { fixtureCode, fixtureLibrary, type FixtureContract, type LibraryContract } from "./fixtures.js";

export type JettonKind = "legacy" | "jetton2" | "stablecoin";

interface JettonFamily {
  minter: FixtureContract;
  wallet: FixtureContract;
  /** The wallet code is this library cell (published first), as mainnet's wallets hold it. */
  library?: LibraryContract;
  /** Whether the owner can burn (the stablecoin's wallets burn only on their master's call_to). */
  ownerBurns: boolean;
}

const FAMILIES: Record<JettonKind, JettonFamily> = {
  legacy: { minter: "jetton_minter_legacy", wallet: "jetton_wallet_legacy", ownerBurns: true },
  jetton2: { minter: "jetton2_minter", wallet: "jetton2_wallet", library: "jetton2_wallet", ownerBurns: true },
  stablecoin: { minter: "stablecoin_minter", wallet: "stablecoin_wallet", library: "stablecoin_wallet", ownerBurns: false },
};

/** A jetton master as get_jetton_data answers at the end of the scenario. */
export interface JettonMasterState extends JettonData {
  address: Address;
}

/** A jetton wallet as get_wallet_data answers, and whether its master's get_wallet_address(owner) names it. */
export interface JettonWalletState {
  address: Address;
  owner: Address | null;
  jetton: Address | null;
  balance: bigint;
  /** The account's code: the library cell for Jetton 2.0 and the stablecoin. */
  code: Cell;
  confirmed: boolean;
}

/** A TEP-74 transfer: the transaction of the sender's jetton wallet on its owner's jetton_transfer. */
export interface JettonTransferEvent {
  tx: TxRef;
  jetton: Address;
  queryId: bigint;
  amount: bigint;
  /** The owner who sent it. */
  source: Address;
  sourceWallet: Address;
  /** The new owner. */
  destination: Address;
  destinationWallet: Address;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  /** The payload: the ref when sent in a ref, else the rest of the body after the Either bit. */
  forwardPayload: Cell | null;
  /** The payload's text when it is a text comment (opcode 0). */
  comment: string | null;
  /** The inbound message body as the chain holds it. */
  body: Cell;
}

/** A burn: the transaction of the wallet on its jetton_burn (from its owner, or the stablecoin's master). */
export interface JettonBurnEvent {
  tx: TxRef;
  jetton: Address;
  queryId: bigint;
  amount: bigint;
  owner: Address;
  wallet: Address;
  responseDestination: Address | null;
  customPayload: Cell | null;
  body: Cell;
}

/** A mint: the master's transaction on its admin's mint message. */
export interface JettonMintEvent {
  tx: TxRef;
  to: Address;
  wallet: Address;
  amount: bigint;
}

export interface JettonScenario {
  kind: JettonKind;
  minterContract: FixtureContract;
  walletContract: FixtureContract;
  master: JettonMasterState;
  /** Every wallet of the scenario (alice, bob, carol), read back at the end. */
  wallets: JettonWalletState[];
  mints: JettonMintEvent[];
  transfers: JettonTransferEvent[];
  burns: JettonBurnEvent[];
}

/** The amounts a jetton scenario moves (its expectations are what the chain then says). */
const MINTED = { alice: 1_000_000_000n, bob: 500_000_000n };
const TRANSFERRED = [250_000_000n, 100_000_000n];
const BURNED = 40_000_000n;

/** What a jetton scenario sends with each message, nanotons. */
const TON = { deploy: toNano("1.5"), mint: toNano("0.2"), mintForward: toNano("0.1"), transfer: toNano("0.2"), burn: toNano("0.15") };

/**
 * Deploys a jetton of `kind` and runs its life: mint to alice and bob, alice → bob with a comment,
 * bob → carol with binary data in a ref (deploying carol's wallet), alice burns. `content` is the
 * legacy master's TEP-64 content (Jetton 2.0 and stablecoin masters hold a metadata URI instead).
 */
export async function jettonScenario(net: Localnet, actors: Actors, kind: JettonKind, o: { content?: Cell; metadataUri?: string; queryIdBase?: bigint } = {}): Promise<JettonScenario> {
  const family = FAMILIES[kind];
  const { admin, alice, bob, carol } = actors;
  const q = o.queryIdBase ?? BigInt(Object.keys(FAMILIES).indexOf(kind) + 1) * 1000n;
  if (family.library) await net.publishLibrary(fixtureCode(family.wallet));
  const walletCode = family.library ? fixtureLibrary(family.library) : fixtureCode(family.wallet);

  const masterData =
    kind === "legacy"
      ? beginCell()
          .store(storeJettonMinterStorage({ totalSupply: 0n, adminAddress: admin.address, content: o.content ?? defaultContent(kind), jettonWalletCode: walletCode }))
          .endCell()
      : beginCell()
          .store(
            storeJettonMinterV2Storage({
              totalSupply: 0n,
              adminAddress: admin.address,
              nextAdminAddress: null,
              jettonWalletCode: walletCode,
              metadataUri: beginCell().store(storeSnakeBytes(Buffer.from(o.metadataUri ?? `https://example.org/${kind}.json`))).endCell(),
            }),
          )
          .endCell();
  // The 2.0-style masters read an opcode from every message: deploy them with a top-up.
  const deployBody = kind === "legacy" ? undefined : beginCell().store(storeTopUp({ queryId: q })).endCell();
  const master = await admin.deploy({ code: fixtureCode(family.minter), data: masterData }, TON.deploy, deployBody);
  const walletOf = async (owner: Address) => {
    const a = readWalletAddress(await getMethod(net, master, "get_wallet_address", [addressArg(owner)]));
    if (!a) throw new Error(`${kind} master ${master.toRawString()} names no wallet for ${owner.toRawString()}`);
    return a;
  };

  const mints: JettonMintEvent[] = [];
  for (const [i, [holder, amount]] of ([[alice, MINTED.alice], [bob, MINTED.bob]] as const).entries()) {
    const queryId = q + 1n + BigInt(i);
    const body = mintBody(kind, { queryId, to: holder.address, amount, responseTo: admin.address });
    const block = await admin.send({ to: master, value: TON.mint, body });
    const wallet = await walletOf(holder.address);
    txByOp(block, wallet, JETTON_OPCODES.jetton_internal_transfer); // the new wallet took the minted amount
    mints.push({ tx: txRef(net, block, sentAs(block, master, kind === "legacy" ? JETTON_OPCODES.minter_jetton_mint : JETTON_OPCODES.jetton_mint, body)), to: holder.address, wallet, amount });
  }

  const transfers = [
    await transfer(net, master, alice, bob.address, {
      queryId: q + 10n,
      amount: TRANSFERRED[0]!,
      forwardTonAmount: toNano("0.01"),
      forwardPayload: { cell: beginCell().store(storeTextComment({ text: `${kind}: alice pays bob ✓` })).endCell(), inRef: false },
      responseTo: alice.address,
    }),
    await transfer(net, master, bob, carol.address, {
      queryId: q + 11n,
      amount: TRANSFERRED[1]!,
      forwardTonAmount: toNano("0.02"),
      forwardPayload: { cell: beginCell().storeUint(0xdeadbeef, 32).storeBuffer(Buffer.from("binary payload")).endCell(), inRef: true },
      responseTo: bob.address,
    }),
  ];

  const burns = [await burn(net, kind, master, family.ownerBurns ? alice : admin, alice.address, { queryId: q + 20n, amount: BURNED })];

  const wallets: JettonWalletState[] = [];
  for (const owner of [alice, bob, carol].map((s) => s.address)) wallets.push(await jettonWalletState(net, await walletOf(owner)));
  return {
    kind,
    minterContract: family.minter,
    walletContract: family.wallet,
    master: await jettonMasterState(net, master),
    wallets,
    mints,
    transfers,
    burns,
  };
}

function defaultContent(kind: JettonKind): Cell {
  return onchainContent({ name: `Scenario ${kind} jetton`, symbol: kind.toUpperCase().slice(0, 6), decimals: "9", description: `A ${kind} jetton deployed by the token scenarios`, image: `https://example.org/${kind}.png` });
}

/** The admin's mint message: minter_jetton_mint#15 for the legacy minter, jetton_mint for the others. */
export function mintBody(kind: JettonKind, o: { queryId: bigint; to: Address; amount: bigint; responseTo: Address }): Cell {
  const masterMsg = beginCell()
    .store(storeJettonInternalTransfer({ queryId: o.queryId, amount: o.amount, from: null, responseAddress: o.responseTo, forwardTonAmount: 0n, forwardPayload: { cell: beginCell().endCell(), inRef: false } }))
    .endCell();
  const mint = { queryId: o.queryId, toAddress: o.to, tonAmount: TON.mintForward, masterMsg };
  return beginCell()
    .store(kind === "legacy" ? storeMinterJettonMint(mint) : storeJettonMint(mint))
    .endCell();
}

interface TransferOrder {
  queryId: bigint;
  amount: bigint;
  forwardTonAmount: bigint;
  forwardPayload: EitherCell;
  responseTo: Address;
}

/** `from`'s owner sends a jetton_transfer to its wallet; the event as the chain recorded it. */
async function transfer(net: Localnet, master: Address, from: LocalnetSender, to: Address, o: TransferOrder): Promise<JettonTransferEvent> {
  const sourceWallet = readWalletAddress(await getMethod(net, master, "get_wallet_address", [addressArg(from.address)]))!;
  const destinationWallet = readWalletAddress(await getMethod(net, master, "get_wallet_address", [addressArg(to)]))!;
  const body = beginCell()
    .store(
      storeJettonTransfer({
        queryId: o.queryId,
        amount: o.amount,
        destination: to,
        responseDestination: o.responseTo,
        customPayload: null,
        forwardTonAmount: o.forwardTonAmount,
        forwardPayload: o.forwardPayload,
      }),
    )
    .endCell();
  const block = await from.send({ to: sourceWallet, value: TON.transfer, body });
  const tx = sentAs(block, sourceWallet, JETTON_OPCODES.jetton_transfer, body);
  txByOp(block, destinationWallet, JETTON_OPCODES.jetton_internal_transfer);
  txByOp(block, to, JETTON_OPCODES.jetton_notify); // the forward TON amount reached the new owner
  return {
    tx: txRef(net, block, tx),
    jetton: master,
    queryId: o.queryId,
    amount: o.amount,
    source: from.address,
    sourceWallet,
    destination: to,
    destinationWallet,
    responseDestination: o.responseTo,
    customPayload: null,
    forwardTonAmount: o.forwardTonAmount,
    forwardPayload: o.forwardPayload.cell,
    comment: commentOf(o.forwardPayload.cell),
    body: inBody(tx),
  };
}

/**
 * A burn of `owner`'s jettons: `by` is the owner (a jetton_burn to its wallet) or, for the
 * stablecoin, the admin (call_to, whose master_msg the master sends the wallet as it is).
 */
async function burn(net: Localnet, kind: JettonKind, master: Address, by: LocalnetSender, owner: Address, o: { queryId: bigint; amount: bigint }): Promise<JettonBurnEvent> {
  const wallet = readWalletAddress(await getMethod(net, master, "get_wallet_address", [addressArg(owner)]))!;
  const body = beginCell().store(storeJettonBurn({ queryId: o.queryId, amount: o.amount, responseDestination: by.address, customPayload: null })).endCell();
  const block =
    kind === "stablecoin"
      ? await by.send({
          to: master,
          value: TON.burn + toNano("0.05"),
          body: beginCell().store(storeJettonCallTo({ queryId: o.queryId, toAddress: owner, tonAmount: TON.burn, masterMsg: body })).endCell(),
        })
      : await by.send({ to: wallet, value: TON.burn, body });
  const tx = sentAs(block, wallet, JETTON_OPCODES.jetton_burn, body);
  txByOp(block, master, JETTON_OPCODES.jetton_burn_notification);
  return { tx: txRef(net, block, tx), jetton: master, queryId: o.queryId, amount: o.amount, owner, wallet, responseDestination: by.address, customPayload: null, body: inBody(tx) };
}

/** The transaction of `account` on the message `body` the step sent; throws if the chain holds another body. */
function sentAs(block: Block, account: Address, op: number, body: Cell): Transaction {
  const tx = txByOp(block, account, op);
  if (!inBody(tx).equals(body)) throw new Error(`${account.toRawString()} got another body than the one sent`);
  return tx;
}

/** A payload's text when it is a text comment (opcode 0, UTF-8 snake data). */
export function commentOf(payload: Cell | null): string | null {
  if (!payload) return null;
  try {
    return loadTextComment(payload.beginParse()).text;
  } catch {
    return null;
  }
}

export async function jettonMasterState(net: Localnet, master: Address): Promise<JettonMasterState> {
  return { address: master, ...readJettonData(await getMethod(net, master, "get_jetton_data")) };
}

/** A wallet's get_wallet_data, its code, and whether its master's get_wallet_address names it. */
export async function jettonWalletState(net: Localnet, wallet: Address): Promise<JettonWalletState> {
  const d = readJettonWalletData(await getMethod(net, wallet, "get_wallet_data"));
  const code = accountNow(net, wallet).code;
  if (!code) throw new Error(`jetton wallet ${wallet.toRawString()} is not active`);
  let confirmed = false;
  if (d.owner && d.jetton && accountNow(net, d.jetton).status === "active") {
    const named = readWalletAddress(await getMethod(net, d.jetton, "get_wallet_address", [addressArg(d.owner)]));
    confirmed = named?.equals(wallet) ?? false;
  }
  return { address: wallet, owner: d.owner, jetton: d.jetton, balance: d.balance, code, confirmed };
}
