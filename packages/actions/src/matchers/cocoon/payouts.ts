// Cocoon's payouts and charges, started by a proxy (toncenter's cocoon.py): a worker's payout
// (the proxy's signed payload → the worker reports to the proxy → the proxy pays the worker's
// owner), the proxy's own payout, a charge of a client and a refund granted to a client.
import {
  COCOON_OPCODES,
  loadCocoonChargePayload,
  loadCocoonExtProxyPayoutRequest,
  loadCocoonGrantRefundPayload,
  loadCocoonPayoutPayload,
  loadCocoonWorkerProxyRequest,
} from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { findCallContract, getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";
import { aborted, accountOf, CocoonBlock, expectedAddressText } from "./block.js";

const OP = COCOON_OPCODES;

const isCall = (block: Block, ...opcodes: number[]): block is CallContractBlock =>
  block instanceof CallContractBlock && block.opcode !== null && opcodes.includes(block.opcode);

/** payout_payload / last_payout_payload → worker_proxy_request → payout to the owner (+ excesses back). */
export class CocoonWorkerPayoutMatcher extends BlockMatcher {
  constructor() {
    super({
      child: new ContractMatcher(OP.worker_proxy_request, {
        children: [labeled("payout", new ContractMatcher(OP.payout)), labeled("excesses", new ContractMatcher(OP.return_excesses_back, { optional: true }))],
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.payout_payload, OP.last_payout_payload);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const payload = loadCocoonPayoutPayload(block.body());
    const request = findCallContract(block.next, OP.worker_proxy_request);
    const payout = getLabeled("payout", others, CallContractBlock);
    if (request === null || payout === null) return [];
    const worker = loadCocoonWorkerProxyRequest(request.body());
    const built = new CocoonBlock(
      "cocoon_worker_payout",
      { source: block.source, sourceSecondary: block.destination, destination: accountOf(worker.ownerAddress), amount: payout.value },
      {
        payout_type: payload.last ? "last" : "regular",
        query_id: payload.queryId,
        new_tokens: payload.newTokens,
        worker_state: worker.state,
        worker_tokens: worker.tokens,
      },
    );
    built.mergeBlocks([block, ...others]);
    built.failed = aborted(payout);
    return [built];
  }
}

/** ext_proxy_payout_request → payout to the proxy's owner and excesses. */
export class CocoonProxyPayoutMatcher extends BlockMatcher {
  constructor() {
    super({ children: [labeled("payout", new ContractMatcher(OP.payout)), labeled("excesses", new ContractMatcher(OP.return_excesses_back))] });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.ext_proxy_payout_request);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const request = loadCocoonExtProxyPayoutRequest(block.body());
    const payout = getLabeled("payout", others, CallContractBlock);
    if (payout === null) return [];
    const built = new CocoonBlock(
      "cocoon_proxy_payout",
      { source: block.destination, destination: payout.destination, destinationSecondary: accountOf(request.sendExcessesTo) },
      { query_id: request.queryId },
    );
    built.mergeBlocks([block, ...others]);
    built.failed = aborted(payout);
    return [built];
  }
}

/** charge_payload → excesses and a client_proxy_request to the charged client. */
export class CocoonProxyChargeMatcher extends BlockMatcher {
  constructor() {
    super({ children: [labeled("excesses", new ContractMatcher(OP.return_excesses_back)), labeled("client_request", new ContractMatcher(OP.client_proxy_request))] });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.charge_payload);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const charge = loadCocoonChargePayload(block.body());
    const request = getLabeled("client_request", others, CallContractBlock);
    if (request === null) return [];
    const built = new CocoonBlock(
      "cocoon_proxy_charge",
      // a charge moves no coins
      { source: block.destination, destination: request.destination, amount: 0n },
      { query_id: charge.queryId, new_tokens_used: charge.newTokensUsed, expected_address: expectedAddressText(charge.expectedMyAddress) },
    );
    built.mergeBlocks([block, ...others]);
    built.failed = aborted(block);
    return [built];
  }
}

/** grant_refund_payload → client_proxy_request → payout to the refund's recipient (+ excesses back). */
export class CocoonGrantRefundMatcher extends BlockMatcher {
  constructor() {
    super({
      child: labeled(
        "client_request",
        new ContractMatcher(OP.client_proxy_request, {
          children: [labeled("payout", new ContractMatcher(OP.payout)), labeled("excesses", new ContractMatcher(OP.return_excesses_back))],
        }),
      ),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.grant_refund_payload);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const grant = loadCocoonGrantRefundPayload(block.body());
    const request = getLabeled("client_request", others, CallContractBlock);
    const payout = getLabeled("payout", others, CallContractBlock);
    if (request === null || payout === null) return [];
    const built = new CocoonBlock(
      "cocoon_grant_refund",
      { source: block.destination, sourceSecondary: request.destination, destination: payout.destination, amount: payout.value },
      { query_id: grant.queryId, new_tokens_used: grant.newTokensUsed, expected_address: expectedAddressText(grant.expectedMyAddress) },
    );
    built.mergeBlocks([block, ...others]);
    built.failed = aborted(payout);
    return [built];
  }
}
