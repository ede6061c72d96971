// swap.coffee vaults and pools (toncenter's CoffeeCreateVaultMatcher,
// CoffeeCreatePoolCreatorMatcher, CoffeeCreatePoolMatcher). A vault is created by create_vault to
// the factory, which deploys it (a jetton vault then asks the master for its wallet). A pool is
// created like a deposit: each asset goes to its vault, which has the factory deploy the user's
// pool creator (coffee_create_pool_creator, one per side); the creator holding both sides asks the
// factory (create_pool_request) to deploy the pool, which mints the first LP tokens and logs
// deposit_liquidity_succeeded (coffee_create_pool, around the second side's creator).
import { JETTON_OPCODES, loadCoffeeCreatePool, loadCoffeeCreatePoolJetton, loadCoffeeCreatePoolRequest, loadCoffeeCreateVault, loadCoffeeDepositLiquiditySucceeded } from "@tongate/contracts";
import type { CoffeePoolCreationParams, CoffeePoolParams } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled, isCall } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { addressOf, assetOf, OP } from "./common.js";

const EXCESS = 0xd53276db;
/** what a pool's notification target logs on its receipt (toncenter matches it by this opcode alone) */
const NOTIFICATION_RECEIVED_LOG = 0xb216d31f;

export interface CoffeeCreateVaultData {
  sender: string | null;
  vault: string | null;
  asset: string | null;
  amount: bigint | null;
}

export class CoffeeCreateVaultBlock extends Block {
  constructor(readonly data: CoffeeCreateVaultData) {
    super("coffee_create_vault", []);
  }

  override fill(row: ActionRow): void {
    row.source = this.data.sender;
    row.destination = this.data.vault;
    row.asset = this.data.asset;
    row.value = this.data.amount;
  }
}

