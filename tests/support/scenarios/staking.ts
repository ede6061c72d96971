// A TON nominator pool (ton-blockchain/nominator-pool, real code) in the masterchain, as on
// mainnet: admin deploys it, alice deposits as a nominator (a "d" text comment carrying the stake
// plus the pool's 1 TON processing fee, from her basechain wallet).
import { beginCell, contractAddress, toNano, type Address } from "@ton/core";
import { emptyPoolNominators, loadNominatorPoolStorage, storeNominatorPoolStorage, storeTextComment } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { accountNow, inMessageHash, txByBody, txRef, type Actors, type TxRef } from "./chain.js";
import { fixtureCode } from "./fixtures.js";

export interface NominatorPoolScenario {
  /** The pool, in the masterchain. */
  pool: Address;
  /** alice's deposit: the pool's transaction on it. */
  deposit: { tx: TxRef; msgHash: Buffer; nominator: Address; value: bigint; comment: "d" };
  /** alice's stake as the pool's data holds it after the deposit (the value less the processing fee). */
  stake: bigint;
}

const MIN_NOMINATOR_STAKE = toNano("10");
const DEPOSIT = toNano("12");

export async function nominatorPoolScenario(net: Localnet, actors: Actors): Promise<NominatorPoolScenario> {
  const { admin, alice } = actors;
  const data = beginCell()
    .store(
      storeNominatorPoolStorage({
        state: 0,
        nominatorsCount: 0,
        stakeAmountSent: 0n,
        validatorAmount: 0n,
        config: { validatorAddress: BigInt(`0x${"5a".repeat(32)}`), validatorRewardShare: 4000, maxNominatorsCount: 40, minValidatorStake: toNano("100"), minNominatorStake: MIN_NOMINATOR_STAKE },
        nominators: emptyPoolNominators(),
        withdrawRequests: null,
        stakeAt: 0,
        savedValidatorSetHash: 0n,
        validatorSetChangesCount: 0,
        validatorSetChangeTime: 0,
        stakeHeldFor: 0,
        configProposalVotings: null,
      }),
    )
    .endCell();
  const init = { code: fixtureCode("nominator_pool"), data };
  const pool = contractAddress(-1, init);
  // the pool reads an opcode from every message: op 1 (accept coins) deploys it
  await admin.send({ to: pool, value: toNano("11"), init, body: beginCell().storeUint(1, 32).storeUint(0, 64).endCell() });
  if (accountNow(net, pool).status !== "active") throw new Error(`the nominator pool ${pool.toRawString()} was not deployed`);

  const d = beginCell().store(storeTextComment({ text: "d" })).endCell();
  const block = await alice.send({ to: pool, value: DEPOSIT, body: d });
  const tx = txByBody(block, pool, d);
  const after = loadNominatorPoolStorage(accountNow(net, pool).data!.beginParse());
  const stake = after.nominators.get(BigInt(`0x${alice.address.hash.toString("hex")}`));
  if (!stake) throw new Error(`the pool lists no stake of alice after her deposit`);
  return { pool, deposit: { tx: txRef(net, block, tx), msgHash: inMessageHash(tx), nominator: alice.address, value: DEPOSIT, comment: "d" }, stake: stake.amount + stake.pendingDepositAmount };
}
