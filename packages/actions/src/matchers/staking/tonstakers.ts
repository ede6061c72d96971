// tonstakers (liquid staking): a deposit of TON mints tsTON; burning tsTON asks the pool for TON,
// paid at once (pool_withdrawal) or later against a withdrawal NFT the pool mints; burning that NFT
// when the round ends pays it out (distributed_asset).
import { JETTON_OPCODES, loadJettonBurn, loadJettonInternalTransfer } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { bodySlice, rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { findCallContract, getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { loadTonstakersNftBurnNotification, TONSTAKERS_OPCODES } from "./messages.js";

const OP = TONSTAKERS_OPCODES;

/** What the pool keeps of every deposit. */
const DEPOSIT_FEE = 1_000_000_000n;

const PROVIDER = "liquid_staking";

export interface TonstakersDepositData {
  source: string | null;
  userJettonWallet: string | null;
  pool: string | null;
  value: bigint;
  tokensMinted: bigint | null;
  /** the tsTON jetton master */
  asset: string | null;
}

export class TonstakersDepositBlock extends Block {
  constructor(readonly data: TonstakersDepositData) {
    super("tonstakers_deposit", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.source;
    row.destination = d.pool;
    row.amount = d.value;
    row.asset = d.asset;
    row.staking_data = { provider: PROVIDER, tokens_minted: d.tokensMinted };
  }
}

export interface TonstakersWithdrawRequestData {
  source: string | null;
  tsTonWallet: string | null;
  pool: string | null;
  tokensBurnt: bigint;
  mintedNft: string | null;
  asset: string | null;
}

export class TonstakersWithdrawRequestBlock extends Block {
  constructor(readonly data: TonstakersWithdrawRequestData) {
    super("tonstakers_withdraw_request", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.source;
    row.source_secondary = d.tsTonWallet;
    row.destination = d.pool;
    row.amount = d.tokensBurnt;
    row.asset = d.asset;
    row.staking_data = { provider: PROVIDER, ts_nft: d.mintedNft };
  }
}

export interface TonstakersWithdrawData {
  stakeHolder: string | null;
  burntNft: string | null;
  pool: string | null;
  tokensBurnt: bigint | null;
  amount: bigint;
  asset: string | null;
}

export class TonstakersWithdrawBlock extends Block {
  constructor(readonly data: TonstakersWithdrawData) {
    super("tonstakers_withdraw", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.stakeHolder;
    row.destination = d.pool;
    row.amount = d.amount;
    row.asset = d.asset;
    row.staking_data = { provider: PROVIDER, ts_nft: d.burntNft, tokens_burnt: d.tokensBurnt };
  }
}

const valueOf = (b: Block): bigint => b.node.message?.value ?? 0n;

export class TONStakersDepositMatcher extends BlockMatcher {
  constructor() {
    super({
      child: new ContractMatcher(OP.mint, {
        optional: true,
        child: labeled(
          "transfer",
          new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer, {
            includeExcess: true,
            child: new ContractMatcher(JETTON_OPCODES.jetton_notify, { optional: true }),
          }),
        ),
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.deposit_request;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const msg = block.node.message!;
    const transfer = getLabeled("transfer", others, CallContractBlock);
    // the minted tsTON's master: without the transfer there is nothing to tell it by
    if (transfer === null) throw new Error("tonstakers deposit without the tsTON transfer");
    const failed = block.failed;
    const built = new TonstakersDepositBlock({
      source: msg.source,
      pool: msg.destination,
      userJettonWallet: failed ? null : transfer.destination,
      tokensMinted: failed ? null : loadJettonInternalTransfer(bodySlice(transfer.node.message!)).amount,
      value: (msg.value ?? 0n) - DEPOSIT_FEE,
      asset: transfer.source,
    });
    built.failed = failed;
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class TONStakersWithdrawMatcher extends BlockMatcher {
  constructor() {
    super({
      child: new ContractMatcher(JETTON_OPCODES.jetton_burn_notification, {
        child: labeled(
          "request",
          new ContractMatcher(OP.withdraw_request, {
            child: new OrMatcher([labeled("immediate_withdrawal", new ContractMatcher(OP.pool_withdrawal)), labeled("delayed_withdrawal", new ContractMatcher(OP.mint))]),
          }),
        ),
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JETTON_OPCODES.jetton_burn;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const msg = block.node.message!;
    const burn = loadJettonBurn(bodySlice(msg));
    const immediate = getLabeled("immediate_withdrawal", others, CallContractBlock);
    const delayed = getLabeled("delayed_withdrawal", others, CallContractBlock);
    const request = getLabeled("request", others, CallContractBlock);
    if (request === null) throw new Error("tonstakers withdrawal without the pool's request");
    let failed = block.failed;
    const asset = request.source;
    let built: Block;
    if (immediate !== null) {
      // what the pool paid beyond the TON the request brought
      const previous = immediate.previous;
      const amount = valueOf(immediate) - (previous === null ? 0n : valueOf(previous));
      built = new TonstakersWithdrawBlock({ stakeHolder: msg.source, burntNft: null, pool: request.destination, tokensBurnt: burn.amount, amount, asset });
    } else {
      if (delayed === null) throw new Error("tonstakers withdrawal without a payout or a withdrawal NFT");
      const mint = delayed.next.find((b) => b.btype === "nft_mint") ?? findCallContract(delayed.next, OP.init_nft);
      let mintedNft: string | null = null;
      if (mint) mintedNft = mint.nodes[0].message?.destination ?? null;
      else failed = true;
      built = new TonstakersWithdrawRequestBlock({ source: msg.source, tsTonWallet: msg.destination, pool: request.destination, tokensBurnt: burn.amount, mintedNft, asset });
    }
    built.failed = failed;
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

/** The pool of a withdrawal NFT's payout: the account that started the round's distribution, or the withdrawal the NFT came from. */
function findPool(notification: Block): string | null {
  const through = new Set<number>([OP.nft_burn_notification, OP.nft_burn, OP.distributed_asset]);
  for (let b = notification.previous; b !== null; b = b.previous) {
    if (b instanceof CallContractBlock && b.opcode === OP.start_distribution) return b.source;
    if (b instanceof TonstakersWithdrawBlock) return b.data.pool;
    if (b instanceof CallContractBlock && b.opcode !== null && through.has(b.opcode)) continue;
    break;
  }
  return null;
}

export class TONStakersDelayedWithdrawalMatcher extends BlockMatcher {
  constructor() {
    super({ parent: new ContractMatcher(OP.nft_burn_notification, { parent: new ContractMatcher(OP.nft_burn) }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.distributed_asset;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const notification = block.previous;
    if (notification === null) throw new Error("tonstakers payout without its burn notification");
    const burnt = loadTonstakersNftBurnNotification(bodySlice(notification.node.message!));
    const built = new TonstakersWithdrawBlock({
      stakeHolder: rawAddress(burnt.owner),
      burntNft: notification.node.message!.source,
      pool: findPool(notification),
      amount: valueOf(block),
      tokensBurnt: burnt.amount,
      asset: null,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
