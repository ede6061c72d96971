// /api/v3/decode over HTTP through the gateway (the indexer's API in this process, as `tongate
// start` runs it): opcodes to their names and real message bodies (toncenter's recorded traces) to
// the `decoded` toncenter answered, GET and POST alike, the answer valid against v3.yaml; 1,001
// items and junk opcodes refused naming the parameter; bodies that cannot be read answered with an
// error object in their place; 2,000 malformed requests answered 4xx or 200, never 5xx.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beginCell, Cell } from "@ton/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { rng as seeded } from "../support/rng.js";
import { v3Parameters, v3ResponseErrors } from "../support/v3-schema.js";

const FIXTURES = new URL("../../../shared/fixtures/", import.meta.url);

interface Recorded {
  body: string;
  decoded: Record<string, unknown> | null;
}

/** The bodies of toncenter's recorded v3 traces with the `decoded` it answered (its /decode shape). */
function recordedBodies(): Recorded[] {
  const out = new Map<string, Recorded>();
  for (const file of ["v3_trace_fixture.json", "v3_trace_fixture_multi.json"]) {
    const fx = JSON.parse(readFileSync(new URL(`toncenter_v3/${file}`, FIXTURES), "utf8"));
    for (const trace of fx.traces) {
      for (const tx of Object.values<any>(trace.transactions)) {
        for (const msg of [tx.in_msg, ...tx.out_msgs]) {
          const c = msg?.message_content;
          if (!c?.body) continue;
          let decoded = c.decoded as Record<string, unknown> | null;
          // message_content keeps the older text_comment shape; /decode answers the constructor's
          if (decoded?.["@type"] === "text_comment") decoded = { "@type": "text_comment", text: decoded.comment };
          out.set(c.body, { body: c.body, decoded });
        }
      }
    }
  }
  return [...out.values()];
}

let t: Embedded;
let dir: string;
const bodies = recordedBodies();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tongate-decode-"));
  t = await startEmbedded({ index: "off", "index-dir": dir, "key-index": "off" });
}, 60_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const query = (o: { opcodes?: string[]; bodies?: string[] }) =>
  [...(o.opcodes ?? []).map((v) => `opcodes=${encodeURIComponent(v)}`), ...(o.bodies ?? []).map((v) => `bodies=${encodeURIComponent(v)}`)].join("&");

/** The answer of POST, the same as GET's when the request fits in a URL (the gateway takes 8,192 characters). */
async function decode(o: { opcodes?: string[]; bodies?: string[] }): Promise<{ opcodes: string[]; bodies: Record<string, unknown>[] }> {
  const post = await postJson(`${t.url}/api/v3/decode`, o);
  expect(post.status, JSON.stringify(post.body)).toBe(200);
  expect(v3ResponseErrors("/api/v3/decode", post.body)).toBeNull();
  if (query(o).length < 8000) {
    const get = await getJson(`${t.url}/api/v3/decode?${query(o)}`);
    expect(get.status, JSON.stringify(get.body)).toBe(200);
    expect(get.body).toEqual(post.body);
  }
  return post.body;
}

