// TONCO positions (toncenter's liquidity.py, TONCO part). A deposit funds the user's account
// contract one asset at a time: the asset reaches the router (a jetton transfer, or pTON's
// ton_transfer for TON), the router sends pool_fund_account, the pool add_liquidity to the account.
// When both are in, the account asks the pool to mint (mint_and_refund): the pool mints the
// position NFT and has the router refund the unused amounts. A withdrawal: start_burn to the pool,
// position NFT burn, pool burn, and the router's pay_to with the two payouts.
import {
  COMMON_OPCODES,
  JETTON_OPCODES,
  loadJettonNotify,
  loadPtonTonTransfer,
  loadToncoAccountAddLiquidity,
  loadToncoPoolBurn,
  loadToncoPoolFundAccountPayload,
  loadToncoPoolStartBurn,
  loadToncoPositionNftBurn,
  loadToncoPositionNftInit,
  loadToncoRouterPayTo,
  PTON_OPCODES,
  TONCO_LIQUIDITY_OPCODES as OP,
  TONCO_PAY_TO_OPCODES,
  toncoPayToCoins,
} from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { findCallContract, getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { assetColumn, TON, walletDexAsset, type DexAsset } from "../liquidity/assets.js";
import { opcodeOf, ptonTonTransferOf } from "../swaps/assets.js";

const PTON_TON_TRANSFER = PTON_OPCODES.pton_ton_transfer;
const ROUTER_PAY_TO = TONCO_PAY_TO_OPCODES.tonco_router_pay_to;

/** The router's jetton wallet of TONCO's wrapped TON (toncenter's TONCO_ROUTER_WTTON_WALLET_ADDR): its payouts are TON. */
const ROUTER_WTTON_WALLET = "0:871DA9215B14902166F0EA2A16DB56278D528108377F8158C5F4CCFDFDD22E17";

/** A payout or refund leaving the router: a jetton transfer, followed by pTON's ton_transfer when it is TON. */
function routerOutput(): BlockTypeMatcher {
  return new BlockTypeMatcher("jetton_transfer", { optional: true, child: new ContractMatcher(PTON_TON_TRANSFER, { optional: true }) });
}

/** A router output's amount and asset: pTON's ton_transfer says how much TON it was. */
function outputAmount(t: JettonTransferBlock): { amount: bigint; asset: DexAsset | null; pton: CallContractBlock | null } {
  const pton = ptonTonTransferOf(t);
  if (pton !== null) return { amount: loadPtonTonTransfer(pton.body()).tonAmount, asset: TON, pton };
  return { amount: t.data.amount, asset: t.data.asset, pton: null };
}

export interface ToncoDepositData {
  sender: string | null;
  pool: string | null;
  accountContract: string | null;
  positionAmount1: bigint;
  positionAmount2: bigint;
  lpTokensMinted: bigint | null;
  tickLower: number;
  tickUpper: number;
  nftIndex: bigint | null;
  nftAddress: string | null;
  amount1: bigint | null;
  asset1: DexAsset | null;
  senderWallet1: string | null;
  amount2: bigint | null;
  asset2: DexAsset | null;
  senderWallet2: string | null;
  excesses: { asset: DexAsset | null; amount: bigint }[];
}

export class ToncoDepositLiquidityBlock extends Block {
  constructor(readonly data: ToncoDepositData) {
    super("tonco_deposit_liquidity", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.type = "dex_deposit_liquidity";
    row.source = d.sender;
    row.source_secondary = d.senderWallet1 ?? d.senderWallet2;
    row.destination = d.pool;
    row.destination_secondary = d.accountContract;
    // the deposited asset comes first, whichever side of the pool it is
    const deposited = [
      { amount: d.amount1, asset: d.asset1 },
      { amount: d.amount2, asset: d.asset2 },
    ].filter((x) => x.amount !== null);
    row.dex_deposit_liquidity_data = {
      dex: "tonco",
      amount1: deposited[0]?.amount ?? null,
      amount2: deposited[1]?.amount ?? null,
      asset1: assetColumn(deposited[0]?.asset),
      asset2: assetColumn(deposited[1]?.asset),
      user_jetton_wallet_1: d.senderWallet1,
      user_jetton_wallet_2: d.senderWallet2,
      lp_tokens_minted: d.lpTokensMinted,
      tick_lower: d.tickLower,
      tick_upper: d.tickUpper,
      nft_index: d.nftIndex,
      nft_address: d.nftAddress,
      target_amount_1: d.positionAmount1,
      target_amount_2: d.positionAmount2,
      target_asset_1: assetColumn(d.asset1),
      target_asset_2: assetColumn(d.asset2),
      vault_excesses: d.excesses.map((e) => ({ asset: assetColumn(e.asset), amount: e.amount })),
    };
  }
}

export class ToncoDepositLiquidityMatcher extends BlockMatcher {
  constructor() {
    const tonInput = labeled("ton_input", new ContractMatcher(JETTON_OPCODES.jetton_notify, { parent: labeled("ton_input_addition", new ContractMatcher(PTON_TON_TRANSFER)) }));
    const jettonInput = labeled("jetton_input", new BlockTypeMatcher("jetton_transfer"));
    const refunds = labeled(
      "refund_router_call",
      new ContractMatcher(ROUTER_PAY_TO, { optional: true, children: [labeled("excess_transfer_0", routerOutput()), labeled("excess_transfer_1", routerOutput())] }),
    );
    const mintAndRefund = new ContractMatcher(OP.pool_mint_and_refund, {
      optional: true,
      children: [refunds, labeled("nft_mint", new BlockTypeMatcher("nft_mint")), new ContractMatcher(COMMON_OPCODES.excess, { optional: true })],
    });
    super({ parent: new ContractMatcher(OP.pool_fund_account, { parent: new OrMatcher([tonInput, jettonInput]) }), child: mintAndRefund });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.account_add_liquidity;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const add = loadToncoAccountAddLiquidity(block.body());
    const firstAssetDeposited = add.newAmount0 > 0n;
    let lpTokensMinted: bigint | null = null;
    let nftIndex: bigint | null = null;
    let nftAddress: string | null = null;
    const mint = getLabeled("nft_mint", others, Block);
    if (mint !== null) {
      const init = loadToncoPositionNftInit(mint.body());
      lpTokensMinted = init.liquidity;
      nftIndex = init.nftIndex;
      nftAddress = mint.firstMessage().destination;
    }
    const input = getLabeled("ton_input", others, Block) ?? getLabeled("jetton_input", others, Block);
    if (input === null) return [];
    // the router's notification: inside a jetton transfer, or pTON's own
    const notifyBlock = input instanceof JettonTransferBlock ? findCallContract(input.children, JETTON_OPCODES.jetton_notify) : input;
    if (!(notifyBlock instanceof CallContractBlock) || notifyBlock.opcode !== JETTON_OPCODES.jetton_notify) return [];
    const notify = loadJettonNotify(notifyBlock.body());
    const payloadCell = notify.forwardPayload?.cell ?? null;
    if (payloadCell === null || opcodeOf(payloadCell) !== OP.pool_fund_account) return [];
    const payload = loadToncoPoolFundAccountPayload(payloadCell.beginParse());
    const otherWallet = rawAddress(payload.otherJettonWallet);
    if (otherWallet === null) return [];
    const senderWallet = input instanceof JettonTransferBlock ? input.data.senderWallet : null;
    // an unknown router wallet is taken for TON (pTON's); an unknown other wallet leaves that asset unknown
    const firstAsset = walletDexAsset(ctx, notifyBlock.source) ?? TON;
    const secondAsset = walletDexAsset(ctx, otherWallet);
    const excesses: { asset: DexAsset | null; amount: bigint }[] = [];
    for (const label of ["excess_transfer_0", "excess_transfer_1"]) {
      const t = getLabeled(label, others, JettonTransferBlock);
      if (t === null) continue;
      const { amount, asset } = outputAmount(t);
      excesses.push({ asset, amount });
    }
    const built = new ToncoDepositLiquidityBlock({
      sender: rawAddress(notify.sender),
      pool: block.source,
      accountContract: block.destination,
      positionAmount1: add.newEnough0,
      positionAmount2: add.newEnough1,
      lpTokensMinted,
      tickLower: add.tickLower,
      tickUpper: add.tickUpper,
      nftIndex,
      nftAddress,
      amount1: firstAssetDeposited ? notify.amount : null,
      asset1: firstAssetDeposited ? firstAsset : secondAsset,
      senderWallet1: firstAssetDeposited ? senderWallet : null,
      amount2: firstAssetDeposited ? null : notify.amount,
      asset2: firstAssetDeposited ? secondAsset : firstAsset,
      senderWallet2: firstAssetDeposited ? null : senderWallet,
      excesses,
    });
    const addition = getLabeled("ton_input_addition", others, Block);
    built.mergeBlocks(addition === null ? [block, ...others] : [block, ...others, addition]);
    return [built];
  }
}

interface ToncoPayout {
  amount: bigint;
  asset: DexAsset | null;
  dexWallet: string | null;
  dexJettonWallet: string | null;
  wallet: string | null;
}

export interface ToncoWithdrawData {
  sender: string | null;
  pool: string | null;
  burnedNftIndex: bigint;
  burnedNftAddress: string | null;
  liquidityBurnt: bigint;
  tickLower: number;
  tickUpper: number;
  out: [ToncoPayout | null, ToncoPayout | null];
}

export class ToncoWithdrawLiquidityBlock extends Block {
  constructor(readonly data: ToncoWithdrawData) {
    super("tonco_withdraw_liquidity", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    const [a, b] = d.out;
    row.type = "dex_withdraw_liquidity";
    row.source = d.sender;
    // the position is an NFT: no LP jetton wallet, no LP asset
    row.source_secondary = null;
    row.destination = d.pool;
    row.asset = null;
    row.dex_withdraw_liquidity_data = {
      dex: "tonco",
      amount1: a?.amount ?? null,
      amount2: b?.amount ?? null,
      asset1_out: assetColumn(a?.asset),
      asset2_out: assetColumn(b?.asset),
      user_jetton_wallet_1: a?.wallet ?? null,
      user_jetton_wallet_2: b?.wallet ?? null,
      dex_jetton_wallet_1: a?.dexJettonWallet ?? null,
      dex_wallet_1: a?.dexWallet ?? null,
      dex_wallet_2: b?.dexWallet ?? null,
      dex_jetton_wallet_2: b?.dexJettonWallet ?? null,
      lp_tokens_burnt: d.liquidityBurnt,
      burned_nft_index: d.burnedNftIndex,
      burned_nft_address: d.burnedNftAddress,
      tick_lower: d.tickLower,
      tick_upper: d.tickUpper,
    };
  }
}

export class ToncoWithdrawLiquidityMatcher extends BlockMatcher {
  constructor() {
    const payouts = new ContractMatcher(ROUTER_PAY_TO, { children: [labeled("payout_1", routerOutput()), labeled("payout_2", routerOutput())] });
    const poolBurn = new ContractMatcher(OP.pool_burn, { child: payouts });
    super({ child: new ContractMatcher(OP.position_nft_burn, { child: poolBurn }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.pool_start_burn;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const start = loadToncoPoolStartBurn(block.body());
    let burnedIndex = start.burnedIndex;
    const positionBurnCall = findCallContract(block.next, OP.position_nft_burn);
    if (positionBurnCall === null) return [];
    const positionBurn = loadToncoPositionNftBurn(positionBurnCall.body());
    const poolBurnCall = findCallContract(positionBurnCall.next, OP.pool_burn);
    if (poolBurnCall === null) return [];
    try {
      const poolBurn = loadToncoPoolBurn(poolBurnCall.body());
      if (poolBurn.burnedIndex !== 0n) burnedIndex = poolBurn.burnedIndex;
    } catch {
      // the start_burn's index stands
    }
    const payToCall = findCallContract(poolBurnCall.next, ROUTER_PAY_TO);
    if (payToCall === null) return [];
    const payTo = loadToncoRouterPayTo(payToCall.body());
    const coins = toncoPayToCoins(payTo);
    if (coins === null) return [];
    const jetton0 = rawAddress(coins.jetton0Address);
    const jetton1 = rawAddress(coins.jetton1Address);
    if (jetton0 === null || jetton1 === null) return [];
    // the pool's two sides as the router pays them; the wrapped-TON wallet stands for TON
    const router = [
      { amount: coins.amount0, wallet: jetton0 === ROUTER_WTTON_WALLET ? null : jetton0, receiver: rawAddress(payTo.receiver0) },
      { amount: coins.amount1, wallet: jetton1 === ROUTER_WTTON_WALLET ? null : jetton1, receiver: rawAddress(payTo.receiver1) },
    ];
    const extra: Block[] = [];
    let payouts: ToncoPayout[] = [];
    for (const [i, label] of ["payout_1", "payout_2"].entries()) {
      const t = getLabeled(label, others, JettonTransferBlock);
      if (t !== null) {
        const { amount, asset, pton } = outputAmount(t);
        if (pton !== null) extra.push(pton);
        payouts.push({ amount, asset, dexWallet: t.data.sender, dexJettonWallet: t.data.senderWallet, wallet: t.data.receiverWallet });
      } else {
        // no transfer out (nothing to pay on that side): what the router was told
        const r = router[i];
        payouts.push({ amount: r.amount, asset: r.wallet === null ? null : walletDexAsset(ctx, r.wallet), dexWallet: payToCall.source, dexJettonWallet: r.wallet, wallet: r.receiver });
      }
    }
    // in the pool's order of assets
    if (payouts[0].dexJettonWallet !== router[0].wallet) payouts = payouts.reverse();
    const built = new ToncoWithdrawLiquidityBlock({
      sender: rawAddress(positionBurn.nftOwner),
      pool: block.destination,
      burnedNftIndex: burnedIndex,
      burnedNftAddress: positionBurnCall.destination,
      liquidityBurnt: start.liquidityToBurn,
      tickLower: start.tickLower,
      tickUpper: start.tickUpper,
      out: [payouts[0], payouts[1]],
    });
    built.mergeBlocks([block, ...others, ...extra, positionBurnCall, poolBurnCall, payToCall]);
    // 201: the burn's own exit code
    built.failed = payTo.exitCode !== 0 && payTo.exitCode !== 201;
    return [built];
  }
}
