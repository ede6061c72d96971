// `tongate classify --trace FILE.json` on trace files of toncenter's fixtures.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyCommand } from "../src/classify.js";
import { toncenterActionsDir, traceFilePath } from "../../tests/support/toncenter-actions.js";

const dir = toncenterActionsDir();

async function classify(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await classifyCommand(argv, { out: (t) => (out += t), err: (t) => (err += t), env: {} });
  return { code, out, err };
}

describe("tongate classify", () => {
  const simpleTransfer = traceFilePath(dir, "CFl6PQXQyJ4FQFj9YsZwblnCg3m8Po9wuiBmrR4zGz4=");

  it.skipIf(!existsSync(simpleTransfer))("prints a trace's actions in API v3's JSON", async () => {
    const r = await classify("--trace", simpleTransfer);
    expect(r).toMatchObject({ code: 0, err: "" });
    const { actions } = JSON.parse(r.out);
    expect(actions).toEqual([
      expect.objectContaining({
        type: "ton_transfer",
        action_id: "2w63ODTcF5Jcx0ff5OOJKZ9kMhn5BzeYKr3R+OLEZMU=",
        trace_id: "CFl6PQXQyJ4FQFj9YsZwblnCg3m8Po9wuiBmrR4zGz4=",
        start_lt: "55850691000000",
        end_lt: "55850691000002",
        success: true,
        transactions: ["CFl6PQXQyJ4FQFj9YsZwblnCg3m8Po9wuiBmrR4zGz4="],
        details: {
          source: "-1:0000000000000000000000000000000000000000000000000000000000000000",
          destination: "-1:3333333333333333333333333333333333333333333333333333333333333333",
          value: "2630055735",
          value_extra_currencies: {},
          comment: null,
          encrypted: false,
        },
        finality: "finalized",
      }),
    ]);
  });

  const mint = traceFilePath(dir, "uXA5LQpf_4c9NEOK6trJZuBMitcBLNYxK7_2OfzphtI=");
  it.skipIf(!existsSync(mint))("shows only what the client's supported action types allow", async () => {
    const all = JSON.parse((await classify("--trace", mint)).out).actions.map((a: { type: string }) => a.type);
    expect(all).toContain("jetton_mint");
    const mints = JSON.parse((await classify("--trace", mint, "--supported-action-types", "jettons")).out).actions;
    expect(mints.map((a: { type: string }) => a.type)).toContain("jetton_mint");
    expect(mints.find((a: { type: string }) => a.type === "jetton_mint").details).toMatchObject({
      asset: "0:1C4838CCE43FDB1152C3EC496E911B3A873F7043B09BB79E6284598D12178107",
      receiver: "0:A8B9A93F49CC467E91138F62FFDCC5F037B5E28B7F985DAA800AFC703AA32691",
      amount: "4853188593690",
      ton_amount: "908814249160002342682739450328523377",
    });
  });

  it("says what is wrong with the command line or the file", async () => {
    expect(await classify()).toMatchObject({ code: 2, err: expect.stringContaining("needs --trace") });
    expect(await classify("--trace", "/nonexistent/trace.json")).toMatchObject({ code: 2, err: expect.stringContaining("ENOENT") });
    const tmp = mkdtempSync(join(tmpdir(), "tongate-classify-"));
    writeFileSync(join(tmp, "bad.json"), "{ not json");
    expect(await classify("--trace", join(tmp, "bad.json"))).toMatchObject({ code: 2, err: expect.stringContaining("bad.json") });
    writeFileSync(join(tmp, "empty.json"), JSON.stringify({ trace: {}, transactions: [] }));
    expect(await classify("--trace", join(tmp, "empty.json"))).toMatchObject({ code: 2, err: expect.stringContaining("no transactions") });
    expect(await classify("--trace", "x.json", "--bogus")).toMatchObject({ code: 2, err: expect.stringContaining("unknown option --bogus") });
  });
});
