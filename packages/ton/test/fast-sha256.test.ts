import { readdirSync, readFileSync } from "node:fs";
import { Cell } from "@ton/core";
import { sha256_sync } from "@ton/crypto";
import { describe, expect, it } from "vitest";
import { installFastSha256 } from "../src/fast-sha256.js";

const dir = new URL("../../../../shared/fixtures/blocks/", import.meta.url);

describe("installFastSha256", () => {
  it("gives @ton/core the same digests and cell hashes, natively", () => {
    const inputs = [Buffer.alloc(0), Buffer.from("abc"), Buffer.alloc(1000, 7), "text"];
    const before = inputs.map((i) => sha256_sync(i));
    const blocks = readdirSync(dir).map((f) => readFileSync(new URL(f, dir)));
    const hashesBefore = blocks.map((b) => Cell.fromBoc(b)[0]!.hash().toString("hex"));
    installFastSha256();
    installFastSha256();
    expect(inputs.map((i) => sha256_sync(i))).toEqual(before);
    expect(blocks.map((b) => Cell.fromBoc(b)[0]!.hash().toString("hex"))).toEqual(hashesBefore);
    expect(sha256_sync("abc").toString("hex")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
