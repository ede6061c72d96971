// TONCO (concentrated liquidity v3) position bodies: funding an account (jetton notification
// payload and the router's message), the account's add_liquidity, the pool's mint_and_refund and
// position NFT init, burning a position (start_burn → position NFT burn → pool burn; the router's
// pay_to payouts are pay-to.ts), and pool deployment (router create_pool → pool init). Field names
// follow message-schemes.tlb's tonco section (toncenter's), @ton/core style.
import { beginCell, type Address, type BitString, type Builder, type Cell, type Slice } from "@ton/core";
import { loadOpcode } from "../tlb.js";

export const TONCO_LIQUIDITY_OPCODES = {
  pool_fund_account: 0x4468de77,
  account_add_liquidity: 0x3ebe5431,
  pool_mint_and_refund: 0x81702ef8,
  position_nft_init: 0xd5ecca2a,
  pool_start_burn: 0x530b5f2c,
  position_nft_burn: 0x46ca335a,
  pool_burn: 0xd73ac09d,
  router_create_pool: 0x2e3034ef,
  pool_init: 0x441c39ed,
} as const;

const OP = TONCO_LIQUIDITY_OPCODES;

function cellOf(write: (b: Builder) => Builder): Cell {
  return write(beginCell()).endCell();
}

/** tick_lower:int24 tick_upper:int24 — a position's price range, in every position body. */
export interface ToncoTickRange {
  tickLower: number;
  tickUpper: number;
}

function loadTickRange(s: Slice): ToncoTickRange {
  return { tickLower: s.loadInt(24), tickUpper: s.loadInt(24) };
}

function storeTickRange(src: ToncoTickRange): (b: Builder) => void {
  return (b) => b.storeInt(src.tickLower, 24).storeInt(src.tickUpper, 24);
}

/**
 * tonco_pool_fund_account_payload#4468de77 other_jetton_wallet:MsgAddress amount0:(VarUInteger 16)
 * amount1:(VarUInteger 16) liquidity:uint128 tick_lower:int24 tick_upper:int24 = ForwardPayload —
 * what a jetton sent to the router to fund a position carries.
 */
export interface ToncoPoolFundAccountPayload extends ToncoTickRange {
  otherJettonWallet: Address | null;
  amount0: bigint;
  amount1: bigint;
  liquidity: bigint;
}

export function loadToncoPoolFundAccountPayload(s: Slice): ToncoPoolFundAccountPayload {
  loadOpcode(s, OP.pool_fund_account, "tonco_pool_fund_account_payload");
  return {
    otherJettonWallet: s.loadMaybeAddress(),
    amount0: s.loadCoins(),
    amount1: s.loadCoins(),
    liquidity: s.loadUintBig(128),
    ...loadTickRange(s),
  };
}

export function storeToncoPoolFundAccountPayload(src: ToncoPoolFundAccountPayload): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.pool_fund_account, 32)
      .storeAddress(src.otherJettonWallet)
      .storeCoins(src.amount0)
      .storeCoins(src.amount1)
      .storeUint(src.liquidity, 128)
      .store(storeTickRange(src));
}

/**
 * tonco_account_add_liquidity#3ebe5431 query_id:uint64 new_amount0:(VarUInteger 16)
 * new_amount1:(VarUInteger 16) new_enough0:(VarUInteger 16) new_enough1:(VarUInteger 16)
 * liquidity:uint128 tick_lower:int24 tick_upper:int24 — the pool credits a funding to the user's account contract.
 */
export interface ToncoAccountAddLiquidity extends ToncoTickRange {
  queryId: bigint;
  newAmount0: bigint;
  newAmount1: bigint;
  newEnough0: bigint;
  newEnough1: bigint;
  liquidity: bigint;
}

export function loadToncoAccountAddLiquidity(s: Slice): ToncoAccountAddLiquidity {
  loadOpcode(s, OP.account_add_liquidity, "tonco_account_add_liquidity");
  return {
    queryId: s.loadUintBig(64),
    newAmount0: s.loadCoins(),
    newAmount1: s.loadCoins(),
    newEnough0: s.loadCoins(),
    newEnough1: s.loadCoins(),
    liquidity: s.loadUintBig(128),
    ...loadTickRange(s),
  };
}

