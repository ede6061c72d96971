// Interop with the real-world client stack: ton-lite-client (unmodified) over the `adnl` package.
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { ADNLClientTCP } from "adnl";
import { LiteClient, LiteSingleEngine } from "ton-lite-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdnlServer } from "../src/index.js";
import { liteHandler, MC } from "./helpers.js";

describe("interop with ton-lite-client", () => {
  const now = 1_760_000_000;
  let server: AdnlServer;
  let port: number;

  beforeAll(async () => {
    server = new AdnlServer({ seed: randomBytes(32), handler: liteHandler(() => now) });
    port = (await server.listen(0, "127.0.0.1")).port;
  });
  afterAll(async () => {
    await server.close({ graceMs: 500 });
  });

  it("serves getCurrentTime and getMasterchainInfo to LiteClient", async () => {
    const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey: server.publicKey });
    try {
      await once(engine, "ready");
      const client = new LiteClient({ engine });
      expect(await client.getCurrentTime()).toBe(now);
      const info = await client.getMasterchainInfo();
      expect(info.last.workchain).toBe(-1);
      expect(String(info.last.shard)).toBe("-9223372036854775808");
      expect(info.last.seqno).toBe(MC.seqno);
      expect(Buffer.from(info.last.rootHash)).toEqual(MC.rootHash);
      expect(Buffer.from(info.last.fileHash)).toEqual(MC.fileHash);
      expect(Buffer.from(info.stateRootHash)).toEqual(MC.stateRootHash);
      expect(info.init.workchain).toBe(-1);
      expect(Buffer.from(info.init.rootHash)).toEqual(MC.zeroRootHash);
      expect(Buffer.from(info.init.fileHash)).toEqual(MC.zeroFileHash);

      // Pipelined: many queries in flight on the one engine connection.
      const times = await Promise.all(Array.from({ length: 200 }, () => client.getCurrentTime()));
      expect(times.every((t) => t === now)).toBe(true);
      expect(server.stats.readyConnections).toBe(1);
    } finally {
      engine.close();
    }
  });

  it("completes the handshake with the adnl package's client (public key given as base64)", async () => {
    const client = new ADNLClientTCP(`tcp://127.0.0.1:${port}`, server.publicKey.toString("base64"));
    const ready = once(client, "ready");
    await client.connect();
    await ready;
    // tcp.ping, answered with tcp.pong carrying the same random_id
    const ping = Buffer.alloc(12);
    ping.writeUInt32LE(0x4d082b9a, 0);
    randomBytes(8).copy(ping, 4);
    const data = once(client, "data");
    client.write(ping);
    const [pong] = (await data) as [Buffer];
    expect(pong.readUInt32LE(0)).toBe(0xdc69fb03);
    expect(Buffer.from(pong.subarray(4, 12))).toEqual(ping.subarray(4, 12));
    const closed = once(client, "close");
    client.end();
    await closed;
  });
});
