// The control API of a localnet (plain HTTP/JSON, meant for loopback; control-guard.ts says who may
// call it: loopback Host names, no other site's Origin, JSON bodies on POST):
//   GET  /localnet/global-config   the TON global config pointing at its liteservers
//   GET  /localnet/wallets         the funded genesis wallets with their keys
//   POST /localnet/faucet          {"address": "...", "amount": "nanotons"} → the faucet transaction
//   POST /localnet/seal            seal a block now → the new masterchain block id
//   POST /localnet/time            {"advance": seconds} → move localnet's clock forward
//   POST /localnet/libraries       {"boc": "base64 or hex"} → publish a public library
//   GET  /localnet/shards          workchain 0's shards and their newest blocks
//   POST /localnet/split           {"shard"?: "hex shard id"} → the shards that will split
//   POST /localnet/merge           {"shard"?: "hex parent shard id"} → the parents whose children will merge
// Keys and hashes are hex strings (block hashes base64, as the liteserver JSON of TON tools has them);
// README.md documents each route with an example.
import http from "node:http";
import { Address, Cell } from "@ton/core";
import { refusalOf } from "./control-guard.js";
import { libraryFromBoc } from "./libraries.js";
import type { Localnet } from "./localnet.js";

const MAX_FAUCET = 1_000_000n * 1_000_000_000n;

export interface ControlServer {
  port: number;
  close(): Promise<void>;
}

/**
 * JSON.stringify's replacer: bigints as decimal strings, bytes as hex. A Buffer has toJSON
 * (`{"type":"Buffer","data":[…]}`), which runs before the replacer sees the value, so the
 * replacer looks at the holder's original value.
 */
function jsonValue(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("hex");
  return typeof value === "bigint" ? value.toString() : value;
}

/** A one-root BoC in base64 (or base64url, or hex) of a library cell, or what is wrong with it. */
function parseLibrary(v: unknown): Cell | string {
  if (typeof v !== "string" || v.length === 0) return "expected a BoC with one root cell, as a base64 (or hex) string";
  const bytes = /^([0-9a-fA-F]{2})+$/.test(v) ? Buffer.from(v, "hex") : /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) ? Buffer.from(v, "base64") : undefined;
  if (!bytes) return "not a base64 or hex string";
  try {
    return libraryFromBoc(bytes);
  } catch (e) {
    return (e as Error).message;
  }
}

/** A shard id given as hex (16 digits, as TON tools print it; "0x" allowed), or what is wrong with it. */
function parseShard(v: unknown): bigint | string {
  if (typeof v !== "string" || !/^(0x)?[0-9a-fA-F]{1,16}$/.test(v)) return 'expected a shard id in hex, e.g. "6000000000000000"';
  const shard = BigInt(v.startsWith("0x") ? v : `0x${v}`);
  return shard === 0n ? "0 is not a shard id" : shard;
}

const hex16 = (shard: bigint) => shard.toString(16).padStart(16, "0");

/** The newest block of each shard of workchain 0, and what it announces. */
function shardList(net: Localnet): object[] {
  return net.chain.shardTips.map(({ shard, rec }) => ({
    shard: hex16(shard),
    seqno: rec?.id.seqno ?? 0,
    root_hash: rec?.id.rootHash.toString("base64") ?? null,
    file_hash: rec?.id.fileHash.toString("base64") ?? null,
    mc_seqno: rec?.mcSeqno ?? 0,
    before_split: rec?.meta.beforeSplit ?? false,
    want_merge: rec?.block.info.wantMerge ?? false,
  }));
}

/** Runs a split or merge request: the shards it names, or 422 naming the field with the chain's reason. */
function shardRequest(body: Record<string, unknown>, request: (shard?: bigint) => bigint[]): { status: number; body: object } {
  let shard: bigint | undefined;
  if (body.shard !== undefined) {
    const parsed = parseShard(body.shard);
    if (typeof parsed === "string") return { status: 422, body: { error: `shard: ${parsed}` } };
    shard = parsed;
  }
  try {
    return { status: 200, body: { shards: request(shard).map(hex16) } };
  } catch (e) {
    if (e instanceof RangeError) return { status: 422, body: { error: `shard: ${e.message}` } };
    throw e;
  }
}

/** The largest body a control request may have (a library's BoC in base64 is the biggest one). */
export const MAX_CONTROL_BODY = 64 * 1024;
/** What of a refused body is read before the answer (see refuse). */
const DRAIN_CONTROL_BODY = 1024 * 1024;