describe("/api/v3/decode", () => {
  it("names opcodes given in hex (with or without 0x) or decimal, as toncenter reads them", async () => {
    const r = await decode({ opcodes: ["0x0f8a7ea5", "0f8a7ea5", "0F8A7EA5", "260734629", "0x7362d09c", "0xd53276db", "-718113061", "0xdeadbeef", "0"] });
    // "-718113061" is 0xd53276db as a signed 32-bit value; 0 is a text comment's
    expect(r.opcodes).toEqual(["jetton_transfer", "jetton_transfer", "jetton_transfer", "jetton_transfer", "jetton_notify", "excess", "excess", "unknown", "text_comment"]);
  });

  it("decodes toncenter's recorded bodies to the decoded values it answered, base64 or hex", async () => {
    expect(bodies.length).toBeGreaterThanOrEqual(7);
    const r = await decode({ bodies: bodies.map((b) => b.body) });
    expect(r.opcodes).toEqual([]);
    for (const [i, b] of bodies.entries()) {
      if (b.decoded) expect(r.bodies[i], b.body).toEqual(b.decoded);
      else expect(r.bodies[i]!.error, b.body).toMatch(/cannot decode/);
    }
    const hex = await decode({ bodies: bodies.map((b) => Buffer.from(b.body, "base64").toString("hex")) });
    expect(hex.bodies).toEqual(r.bodies);
  });

  it("answers each body it cannot read with an error object in its place, the others decoded", async () => {
    const excess = beginCell().storeUint(0xd53276db, 32).storeUint(7, 64).endCell().toBoc().toString("base64");
    const deep = deepCell(1100).toBoc().toString("base64");
    const r = await decode({
      bodies: [
        excess,
        "not a boc!",
        "te6cckEBAQEA", // cut short
        Buffer.from("b5ee9c72", "hex").toString("base64"),
        beginCell().storeUint(1, 8).endCell().toBoc().toString("base64"), // 8 bits: no opcode
        beginCell().storeUint(0x0f8a7ea5, 32).endCell().toBoc().toString("base64"), // a transfer without its fields
        deep,
        beginCell().endCell().toBoc().toString("base64"),
        excess,
      ],
    });
    expect(r.bodies[0]).toEqual({ "@type": "excess", query_id: "7" });
    expect(r.bodies[8]).toEqual(r.bodies[0]);
    expect(r.bodies[7]).toEqual({ "@type": "empty_cell" });
    expect(r.bodies[1]!.error).toMatch(/not a bag of cells in base64 or hexadecimal/);
    expect(r.bodies[2]!.error).toMatch(/not a valid bag of cells/);
    expect(r.bodies[3]!.error).toMatch(/not a valid bag of cells/);
    expect(r.bodies[4]!.error).toMatch(/opcode needs 32/);
    expect(r.bodies[5]!.error).toMatch(/^cannot decode: jetton_transfer/);
    expect(r.bodies[6]!.error).toMatch(/deeper than 1024/);
  });

  it("refuses 1,001 opcodes or bodies, and a junk opcode, with a 422 naming the parameter", async () => {
    const many = Array.from({ length: 1001 }, () => "0x0f8a7ea5");
    for (const [name, o] of [
      ["opcodes", { opcodes: many }],
      ["bodies", { bodies: Array.from({ length: 1001 }, () => "te6") }],
    ] as const) {
      const r = await postJson(`${t.url}/api/v3/decode`, o);
      expect(r.status).toBe(422);
      expect(r.body.error).toMatch(new RegExp(`^${name}: at most 1000`));
    }
    const get = await getJson(`${t.url}/api/v3/decode?${query({ opcodes: many })}`);
    expect([414, 422, 431]).toContain(get.status);
    for (const junk of ["0xg", "", "12345678901", "transfer", "-2147483649", "0x"]) {
      const r = await getJson(`${t.url}/api/v3/decode?${query({ opcodes: ["0x0f8a7ea5", junk] })}`);
      expect(r.status, junk).toBe(422);
      expect(r.body.error, junk).toMatch(/^opcodes\[1\]: .* is not an opcode/);
    }
    const unknown = await getJson(`${t.url}/api/v3/decode?opcode=1`);
    expect(unknown.status).toBe(422);
  });

  it("declares toncenter's parameters in its OpenAPI, under the Utils tag", async () => {
    const doc = (await getJson(`${t.url}/api/v3/openapi.json`)).body;
    const ours = (doc.paths["/api/v3/decode"].get.parameters as { name: string }[]).map((p) => p.name);
    expect(ours).toEqual(expect.arrayContaining([...v3Parameters("/api/v3/decode").keys()]));
    expect(doc.paths["/api/v3/decode"].get.tags).toEqual(["Utils"]);
    expect(doc.paths["/api/v3/decode"].post).toBeDefined();
  });

  it("answers 2,000 malformed requests with 4xx, or 200 with an error per body it cannot read", async () => {
    const rng = seeded(20261127);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
    const real = bodies.map((b) => b.body);
    const deep = deepCell(1030).toBoc();
    const junkBody = (): string => {
      const b = Buffer.from(pick(real), "base64");
      // a deep tree costs its parse (a hash per cell): one body in 50
      if (rng() < 0.02) return deep.toString("base64");
      switch (Math.floor(rng() * 8)) {
        case 0: // a byte flipped
          b[Math.floor(rng() * b.length)]! ^= 1 << Math.floor(rng() * 8);
          return b.toString("base64");
        case 1: // cut short
          return b.subarray(0, Math.floor(rng() * b.length)).toString(rng() < 0.5 ? "base64" : "hex");
        case 2: // two bodies' bytes run together
          return Buffer.concat([b, Buffer.from(pick(real), "base64")]).toString("base64");
        case 3: // random bytes after the magic
          return Buffer.concat([Buffer.from("b5ee9c72", "hex"), Buffer.from(Array.from({ length: 1 + Math.floor(rng() * 64) }, () => Math.floor(rng() * 256)))]).toString("hex");
        case 4:
          return pick(["", " ", "te6", "=", "%%", "0x00", "b5ee9c7", "\u0000", "é", "te6cckEBAQEAAgAAAEysuc0="]);
        case 5:
          return pick(real);
        case 6: // url-safe base64 of a real body
          return b.toString("base64url");
        default:
          return b.toString("hex").toUpperCase();
      }
    };
    const junkOpcode = (): string => pick(["0x", "x1", "0x123456789", "-", "1e3", "0x0f8a7ea5 ", "٣", "99999999999", "-2147483649", "0xffffffff", "4294967295", "-1", "+5", "0b101"]);
    const cases: { method: "GET" | "POST"; body: string }[] = [];
    for (let i = 0; i < 2000; i++) {
      const n = rng() < 0.02 ? 1001 : 1 + Math.floor(rng() * 6);
      const o: { opcodes?: unknown; bodies?: unknown } = {};
      if (rng() < 0.5) o.opcodes = Array.from({ length: rng() < 0.02 ? 1001 : 1 + Math.floor(rng() * 3) }, junkOpcode);
      o.bodies = Array.from({ length: n }, junkBody);
      // broken JSON shapes for POST
      if (rng() < 0.05) o.bodies = pick([42, "te6", null, { a: 1 }, [1, 2], [null]]);
      cases.push({ method: rng() < 0.5 ? "GET" : "POST", body: JSON.stringify(o) });
    }
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < cases.length) {
          const c = cases[next++]!;
          const o = JSON.parse(c.body) as { opcodes?: unknown; bodies?: unknown };
          const res =
            c.method === "POST"
              ? await fetch(`${t.url}/api/v3/decode`, { method: "POST", headers: { "content-type": "application/json" }, body: c.body })
              : await fetch(`${t.url}/api/v3/decode?${query({ opcodes: asStrings(o.opcodes), bodies: asStrings(o.bodies) })}`);
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500) failures.push(`${res.status} ${c.method} ${c.body.slice(0, 200)}: ${text.slice(0, 200)}`);
          else if (res.status === 200) {
            const body = JSON.parse(text) as { bodies: Record<string, unknown>[] };
            const errors = v3ResponseErrors("/api/v3/decode", body);
            if (errors) failures.push(`${c.method} ${c.body.slice(0, 200)}: ${errors}`);
            if (body.bodies.some((b) => !("@type" in b) && typeof b.error !== "string")) failures.push(`${c.method} ${c.body.slice(0, 200)}: an item neither decoded nor an error`);
          } else if (res.status >= 400 && res.status < 500 && res.status !== 414 && res.status !== 431) {
            const body = JSON.parse(text) as { error?: unknown };
            if (typeof body.error !== "string" || !/opcodes|bodies|body|JSON/i.test(body.error)) failures.push(`${res.status} ${c.method}: ${text.slice(0, 200)}`);
          }
        }
      }),
    );
    expect(failures.slice(0, 10)).toEqual([]);
    expect([...statuses.keys()].filter((s) => s >= 500 || s < 200)).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(500);
    expect(statuses.get(422)).toBeGreaterThan(100);
    // and it still answers
    expect((await decode({ opcodes: ["0x0f8a7ea5"] })).opcodes).toEqual(["jetton_transfer"]);
  }, 120_000);
});

const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);

/** A chain of `depth` cells, each an excess body referencing the next. */
function deepCell(depth: number): Cell {
  let c = beginCell().storeUint(0xd53276db, 32).storeUint(0, 64).endCell();
  for (let i = 1; i < depth; i++) c = beginCell().storeUint(0xd53276db, 32).storeUint(i, 64).storeRef(c).endCell();
  return c;
}
