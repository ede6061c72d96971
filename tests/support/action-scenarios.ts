// The on-chain scenarios behind the actions' end-to-end test: what a person does that toncenter
// names an action, on the real code of ../shared/fixtures/contracts, every step a signed message of
// a localnet genesis wallet, each step's transactions read back from its sealed block. The token
// scenarios (token-scenarios.ts) cover jetton transfer / mint / burn, NFT transfers and a getgems
// purchase; these add TON transfers (a comment, a deploy, a bounce), a multisig v2 order created,
// approved and executed, a vesting wallet's whitelist and send, a nominator pool deposit, and the
// masterchain's tick and tock transactions.
//
//   const net = await startTestLocalnet({ seed: "actions", wallets: 3 });
//   const a = await runActionScenarios(net);
//   a.transfers.comment.tx.traceId, a.multisig.execute.tx, a.ticktock.transactions, …
import type { Address } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { actorsOf } from "./scenarios/chain.js";
import type { FixtureContract } from "./scenarios/fixtures.js";
import { multisigScenario, type MultisigScenario } from "./scenarios/multisig.js";
import { nominatorPoolScenario, type NominatorPoolScenario } from "./scenarios/staking.js";
import { tickTockScenario, type TickTockScenario } from "./scenarios/ticktock.js";
import { transferScenario, type TransferScenario } from "./scenarios/transfers.js";
import { vestingScenario, type VestingScenario } from "./scenarios/vesting.js";

export type { MultisigScenario } from "./scenarios/multisig.js";
export type { NominatorPoolScenario } from "./scenarios/staking.js";
export type { TickTockScenario, TickTockTx } from "./scenarios/ticktock.js";
export type { TonTransferEvent, TransferScenario } from "./scenarios/transfers.js";
export type { VestingScenario } from "./scenarios/vesting.js";

export interface ActionScenarios {
  transfers: TransferScenario;
  multisig: MultisigScenario;
  vesting: VestingScenario;
  nominatorPool: NominatorPoolScenario;
  ticktock: TickTockScenario;
  /** Every contract the scenarios deployed, with the fixture whose code it runs (the order's: its library cell). */
  contracts: { address: Address; contract: FixtureContract }[];
  /** The masterchain block after the last step. */
  mcSeqno: number;
}

/**
 * Runs every scenario on `net` (what runTokenScenarios needs: 5 genesis wallets, workchain 0 in one
 * shard, no timer sealing blocks; it may run before or after them on the same localnet). The
 * faucet wallet publishes the multisig order's library meanwhile. A few seconds.
 */
export async function runActionScenarios(net: Localnet): Promise<ActionScenarios> {
  const actors = actorsOf(net);
  const transfers = await transferScenario(net, actors);
  const multisig = await multisigScenario(net, actors);
  const vesting = await vestingScenario(net, actors);
  const nominatorPool = await nominatorPoolScenario(net, actors);
  const ticktock = await tickTockScenario(net);
  return {
    transfers,
    multisig,
    vesting,
    nominatorPool,
    ticktock,
    contracts: [
      { address: transfers.deploy.destination, contract: transfers.deploy.contract },
      { address: multisig.multisig, contract: "multisig_v2" },
      { address: multisig.order, contract: "multisig_order_v2" },
      { address: vesting.vesting, contract: "vesting_wallet" },
      { address: nominatorPool.pool, contract: "nominator_pool" },
    ],
    mcSeqno: net.chain.lastMasterchain!.id.seqno,
  };
}
