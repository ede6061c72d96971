// A TONCO pool's deployment (toncenter's ToncoDeployPoolBlockMatcher): the router's create_pool,
// then the pool's init from the router, and perhaps an excess.
import { COMMON_OPCODES, loadToncoPoolInit, loadToncoRouterCreatePool, TONCO_LIQUIDITY_OPCODES as OP } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";


export interface ToncoDeployPoolData {
  deployer: string | null;
  router: string | null;
  pool: string | null;
  jetton0RouterWallet: string | null;
  jetton1RouterWallet: string | null;
  jetton0Minter: string | null;
  jetton1Minter: string | null;
  tickSpacing: number;
  initialPriceX96: bigint;
  protocolFee: number;
  lpFeeBase: number;
  lpFeeCurrent: number;
  poolActive: boolean;
}

export class ToncoDeployPoolBlock extends Block {
  constructor(readonly data: ToncoDeployPoolData) {
    super("tonco_deploy_pool", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    // the init arrived: the deployment succeeded
    row.success = true;
    row.source = d.deployer;
    row.destination = d.router;
    row.destination_secondary = d.pool;
    row.tonco_deploy_pool_data = {
      jetton0_router_wallet: d.jetton0RouterWallet,
      jetton1_router_wallet: d.jetton1RouterWallet,
      jetton0_minter: d.jetton0Minter,
      jetton1_minter: d.jetton1Minter,
      tick_spacing: d.tickSpacing,
      initial_price_x96: d.initialPriceX96,
      protocol_fee: d.protocolFee,
      lp_fee_base: d.lpFeeBase,
      lp_fee_current: d.lpFeeCurrent,
      pool_active: d.poolActive,
    };
  }
}

export class ToncoDeployPoolBlockMatcher extends BlockMatcher {
  constructor() {
    const excesses = labeled("excesses", new ContractMatcher(COMMON_OPCODES.excess, { optional: true }));
    super({ child: labeled("init_pool", new ContractMatcher(OP.pool_init, { child: excesses })) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.router_create_pool;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const create = loadToncoRouterCreatePool(block.body());
    const initBlock = getLabeled("init_pool", others, CallContractBlock);
    if (initBlock === null) return [];
    const init = loadToncoPoolInit(initBlock.body());
    const excesses = getLabeled("excesses", others, CallContractBlock);
    const built = new ToncoDeployPoolBlock({
      deployer: block.source,
      router: block.destination,
      pool: initBlock.destination,
      jetton0RouterWallet: rawAddress(create.jettonWallet0),
      jetton1RouterWallet: rawAddress(create.jettonWallet1),
      jetton0Minter: rawAddress(create.jetton0Minter),
      jetton1Minter: rawAddress(create.jetton1Minter),
      tickSpacing: create.tickSpacing,
      initialPriceX96: create.initialPriceX96,
      protocolFee: create.protocolFee,
      lpFeeBase: create.lpFeeBase,
      lpFeeCurrent: create.lpFeeCurrent,
      poolActive: init.poolActive,
    });
    built.mergeBlocks(excesses === null ? [block, initBlock] : [block, initBlock, excesses]);
    return [built];
  }
}
