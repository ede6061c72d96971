// estimateFee: the external message is executed in TON's emulator on the account's proven state
// at the latest block (signature checks passing when ignore_chksig), and the fees are read from the
// transaction it makes: what the chain would charge if the state did not change before it lands.
//
// Differences from tonlib (toncenter), which computes fees from formulas:
// - destination_fees: tonlib leaves it empty for these raw queries (it does not know the
//   destinations); here each outgoing internal message is executed on its destination's state too
//   (one hop), and its fees are that transaction's.
// - a message the contract would not accept: tonlib answers gas_fee 0; here it is a 409 with the
//   exit code, the answer sendBoc would give.
import { beginCell, Cell, contractAddress, external, storeMessage, type Address, type StateInit, type Transaction } from "@ton/core";
import { apiError } from "@tongate/runtime";
import { emptyLibraries, libraryRefs, librariesCell, runTransaction } from "@tongate/emulator";
import { blockConfig, fetchLibraries, type PoolSession } from "@tongate/liteclient";
import type { BlockIdExt, ChainReader } from "./chain.js";
import { accountAt, emulatorFailed, type AccountAtBlock } from "./emulation.js";

export interface Fees {
  inFwdFee: bigint;
  storageFee: bigint;
  gasFee: bigint;
  fwdFee: bigint;
}

export interface FeeEstimate {
  source: Fees;
  destinations: Fees[];
}

/** The fees a transaction charged, by phase; the import fee is what total_fees has beyond the phases. */
function feesOf(tx: Transaction): Fees {
  const d = tx.description;
  if (d.type !== "generic") throw new Error(`emulation made a ${d.type} transaction`);
  const storage = d.storagePhase?.storageFeesCollected ?? 0n;
  const gas = d.computePhase.type === "vm" ? d.computePhase.gasFees : 0n;
  const actionFees = d.actionPhase?.totalActionFees ?? 0n;
  return {
    inFwdFee: tx.totalFees.coins - storage - gas - actionFees,
    storageFee: storage + (d.storagePhase?.storageFeesDue ?? 0n),
    gasFee: gas,
    fwdFee: d.actionPhase?.totalFwdFees ?? 0n,
  };
}

interface Emulated {
  transaction?: Transaction;
  rejected?: { error: string; exitCode?: number };
}

/**
 * Executes `message` on `acc` with the libraries its code (or the message's StateInit code) refers to,
 * at logical time `lt` (after the account's last transaction and after the message was created).
 */
async function execute(chain: ChainReader, s: PoolSession, method: string, block: BlockIdExt, acc: AccountAtBlock, message: Cell, o: { lt: bigint; initCode?: Cell | null; ignoreChksig: boolean }): Promise<Emulated> {
  const st = acc.account?.storage.state;
  const libs = emptyLibraries();
  await fetchLibraries(s, libraryRefs([st?.type === "active" ? st.state.code : undefined, o.initCode]), libs);
  const config = await blockConfig(s, block);
  const r = await runTransaction(chain.emulator, {
    config,
    libs: librariesCell(libs) ?? null,
    shardAccount: acc.shardAccount,
    message,
    now: acc.genUtime,
    lt: o.lt,
    randomSeed: Buffer.alloc(32),
    ignoreChksig: o.ignoreChksig,
  }).catch((e: unknown) => emulatorFailed(method, e));
  return "rejected" in r ? { rejected: r.rejected } : { transaction: r.transaction };
}

export interface EstimateInput {
  address: Address;
  body: Cell;
  init?: StateInit;
  ignoreChksig: boolean;
}

/** The fees of the external message `body` (with `init`) to `address` and of the messages it sends, at the latest block. */
export function estimateFees(chain: ChainReader, method: string, input: EstimateInput): Promise<FeeEstimate> {
  return chain.withSession(method, async (s) => {
    const block = await chain.mcBlock(s, undefined);
    const acc = await accountAt(chain, s, method, input.address, block);
    // A StateInit deploys only an account without code, and only the one its hash addresses.
    if (input.init && acc.account?.storage.state.type !== "active" && !contractAddress(input.address.workChain, input.init).equals(input.address)) {
      throw apiError(422, `init_code, init_data: their StateInit is that of ${contractAddress(input.address.workChain, input.init).toString()}, not of address ${input.address.toString()}`);
    }
    // an exotic body (a library cell, a Merkle proof) cannot be written inline: it goes in a ref
    const message = beginCell().store(storeMessage(external({ to: input.address, init: input.init, body: input.body }), { forceRef: input.body.isExotic })).endCell();
    const src = await execute(chain, s, method, block, acc, message, { lt: acc.lastTransLt + 1n, initCode: input.init?.code, ignoreChksig: input.ignoreChksig });
    if (!src.transaction) {
      const code = src.rejected?.exitCode;
      throw apiError(409, `${method}: the contract at ${input.address.toString()} would not accept this message${code !== undefined ? ` (exit code ${code})` : ""}: ${src.rejected?.error}`);
    }
    const destinations: Fees[] = [];
    for (const out of src.transaction.outMessages.values()) {
      if (out.info.type !== "internal") continue;
      const dst = await accountAt(chain, s, method, out.info.dest, block);
      const cell = beginCell().store(storeMessage(out)).endCell();
      const r = await execute(chain, s, method, block, dst, cell, { lt: (dst.lastTransLt > out.info.createdLt ? dst.lastTransLt : out.info.createdLt) + 1n, initCode: out.init?.code, ignoreChksig: false });
      if (!r.transaction) throw new Error(`${method}: the emulator did not execute the internal message to ${out.info.dest.toString()}: ${r.rejected?.error}`);
      destinations.push(feesOf(r.transaction));
    }
    return { source: feesOf(src.transaction), destinations };
  });
}
