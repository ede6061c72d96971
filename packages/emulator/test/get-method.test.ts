// The shared get-method run passes c7's previous-blocks info to the code (PREVKEYBLOCK reads it).
import { Address, beginCell, Cell, parseTuple } from "@ton/core";
import { defaultConfig } from "@ton/sandbox";
import { describe, expect, it } from "vitest";
import { runGetMethod, type PrevBlocksInfo } from "@tongate/emulator";

// DROP (the method id), PREVKEYBLOCK: the get-method answers c7's previous key block.
const code = beginCell().storeBuffer(Buffer.from("30f83401", "hex")).endCell();
const block = (seqno: number) => ({ workchain: -1, shard: -(2n ** 63n), seqno, rootHash: Buffer.alloc(32, seqno), fileHash: Buffer.alloc(32, seqno + 1) });

describe("runGetMethod", () => {
  it("gives the code c7's previous-blocks info", async () => {
    const info: PrevBlocksInfo = { lastMcBlocks: [block(9), block(8)], prevKeyBlock: block(5) };
    const run = { code, data: Cell.EMPTY, methodId: 0, stack: [], config: defaultConfig, address: new Address(0, Buffer.alloc(32)), now: 1_700_000_000, balance: 10n ** 9n, randomSeed: Buffer.alloc(32), gasLimit: 1_000_000n };
    const r = await runGetMethod({ ...run, prevBlocksInfo: info });
    expect(r.success && r.exitCode).toBe(0);
    const [key] = parseTuple(r.success ? r.stack! : Cell.EMPTY);
    expect(key?.type === "tuple" && key.items.map((i) => (i.type === "int" ? i.value : null))).toEqual([-1n, -(2n ** 63n), 5n, BigInt("0x" + "05".repeat(32)), BigInt("0x" + "06".repeat(32))]);
    // Without it, c7 has no such entry: the code fails.
    const none = await runGetMethod(run);
    expect(none.success && none.exitCode).not.toBe(0);
  });
});
