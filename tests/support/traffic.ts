// The traffic of services/indexer/test/key-index.test.ts, also measured by bench/traces-keys.ts: on a
// localnet with 2 wallets, transfers between them, to fresh addresses (some bounce back) and to empty
// masterchain accounts (they bounce a block later each way, so those traces grow over blocks).
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { LocalnetSender } from "./localnet-deploy.js";

/** A fresh (empty) account: 32 bytes of `n`. */
export const freshAddress = (n: number, workchain = 0): Address => new Address(workchain, Buffer.alloc(32, n));

/** Sends the traffic and seals until every bounce is delivered. */
export async function keyIndexTraffic(net: Localnet): Promise<void> {
  await net.faucet(freshAddress(0xb1), toNano("5"));
  const w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
  const w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
  for (let i = 0; i < 4; i++) {
    await w1.send({ to: w2.address, value: toNano("1") }, { to: freshAddress(0xb2 + i), value: toNano("0.3"), bounce: false });
    await w2.send({ to: w1.address, value: toNano("0.5") }, { to: freshAddress(0xc2 + i), value: toNano("0.2"), bounce: true });
    await w1.send({ to: freshAddress(0xd2 + i, -1), value: toNano("0.4"), bounce: true }, { to: w2.address, value: toNano("0.1") });
  }
  for (let i = 0; i < 3; i++) await net.chain.seal();
}