export class CoffeeCreateVaultMatcher extends BlockMatcher {
  constructor() {
    const walletDiscovery = new ContractMatcher(JETTON_OPCODES.provide_wallet_address, {
      optional: true,
      child: new ContractMatcher(JETTON_OPCODES.take_wallet_address, { optional: true }),
    });
    super({ child: labeled("deploy", new ContractMatcher(OP.coffee_deploy, { child: walletDiscovery })) });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.coffee_create_vault);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const deploy = getLabeled("deploy", others, CallContractBlock);
    if (deploy === null) return [];
    const req = loadCoffeeCreateVault(block.body());
    const built = new CoffeeCreateVaultBlock({ sender: block.source, vault: deploy.destination, asset: assetOf(req.asset), amount: block.value });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export interface CoffeeCreatePoolCreatorData {
  sender: string | null;
  senderJettonWallet: string | null;
  amount: bigint;
  providedAsset: string | null;
  poolCreator: string | null;
  depositRecipient: string;
  firstAsset: string | null;
  secondAsset: string | null;
}

export class CoffeeCreatePoolCreatorBlock extends Block {
  constructor(readonly data: CoffeeCreatePoolCreatorData) {
    super("coffee_create_pool_creator", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.source_secondary = d.senderJettonWallet;
    row.destination = d.depositRecipient;
    row.destination_secondary = d.poolCreator;
    row.asset = d.providedAsset;
    row.asset2 = d.firstAsset;
    row.asset2_secondary = d.secondAsset;
    row.amount = d.amount;
    row.coffee_create_pool_data = { provided_asset: d.providedAsset };
  }
}

/** What the user sent a vault to create a pool with: a jetton transfer or create_pool of TON. */
function creationRequest(inTransfer: Block): { sender: string | null; wallet: string | null; asset: string | null; amount: bigint; params: CoffeePoolParams; creation: CoffeePoolCreationParams } | null {
  if (inTransfer instanceof JettonTransferBlock) {
    const d = inTransfer.data;
    const payload = d.payload.cell;
    if (payload === null) return null;
    const p = loadCoffeeCreatePoolJetton(payload.beginParse());
    return { sender: d.sender, wallet: d.senderWallet, asset: d.asset, amount: d.amount, params: p.params, creation: p.creationParams };
  }
  if (isCall(inTransfer, OP.coffee_create_pool)) {
    const p = loadCoffeeCreatePool(inTransfer.body());
    return { sender: inTransfer.source, wallet: null, asset: null, amount: p.amount, params: p.params, creation: p.creationParams };
  }
  // create_pool_extra (an extra currency) names no asset toncenter can show
  return null;
}

export class CoffeeCreatePoolCreatorMatcher extends BlockMatcher {
  constructor() {
    super({
      parent: labeled(
        "in_transfer",
        new OrMatcher([new BlockTypeMatcher("jetton_transfer"), new ContractMatcher(OP.coffee_create_pool), new ContractMatcher(OP.coffee_create_pool_extra)]),
      ),
      child: labeled("deploy", new ContractMatcher(OP.coffee_deploy)),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.coffee_create_pool_creator_request);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const inTransfer = getLabeled("in_transfer", others, Block);
    const deploy = getLabeled("deploy", others, CallContractBlock);
    if (inTransfer === null || deploy === null) return [];
    const req = creationRequest(inTransfer);
    if (req === null) return [];
    const built = new CoffeeCreatePoolCreatorBlock({
      sender: req.sender,
      senderJettonWallet: req.wallet,
      amount: req.amount,
      providedAsset: req.asset,
      poolCreator: deploy.destination,
      depositRecipient: addressOf(req.creation.recipient),
      firstAsset: assetOf(req.params.first),
      secondAsset: assetOf(req.params.second),
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export interface CoffeeCreatePoolData {
  source: string | null;
  sourceJettonWallet: string | null;
  providedAsset: string | null;
  amount: bigint;
  initiator1: string | null;
  initiator2: string | null;
  pool: string | null;
  asset1: string | null;
  asset2: string | null;
  amount1: bigint;
  amount2: bigint;
  lpTokensMinted: bigint;
  poolCreator: string | null;
}

export class CoffeeCreatePoolBlock extends Block {
  constructor(readonly data: CoffeeCreatePoolData) {
    super("coffee_create_pool", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.source;
    row.source_secondary = d.sourceJettonWallet;
    row.amount = d.amount;
    row.asset = d.asset1;
    row.asset2 = d.asset2;
    row.destination = d.pool;
    row.destination_secondary = d.poolCreator;
    row.coffee_create_pool_data = {
      amount_1: d.amount1,
      amount_2: d.amount2,
      initiator_1: d.initiator1,
      initiator_2: d.initiator2,
      provided_asset: d.providedAsset,
      lp_tokens_minted: d.lpTokensMinted,
      pool_creator_contract: d.poolCreator,
    };
  }
}

export class CoffeeCreatePoolMatcher extends BlockMatcher {
  constructor() {
    const lpTransfer = labeled("lp_transfer", new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer, { child: new ContractMatcher(EXCESS, { optional: true }) }));
    const poolDeploy = labeled(
      "pool_deploy",
      new ContractMatcher(OP.coffee_deploy, {
        children: [
          lpTransfer,
          labeled("success_event", new ContractMatcher(OP.coffee_deposit_liquidity_succeeded)),
          new ContractMatcher(OP.coffee_notification, { optional: true, child: new ContractMatcher(NOTIFICATION_RECEIVED_LOG, { optional: true }) }),
        ],
      }),
    );
    super({ child: labeled("pool_request", new ContractMatcher(OP.coffee_create_pool_request, { child: poolDeploy })) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CoffeeCreatePoolCreatorBlock;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CoffeeCreatePoolCreatorBlock)) return [];
    const request = getLabeled("pool_request", others, CallContractBlock);
    const deploy = getLabeled("pool_deploy", others, CallContractBlock);
    const success = getLabeled("success_event", others, CallContractBlock);
    if (request === null || deploy === null || success === null) return [];
    const req = loadCoffeeCreatePoolRequest(request.body());
    const creator = block.data;
    let amount1 = req.amount1;
    let amount2 = req.amount2;
    let initiator1 = creator.sender;
    let initiator2: string | null = addressOf(req.txInitiator);
    let asset1 = creator.providedAsset;
    let asset2: string | null;
    // asset_1 is the one this creator's user provided; the amounts follow the pool's order
    if (asset1 === creator.firstAsset) asset2 = creator.secondAsset;
    else if (asset1 === creator.secondAsset) {
      asset2 = creator.firstAsset;
      [amount1, amount2] = [amount2, amount1];
      [initiator1, initiator2] = [initiator2, initiator1];
    } else {
      asset1 = creator.firstAsset;
      asset2 = creator.secondAsset;
    }
    const built = new CoffeeCreatePoolBlock({
      source: creator.sender,
      sourceJettonWallet: creator.senderJettonWallet,
      providedAsset: creator.providedAsset,
      amount: creator.amount,
      initiator1,
      initiator2,
      pool: deploy.destination,
      asset1,
      asset2,
      amount1,
      amount2,
      lpTokensMinted: loadCoffeeDepositLiquiditySucceeded(success.body()).lpAmount,
      poolCreator: creator.poolCreator,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
