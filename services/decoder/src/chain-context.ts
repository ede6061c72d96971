// What get-methods run with when the decoder must run them (code it does not know by hash, a
// master's or a collection's confirmation): the chain's config and the public libraries, from the
// liteserver pool the host supplies. Without one the decoder reads known contracts only.
import type { Cell } from "@ton/core";
import { EmulatorPool, emptyLibraries, librariesCell, libraryRefs, type Libraries } from "@tongate/emulator";
import type { GetMethodContext } from "@tongate/get-methods";
import { blockConfig, fetchLibraries, type LiteserverPool } from "@tongate/liteclient";
import { LruMap } from "@tongate/runtime";
import { unavailable, type TransientPolicy } from "./transient.js";

/** The config is read again after this long (it changes at key blocks, rarely). */
const CONFIG_TTL_MS = 10 * 60_000;
/** Libraries kept (a jetton family shares one; a few hundred cover mainnet's). */
const LIBRARIES_KEPT = 512;

export class ChainContext {
  private config?: { boc: string; at: number };
  private readonly libraries = new LruMap<string, Cell>(LIBRARIES_KEPT);

  constructor(
    private readonly lite: LiteserverPool | undefined,
    private readonly pool: EmulatorPool | undefined,
  ) {}

  /** Whether get-methods can run at all (a liteserver for the config, an emulator pool). */
  get canRun(): boolean {
    return this.lite !== undefined && this.pool !== undefined;
  }

  /** A context for get-methods at `now` with these libraries, or undefined when none can run. */
  async getMethods(now: number, libraryHashes: readonly Buffer[] = [], signal?: AbortSignal): Promise<GetMethodContext | undefined> {
    if (!this.lite || !this.pool) return undefined;
    const config = await this.currentConfig();
    const libs = await this.librariesFor(libraryHashes);
    return { pool: this.pool, config, libraries: librariesCell(libs), now, signal };
  }

  /**
   * A context to run `code`'s get-methods on `data`, with the libraries they refer to; undefined
   * when none can run, or when the liteserver failed and the policy records it (a TransientFailure
   * under "retry").
   */
  contextFor(now: number, code: Cell, data: Cell, policy: TransientPolicy): Promise<GetMethodContext | undefined> {
    return this.getMethods(now, libraryRefs([code, data])).catch((e: unknown) => unavailable(e, policy));
  }

  /** A library cell this process has fetched before, by hash (getMethodIds' resolver). */
  library(hash: Buffer): Cell | undefined {
    return this.libraries.get(hash.toString("hex"));
  }

  /** Fetches the libraries not kept yet; those the liteserver does not have stay missing. */
  async fetch(hashes: readonly Buffer[]): Promise<void> {
    if (!this.lite) return;
    const missing = hashes.filter((h) => !this.libraries.get(h.toString("hex")));
    if (missing.length === 0) return;
    const got: Libraries = emptyLibraries();
    await fetchLibraries(this.lite, missing, got);
    for (const [hash, cell] of got) this.libraries.set(hash.toString("hex"), cell);
  }

  private async librariesFor(hashes: readonly Buffer[]): Promise<Libraries> {
    const libs = emptyLibraries();
    if (hashes.length === 0) return libs;
    await this.fetch(hashes);
    for (const h of hashes) {
      const cell = this.library(h);
      if (cell) libs.set(h, cell);
    }
    return libs;
  }

  private async currentConfig(): Promise<string> {
    if (this.config && Date.now() - this.config.at < CONFIG_TTL_MS) return this.config.boc;
    const info = await this.lite!.query({ kind: "liteServer.getMasterchainInfo" });
    const boc = await blockConfig(this.lite!, info.last);
    this.config = { boc, at: Date.now() };
    return boc;
  }
}
