// swap.coffee's shared TL-B types (message-schemes.tlb "swap_coffee.xml"): assets, pool
// parameters, pool creation parameters, pool reserves and swap steps. Parts the classifier never
// looks into (notification data, AMM settings, proofs) are kept as the cells they were sent in, so
// a loaded body stores back to the same cell.
import { Address, type Builder, type Cell, type Slice } from "@ton/core";
import { ContractDataError } from "../errors.js";

/**
 * native$00 = CoffeeAsset; jetton$01 chain:uint8 hash:uint256 = CoffeeAsset;
 * extra$10 id:uint32 = CoffeeAsset. A jetton is named by its master's address.
 */
export type CoffeeAsset = { kind: "native" } | { kind: "jetton"; master: Address } | { kind: "extra"; id: number };

export function loadCoffeeAsset(s: Slice): CoffeeAsset {
  const tag = s.loadUint(2);
  if (tag === 0b00) return { kind: "native" };
  if (tag === 0b01) {
    // the chain is an unsigned byte on the wire; the masterchain (-1) is 255
    const chain = s.loadUint(8);
    return { kind: "jetton", master: new Address(chain > 127 ? chain - 256 : chain, s.loadBuffer(32)) };
  }
  if (tag === 0b10) return { kind: "extra", id: s.loadUint(32) };
  throw new ContractDataError("CoffeeAsset: tag 0b11 is no asset");
}

export function storeCoffeeAsset(src: CoffeeAsset): (b: Builder) => void {
  return (b) => {
    if (src.kind === "native") b.storeUint(0b00, 2);
    else if (src.kind === "jetton") b.storeUint(0b01, 2).storeUint(src.master.workChain & 0xff, 8).storeBuffer(src.master.hash, 32);
    else b.storeUint(0b10, 2).storeUint(src.id, 32);
  };
}

/**
 * pool_params#_ first:CoffeeAsset second:CoffeeAsset amm:CoffeeAMM amm_settings:(Maybe ^Cell);
 * amm is constant_product$000 or curve_fi_stable$001 (kept as its 3-bit tag).
 */
export interface CoffeePoolParams {
  first: CoffeeAsset;
  second: CoffeeAsset;
  amm: number;
  ammSettings: Cell | null;
}

export function loadCoffeePoolParams(s: Slice): CoffeePoolParams {
  return { first: loadCoffeeAsset(s), second: loadCoffeeAsset(s), amm: s.loadUint(3), ammSettings: s.loadMaybeRef() };
}

export function storeCoffeePoolParams(src: CoffeePoolParams): (b: Builder) => void {
  return (b) => b.store(storeCoffeeAsset(src.first)).store(storeCoffeeAsset(src.second)).storeUint(src.amm, 3).storeMaybeRef(src.ammSettings);
}

/**
 * pool_creation_params#_ public:CoffeePublicPoolCreationParams private:CoffeePrivatePoolCreationParams,
 * with public_pool_creation_params#_ recipient:MsgAddressInt use_recipient_on_failure:int1
 * notification_data:(Maybe ^Cell) and private_pool_creation_params#_ is_active:uint1
 * extra_settings:(Maybe ^Cell).
 */
export interface CoffeePoolCreationParams {
  recipient: Address;
  useRecipientOnFailure: boolean;
  notificationData: Cell | null;
  isActive: boolean;
  extraSettings: Cell | null;
}

export function loadCoffeePoolCreationParams(s: Slice): CoffeePoolCreationParams {
  return {
    recipient: s.loadAddress(),
    useRecipientOnFailure: s.loadBit(),
    notificationData: s.loadMaybeRef(),
    isActive: s.loadBit(),
    extraSettings: s.loadMaybeRef(),
  };
}

export function storeCoffeePoolCreationParams(src: CoffeePoolCreationParams): (b: Builder) => void {
  return (b) =>
    b.storeAddress(src.recipient).storeBit(src.useRecipientOnFailure).storeMaybeRef(src.notificationData).storeBit(src.isActive).storeMaybeRef(src.extraSettings);
}

/** pool_reserves#_ input_reserve:Coins output_reserve:Coins (also the two-sided total supply of liquidity events). */
export interface CoffeePoolReserves {
  inputReserve: bigint;
  outputReserve: bigint;
}

export function loadCoffeePoolReserves(s: Slice): CoffeePoolReserves {
  return { inputReserve: s.loadCoins(), outputReserve: s.loadCoins() };
}

export function storeCoffeePoolReserves(src: CoffeePoolReserves): (b: Builder) => void {
  return (b) => b.storeCoins(src.inputReserve).storeCoins(src.outputReserve);
}

/** swap_step_params#_ pool_address_hash:uint256 min_output_amount:Coins next:(Maybe ^CoffeeSwapStepParams); the next steps kept as a cell. */
export interface CoffeeSwapStepParams {
  poolAddressHash: bigint;
  minOutputAmount: bigint;
  next: Cell | null;
}

export function loadCoffeeSwapStepParams(s: Slice): CoffeeSwapStepParams {
  return { poolAddressHash: s.loadUintBig(256), minOutputAmount: s.loadCoins(), next: s.loadMaybeRef() };
}

export function storeCoffeeSwapStepParams(src: CoffeeSwapStepParams): (b: Builder) => void {
  return (b) => b.storeUint(src.poolAddressHash, 256).storeCoins(src.minOutputAmount).storeMaybeRef(src.next);
}
