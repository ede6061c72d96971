// An account's interfaces and the state the decoder keeps of it: by code hash first (the known
// contracts of @tongate/contracts, their state read from the data cell with the storage loaders);
// else by the get-method ids in its code (detectInterfaces), then those get-methods run in the
// emulator (@tongate/get-methods). Nothing here throws for what a contract holds.
import { Cell } from "@ton/core";
import {
  ContractDataError,
  detectContract,
  detectInterfaces,
  getMethodIds,
  hasPrecompiledReader,
  hasRole,
  readStateByCode,
  type InterfaceState,
  type KnownContract,
} from "@tongate/contracts";
import { libraryRefs } from "@tongate/emulator";
import { getCollectionData, getJettonData, getNftData, getWalletData, type AccountState, type Read } from "@tongate/get-methods";
import { LruMap } from "@tongate/runtime";
import type { ChainContext } from "./chain-context.js";
import type { AccountStateAfter } from "./inputs.js";
import { Address } from "@ton/core";

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

  /** The code as the TVM runs it: a library cell resolved (fetched when the liteserver has it). */
  private async resolvedCode(code: Cell): Promise<Cell | undefined> {
    if (!code.isExotic) return code;
    const [hash] = libraryRefs([code]);
    if (!hash) return undefined;
    await this.chain.fetch([hash]).catch(() => undefined);
    return this.chain.library(hash);
  }

  async interfacesOf(code: Cell, codeHash: string): Promise<string[]> {
    const kept = this.interfacesByCode.get(codeHash);
    if (kept) return kept;
    const byHash = detectInterfaces({ codeHash });
    let names = byHash;
    if (names.length === 0) {
      const resolved = await this.resolvedCode(code);
      names = resolved ? detectInterfaces({ codeHash, methodIds: getMethodIds(resolved, (h) => this.chain.library(h)) }) : [];
    }
    this.interfacesByCode.set(codeHash, names);
    return names;
  }

  async read(s: AccountStateAfter): Promise<DecodedState> {
    if (!s.code || s.status !== "active") return { interfaces: [] };
    const codeHash = s.code.hash().toString("base64");
    const interfaces = await this.interfacesOf(s.code, codeHash);
    const known = detectContract(s.code);
    const data = s.data ?? Cell.EMPTY;
    if (known && hasPrecompiledReader(known)) {
      try {
        return { interfaces, known, state: readStateByCode(known, data, { code: s.code, now: s.lastNow }) };
      } catch (e) {
        return { interfaces, known, failure: e instanceof ContractDataError ? e.message : String(e) };
      }
    }
    return { interfaces, ...(known && { known }), ...(await this.runGetMethods(s, interfaces, data)) };
  }

  /** The standard get-methods of an interface the code declares, in the emulator. */
  private async runGetMethods(s: AccountStateAfter, interfaces: string[], data: Cell): Promise<{ state?: InterfaceState; failure?: string }> {
    const role = (["jetton_master", "jetton_wallet", "nft_collection", "nft_item"] as const).find((r) => hasRole(interfaces, r));
    if (!role) return {};
    const ctx = await this.chain.getMethods(s.lastNow, libraryRefs([s.code, data])).catch(() => undefined);
    if (!ctx) return { failure: "get-methods cannot run (no liteserver or emulator in this process)" };
    const account: AccountState = { address: Address.parseRaw(s.account), code: s.code!, data, balance: s.balance };
    const out = <T>(r: Read<T>, state: (v: T) => InterfaceState) => (r.ok ? { state: state(r.value) } : { failure: `${r.failure.method}: ${r.failure.message}` });
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
