// jetton_mint: mint (0x642b7d07, Jetton 2.0 / stablecoin minters) or the 2022 reference minter's
// mint (0x15) → the minter, then internal_transfer → the receiver's wallet and optionally its
// notification. A mint that did not reach a wallet is a failed mint of the requested amount.
import { JETTON_OPCODES, loadJettonInternalTransfer, loadMinterJettonMint } from "@tongate/contracts";
import type { Slice } from "@ton/core";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { bodySlice, loadAnyAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { findCallContract } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, OrMatcher } from "../../engine/matcher.js";

export interface JettonMintData {
  to: string | null;
  toJettonWallet: string | null;
  amount: bigint | null;
  tonAmount: bigint;
  /** the jetton master */
  asset: string | null;
}

export class JettonMintBlock extends Block {
  constructor(public data: JettonMintData) {
    super("jetton_mint", []);
  }

  override fill(row: ActionRow): void {
    row.destination = this.data.to;
    row.destination_secondary = this.data.toJettonWallet;
    row.asset = this.data.asset;
    row.amount = this.data.amount;
    row.value = this.data.tonAmount;
  }
}

/** query_id:uint64 to_address:MsgAddress ton_amount:Coins — what both mints start with. */
function readMintHead(s: Slice): { toAddress: string | null; tonAmount: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { toAddress: loadAnyAddress(s), tonAmount: s.loadCoins() };
}

const MINT_OPCODES = new Set<number>([JETTON_OPCODES.jetton_mint, JETTON_OPCODES.minter_jetton_mint]);

export class JettonMintBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      child: new OrMatcher(
        [
          new ContractMatcher(JETTON_OPCODES.jetton_notify, { optional: true }),
          new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer, {
            optional: true,
            child: new ContractMatcher(JETTON_OPCODES.jetton_notify, { optional: true }),
          }),
        ],
        true,
      ),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode !== null && MINT_OPCODES.has(block.opcode);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const msg = block.node.message!;
    const head = readMintHead(bodySlice(msg));
    const internal = findCallContract(others, JETTON_OPCODES.jetton_internal_transfer);
    let data: JettonMintData;
    let failed: boolean;
    if (!block.failed && internal !== null) {
      const it = loadJettonInternalTransfer(bodySlice(internal.node.message!));
      const wallet = ctx.jettonWallet(internal.destination);
      if (wallet === null) throw new Error(`jetton_mint: ${internal.destination} is not a known jetton wallet`);
      data = { to: wallet.owner, toJettonWallet: wallet.address, amount: it.amount, tonAmount: head.tonAmount, asset: wallet.jetton };
      failed = block.failed || internal.failed;
    } else {
      let amount: bigint | null = null;
      if (block.opcode === JETTON_OPCODES.minter_jetton_mint) {
        const master = loadMinterJettonMint(bodySlice(msg)).masterMsg.beginParse();
        master.loadUint(32);
        master.loadUintBig(64);
        amount = master.loadCoins();
      }
      data = { to: head.toAddress, toJettonWallet: null, amount, tonAmount: head.tonAmount, asset: block.destination };
      failed = true;
    }
    const nb = new JettonMintBlock(data);
    if (data.to !== null && data.asset !== null && data.amount !== null && !failed) nb.valueFlow.addJetton(data.to, data.asset, data.amount);
    nb.failed = failed;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}
