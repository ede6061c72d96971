// Test helpers: a raw ADNL peer that can misbehave on purpose, and a minimal liteserver handler.
import { createCipheriv, createDecipheriv, generateKeyPairSync, hash, randomBytes, type Cipher, type Decipher } from "node:crypto";
import { connect, type Socket } from "node:net";
import {
  adnlKeyId,
  ed25519PublicKeyToX25519,
  handshakeCipherParams,
  readTlBytes,
  x25519PrivateKeyFromEd25519Seed,
  x25519SharedSecret,
  type AdnlQueryHandler,
} from "../src/index.js";

export interface RawPeer {
  socket: Socket;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  /** Decrypted bytes received so far (after the handshake). */
  received: () => Buffer;
}

export function rawConnect(port: number): Promise<RawPeer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.on("error", () => {});
    socket.once("connect", () => resolve({ socket, closed, received: () => Buffer.alloc(0) }));
    socket.once("error", reject);
  });
}

export interface Handshake {
  envelope: Buffer;
  /** client -> server stream */
  tx: Cipher;
  /** server -> client stream */
  rx: Decipher;
}

/** A correct handshake envelope (optionally addressed with someone else's key id). */
export function makeHandshake(serverPublicKey: Buffer, opts: { keyIdOf?: Buffer; ephemeralPublic?: Buffer } = {}): Handshake {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(16, 48);
  const ephemeralPublic = opts.ephemeralPublic ?? publicKey.export({ format: "der", type: "spki" }).subarray(12, 44);
  const secret = x25519SharedSecret(x25519PrivateKeyFromEd25519Seed(seed), ed25519PublicKeyToX25519(serverPublicKey));
  const params = randomBytes(160);
  const paramsHash = hash("sha256", params, "buffer");
  const { key, iv } = handshakeCipherParams(secret, paramsHash);
  const c = createCipheriv("aes-256-ctr", key, iv);
  const encrypted = c.update(params);
  const envelope = Buffer.concat([adnlKeyId(opts.keyIdOf ?? serverPublicKey), ephemeralPublic, paramsHash, encrypted]);
  return {
    envelope,
    tx: createCipheriv("aes-256-ctr", params.subarray(32, 64), params.subarray(80, 96)),
    rx: createDecipheriv("aes-256-ctr", params.subarray(0, 32), params.subarray(64, 80)),
  };
}

/** Plain frame: size | nonce | payload | sha256(nonce|payload), with optional damage. */
export function plainFrame(payload: Buffer, opts: { badChecksum?: boolean; sizeOverride?: number } = {}): Buffer {
  const nonce = randomBytes(32);
  const sum = hash("sha256", Buffer.concat([nonce, payload]), "buffer");
  if (opts.badChecksum) sum[0] ^= 0xff;
  const size = Buffer.alloc(4);
  size.writeUInt32LE(opts.sizeOverride ?? 64 + payload.length);
  return Buffer.concat([size, nonce, payload, sum]);
}

/** Connects, sends a valid handshake and waits for the confirmation frame. */
export async function rawReady(port: number, serverPublicKey: Buffer): Promise<RawPeer & Handshake> {
  const peer = await rawConnect(port);
  const hs = makeHandshake(serverPublicKey);
  let received = Buffer.alloc(0);
  const confirmed = new Promise<void>((resolve) => {
    peer.socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, hs.rx.update(chunk)]);
      if (received.length >= 68) resolve();
    });
  });
  peer.socket.write(hs.envelope);
  await confirmed;
  return { ...peer, ...hs, received: () => received };
}

export const LS_QUERY = 0x798c06df;
export const LS_GET_TIME = 0x16ad5a34;
export const LS_CURRENT_TIME = 0xe953000d;
export const LS_GET_MASTERCHAIN_INFO = 0x89b5e62e;
export const LS_MASTERCHAIN_INFO = 0x85832881;
export const LS_ERROR = 0xbba9e148;

export const MC = {
  seqno: 34_000_123,
  rootHash: Buffer.alloc(32, 0x11),
  fileHash: Buffer.alloc(32, 0x22),
  stateRootHash: Buffer.alloc(32, 0x33),
  zeroRootHash: Buffer.alloc(32, 0x44),
  zeroFileHash: Buffer.alloc(32, 0x55),
};

function masterchainInfo(): Buffer {
  const b = Buffer.alloc(4 + 4 + 8 + 4 + 32 + 32 + 32 + 4 + 32 + 32);
  let o = b.writeUInt32LE(LS_MASTERCHAIN_INFO, 0);
  o = b.writeInt32LE(-1, o);
  o = b.writeBigUInt64LE(0x8000000000000000n, o);
  o = b.writeInt32LE(MC.seqno, o);
  o += MC.rootHash.copy(b, o);
  o += MC.fileHash.copy(b, o);
  o += MC.stateRootHash.copy(b, o);
  o = b.writeInt32LE(-1, o);
  o += MC.zeroRootHash.copy(b, o);
  MC.zeroFileHash.copy(b, o);
  return b;
}

/** liteServer.error code:int message:string */
function liteError(code: number, message: string): Buffer {
  const text = Buffer.from(message);
  const b = Buffer.alloc(8 + ((1 + text.length + 3) & ~3));
  b.writeUInt32LE(LS_ERROR, 0);
  b.writeInt32LE(code, 4);
  b[8] = text.length;
  text.copy(b, 9);
  return b;
}

/** Decodes liteServer.query{data} minimally and answers getTime / getMasterchainInfo. */
export function liteHandler(now: () => number): AdnlQueryHandler {
  return (query) => {
    if (query.readUInt32LE(0) !== LS_QUERY) return liteError(-1, "not a liteServer.query");
    const data = readTlBytes(query, 4);
    if (data === null) return liteError(-1, "bad liteServer.query");
    const fn = query.readUInt32LE(data.start);
    if (fn === LS_GET_TIME) {
      const b = Buffer.alloc(8);
      b.writeUInt32LE(LS_CURRENT_TIME, 0);
      b.writeInt32LE(now(), 4);
      return b;
    }
    if (fn === LS_GET_MASTERCHAIN_INFO) return masterchainInfo();
    return liteError(-2, `unsupported function 0x${fn.toString(16)}`);
  };
}
