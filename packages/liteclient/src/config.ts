// The liteservers of a TON global config: `liteservers: [{ ip, port, id: { "@type": "pub.ed25519", key } }]`,
// where `ip` is an IPv4 address written as a 32-bit integer (signed in the published configs; unsigned is
// accepted too) and `key` the base64 ed25519 public key of the liteserver.

export interface LiteserverAddress {
  /** Position in the config's `liteservers` array (toncenter's `ls_index`). */
  readonly index: number;
  readonly host: string;
  readonly port: number;
  /** 32-byte ed25519 public key. */
  readonly publicKey: Buffer;
  /** `host:port`, how logs and errors name this liteserver. */
  readonly address: string;
}

/** 2130706433 or -1062731519 → dotted IPv4. */
export function int32ToIpv4(ip: number): string {
  const u = ip >>> 0;
  return [u >>> 24, (u >>> 16) & 0xff, (u >>> 8) & 0xff, u & 0xff].join(".");
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The liteservers of a parsed TON global config; throws a message naming the bad entry and field. */
export function liteserversFromGlobalConfig(config: unknown): LiteserverAddress[] {
  if (!isRecord(config) || !Array.isArray(config.liteservers)) {
    throw new Error("global config: expected an object with a `liteservers` array");
  }
  if (config.liteservers.length === 0) throw new Error("global config: `liteservers` is empty");
  return config.liteservers.map((entry: unknown, index): LiteserverAddress => {
    const where = `global config: liteservers[${index}]`;
    if (!isRecord(entry)) throw new Error(`${where}: expected an object`);
    const { ip, port, id } = entry;
    if (typeof ip !== "number" || !Number.isInteger(ip) || ip < -0x80000000 || ip > 0xffffffff) {
      throw new Error(`${where}.ip: expected an IPv4 address as a 32-bit integer, got ${JSON.stringify(ip)}`);
    }
    if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`${where}.port: expected 1..65535, got ${JSON.stringify(port)}`);
    }
    if (!isRecord(id) || id["@type"] !== "pub.ed25519" || typeof id.key !== "string") {
      throw new Error(`${where}.id: expected {"@type":"pub.ed25519","key":"<base64>"}`);
    }
    const publicKey = Buffer.from(id.key, "base64");
    if (publicKey.length !== 32) throw new Error(`${where}.id.key: expected 32 bytes of base64, got ${publicKey.length} bytes`);
    const host = int32ToIpv4(ip);
    return { index, host, port, publicKey, address: `${host}:${port}` };
  });
}
