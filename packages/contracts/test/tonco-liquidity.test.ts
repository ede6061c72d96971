// TONCO position bodies of toncenter's classifier traces: each loads with the loader of its opcode
// and stores back to the same cell (pay_to and pTON's ton_transfer, which swaps read too: in
// tonco-swaps.test.ts and stonfi-swaps.test.ts). Pool deployment has no body in the fixtures: its two
// constructors are checked on bodies built here.
import { Address, beginCell } from "@ton/core";
import { describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { roundTrip } from "./dex-bodies.js";

const OP = C.TONCO_LIQUIDITY_OPCODES;

describe("TONCO liquidity bodies round-trip", () => {
  roundTrip("tonco_account_add_liquidity", "message", OP.account_add_liquidity, C.loadToncoAccountAddLiquidity, C.storeToncoAccountAddLiquidity);
  roundTrip("tonco_position_nft_init", "message", OP.position_nft_init, C.loadToncoPositionNftInit, C.storeToncoPositionNftInit);
  roundTrip("tonco_pool_start_burn", "message", OP.pool_start_burn, C.loadToncoPoolStartBurn, C.storeToncoPoolStartBurn);
  roundTrip("tonco_position_nft_burn", "message", OP.position_nft_burn, C.loadToncoPositionNftBurn, C.storeToncoPositionNftBurn);
  roundTrip("tonco_pool_burn", "message", OP.pool_burn, C.loadToncoPoolBurn, C.storeToncoPoolBurn);
  // the funding payload of the router's jetton notifications
  roundTrip("tonco_pool_fund_account_payload", "nested", OP.pool_fund_account, C.loadToncoPoolFundAccountPayload, C.storeToncoPoolFundAccountPayload);

  it("pool deployment bodies (none in the fixtures) round-trip", () => {
    const a = (n: number) => new Address(0, Buffer.alloc(32, n));
    const content = beginCell().storeUint(7, 8).endCell();
    const create = beginCell()
      .store(
        C.storeToncoRouterCreatePool({
          queryId: 1n,
          jettonWallet0: a(1),
          jettonWallet1: a(2),
          tickSpacing: -60,
          initialPriceX96: 2n ** 96n,
          protocolFee: 10,
          lpFeeBase: 30,
          lpFeeCurrent: 30,
          nftv3Content: content,
          nftv3itemContent: content,
          jetton0Minter: a(3),
          jetton1Minter: a(4),
          controllerAddr: null,
        }),
      )
      .endCell();
    const createBack = beginCell().store(C.storeToncoRouterCreatePool(C.loadToncoRouterCreatePool(create.beginParse()))).endCell();
    expect(createBack.hash().equals(create.hash())).toBe(true);
    const init = beginCell()
      .store(
        C.storeToncoPoolInit({
          queryId: 2n,
          fromAdmin: false,
          hasAdmin: true,
          adminAddress: a(5),
          hasController: false,
          controllerAddress: null,
          setSpacing: true,
          tickSpacing: 60,
          setPrice: true,
          initialPriceX96: 2n ** 96n,
          setActive: true,
          poolActive: true,
          protocolFee: 10,
          lpFeeBase: 30,
          lpFeeCurrent: 30,
          nftv3Content: content,
          nftv3itemContent: content,
          minters: { jetton0Minter: a(3), jetton1Minter: a(4) },
        }),
      )
      .endCell();
    const initBack = beginCell().store(C.storeToncoPoolInit(C.loadToncoPoolInit(init.beginParse()))).endCell();
    expect(initBack.hash().equals(init.hash())).toBe(true);
  });
});
