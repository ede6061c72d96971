// Deploying contracts and sending internal messages on a Localnet from one of
// its funded genesis wallets: the wallet signs an external message, the chain
// takes it, and a sealed block holds the whole trace (internal messages within
// workchain 0 are delivered in the same block).
//
//   const admin = new LocalnetSender(net, net.genesis.wallets[1]!);
//   const minter = await admin.deploy({ code, data }, toNano("0.1"));
//   await admin.send({ to: minter, value: toNano("0.2"), body: mintBody });
//   const data = await runGetMethod(net, minter, "get_jetton_data");
//
// Do not send from the wallet net.faucet() uses (the first v4r2 one) while the
// faucet runs: both would sign with the same seqno.
import {
  beginCell,
  contractAddress,
  external,
  internal,
  loadTransaction,
  parseTuple,
  SendMode,
  serializeTuple,
  storeMessage,
  TupleReader,
  type Address,
  type Cell,
  type StateInit,
  type Transaction,
  type TupleItem,
} from "@ton/core";
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { getMethodId, type GenesisWallet, type Localnet } from "@tongate/localnet";
import { AccountHistory } from "@tongate/localnet";

export interface InternalMessage {
  to: Address;
  /** nanotons */
  value: bigint;
  body?: Cell;
  init?: StateInit;
  /** Default true. */
  bounce?: boolean;
}

/** A genesis wallet that sends internal messages, each batch in a block of its own. */
export class LocalnetSender {
  private readonly wallet: WalletContractV4 | WalletContractV5R1;

  constructor(
    private readonly net: Localnet,
    private readonly genesis: GenesisWallet,
  ) {
    const publicKey = genesis.keyPair.publicKey;
    this.wallet =
      genesis.version === "v4r2"
        ? WalletContractV4.create({ workchain: 0, publicKey })
        : WalletContractV5R1.create({ workchain: 0, publicKey, walletId: { networkGlobalId: net.genesis.globalId } });
  }

  get address(): Address {
    return this.wallet.address;
  }

  /**
   * Sends the messages (at most 4: one wallet transfer), seals a block and returns the
   * block's transactions. Throws when one of them failed (compute or action phase), naming
   * the account and the exit code.
   */
  async send(...messages: InternalMessage[]): Promise<Transaction[]> {
    return sendExternalMessage(this.net, this.address, this.transfer(await this.seqno(), messages));
  }

  /**
   * Sends one message that is meant to fail on its way (a transfer that bounces): the block's
   * transactions, failed ones included.
   */
  async sendExpectingFailure(message: InternalMessage): Promise<Transaction[]> {
    return sendExternalMessage(this.net, this.address, this.transfer(await this.seqno(), [message]), { failures: "allowed" });
  }

  /** The signed external message a send of `messages` would take (its seqno the wallet's current one), not sent. */
  async externalMessage(...messages: InternalMessage[]): Promise<Cell> {
    return beginCell().store(storeMessage(external({ to: this.address, body: this.transfer(await this.seqno(), messages) }))).endCell();
  }

  private async seqno(): Promise<number> {
    return (await runGetMethod(this.net, this.address, "seqno")).readNumber();
  }

  private transfer(seqno: number, messages: InternalMessage[]): Cell {
    const transfer = {
      seqno,
      secretKey: this.genesis.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      // valid for a minute of localnet time, which the control API can move ahead of the wall clock
      timeout: this.net.now() + 60,
      messages: messages.map((m) => internal({ to: m.to, value: m.value, body: m.body, init: m.init, bounce: m.bounce ?? true })),
    };
    return this.wallet instanceof WalletContractV4 ? this.wallet.createTransfer(transfer) : this.wallet.createTransfer(transfer);
  }

  /** Deploys `init` (basechain) with `value` nanotons and an optional first message body; returns its address. */
  async deploy(init: StateInit, value: bigint, body?: Cell): Promise<Address> {
    const to = contractAddress(0, init);
    await this.send({ to, value, init, body: body ?? beginCell().endCell() });
    return to;
  }
}

/**
 * Sends an external message to `to` (no StateInit), seals a block and returns the block's
 * transactions; throws when one of them failed (unless `failures` is "allowed"), as LocalnetSender.send does.
 */
export async function sendExternalMessage(net: Localnet, to: Address, body: Cell, o: { failures?: "allowed" } = {}): Promise<Transaction[]> {
  await net.chain.sendExternal(beginCell().store(storeMessage(external({ to, body }))).endCell().toBoc());
  await net.chain.seal();
  // every shard's block of this seal (workchain 0 may be split), then the masterchain block
  const records = [...net.chain.shardTips.flatMap((t) => t.rec?.transactions ?? []), ...net.chain.lastMasterchain!.transactions];
  const txs = records.map((r) => loadTransaction(r.cell.beginParse()));
  const failed = txs.map(failure).filter((f) => f !== undefined);
  if (failed.length > 0 && o.failures !== "allowed") throw new Error(`transactions failed: ${failed.join("; ")}`);
  return txs;
}

function failure(tx: Transaction): string | undefined {
  const d = tx.description;
  if (d.type !== "generic") return undefined;
  const who = `account ${tx.address.toString(16).padStart(64, "0")} lt ${tx.lt}`;
  if (d.computePhase.type === "vm" && !d.computePhase.success) return `${who}: exit code ${d.computePhase.exitCode}`;
  if (d.actionPhase && !d.actionPhase.success) return `${who}: action phase result code ${d.actionPhase.resultCode}`;
  return undefined;
}

/**
 * Runs a get-method on the latest state of `address` with the localnet's own emulator (not
 * through a liteserver): what the contract holds, to compare an API's answers with. Throws on a
 * non-zero exit code.
 */
export async function runGetMethod(net: Localnet, address: Address, method: string, args: TupleItem[] = []): Promise<TupleReader> {
  return new TupleReader(await getMethodStack(net, address, method, args));
}

/** runGetMethod's result stack as items (what @tongate/contracts' get-method readers take). */
export async function getMethodStack(net: Localnet, address: Address, method: string, args: TupleItem[] = []): Promise<TupleItem[]> {
  const state = net.chain.history.latest(AccountHistory.key(address.workChain, address.hash));
  if (!state) throw new Error(`${address.toString()} has no state on this localnet`);
  const res = await net.chain.executor.runGetMethod(address, state, getMethodId(method), serializeTuple(args), {
    now: net.chain.lastMasterchain!.genUtime,
    randomSeed: Buffer.alloc(32),
  });
  if (res.exitCode !== 0 && res.exitCode !== 1) throw new Error(`${method} on ${address.toString()} exited with code ${res.exitCode}`);
  return res.stack ? parseTuple(res.stack) : [];
}
