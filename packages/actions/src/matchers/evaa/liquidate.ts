// EVAA liquidation: liquidate_master (TON, or a jetton transfer whose forward payload it is) to the
// master, which either rejects at once (bounce or jetton refund) or sends liquidate_user to the
// borrower's user contract; it answers liquidate_satisfied (the master then confirms or fails,
// and pays the liquidator) or liquidate_unsatisfied with the reason.
import { EVAA_OPCODES, evaaLiquidationErrorReason, loadEvaaLiquidateMaster, loadEvaaLiquidateSatisfied, loadEvaaLiquidateUnsatisfied } from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled, isCall } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, GenericMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { EvaaLiquidateBlock, type EvaaLiquidateData } from "./blocks.js";
import { evaaCommentMatcher, EvaaUserCommandMatcher, jettonPayloadOpcodeTest } from "./common.js";

const OP = EVAA_OPCODES;

/** A jetton transfer to the master carrying the call as its forward payload. */
const isJettonCall = jettonPayloadOpcodeTest(OP.evaa_liquidate_master);

/** What the liquidator gets back: for TON the master's report, for a jetton a transfer. */
const finishWithReport = () =>
  labeled(
    "finish_with_tokens_and_report",
    new OrMatcher([
      new GenericMatcher((b) => b instanceof CallContractBlock && (b.opcode === OP.evaa_liquidate_success_report || b.opcode === OP.evaa_liquidate_fail)),
      new BlockTypeMatcher("jetton_transfer"),
    ]),
  );

export class EvaaLiquidateBlockMatcher extends BlockMatcher {
  constructor() {
    const immediateRefund = labeled(
      "immediate_fail_refund",
      new OrMatcher([new GenericMatcher((b) => b instanceof CallContractBlock && b.node.message?.bounced === true), new BlockTypeMatcher("jetton_transfer")]),
    );
    const satisfiedSuccess = labeled(
      "liquidate_satisfied_and_success",
      new ContractMatcher(OP.evaa_liquidate_satisfied, { children: [new EvaaUserCommandMatcher(OP.evaa_liquidate_success, { child: evaaCommentMatcher() }), finishWithReport()] }),
    );
    const satisfiedFail = labeled("liquidate_satisfied_and_fail", new ContractMatcher(OP.evaa_liquidate_satisfied, { children: [new ContractMatcher(OP.evaa_liquidate_fail), finishWithReport()] }));
    const unsatisfied = labeled("liquidate_unsatisfied", new ContractMatcher(OP.evaa_liquidate_unsatisfied, { child: finishWithReport() }));
    const user = labeled("liquidate_user", new EvaaUserCommandMatcher(OP.evaa_liquidate_user, { child: new OrMatcher([satisfiedSuccess, satisfiedFail, unsatisfied]) }));
    super({ child: new OrMatcher([user, immediateRefund]) });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.evaa_liquidate_master) || isJettonCall(block);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    let liquidator: string | null;
    let request;
    if (block instanceof CallContractBlock) {
      liquidator = block.source;
      request = loadEvaaLiquidateMaster(block.body());
    } else if (block instanceof JettonTransferBlock && block.data.payload.cell !== null) {
      liquidator = block.data.sender;
      request = loadEvaaLiquidateMaster(block.data.payload.cell.beginParse());
    } else return [];
    const base: EvaaLiquidateData = {
      liquidator,
      borrower: rawAddress(request.borrowerAddress),
      borrowerContract: null,
      collateralAssetId: request.collateralAssetId,
      collateralAmount: 0n,
      debtAmount: request.liquidateIncomingAmount,
      isSuccess: false,
      failReason: null,
    };
    let data: EvaaLiquidateData | null = null;
    const user = getLabeled("liquidate_user", others, CallContractBlock);
    if (user === null) {
      // the master rejected it before asking the borrower's contract
      if (getLabeled("immediate_fail_refund", others, Block) !== null) data = { ...base, failReason: "immediate_rejection" };
    } else {
      const withContract = { ...base, borrowerContract: user.destination };
      const satisfied = getLabeled("liquidate_satisfied_and_success", others, CallContractBlock);
      const unsatisfied = getLabeled("liquidate_unsatisfied", others, CallContractBlock);
      if (satisfied !== null) {
        const s = loadEvaaLiquidateSatisfied(satisfied.body());
        data = {
          ...withContract,
          borrower: rawAddress(s.ownerAddress),
          collateralAssetId: s.collateralAssetId,
          collateralAmount: s.collateralReward,
          debtAmount: s.liquidatableAmount,
          isSuccess: true,
        };
      } else if (unsatisfied !== null) {
        let reason: string;
        try {
          reason = evaaLiquidationErrorReason(loadEvaaLiquidateUnsatisfied(unsatisfied.body()).error);
        } catch {
          reason = "liquidation_error";
        }
        data = { ...withContract, failReason: reason };
      } else if (getLabeled("liquidate_satisfied_and_fail", others, CallContractBlock) !== null) data = { ...withContract, failReason: "master_not_enough_liquidity" };
    }
    if (data === null) return [];
    const built = new EvaaLiquidateBlock(data);
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
