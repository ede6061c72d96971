// Ethena on TON: staking USDe mints tsUSDe (a jetton transfer of USDe to the staking pool, then a
// jetton mint of tsUSDe); unstaking sends tsUSDe to its master, and the pool mints timelocked
// USDe back to the staker's wallet (a stake_withdrawal_request).
import { JETTON_OPCODES, loadJettonInternalTransfer } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { bodySlice } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, childSequenceMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";
import { JettonMintBlock } from "../jettons/mint.js";
import { JettonTransferBlock } from "../jettons/transfer.js";

const PROVIDER = "ethena";

/** The USDe and tsUSDe jetton masters: a deposit is a transfer of the one that mints the other. */
export const USDE_MASTER = "0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC";
export const TSUSDE_MASTER = "0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D";

/** The timelocked transfer the tsUSDe master sends on unstaking: internal_transfer's layout under another opcode. */
export const TIMELOCKED_TRANSFER_OPCODE = 0xb2583ed5;

export interface EthenaDepositData {
  source: string | null;
  userJettonWallet: string | null;
  pool: string | null;
  value: bigint;
  tokensMinted: bigint | null;
  asset: string | null;
  sourceAsset: string | null;
}

export class EthenaDepositBlock extends Block {
  constructor(readonly data: EthenaDepositData) {
    super("ethena_deposit", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.source;
    row.source_secondary = d.userJettonWallet;
    row.destination = d.pool;
    row.amount = d.value;
    row.asset = d.asset;
    row.asset2 = d.sourceAsset;
    row.staking_data = { provider: PROVIDER, tokens_minted: d.tokensMinted };
  }
}

export interface EthenaWithdrawalRequestData {
  source: string | null;
  sourceWallet: string | null;
  receiverWallet: string | null;
  pool: string | null;
  asset: string | null;
  amount: bigint;
  tsUsdeAmount: bigint;
}

export class EthenaWithdrawalRequestBlock extends Block {
  constructor(readonly data: EthenaWithdrawalRequestData) {
    super("ethena_withdrawal_request", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.source;
    row.source_secondary = d.sourceWallet;
    row.destination = d.pool;
    row.asset = d.asset;
    row.amount = d.amount;
    row.staking_data = { provider: PROVIDER, tokens_minted: d.tsUsdeAmount };
  }
}

/** query_id:uint64 amount:Coins after any opcode (internal_transfer and the timelocked transfer share it). */
function amountAfterQueryId(block: CallContractBlock): bigint {
  const s = bodySlice(block.node.message!);
  s.loadUint(32);
  s.loadUintBig(64);
  return s.loadCoins();
}

export class EthenaWithdrawalRequestBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      child: childSequenceMatcher([
        labeled("internal_transfer", new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer)),
        new ContractMatcher(JETTON_OPCODES.jetton_notify),
        labeled("mint", new ContractMatcher(JETTON_OPCODES.jetton_mint)),
        labeled("ts_usde_transfer", new ContractMatcher(TIMELOCKED_TRANSFER_OPCODE)),
      ]),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JETTON_OPCODES.jetton_transfer;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const internal = getLabeled("internal_transfer", others, CallContractBlock);
    const timelocked = getLabeled("ts_usde_transfer", others, CallContractBlock);
    const mint = getLabeled("mint", others, CallContractBlock);
    if (internal === null || timelocked === null || mint === null) return [];
    const source = block.source;
    const sourceWallet = block.destination;
    const receiverWallet = timelocked.destination;
    const master = internal.destination;
    const sourceInfo = ctx.jettonWallet(sourceWallet);
    const receiverInfo = ctx.jettonWallet(receiverWallet);
    if (sourceInfo === null || receiverInfo === null) throw new Error("ethena unstake: the wallets are not known jetton wallets");
    // the staker's own wallets of the jetton whose master got the transfer
    if (sourceInfo.owner !== source || receiverInfo.owner !== source || sourceInfo.jetton !== master || receiverInfo.jetton !== timelocked.source) return [];
    const built = new EthenaWithdrawalRequestBlock({
      source,
      sourceWallet,
      receiverWallet,
      pool: mint.source,
      asset: sourceInfo.jetton,
      amount: loadJettonInternalTransfer(bodySlice(internal.node.message!)).amount,
      tsUsdeAmount: amountAfterQueryId(timelocked),
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class EthenaDepositBlockMatcher extends BlockMatcher {
  constructor() {
    super({ child: new BlockTypeMatcher("jetton_mint") });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonTransferBlock;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof JettonTransferBlock)) return [];
    const mint = others.find((b): b is JettonMintBlock => b instanceof JettonMintBlock);
    if (mint === undefined) return [];
    const transferAsset = block.data.asset;
    const mintAsset = mint.data.asset;
    if (transferAsset !== USDE_MASTER || mintAsset !== TSUSDE_MASTER) return [];
    const built = new EthenaDepositBlock({
      source: block.data.sender,
      userJettonWallet: block.data.senderWallet,
      pool: block.data.receiver,
      value: block.data.amount,
      tokensMinted: mint.data.amount,
      asset: mintAsset,
      sourceAsset: transferAsset,
    });
    built.mergeBlocks([block, mint]);
    return [built];
  }
}
