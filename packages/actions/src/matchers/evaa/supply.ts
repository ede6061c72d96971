// EVAA supply: TON (supply_master to the master) or a jetton (a transfer to the master whose
// forward payload is supply_master); the master tells the recipient's user contract
// (supply_user), which answers supply_success (or supply_fail), or the master returns the jettons.
import { EVAA_OPCODES, loadEvaaSupplyMaster, loadEvaaSupplyMasterJetton, loadEvaaSupplySuccess, loadEvaaSupplyUser } from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled, isCall } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { EvaaSupplyBlock, type EvaaSupplyData } from "./blocks.js";
import { evaaCommentMatcher, EvaaUserCommandMatcher, jettonPayloadOpcodeTest } from "./common.js";

const OP = EVAA_OPCODES;

/** A jetton transfer to the master carrying the call as its forward payload. */
const isJettonCall = jettonPayloadOpcodeTest(OP.evaa_supply_master);

type SupplyStart = Pick<EvaaSupplyData, "sender" | "recipient" | "amount" | "isTon" | "senderJettonWallet" | "recipientJettonWallet" | "masterJettonWallet" | "master" | "asset">;

/** Who supplied what to whom, from the TON call or the jetton transfer that started the supply. */
function supplyStart(block: Block, others: readonly Block[]): SupplyStart | null {
  if (block instanceof CallContractBlock) {
    const m = loadEvaaSupplyMaster(block.body());
    return {
      sender: block.source,
      recipient: rawAddress(m.recipientAddress),
      amount: m.supplyAmount,
      isTon: true,
      senderJettonWallet: null,
      recipientJettonWallet: null,
      masterJettonWallet: null,
      master: block.destination,
      asset: null,
    };
  }
  if (!(block instanceof JettonTransferBlock) || block.data.payload.cell === null) return null;
  const d = block.data;
  const recipient = rawAddress(loadEvaaSupplyMasterJetton(block.data.payload.cell.beginParse()).recipientAddress);
  let recipientJettonWallet: string | null = null;
  if (d.sender === recipient) recipientJettonWallet = d.senderWallet;
  else {
    // supplied for someone else: their wallet is where the master's wallet sent jettons
    const onward = others.find((b): b is JettonTransferBlock => b instanceof JettonTransferBlock && b.data.senderWallet === d.receiverWallet);
    recipientJettonWallet = onward?.data.receiverWallet ?? null;
  }
  return {
    sender: d.sender,
    recipient,
    amount: d.amount,
    isTon: false,
    senderJettonWallet: d.senderWallet,
    recipientJettonWallet,
    masterJettonWallet: d.receiverWallet,
    master: d.receiver,
    asset: d.asset,
  };
}

export class EvaaSupplyBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      child: labeled(
        "supply_user",
        new EvaaUserCommandMatcher(OP.evaa_supply_user, {
          child: new OrMatcher([
            labeled("supply_success", new ContractMatcher(OP.evaa_supply_success, { child: evaaCommentMatcher() })),
            labeled("supply_fail", new ContractMatcher(OP.evaa_supply_fail)),
            labeled("jetton_return", new BlockTypeMatcher("jetton_transfer")),
          ]),
        }),
      ),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.evaa_supply_master) || isJettonCall(block);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const start = supplyStart(block, others);
    const user = getLabeled("supply_user", others, CallContractBlock);
    if (start === null || user === null) return [];
    const assetId = loadEvaaSupplyUser(user.body()).command.assetId;
    const success = getLabeled("supply_success", others, CallContractBlock);
    const refused = getLabeled("supply_fail", others, CallContractBlock) ?? getLabeled("jetton_return", others, JettonTransferBlock);
    // not finished yet: neither answer came
    if (success === null && refused === null) return [];
    const built = new EvaaSupplyBlock({
      ...start,
      // the user contract's count is what was supplied
      amount: success === null ? start.amount : loadEvaaSupplySuccess(success.body()).amountSupplied,
      recipientContract: user.destination,
      isSuccess: success !== null,
      assetId,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

