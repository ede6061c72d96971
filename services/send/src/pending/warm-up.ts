// The emulator builds its instance for a chain config on the first transaction it runs with it
// (~0.5 s: the config is parsed in WebAssembly), then keeps it. A run of an external message to an
// empty account, refused at once, does that at start, so the first client's pending trace does not
// wait for it.
import { Address, beginCell, external, storeMessage } from "@ton/core";
import { runTransaction, type EmulatorPool } from "@tongate/emulator";
import { blockConfig, type LiteserverPool } from "@tongate/liteclient";

/** Runs `runs` refused transactions on the latest block's config (one per emulator process, as the pool spreads them). */
export async function warmEmulator(pool: LiteserverPool, emulator: EmulatorPool, runs: number): Promise<void> {
  const s = pool.session();
  const config = await blockConfig(s, (await s.query({ kind: "liteServer.getMasterchainInfo" })).last);
  // account_none, no last transaction
  const shardAccount = beginCell().storeBit(0).storeBuffer(Buffer.alloc(32)).storeUint(0, 64).endCell();
  const message = beginCell()
    .store(storeMessage(external({ to: new Address(0, Buffer.alloc(32)), body: beginCell().endCell() })))
    .endCell();
  await Promise.all(
    Array.from({ length: runs }, () => runTransaction(emulator, { config, libs: null, shardAccount, message, now: Math.floor(Date.now() / 1000), lt: 1n, randomSeed: Buffer.alloc(32), ignoreChksig: false }).catch(() => undefined)),
  );
}
