// Verified reads against the proof vectors of @tongate/proof's docs test (mainnet masterchain block 31220993).
import { Address } from "@ton/core";
import { httpStatusOf } from "@tongate/runtime";
import { describe, expect, it } from "vitest";
import { getAccountState, LiteserverProofError, tlBlockId, toApiError, type LiteAnswer, type LiteCall, type LiteQuerier, type LiteQueryName } from "@tongate/liteclient";
import { ACCOUNT_FRIENDLY, ACCOUNT_PROOF, ACCOUNT_STATE, MC_BLOCK, SHARD_BLOCK, SHARD_PROOF } from "../../proof/test/doc-vectors.js";

const addr = Address.parse(ACCOUNT_FRIENDLY);
const ACCOUNT = { workchain: addr.workChain, id: addr.hash };

/** A liteserver that answers liteServer.getAccountState with `state` and records what it was asked. */
function liteserver(state: Buffer): LiteQuerier & { asked: unknown[] } {
  const asked: unknown[] = [];
  const answers: { [K in LiteQueryName]?: LiteAnswer<K> } = {
    "liteServer.getAccountState": { kind: "liteServer.accountState", id: tlBlockId(MC_BLOCK), shardblk: tlBlockId(SHARD_BLOCK), shard_proof: SHARD_PROOF, proof: ACCOUNT_PROOF, state },
  };
  return {
    asked,
    liteserver: "10.0.0.1:4924",
    async query<K extends LiteQueryName>(fn: LiteCall<K>): Promise<LiteAnswer<K>> {
      asked.push(fn);
      const answer = answers[fn.kind];
      if (answer === undefined) throw new Error(`unexpected ${fn.kind}`);
      return answer;
    },
  };
}

describe("verified reads", () => {
  it("getAccountState: the account at a trusted block, its proofs checked", async () => {
    const ls = liteserver(ACCOUNT_STATE);
    const { answer, state } = await getAccountState(ls, MC_BLOCK, ACCOUNT);
    expect(answer.state.equals(ACCOUNT_STATE)).toBe(true);
    expect(state.shardAccount).not.toBeNull();
    expect(ls.asked).toEqual([{ kind: "liteServer.getAccountState", id: { kind: "tonNode.blockIdExt", ...MC_BLOCK }, account: { kind: "liteServer.accountId", ...ACCOUNT } }]);
  });

  it("a tampered answer throws LiteserverProofError, a 502", async () => {
    const tampered = Buffer.from(ACCOUNT_STATE);
    tampered[tampered.length - 1]! ^= 1;
    const err = await getAccountState(liteserver(tampered), MC_BLOCK, ACCOUNT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiteserverProofError);
    const e = err as LiteserverProofError;
    expect(e.httpStatus).toBe(502);
    expect(e.liteserver).toBe("10.0.0.1:4924");
    expect(e.message).toMatch(/^the liteserver's answer to liteServer.getAccountState failed proof verification: /);
    expect(httpStatusOf(toApiError(e)).status).toBe(502);
  });
});
