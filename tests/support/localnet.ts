// A localnet for tests: one liteserver on an ephemeral loopback port (unless `listen` says
// otherwise), the real state builder and proofs, emulation on the test's thread, blocks
// sealed only when the test asks.
import { buildShardState, Localnet, localnetProofs, type LocalnetOptions } from "@tongate/localnet";

export function startTestLocalnet(o: Partial<LocalnetOptions> & { seed: string }): Promise<Localnet> {
  return Localnet.start({ wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, emulator: { size: 1 }, ...o });
}