export function storeToncoAccountAddLiquidity(src: ToncoAccountAddLiquidity): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.account_add_liquidity, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.newAmount0)
      .storeCoins(src.newAmount1)
      .storeCoins(src.newEnough0)
      .storeCoins(src.newEnough1)
      .storeUint(src.liquidity, 128)
      .store(storeTickRange(src));
}

/**
 * tonco_position_nft_init#d5ecca2a query_id:uint64 user_address:MsgAddress liquidity:uint128
 * tick_lower:int24 tick_upper:int24 old_fee_cell:^[fee_growth_inside_0_last_x128:uint256
 * fee_growth_inside_1_last_x128:uint256 nft_index:uint64 jetton0_amount:(VarUInteger 16)
 * jetton1_amount:(VarUInteger 16) tick:int24] — the pool mints the position NFT.
 */
export interface ToncoPositionNftInit extends ToncoTickRange {
  queryId: bigint;
  userAddress: Address | null;
  liquidity: bigint;
  feeGrowthInside0LastX128: bigint;
  feeGrowthInside1LastX128: bigint;
  nftIndex: bigint;
  jetton0Amount: bigint;
  jetton1Amount: bigint;
  tick: number;
  /** bits newer pools append after tick_upper (not in the scheme; kept so the body stores back as it was) */
  tail: BitString | null;
}

export function loadToncoPositionNftInit(s: Slice): ToncoPositionNftInit {
  loadOpcode(s, OP.position_nft_init, "tonco_position_nft_init");
  const queryId = s.loadUintBig(64);
  const userAddress = s.loadMaybeAddress();
  const liquidity = s.loadUintBig(128);
  const range = loadTickRange(s);
  const tail = s.remainingBits > 0 ? s.loadBits(s.remainingBits) : null;
  const f = s.loadRef().beginParse();
  return {
    tail,
    queryId,
    userAddress,
    liquidity,
    ...range,
    feeGrowthInside0LastX128: f.loadUintBig(256),
    feeGrowthInside1LastX128: f.loadUintBig(256),
    nftIndex: f.loadUintBig(64),
    jetton0Amount: f.loadCoins(),
    jetton1Amount: f.loadCoins(),
    tick: f.loadInt(24),
  };
}

export function storeToncoPositionNftInit(src: ToncoPositionNftInit): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.position_nft_init, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.userAddress)
      .storeUint(src.liquidity, 128)
      .store(storeTickRange(src))
      .store((x) => {
        if (src.tail !== null) x.storeBits(src.tail);
      })
      .storeRef(
        cellOf((c) =>
          c
            .storeUint(src.feeGrowthInside0LastX128, 256)
            .storeUint(src.feeGrowthInside1LastX128, 256)
            .storeUint(src.nftIndex, 64)
            .storeCoins(src.jetton0Amount)
            .storeCoins(src.jetton1Amount)
            .storeInt(src.tick, 24),
        ),
      );
}

/** tonco_pool_start_burn#530b5f2c query_id:uint64 burned_index:uint64 liquidity_to_burn:uint128 tick_lower:int24 tick_upper:int24 — the owner asks the pool to burn a position. */
export interface ToncoPoolStartBurn extends ToncoTickRange {
  queryId: bigint;
  burnedIndex: bigint;
  liquidityToBurn: bigint;
}

export function loadToncoPoolStartBurn(s: Slice): ToncoPoolStartBurn {
  loadOpcode(s, OP.pool_start_burn, "tonco_pool_start_burn");
  return { queryId: s.loadUintBig(64), burnedIndex: s.loadUintBig(64), liquidityToBurn: s.loadUintBig(128), ...loadTickRange(s) };
}

export function storeToncoPoolStartBurn(src: ToncoPoolStartBurn): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.pool_start_burn, 32)
      .storeUint(src.queryId, 64)
      .storeUint(src.burnedIndex, 64)
      .storeUint(src.liquidityToBurn, 128)
      .store(storeTickRange(src));
}

/**
 * tonco_position_nft_burn#46ca335a query_id:uint64 nft_owner:MsgAddress liquidity_to_burn:uint128
 * tick_lower:int24 tick_upper:int24 old_fee_cell:^ToncoOldFeeCell — the pool tells the position NFT to burn.
 */
