// Whether a jetton wallet or an NFT item is its token's: its master's get_wallet_address(owner) or
// its collection's get_nft_address_by_index(index) must give its address back, run on the master's
// or collection's state at the decoded block. A contract that only claims to be one (its code is a
// real wallet's) is denied; one whose master or collection is not known yet stays pending until it
// is (the decoder asks again then, without rescanning history).
import { Address, Cell } from "@ton/core";
import { DEDUST_FACTORY_ADDRESS, dedustAssetAddress } from "@tongate/contracts";
import { confirmDedustPool, confirmJettonWallet, confirmNftItem, type AccountState } from "@tongate/get-methods";
import type { Store } from "@tongate/store";
import { LruMap } from "@tongate/runtime";
import type { ChainContext } from "./chain-context.js";
import { stateAtBlock, type AccountStateAfter } from "./inputs.js";
import type { DedustPoolVerdict, Verdict } from "./rows.js";
import { throwIfTransient, type TransientPolicy } from "./transient.js";

/** Verdicts kept: a confirmed or denied address stays so (the same parent code answers the same). */
const VERDICTS_KEPT = 100_000;
/**
 * Parents' states kept, by block: a block's hundreds of new wallets of one jetton read their
 * master's state once (two ClickHouse queries each, most of a block's decoding time before).
 */
const PARENT_STATES_KEPT = 256;

const DEDUST_FACTORY_RAW = `${DEDUST_FACTORY_ADDRESS.workChain}:${DEDUST_FACTORY_ADDRESS.hash.toString("hex").toUpperCase()}`;

export class Verdicts {
  private readonly kept = new LruMap<string, Verdict>(VERDICTS_KEPT);
  /** DeDust pools decided: a pool's assets are fixed (the factory derives its address from them). */
  private readonly pools = new LruMap<string, DedustPoolVerdict>(VERDICTS_KEPT);
  private readonly parentStates = new LruMap<string, Promise<AccountStateAfter | undefined>>(PARENT_STATES_KEPT);

  constructor(
    private readonly store: Store,
    private readonly chain: ChainContext,
  ) {}

  /** The jetton wallet `wallet` of `owner`, as its master `master` says at masterchain block `mcSeqno`. */
  jettonWallet(master: Address, owner: Address, wallet: Address, mcSeqno: number, now: number, policy: TransientPolicy = "record"): Promise<Verdict> {
    return this.decide(`j:${wallet.toRawString()}:${master.toRawString()}`, master, mcSeqno, now, policy, (ctx, parent) => confirmJettonWallet(ctx, parent, owner, wallet));
  }

  /** The NFT item `item` of number `index` of `collection`, as the collection says. */
  nftItem(collection: Address, index: bigint, item: Address, mcSeqno: number, now: number, policy: TransientPolicy = "record"): Promise<Verdict> {
    return this.decide(`n:${item.toRawString()}:${collection.toRawString()}`, collection, mcSeqno, now, policy, (ctx, parent) => confirmNftItem(ctx, parent, index, item));
  }

  /**
   * A contract with a DeDust pool's code: its assets when DeDust's factory, at block `mcSeqno`,
   * gives its address for them (toncenter's worker asks so); pending while the factory's state is
   * not indexed or a run did not finish (asked again when the pool's state next changes).
   */
  async dedustPool(pool: AccountStateAfter, mcSeqno: number, policy: TransientPolicy = "record"): Promise<DedustPoolVerdict> {
    const kept = this.pools.get(pool.account);
    if (kept) return kept;
    if (!pool.code || pool.status !== "active") return { verdict: "pending" };
    const factory = await this.parentState(DEDUST_FACTORY_RAW, mcSeqno);
    if (!factory?.code || factory.status !== "active") return { verdict: "pending" };
    const poolData = pool.data ?? Cell.EMPTY;
    const factoryData = factory.data ?? Cell.EMPTY;
    const poolCtx = await this.chain.contextFor(pool.lastNow, pool.code, poolData, policy);
    const factoryCtx = await this.chain.contextFor(pool.lastNow, factory.code, factoryData, policy);
    if (!poolCtx || !factoryCtx) return { verdict: "pending" };
    const answer = await confirmDedustPool(
      poolCtx,
      { address: Address.parseRaw(pool.account), code: pool.code, data: poolData, balance: pool.balance },
      factoryCtx,
      { address: DEDUST_FACTORY_ADDRESS, code: factory.code, data: factoryData, balance: factory.balance },
    );
    if (answer.verdict === "unknown") {
      throwIfTransient(answer.failure, policy);
      return { verdict: "pending" };
    }
    let decided: DedustPoolVerdict = { verdict: "denied" };
    if (answer.verdict === "confirmed") {
      // (an extra-currency asset does not load: such a pool is denied, as toncenter's worker refuses it)
      const [asset1, asset2] = answer.assets.map(dedustAssetAddress);
      decided = { verdict: "confirmed", asset1, asset2, isStable: answer.isStable };
    }
    this.pools.set(pool.account, decided);
    return decided;
  }

  private async decide(
    key: string,
    parent: Address,
    mcSeqno: number,
    now: number,
    policy: TransientPolicy,
    ask: (ctx: NonNullable<Awaited<ReturnType<ChainContext["getMethods"]>>>, parent: AccountState) => ReturnType<typeof confirmJettonWallet>,
  ): Promise<Verdict> {
    const kept = this.kept.get(key);
    if (kept) return kept;
    const raw = `${parent.workChain}:${parent.hash.toString("hex").toUpperCase()}`;
    const state = await this.parentState(raw, mcSeqno);
    // not deployed (yet) as far as the index knows: asked again when it is
    if (!state?.code || state.status !== "active") return "pending";
    const data = state.data ?? Cell.EMPTY;
    const ctx = await this.chain.contextFor(now, state.code, data, policy);
    if (!ctx) return "pending";
    const answer = await ask(ctx, { address: parent, code: state.code, data, balance: state.balance });
    if (answer.verdict === "unknown") {
      throwIfTransient(answer.failure, policy);
      return "pending";
    }
    this.kept.set(key, answer.verdict);
    return answer.verdict;
  }

  /** The parent's state at block `mcSeqno`: what the index holds up to that block does not change. */
  private parentState(raw: string, mcSeqno: number): Promise<AccountStateAfter | undefined> {
    const key = `${raw}@${mcSeqno}`;
    let state = this.parentStates.get(key);
    if (!state) {
      state = stateAtBlock(this.store, raw, mcSeqno);
      this.parentStates.set(key, state);
      // a read that failed is asked again
      state.catch(() => this.parentStates.delete(key));
    }
    return state;
  }
}
