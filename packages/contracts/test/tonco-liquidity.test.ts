// TONCO position bodies of toncenter's classifier traces: each loads with the loader of its opcode
// and stores back to the same cell (pay_to and pTON's ton_transfer, which swaps read too: in
// tonco-swaps.test.ts and stonfi-swaps.test.ts). Pool deployment has no body in the fixtures: its two
// constructors are checked on bodies built here.
import { Address, beginCell } from "@ton/core";
import { describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { actionTraceMessages } from "./fixtures.js";
import { codec, roundTripMessages, roundTripNested } from "./liquidity-bodies.js";

const OP = C.TONCO_LIQUIDITY_OPCODES;

const CODECS = [
  codec("tonco_account_add_liquidity", OP.account_add_liquidity, C.loadToncoAccountAddLiquidity, C.storeToncoAccountAddLiquidity),
  codec("tonco_position_nft_init", OP.position_nft_init, C.loadToncoPositionNftInit, C.storeToncoPositionNftInit),
  codec("tonco_pool_start_burn", OP.pool_start_burn, C.loadToncoPoolStartBurn, C.storeToncoPoolStartBurn),
  codec("tonco_position_nft_burn", OP.position_nft_burn, C.loadToncoPositionNftBurn, C.storeToncoPositionNftBurn),
  codec("tonco_pool_burn", OP.pool_burn, C.loadToncoPoolBurn, C.storeToncoPoolBurn),
];

const NESTED = [codec("tonco_pool_fund_account_payload", OP.pool_fund_account, C.loadToncoPoolFundAccountPayload, C.storeToncoPoolFundAccountPayload)];

describe("TONCO liquidity bodies round-trip", () => {
  const messages = actionTraceMessages();

  it("every fixture body with a TONCO position opcode loads and stores to the same cell", () => {
    const checked = roundTripMessages(messages, CODECS);
    for (const c of checked) expect(c.got, `${c.name} ${c.message}`).toBe(c.want);
    expect(CODECS.filter((c) => !checked.some((x) => x.name === c.name)).map((c) => c.name)).toEqual([]);
  });

  it("the funding payload of jetton notifications round-trips", () => {
    const checked = roundTripNested(messages, NESTED);
    for (const c of checked) expect(c.got, `${c.name} in ${c.message}`).toBe(c.want);
    expect(checked.length).toBeGreaterThan(0);
  });

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