export interface ToncoPositionNftBurn extends ToncoTickRange {
  queryId: bigint;
  nftOwner: Address | null;
  liquidityToBurn: bigint;
  oldFeeCell: Cell;
}

export function loadToncoPositionNftBurn(s: Slice): ToncoPositionNftBurn {
  loadOpcode(s, OP.position_nft_burn, "tonco_position_nft_burn");
  return {
    queryId: s.loadUintBig(64),
    nftOwner: s.loadMaybeAddress(),
    liquidityToBurn: s.loadUintBig(128),
    ...loadTickRange(s),
    oldFeeCell: s.loadRef(),
  };
}

export function storeToncoPositionNftBurn(src: ToncoPositionNftBurn): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.position_nft_burn, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.nftOwner)
      .storeUint(src.liquidityToBurn, 128)
      .store(storeTickRange(src))
      .storeRef(src.oldFeeCell);
}

/**
 * tonco_pool_burn#d73ac09d query_id:uint64 recipient:MsgAddress burned_index:uint64 liquidity:uint128
 * tick_lower:int24 tick_upper:int24 liquidity_to_burn:uint128 old_fee_cell:^ToncoOldFeeCell
 * new_fee_cell:^ToncoNewFeeCell — the position NFT, burnt, back to the pool.
 */
export interface ToncoPoolBurn extends ToncoTickRange {
  queryId: bigint;
  recipient: Address | null;
  burnedIndex: bigint;
  liquidity: bigint;
  liquidityToBurn: bigint;
  oldFeeCell: Cell;
  newFeeCell: Cell;
}

export function loadToncoPoolBurn(s: Slice): ToncoPoolBurn {
  loadOpcode(s, OP.pool_burn, "tonco_pool_burn");
  return {
    queryId: s.loadUintBig(64),
    recipient: s.loadMaybeAddress(),
    burnedIndex: s.loadUintBig(64),
    liquidity: s.loadUintBig(128),
    ...loadTickRange(s),
    liquidityToBurn: s.loadUintBig(128),
    oldFeeCell: s.loadRef(),
    newFeeCell: s.loadRef(),
  };
}

export function storeToncoPoolBurn(src: ToncoPoolBurn): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.pool_burn, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.recipient)
      .storeUint(src.burnedIndex, 64)
      .storeUint(src.liquidity, 128)
      .store(storeTickRange(src))
      .storeUint(src.liquidityToBurn, 128)
      .storeRef(src.oldFeeCell)
      .storeRef(src.newFeeCell);
}

/**
 * tonco_router_create_pool#2e3034ef query_id:uint64 jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress
 * tick_spacing:int24 initial_price_x96:uint160 protocol_fee:uint16 lp_fee_base:uint16 lp_fee_current:uint16
 * nftv3_content:^Cell nftv3item_content:^Cell minter_cell:^[jetton0_minter jetton1_minter controller_addr].
 */
export interface ToncoRouterCreatePool {
  queryId: bigint;
  jettonWallet0: Address | null;
  jettonWallet1: Address | null;
  tickSpacing: number;
  initialPriceX96: bigint;
  protocolFee: number;
  lpFeeBase: number;
  lpFeeCurrent: number;
  nftv3Content: Cell;
  nftv3itemContent: Cell;
  jetton0Minter: Address | null;
  jetton1Minter: Address | null;
  controllerAddr: Address | null;
}

export function loadToncoRouterCreatePool(s: Slice): ToncoRouterCreatePool {
  loadOpcode(s, OP.router_create_pool, "tonco_router_create_pool");
  const head = {
    queryId: s.loadUintBig(64),
    jettonWallet0: s.loadMaybeAddress(),
    jettonWallet1: s.loadMaybeAddress(),
    tickSpacing: s.loadInt(24),
    initialPriceX96: s.loadUintBig(160),
    protocolFee: s.loadUint(16),
    lpFeeBase: s.loadUint(16),
    lpFeeCurrent: s.loadUint(16),
    nftv3Content: s.loadRef(),
    nftv3itemContent: s.loadRef(),
  };
  const m = s.loadRef().beginParse();
  return { ...head, jetton0Minter: m.loadMaybeAddress(), jetton1Minter: m.loadMaybeAddress(), controllerAddr: m.loadMaybeAddress() };
}

