// A genesis wallet of the localnet as a wallet app drives it through tongate's API v2 (@ton/ton's
// TonClient): opened at its version, a jetton transfer signed and sent with sendBocReturnHash, the
// way a backend submits a transfer it wants to track.
import { beginCell, toNano, type Address } from "@ton/core";
import { external, internal, SendMode, storeMessage, TonClient, WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { storeJettonTransfer, storeTextComment } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";

/** Genesis wallet `index` of `net`, opened on tongate's API v2 at `url`. */
export function genesisWalletOnTongate(net: Localnet, url: string, index: number) {
  const genesis = net.genesis.wallets[index];
  if (!genesis) throw new Error(`the localnet has no genesis wallet ${index}`);
  const client = new TonClient({ endpoint: `${url}/api/v2/jsonRPC` });
  const publicKey = genesis.keyPair.publicKey;
  const contract = genesis.version === "v4r2" ? WalletContractV4.create({ workchain: 0, publicKey }) : WalletContractV5R1.create({ workchain: 0, publicKey, walletId: { networkGlobalId: net.genesis.globalId } });
  return { genesis, client, contract, wallet: client.open(contract) };
}

export interface JettonTransferRequest {
  /** the sender's jetton wallet */
  jettonWallet: Address;
  /** the receiving owner */
  destination: Address;
  amount: bigint;
  queryId: bigint;
  comment: string;
}

/** Signs a jetton transfer from genesis wallet `index` (its seqno read through tongate) and sends it with sendBocReturnHash. */
export async function sendJettonTransferReturnHash(net: Localnet, url: string, index: number, r: JettonTransferRequest): Promise<{ hash: string; hash_norm: string; sender: Address }> {
  const { genesis, contract, wallet } = genesisWalletOnTongate(net, url, index);
  const body = beginCell()
    .store(
      storeJettonTransfer({
        queryId: r.queryId,
        amount: r.amount,
        destination: r.destination,
        responseDestination: wallet.address,
        customPayload: null,
        forwardTonAmount: toNano("0.01"),
        forwardPayload: { cell: beginCell().store(storeTextComment({ text: r.comment })).endCell(), inRef: false },
      }),
    )
    .endCell();
  const transfer = {
    seqno: await wallet.getSeqno(),
    secretKey: genesis.keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    timeout: net.now() + 60,
    messages: [internal({ to: r.jettonWallet, value: toNano("0.2"), bounce: true, body })],
  };
  // (two calls: the wallet classes' createTransfer signatures differ)
  const signed = contract instanceof WalletContractV4 ? contract.createTransfer(transfer) : contract.createTransfer(transfer);
  const boc = beginCell().store(storeMessage(external({ to: wallet.address, body: signed }))).endCell().toBoc().toString("base64");
  const sent = await fetch(`${url}/api/v2/sendBocReturnHash`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc }) });
  if (sent.status !== 200) throw new Error(`sendBocReturnHash answered ${sent.status}: ${await sent.text()}`);
  const { result } = (await sent.json()) as { result: { hash: string; hash_norm: string } };
  return { ...result, sender: wallet.address };
}
