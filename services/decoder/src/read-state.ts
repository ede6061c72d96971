// An account's interfaces and the state the decoder keeps of it: by code hash first (the known
// contracts of @tongate/contracts, their state read from the data cell with the storage loaders);
// else by the get-method ids in its code (detectInterfaces), then those get-methods run in the
// emulator (@tongate/get-methods); a known contract whose data its loader refuses is read by its
// get-methods too (readStateByGetMethods). Nothing here throws for what a contract holds; a
// transient failure (transient.ts) is thrown under the "retry" policy.
import { Address, Cell } from "@ton/core";
import {
  ContractDataError,
  detectContract,
  detectInterfaces,
  getMethodIds,
  hasPrecompiledReader,
  hasRole,
  readStateByCode,
  readStateByGetMethods,
  type InterfaceState,
  type KnownContract,
} from "@tongate/contracts";
import { libraryRefs } from "@tongate/emulator";
import { callGetMethod, getCollectionData, getJettonData, getNftData, getWalletData, type AccountState, type GetMethodContext, type Read } from "@tongate/get-methods";
import { LruMap } from "@tongate/runtime";
import type { ChainContext } from "./chain-context.js";
import type { AccountStateAfter } from "./inputs.js";
import { throwIfTransient, TransientFailure, type TransientPolicy } from "./transient.js";

/** Codes whose interfaces are kept: a code hash has the same interfaces wherever it runs. */
const CODES_KEPT = 4096;

export interface DecodedState {
  interfaces: string[];
  known?: KnownContract;
  /** what its get-methods answer; undefined: nothing the decoder keeps, or it could not be read */
  state?: InterfaceState;
  /** why a state it should have could not be read */
  failure?: string;
}

export class StateReader {
  private readonly interfacesByCode = new LruMap<string, string[]>(CODES_KEPT);

  constructor(private readonly chain: ChainContext) {}

  /**
   * The code as the TVM runs it: a library cell resolved (fetched when the liteserver has it);
   * undefined when the liteserver does not have it, a TransientFailure when it did not answer.
   */
  private async resolvedCode(code: Cell): Promise<Cell | undefined> {
    if (!code.isExotic) return code;
    const [hash] = libraryRefs([code]);
    if (!hash) return undefined;
    await this.chain.fetch([hash]).catch((e: unknown) => {
      throw new TransientFailure(`library ${hash.toString("hex")}: ${e instanceof Error ? e.message : String(e)}`);
    });
    return this.chain.library(hash);
  }

  async interfacesOf(code: Cell, codeHash: string, policy: TransientPolicy = "record"): Promise<string[]> {
    const kept = this.interfacesByCode.get(codeHash);
    if (kept) return kept;
    const byHash = detectInterfaces({ codeHash });
    let names = byHash;
    if (names.length === 0) {
      const resolved = await this.resolvedCode(code).catch((e: unknown) => {
        if (policy === "retry") throw e;
        return null; // not kept: the library may come with the next look
      });
      if (resolved === null) return [];
      names = resolved ? detectInterfaces({ codeHash, methodIds: getMethodIds(resolved, (h) => this.chain.library(h)) }) : [];
    }
    this.interfacesByCode.set(codeHash, names);
    return names;
  }

  async read(s: AccountStateAfter, policy: TransientPolicy = "record"): Promise<DecodedState> {
    if (!s.code || s.status !== "active") return { interfaces: [] };
    const codeHash = s.code.hash().toString("base64");
    const interfaces = await this.interfacesOf(s.code, codeHash, policy);
    const known = detectContract(s.code);
    const data = s.data ?? Cell.EMPTY;
    if (known && hasPrecompiledReader(known)) {
      try {
        return { interfaces, known, state: readStateByCode(known, data, { code: s.code, now: s.lastNow }) };
      } catch (e) {
        // data the loader refuses (a layout it does not know): the contract's own get-methods say
        const refused = e instanceof ContractDataError ? e.message : String(e);
        const byGetMethods = await this.readKnownByGetMethods(s, known, data, policy);
        return byGetMethods.state ? { interfaces, known, state: byGetMethods.state } : { interfaces, known, failure: `${refused}; ${byGetMethods.failure}` };
      }
    }
    return { interfaces, ...(known && { known }), ...(await this.runGetMethods(s, interfaces, data, policy)) };
  }

  private context(s: AccountStateAfter, data: Cell, policy: TransientPolicy): Promise<GetMethodContext | undefined> {
    return this.chain.contextFor(s.lastNow, s.code!, data, policy);
  }

  /** A known contract's state from its get-methods, in the precompiled reader's shape. */
  private async readKnownByGetMethods(s: AccountStateAfter, known: KnownContract, data: Cell, policy: TransientPolicy): Promise<{ state?: InterfaceState; failure?: string }> {
    const ctx = await this.context(s, data, policy);
    if (!ctx) return { failure: "get-methods cannot run (no liteserver or emulator in this process)" };
    const account: AccountState = { address: Address.parseRaw(s.account), code: s.code!, data, balance: s.balance };
    try {
      const state = await readStateByGetMethods(known, async (method) => {
        const r = await callGetMethod(ctx, account, method);
        if (r.ok) return r.value;
        throwIfTransient(r.failure, policy);
        if (r.failure.reason === "exit_code") return null;
        throw new ContractDataError(`${method}: ${r.failure.message}`);
      });
      return state ? { state } : { failure: `no get-method reader for ${known.name}` };
    } catch (e) {
      if (e instanceof TransientFailure) throw e;
      return { failure: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The standard get-methods of an interface the code declares, in the emulator. */
  private async runGetMethods(s: AccountStateAfter, interfaces: string[], data: Cell, policy: TransientPolicy): Promise<{ state?: InterfaceState; failure?: string }> {
    const role = (["jetton_master", "jetton_wallet", "nft_collection", "nft_item"] as const).find((r) => hasRole(interfaces, r));
    if (!role) return {};
    const ctx = await this.context(s, data, policy);
    if (!ctx) return { failure: "get-methods cannot run (no liteserver or emulator in this process)" };
    const account: AccountState = { address: Address.parseRaw(s.account), code: s.code!, data, balance: s.balance };
    const out = <T>(r: Read<T>, state: (v: T) => InterfaceState) => {
      if (r.ok) return { state: state(r.value) };
      throwIfTransient(r.failure, policy);
      return { failure: `${r.failure.method}: ${r.failure.message}` };
    };
    switch (role) {
      case "jetton_master":
        return out(await getJettonData(ctx, account), (jettonData) => ({ kind: "jetton_master", jettonData }));
      case "jetton_wallet":
        return out(await getWalletData(ctx, account), (walletData) => ({ kind: "jetton_wallet", walletData }));
      case "nft_collection":
        return out(await getCollectionData(ctx, account), (collectionData) => ({ kind: "nft_collection", collectionData }));
      case "nft_item":
        return out(await getNftData(ctx, account), (nftData) => ({ kind: "nft_item", nftData }));
    }
  }
}
