// An NFT item's full content, as toncenter keeps it: its collection's get_nft_content(index,
// individual_content), which for the common collections puts the collection's common content
// (a URI prefix) before the item's own. Read from the collection's state at the decoded block: by
// code for the collections @tongate/contracts knows (nftContentByCode), else the get-method in the
// emulator. An item without a collection, or whose collection cannot say, keeps its own content.
import { Address, Cell } from "@ton/core";
import { detectContract, nftContentByCode } from "@tongate/contracts";
import { getNftContent } from "@tongate/get-methods";
import { LruMap } from "@tongate/runtime";
import type { Store } from "@tongate/store";
import type { ChainContext } from "./chain-context.js";
import { stateAtBlock, type AccountStateAfter } from "./inputs.js";
import { throwIfTransient, type TransientPolicy } from "./transient.js";

/** Collections' states kept, by block: a block's many items of one collection read it once. */
const STATES_KEPT = 256;

export interface ItemContentInput {
  collection: Address | null;
  index: bigint;
  individual: Cell | null;
  /** the block's time (the get-method's c7) */
  now: number;
}

export class ItemContents {
  private readonly states = new LruMap<string, Promise<AccountStateAfter | undefined>>(STATES_KEPT);

  constructor(
    private readonly store: Store,
    private readonly chain: ChainContext,
  ) {}

  /** The item's full content at masterchain block `mcSeqno`; `decoded`: the states this block decoded (a collection among them is read there). */
  async of(item: ItemContentInput, mcSeqno: number, decoded: ReadonlyMap<string, AccountStateAfter>, policy: TransientPolicy): Promise<Cell | null> {
    const { collection, individual } = item;
    if (!collection || !individual) return individual;
    const raw = collection.toRawString().toUpperCase();
    const state = decoded.get(raw) ?? (await this.stateOf(raw, mcSeqno));
    if (!state?.code || state.status !== "active") return individual;
    const data = state.data ?? Cell.EMPTY;
    const known = detectContract(state.code);
    if (known) {
      const byCode = nftContentByCode(known, data, individual);
      if (byCode !== undefined) return byCode ?? individual;
    }
    const ctx = await this.chain.contextFor(item.now, state.code, data, policy);
    if (!ctx) return individual;
    const r = await getNftContent(ctx, { address: collection, code: state.code, data, balance: state.balance }, item.index, individual);
    if (r.ok) return r.value;
    throwIfTransient(r.failure, policy);
    return individual;
  }

  private stateOf(raw: string, mcSeqno: number): Promise<AccountStateAfter | undefined> {
    const key = `${raw}@${mcSeqno}`;
    let state = this.states.get(key);
    if (!state) {
      state = stateAtBlock(this.store, raw, mcSeqno);
      this.states.set(key, state);
      state.catch(() => this.states.delete(key));
    }
    return state;
  }
}