export function storeToncoRouterCreatePool(src: ToncoRouterCreatePool): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.router_create_pool, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.jettonWallet0)
      .storeAddress(src.jettonWallet1)
      .storeInt(src.tickSpacing, 24)
      .storeUint(src.initialPriceX96, 160)
      .storeUint(src.protocolFee, 16)
      .storeUint(src.lpFeeBase, 16)
      .storeUint(src.lpFeeCurrent, 16)
      .storeRef(src.nftv3Content)
      .storeRef(src.nftv3itemContent)
      .storeRef(cellOf((c) => c.storeAddress(src.jetton0Minter).storeAddress(src.jetton1Minter).storeAddress(src.controllerAddr)));
}

/**
 * tonco_pool_init#441c39ed query_id:uint64 from_admin:Bool has_admin:Bool admin_address:MsgAddress
 * has_controller:Bool controller_address:MsgAddress set_spacing:Bool tick_spacing:int24 set_price:Bool
 * initial_price_x96:uint160 set_active:Bool pool_active:Bool protocol_fee:uint16 lp_fee_base:uint16
 * lp_fee_current:uint16 nftv3_content:^Cell nftv3item_content:^Cell minter_cell:(Maybe ^ToncoMinterCell).
 */
export interface ToncoPoolInit {
  queryId: bigint;
  fromAdmin: boolean;
  hasAdmin: boolean;
  adminAddress: Address | null;
  hasController: boolean;
  controllerAddress: Address | null;
  setSpacing: boolean;
  tickSpacing: number;
  setPrice: boolean;
  initialPriceX96: bigint;
  setActive: boolean;
  poolActive: boolean;
  protocolFee: number;
  lpFeeBase: number;
  lpFeeCurrent: number;
  nftv3Content: Cell;
  nftv3itemContent: Cell;
  minters: { jetton0Minter: Address | null; jetton1Minter: Address | null } | null;
}

export function loadToncoPoolInit(s: Slice): ToncoPoolInit {
  loadOpcode(s, OP.pool_init, "tonco_pool_init");
  const head = {
    queryId: s.loadUintBig(64),
    fromAdmin: s.loadBit(),
    hasAdmin: s.loadBit(),
    adminAddress: s.loadMaybeAddress(),
    hasController: s.loadBit(),
    controllerAddress: s.loadMaybeAddress(),
    setSpacing: s.loadBit(),
    tickSpacing: s.loadInt(24),
    setPrice: s.loadBit(),
    initialPriceX96: s.loadUintBig(160),
    setActive: s.loadBit(),
    poolActive: s.loadBit(),
    protocolFee: s.loadUint(16),
    lpFeeBase: s.loadUint(16),
    lpFeeCurrent: s.loadUint(16),
    nftv3Content: s.loadRef(),
    nftv3itemContent: s.loadRef(),
  };
  const m = s.loadMaybeRef();
  let minters: ToncoPoolInit["minters"] = null;
  if (m !== null) {
    const ms = m.beginParse();
    minters = { jetton0Minter: ms.loadMaybeAddress(), jetton1Minter: ms.loadMaybeAddress() };
  }
  return { ...head, minters };
}

export function storeToncoPoolInit(src: ToncoPoolInit): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.pool_init, 32)
      .storeUint(src.queryId, 64)
      .storeBit(src.fromAdmin)
      .storeBit(src.hasAdmin)
      .storeAddress(src.adminAddress)
      .storeBit(src.hasController)
      .storeAddress(src.controllerAddress)
      .storeBit(src.setSpacing)
      .storeInt(src.tickSpacing, 24)
      .storeBit(src.setPrice)
      .storeUint(src.initialPriceX96, 160)
      .storeBit(src.setActive)
      .storeBit(src.poolActive)
      .storeUint(src.protocolFee, 16)
      .storeUint(src.lpFeeBase, 16)
      .storeUint(src.lpFeeCurrent, 16)
      .storeRef(src.nftv3Content)
      .storeRef(src.nftv3itemContent);
    const m = src.minters;
    b.storeMaybeRef(m === null ? null : cellOf((c) => c.storeAddress(m.jetton0Minter).storeAddress(m.jetton1Minter)));
  };
}