export async function startControlApi(net: Localnet, listen: { host: string; port: number }): Promise<ControlServer> {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body, jsonValue);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(text);
    };
    // a refusal closes the connection: what is left of the body is dropped, never read as a next
    // request. Up to DRAIN_CONTROL_BODY bytes of it are read (and dropped) first: a client still
    // sending when the connection closes sees a broken pipe instead of the answer. Past that, or
    // when the declared length is past it, the answer goes at once.
    const refuse = (status: number, error: string) => {
      res.setHeader("connection", "close");
      let seen = 0;
      const answer = () => {
        if (!res.headersSent) send(status, { error });
      };
      if (req.complete || Number(req.headers["content-length"] ?? 0) > DRAIN_CONTROL_BODY) answer();
      req.on("data", (c: Buffer) => {
        seen += c.length;
        if (seen > DRAIN_CONTROL_BODY) answer();
      });
      req.on("end", answer);
      req.resume();
    };
    const refusal = refusalOf(req);
    if (refusal) return refuse(refusal.status, refusal.error);
    const tooLarge = `the body is over ${MAX_CONTROL_BODY} bytes`;
    if (Number(req.headers["content-length"] ?? 0) > MAX_CONTROL_BODY) return refuse(413, tooLarge);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_CONTROL_BODY) chunks.push(c);
      else if (!res.headersSent) {
        chunks.length = 0;
        refuse(413, tooLarge);
      }
    });
    req.on("end", () => {
      if (size > MAX_CONTROL_BODY) return;
      void (async () => {
        try {
          const route = `${req.method} ${(req.url ?? "").split("?")[0]}`;
          let body: Record<string, unknown> = {};
          if (req.method === "POST" && chunks.length) {
            let parsed: unknown;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            } catch {
              return send(400, { error: "the body is not valid JSON" });
            }
            if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return send(400, { error: "the body must be a JSON object" });
            body = { ...parsed };
          }
          switch (route) {
            case "GET /localnet/global-config":
              return send(200, net.globalConfig());
            case "GET /localnet/wallets":
              return send(
                200,
                net.genesis.wallets.map((w) => ({
                  version: w.version,
                  address: w.address.toString({ bounceable: false }),
                  raw: w.address.toRawString(),
                  public_key: w.keyPair.publicKey.toString("hex"),
                  secret_key: w.keyPair.secretKey.toString("hex"),
                })),
              );
            case "POST /localnet/seal": {
              const mc = await net.chain.seal();
              return send(200, { workchain: -1, shard: "-9223372036854775808", seqno: mc.id.seqno, root_hash: mc.id.rootHash.toString("base64"), file_hash: mc.id.fileHash.toString("base64") });
            }
            case "POST /localnet/time": {
              const advance = body.advance;
              if (typeof advance !== "number" || !Number.isInteger(advance) || advance < 0 || advance > 10 * 365 * 86400) {
                return send(422, { error: "advance: expected a whole number of seconds, 0..315360000" });
              }
              return send(200, { offset_seconds: net.advanceTime(advance) });
            }
            case "POST /localnet/faucet": {
              let to: Address;
              try {
                to = Address.parse(String(body.address ?? ""));
              } catch {
                return send(422, { error: 'address: expected a TON address ("0:…" or user-friendly)' });
              }
              const amount = /^\d{1,30}$/.test(String(body.amount ?? "")) ? BigInt(String(body.amount)) : -1n;
              if (amount <= 0n || amount > MAX_FAUCET) return send(422, { error: `amount: expected nanotons as a decimal string, 1..${MAX_FAUCET}` });
              const r = await net.faucet(to, amount);
              return send(200, { transaction_hash: r.hash.toString("base64"), lt: r.lt, mc_seqno: r.mcSeqno });
            }
            case "POST /localnet/libraries": {
              const lib = parseLibrary(body.boc);
              if (typeof lib === "string") return send(422, { error: `boc: ${lib}` });
              const r = await net.publishLibrary(lib);
              return send(200, { hash: r.hash.toString("hex"), hash_base64: r.hash.toString("base64"), mc_seqno: r.mcSeqno, published: r.published });
            }
            case "GET /localnet/shards":
              return send(200, shardList(net));
            case "POST /localnet/split": {
              const r = shardRequest(body, (s) => net.chain.requestSplit(s));
              return send(r.status, r.body);
            }
            case "POST /localnet/merge": {
              const r = shardRequest(body, (s) => net.chain.requestMerge(s));
              return send(r.status, r.body);
            }
            default:
              return send(404, { error: `no such control endpoint: ${route}` });
          }
        } catch (e) {
          send(500, { error: (e as Error).message });
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const addr = server.address();
  return {
    port: typeof addr === "object" && addr ? addr.port : listen.port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
