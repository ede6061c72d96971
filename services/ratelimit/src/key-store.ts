// API keys, stored hashed. A secret is 32 random bytes as 64 hex characters (as
// toncenter's keys look); only sha256(secret) is kept, and the key's public id is
// the first 12 hex characters of that hash. With a data directory the keys live in
// <data-dir>/api-keys.json (an array of records, written atomically: a temporary
// file renamed over it) and are read again when the file changes on disk (checked
// at most once per second, on lookup), so keys made by another process — or edited
// by hand — take effect; without one they live in memory.
import { randomBytes } from "node:crypto";
import { apiKeyIdOfHash, hashApiKey } from "@tongate/runtime";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CompiledPolicy, type KeyPolicy } from "./policy.js";

export const KEYS_FILE = "api-keys.json";

export interface KeyRecord extends KeyPolicy {
  id: string;
  /** sha256 of the secret, hex. */
  hash: string;
  plan: string;
  /** The key's own rate (plan "custom"); for a named plan, the plan's rate when the key was made (used if the plan is later removed from the config). */
  rps: number;
  /** Keys of one account share one bucket; "" for none. */
  account: string;
  createdAt: string;
  revoked: boolean;
  revokedAt?: string;
}

export interface NewKey extends KeyPolicy {
  plan: string;
  rps: number;
  account: string;
}

export const hashSecret = hashApiKey;
export const idOfHash = apiKeyIdOfHash;

export interface KeyStoreOptions {
  /** The data directory; undefined: memory only. */
  dir?: string;
  now?: () => number;
  /** Least ms between two checks of the file for changes (default 1000). */
  reloadCheckMs?: number;
  /** A changed file that cannot be read: the keys read before stay in force. */
  onReloadError?: (err: Error) => void;
}

interface FileStamp {
  ino: number;
  mtimeMs: number;
  size: number;
}

export class KeyStore {
  private records: KeyRecord[] = [];
  private byHash = new Map<string, { record: KeyRecord; policy: CompiledPolicy }>();
  private byAccount = new Map<string, KeyRecord[]>();
  private readonly path?: string;
  private stamp?: FileStamp;
  private checkedAt = -Infinity;
  private readonly now: () => number;
  private readonly reloadCheckMs: number;
  private readonly onReloadError: (err: Error) => void;

  constructor(options: KeyStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.reloadCheckMs = options.reloadCheckMs ?? 1000;
    this.onReloadError = options.onReloadError ?? (() => {});
    if (options.dir) {
      mkdirSync(options.dir, { recursive: true });
      this.path = join(options.dir, KEYS_FILE);
      this.reload();
    }
  }

  /** Where the keys are kept, if on disk. */
  get file(): string | undefined {
    return this.path;
  }

  /** The live or revoked key with this secret. */
  lookup(secret: string): { record: KeyRecord; policy: CompiledPolicy } | undefined {
    this.maybeReload();
    return this.byHash.get(hashSecret(secret));
  }

  /** Every key, oldest first. */
  list(): KeyRecord[] {
    this.maybeReload();
    return this.records.map((r) => ({ ...r }));
  }

  /** The live keys of an account. */
  accountKeys(account: string): readonly KeyRecord[] {
    return this.byAccount.get(account) ?? [];
  }

  create(spec: NewKey): { record: KeyRecord; secret: string } {
    this.reload();
    let secret: string;
    let hash: string;
    do {
      secret = randomBytes(32).toString("hex");
      hash = hashSecret(secret);
    } while (this.records.some((r) => r.id === idOfHash(hash)));
    const record: KeyRecord = {
      id: idOfHash(hash),
      hash,
      plan: spec.plan,
      rps: spec.rps,
      networks: [...spec.networks],
      ips: [...spec.ips],
      origins: [...spec.origins],
      account: spec.account,
      createdAt: new Date(this.now()).toISOString(),
      revoked: false,
    };
    this.records.push(record);
    this.index();
    this.save();
    return { record: { ...record }, secret };
  }

  /** Revokes the key with this id (or this secret); undefined when there is none. Revoking twice is harmless. */
  revoke(idOrSecret: string): KeyRecord | undefined {
    this.reload();
    const wanted = idOrSecret.trim();
    const hash = hashSecret(wanted);
    const record = this.records.find((r) => r.id === wanted.toLowerCase() || r.hash === hash);
    if (!record) return undefined;
    if (!record.revoked) {
      record.revoked = true;
      record.revokedAt = new Date(this.now()).toISOString();
      this.index();
      this.save();
    }
    return { ...record };
  }

  /** Replaces the keys (and their index) with `records`; throws, changing nothing, if a record's policy is invalid. */
  private index(records = this.records) {
    const byHash = new Map<string, { record: KeyRecord; policy: CompiledPolicy }>();
    const byAccount = new Map<string, KeyRecord[]>();
    for (const record of records) {
      byHash.set(record.hash, { record, policy: new CompiledPolicy(record) });
      if (record.account && !record.revoked) byAccount.set(record.account, [...(byAccount.get(record.account) ?? []), record]);
    }
    this.records = records;
    this.byHash = byHash;
    this.byAccount = byAccount;
  }

  private maybeReload() {
    if (!this.path) return;
    const t = this.now();
    if (t - this.checkedAt < this.reloadCheckMs) return;
    try {
      this.reload();
    } catch (e) {
      this.onReloadError(e as Error);
    }
  }

  /** Reads the file again if it changed since it was last read or written. */
  private reload() {
    if (!this.path) return;
    this.checkedAt = this.now();
    let stamp: FileStamp | undefined;
    try {
      const s = statSync(this.path);
      stamp = { ino: s.ino, mtimeMs: s.mtimeMs, size: s.size };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (!stamp) {
      if (this.stamp) {
        // The file was removed: no keys.
        this.index([]);
        this.stamp = undefined;
      }
      return;
    }
    if (this.stamp && stamp.ino === this.stamp.ino && stamp.mtimeMs === this.stamp.mtimeMs && stamp.size === this.stamp.size) return;
    const records = parseKeysFile(this.path, readFileSync(this.path, "utf8"));
    try {
      this.index(records);
    } catch (e) {
      throw new Error(`${this.path}: ${(e as Error).message}`);
    }
    this.stamp = stamp;
  }

  private save() {
    if (!this.path) return;
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.records, null, 2) + "\n", { mode: 0o600 });
    renameSync(tmp, this.path);
    const s = statSync(this.path);
    this.stamp = { ino: s.ino, mtimeMs: s.mtimeMs, size: s.size };
  }
}

function parseKeysFile(path: string, text: string): KeyRecord[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new Error(`${path}: expected an array of key records`);
  return raw.map((r: Partial<KeyRecord>, i) => {
    if (typeof r?.hash !== "string" || !/^[0-9a-f]{64}$/.test(r.hash) || typeof r.plan !== "string") throw new Error(`${path}: record ${i} has no valid hash and plan`);
    return {
      id: r.id || idOfHash(r.hash),
      hash: r.hash,
      plan: r.plan,
      rps: Number(r.rps) || 0,
      networks: r.networks ?? [],
      ips: r.ips ?? [],
      origins: r.origins ?? [],
      account: r.account ?? "",
      createdAt: r.createdAt ?? "",
      revoked: r.revoked === true,
      ...(r.revokedAt ? { revokedAt: r.revokedAt } : {}),
    };
  });
}
