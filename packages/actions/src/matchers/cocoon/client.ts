// Cocoon's client commands and the root's proxy registry (toncenter's cocoon.py): an owner's
// command to its client contract answers with excesses and a client_proxy_request to the proxy
// (which usually aborts: the proxy only learns the client's new state); a top-up and a withdrawal
// go through the proxy; the root registers and unregisters proxies.
import {
  COCOON_OPCODES,
  loadCocoonClientProxyRefundGranted,
  loadCocoonClientProxyRequest,
  loadCocoonExtClientTopUp,
  loadCocoonOwnerClientChangeSecretHash,
  loadCocoonOwnerClientIncreaseStake,
  loadCocoonOwnerClientRegister,
  loadCocoonOwnerClientRequestRefund,
  loadCocoonOwnerClientWithdraw,
  loadCocoonRegisterProxy,
  loadCocoonUnregisterProxy,
} from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, labeled, type MatcherOptions } from "../../engine/matcher.js";
import { aborted, accountOf, CocoonBlock, type CocoonColumns, type CocoonKind } from "./block.js";

const OP = COCOON_OPCODES;

/** The owner command's answer: excesses back and the client's report to its proxy. */
const excessesAndClientRequest = (): MatcherOptions => ({
  children: [labeled("excesses", new ContractMatcher(OP.return_excesses_back)), labeled("client_request", new ContractMatcher(OP.client_proxy_request))],
});

/** What a Cocoon command makes of its first block (and the blocks matched after it); null: no action. */
type Describe = (block: CallContractBlock, others: Block[]) => { columns: CocoonColumns; data: Record<string, unknown> } | null;

/**
 * A Cocoon command: the block of `opcode` and the pattern after it, built into a `kind` block;
 * the action failed when the command's own transaction aborted.
 */
class CocoonCommandMatcher extends BlockMatcher {
  constructor(
    readonly opcode: number,
    readonly kind: CocoonKind,
    readonly describe: Describe,
    o: MatcherOptions,
  ) {
    super(o);
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === this.opcode;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const d = this.describe(block, others);
    if (d === null) return [];
    const built = new CocoonBlock(this.kind, d.columns, d.data);
    built.mergeBlocks([block, ...others]);
    built.failed = aborted(block);
    return [built];
  }
}

/** ext_client_top_up → client_proxy_request to the proxy → excesses. */
export const cocoonClientTopUpMatcher = () =>
  new CocoonCommandMatcher(
    OP.ext_client_top_up,
    "cocoon_client_top_up",
    (block, others) => {
      const topUp = loadCocoonExtClientTopUp(block.body());
      const request = getLabeled("proxy_request", others, CallContractBlock);
      if (request === null) return null;
      return {
        columns: { source: accountOf(topUp.sendExcessesTo), destination: block.destination, destinationSecondary: request.destination, amount: topUp.amount },
        data: { query_id: topUp.queryId },
      };
    },
    { child: labeled("proxy_request", new ContractMatcher(OP.client_proxy_request, { children: [labeled("excesses", new ContractMatcher(OP.return_excesses_back))] })) },
  );

/** register_proxy → excesses. */
export const cocoonRegisterProxyMatcher = () =>
  new CocoonCommandMatcher(
    OP.register_proxy,
    "cocoon_register_proxy",
    (block) => ({ columns: { destination: block.destination }, data: { query_id: loadCocoonRegisterProxy(block.body()).queryId } }),
    { child: labeled("excesses", new ContractMatcher(OP.return_excesses_back)) },
  );

/** unregister_proxy → excesses. */
export const cocoonUnregisterProxyMatcher = () =>
  new CocoonCommandMatcher(
    OP.unregister_proxy,
    "cocoon_unregister_proxy",
    (block) => {
      const u = loadCocoonUnregisterProxy(block.body());
      return { columns: { destination: block.destination }, data: { query_id: u.queryId, seqno: u.seqno } };
    },
    { child: labeled("excesses", new ContractMatcher(OP.return_excesses_back)) },
  );

export const cocoonClientRegisterMatcher = () =>
  new CocoonCommandMatcher(
    OP.owner_client_register,
    "cocoon_client_register",
    (block) => {
      const r = loadCocoonOwnerClientRegister(block.body());
      return { columns: { source: accountOf(r.sendExcessesTo), destination: block.destination }, data: { query_id: r.queryId, nonce: r.nonce } };
    },
    excessesAndClientRequest(),
  );

export const cocoonClientChangeSecretHashMatcher = () =>
  new CocoonCommandMatcher(
    OP.owner_client_change_secret_hash,
    "cocoon_client_change_secret_hash",
    (block) => {
      const c = loadCocoonOwnerClientChangeSecretHash(block.body());
      // toncenter prints the hash as hex without leading zeros
      return { columns: { source: accountOf(c.sendExcessesTo), destination: block.destination }, data: { query_id: c.queryId, new_secret_hash: c.newSecretHash.toString(16) } };
    },
    excessesAndClientRequest(),
  );

/** owner_client_request_refund, sent by the owner directly or relayed by its Cocoon wallet. */
export const cocoonClientRequestRefundMatcher = () =>
  new CocoonCommandMatcher(
    OP.owner_client_request_refund,
    "cocoon_client_request_refund",
    (block, others) => {
      const r = loadCocoonOwnerClientRequestRefund(block.body());
      const viaWallet = getLabeled("wallet_wrapper", others, CallContractBlock) !== null;
      return { columns: { source: accountOf(r.sendExcessesTo), destination: block.destination }, data: { query_id: r.queryId, via_wallet: viaWallet } };
    },
    { ...excessesAndClientRequest(), parent: labeled("wallet_wrapper", new ContractMatcher(OP.owner_wallet_send_message, { optional: true })) },
  );

export const cocoonClientIncreaseStakeMatcher = () =>
  new CocoonCommandMatcher(
    OP.owner_client_increase_stake,
    "cocoon_client_increase_stake",
    (block) => {
      const c = loadCocoonOwnerClientIncreaseStake(block.body());
      return { columns: { source: accountOf(c.sendExcessesTo), destination: block.destination, amount: c.amount }, data: { query_id: c.queryId, new_stake: c.amount } };
    },
    excessesAndClientRequest(),
  );

/** owner_client_withdraw → client_proxy_request (with the granted refund as payload) → payout (+ excesses). */
export const cocoonClientWithdrawMatcher = () =>
  new CocoonCommandMatcher(
    OP.owner_client_withdraw,
    "cocoon_client_withdraw",
    (block, others) => {
      const w = loadCocoonOwnerClientWithdraw(block.body());
      const request = getLabeled("client_request", others, CallContractBlock);
      // toncenter reports 0 when the payload is missing or is not a granted refund
      let amount = 0n;
      if (request !== null) {
        try {
          const payload = loadCocoonClientProxyRequest(request.body()).payload;
          if (payload !== null) amount = loadCocoonClientProxyRefundGranted(payload.beginParse()).coins;
        } catch {
          amount = 0n;
        }
      }
      return { columns: { source: accountOf(w.sendExcessesTo), destination: block.destination, amount }, data: { query_id: w.queryId, withdraw_amount: amount } };
    },
    {
      child: labeled(
        "client_request",
        new ContractMatcher(OP.client_proxy_request, {
          children: [labeled("excesses", new ContractMatcher(OP.return_excesses_back, { optional: true })), labeled("payout", new ContractMatcher(OP.payout))],
        }),
      ),
    },
  );
