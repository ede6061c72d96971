// EVAA withdraw: withdraw_master to the master, withdraw_user to the owner's user contract, which
// either refuses at once (one of four excesses to the owner) or answers withdraw_collateralized;
// then the master pays out (TON with withdraw_success, or a jetton transfer) and confirms to the
// user contract, or, short of funds, has the user contract revert (withdraw_fail, no_funds excess).
import { EVAA_OPCODES, EVAA_WITHDRAW_FAIL_REASONS, loadEvaaWithdrawCollateralized, loadEvaaWithdrawMaster } from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled, isCall } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, GenericMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { EvaaWithdrawBlock, type EvaaWithdrawData } from "./blocks.js";
import { evaaCommentMatcher, EvaaUserCommandMatcher, EVAA_TON_ASSET_ID } from "./common.js";

const OP = EVAA_OPCODES;

export class EvaaWithdrawBlockMatcher extends BlockMatcher {
  constructor() {
    const payout = new OrMatcher([
      labeled("jetton_payout", new BlockTypeMatcher("jetton_transfer")),
      labeled("ton_payout", new ContractMatcher(OP.evaa_withdraw_success, { child: evaaCommentMatcher() })),
    ]);
    // the same opcode, as a user command, updates the user contract's data
    const userUpdate = labeled("withdraw_success", new EvaaUserCommandMatcher(OP.evaa_withdraw_success, { child: new BlockTypeMatcher("ton_transfer") }));
    const collateralizedSuccess = labeled("withdraw_collateralized_success", new ContractMatcher(OP.evaa_withdraw_collateralized, { children: [payout, userUpdate] }));
    const collateralizedFail = labeled(
      "withdraw_collateralized_fail",
      new ContractMatcher(OP.evaa_withdraw_collateralized, {
        child: labeled(
          "withdraw_fail_no_funds",
          new EvaaUserCommandMatcher(OP.evaa_withdraw_fail, { child: labeled("withdraw_no_funds_excess", new ContractMatcher(OP.evaa_withdraw_no_funds_excess)) }),
        ),
      }),
    );
    const refusedByUser = labeled(
      "withdraw_fail_on_user_excesses",
      new GenericMatcher((b) => b instanceof CallContractBlock && b.opcode !== null && EVAA_WITHDRAW_FAIL_REASONS.has(b.opcode)),
    );
    super({ child: labeled("withdraw_on_user", new EvaaUserCommandMatcher(OP.evaa_withdraw_user, { child: new OrMatcher([collateralizedSuccess, collateralizedFail, refusedByUser]) })) });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.evaa_withdraw_master);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const request = loadEvaaWithdrawMaster(block.body());
    const user = getLabeled("withdraw_on_user", others, CallContractBlock);
    if (user === null) return [];
    const isTon = request.assetId === EVAA_TON_ASSET_ID;
    const base: EvaaWithdrawData = {
      owner: block.source,
      ownerContract: user.destination,
      recipient: rawAddress(request.recipientAddr),
      assetId: request.assetId,
      amount: request.amount,
      isSuccess: false,
      isTon,
      recipientJettonWallet: null,
      masterJettonWallet: null,
      failReason: null,
      master: block.destination,
      asset: null,
    };
    let data: EvaaWithdrawData | null = null;
    const collateralized = getLabeled("withdraw_collateralized_success", others, CallContractBlock);
    const noFunds = getLabeled("withdraw_collateralized_fail", others, CallContractBlock);
    const refused = getLabeled("withdraw_fail_on_user_excesses", others, CallContractBlock);
    if (collateralized !== null) {
      data = { ...base, isSuccess: true, amount: loadEvaaWithdrawCollateralized(collateralized.body()).withdrawAmountCurrent };
      if (isTon) {
        if (getLabeled("ton_payout", others, CallContractBlock) === null) return [];
      } else {
        const payout = getLabeled("jetton_payout", others, JettonTransferBlock);
        if (payout === null) return [];
        data.asset = payout.data.asset;
        data.recipientJettonWallet = payout.data.receiverWallet;
        data.masterJettonWallet = payout.data.senderWallet;
      }
    } else if (noFunds !== null) data = { ...base, failReason: "withdraw_no_funds_excess" };
    else if (refused !== null && refused.opcode !== null) data = { ...base, failReason: EVAA_WITHDRAW_FAIL_REASONS.get(refused.opcode) ?? null };
    if (data === null) return [];
    const built = new EvaaWithdrawBlock(data);
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
