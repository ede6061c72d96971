// The admin RPCs (CreateKey, ListKeys, RevokeKey) and their token. The token is
// --admin-token / TONGATE_ADMIN_TOKEN; otherwise, with a data directory, one made
// once and kept in <data-dir>/admin-token (mode 0600); otherwise one made for this
// process and logged at warn level. It is compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import {
  type ApiKey,
  ApiKeySchema,
  type CreateKeyRequest,
  CreateKeyResponseSchema,
  ListKeysResponseSchema,
  RevokeKeyResponseSchema,
  type CreateKeyResponse,
  type ListKeysResponse,
  type RevokeKeyResponse,
} from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { apiError, type Logger } from "@tongate/runtime";
import type { KeyRecord, KeyStore, NewKey } from "./key-store.js";
import type { Limiter } from "./limiter.js";
import { CUSTOM_PLAN, type Limits } from "./plans.js";
import { parseAddressRule, parseNetwork, parseOrigin } from "./policy.js";

export const ADMIN_TOKEN_FILE = "admin-token";
export const ADMIN_TOKEN_ERROR = "admin token is missing or wrong";

/** The admin token and where it came from. */
export function resolveAdminToken(options: { token?: string | undefined; dataDir?: string | undefined }, log: Logger): string {
  if (options.token) return options.token;
  if (options.dataDir) {
    const path = join(options.dataDir, ADMIN_TOKEN_FILE);
    if (existsSync(path)) {
      const token = readFileSync(path, "utf8").trim();
      if (token) {
        log.info({ file: path }, "admin token read from the data directory");
        return token;
      }
    }
    mkdirSync(options.dataDir, { recursive: true });
    const token = randomBytes(24).toString("hex");
    writeFileSync(path, token + "\n", { mode: 0o600 });
    log.info({ file: path }, "admin token generated into the data directory");
    return token;
  }
  const token = randomBytes(24).toString("hex");
  log.warn({ adminToken: token }, "no --admin-token and no --data-dir: generated an admin token for this process");
  return token;
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Throws 401 unless `given` is the admin token. */
export function requireAdmin(expected: string, given: string): void {
  if (!given || !timingSafeEqual(digest(expected), digest(given))) throw apiError(401, ADMIN_TOKEN_ERROR);
}

const ACCOUNT = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

function each<T>(field: string, values: string[], parse: (v: string) => T): T[] {
  return values.map((v) => {
    try {
      return parse(v);
    } catch (e) {
      throw apiError(422, `${field}: ${(e as Error).message}`);
    }
  });
}

/** A CreateKey request, checked: what the key will be. */
export function newKeyOf(req: CreateKeyRequest, limits: Limits): NewKey {
  const plan = (req.plan || "free").trim().toLowerCase();
  const known = Object.keys(limits.plans);
  let rps: number;
  if (plan === CUSTOM_PLAN) {
    if (!req.rps) throw apiError(422, `plan custom needs rps: the key's requests per second (a whole number above 0)`);
    rps = req.rps;
  } else {
    const planRps = limits.plans[plan];
    if (planRps === undefined) throw apiError(422, `plan: "${req.plan}" is not a plan (known: ${[...known, CUSTOM_PLAN].join(", ")})`);
    if (req.rps && req.rps !== planRps) throw apiError(422, `rps: plan ${plan} is ${planRps} requests per second; a key with its own rate has plan custom`);
    rps = planRps;
  }
  const account = req.account.trim();
  if (account && !ACCOUNT.test(account)) throw apiError(422, `account: "${req.account}" is not an account name (letters, digits, _ . @ -; up to 64)`);
  const dedupe = (xs: string[]) => [...new Set(xs)];
  return {
    plan,
    rps,
    account,
    networks: dedupe(each("networks", req.networks, parseNetwork)),
    ips: dedupe(each("ips", req.ips, (v) => parseAddressRule(v).text)),
    origins: dedupe(each("origins", req.origins, parseOrigin)),
  };
}

export function apiKeyOf(record: KeyRecord, limiter: Limiter): ApiKey {
  return create(ApiKeySchema, {
    id: record.id,
    plan: record.plan,
    rps: limiter.rpsOfKey(record),
    networks: [...record.networks],
    ips: [...record.ips],
    origins: [...record.origins],
    account: record.account,
    createdAt: record.createdAt,
    revoked: record.revoked,
  });
}

export function adminMethods(keys: KeyStore, limiter: Limiter, limits: Limits, adminToken: string, log: Logger) {
  return {
    createKey(req: CreateKeyRequest): CreateKeyResponse {
      requireAdmin(adminToken, req.adminToken);
      const { record, secret } = keys.create(newKeyOf(req, limits));
      log.info({ id: record.id, plan: record.plan, account: record.account || undefined }, "API key created");
      return create(CreateKeyResponseSchema, { key: apiKeyOf(record, limiter), secret });
    },
    listKeys(req: { adminToken: string }): ListKeysResponse {
      requireAdmin(adminToken, req.adminToken);
      return create(ListKeysResponseSchema, { keys: keys.list().map((r) => apiKeyOf(r, limiter)) });
    },
    revokeKey(req: { adminToken: string; id: string }): RevokeKeyResponse {
      requireAdmin(adminToken, req.adminToken);
      if (!req.id.trim()) throw apiError(422, "id: the key's id (or the key itself) is required");
      const record = keys.revoke(req.id);
      if (!record) throw apiError(404, `no API key with id ${req.id.trim().length === 64 ? "(the key given)" : req.id.trim()}`);
      log.info({ id: record.id }, "API key revoked");
      return create(RevokeKeyResponseSchema, { key: apiKeyOf(record, limiter) });
    },
  };
}
