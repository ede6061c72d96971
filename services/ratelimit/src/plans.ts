// Plans and the keyless rate: toncenter's defaults, overridable from a JSON file
// (--ratelimit-config FILE: {"keylessRps": 1, "plans": {"free": 10, ...}}) and
// flags (--keyless-rps N; flags win over the file). Rates are whole requests per
// second; the burst of every bucket is its rate.
import { readFileSync } from "node:fs";
import { ConfigError } from "@tongate/runtime";

/** The plan whose rate is each key's own (`rps` given when the key is created). */
export const CUSTOM_PLAN = "custom";

export const DEFAULT_PLANS: Readonly<Record<string, number>> = { free: 10, plus: 25, advanced: 100 };
export const DEFAULT_KEYLESS_RPS = 1;

export interface Limits {
  /** Requests per second of a client without a key, per client address. */
  keylessRps: number;
  /** false: keyless clients on loopback (127.0.0.0/8, ::1) are not limited (a localnet's default under `tongate start`). */
  keylessLoopback?: boolean;
  /** Plan name → requests per second. */
  plans: Record<string, number>;
}

function rate(where: string, value: unknown): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 1_000_000) {
    throw new ConfigError(`${where}: ${JSON.stringify(value)} is not a whole number of requests per second (1..1000000)`);
  }
  return n;
}

const PLAN_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** Validates a limits object as read from a config file (every field optional). */
export function parseLimits(where: string, raw: unknown, base: Limits = defaultLimits()): Limits {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new ConfigError(`${where}: expected a JSON object {"keylessRps": N, "plans": {"free": N, ...}}`);
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== "keylessRps" && k !== "plans") throw new ConfigError(`${where}: unknown setting "${k}" (known: keylessRps, plans)`);
  const out: Limits = { keylessRps: base.keylessRps, plans: { ...base.plans } };
  if (o.keylessRps !== undefined) out.keylessRps = rate(`${where}: keylessRps`, o.keylessRps);
  if (o.plans !== undefined) {
    if (typeof o.plans !== "object" || o.plans === null || Array.isArray(o.plans)) throw new ConfigError(`${where}: plans must be an object of plan name → requests per second`);
    for (const [name, v] of Object.entries(o.plans)) {
      if (name === CUSTOM_PLAN) throw new ConfigError(`${where}: plan "custom" has no rate of its own (each custom key has its rps)`);
      if (!PLAN_NAME.test(name)) throw new ConfigError(`${where}: "${name}" is not a plan name (lowercase letters, digits, - and _)`);
      out.plans[name] = rate(`${where}: plans.${name}`, v);
    }
  }
  return out;
}

export function defaultLimits(): Limits {
  return { keylessRps: DEFAULT_KEYLESS_RPS, plans: { ...DEFAULT_PLANS } };
}

/** The limits from the service's options: defaults, then --ratelimit-config FILE, then --keyless-rps. */
export function limitsFromOptions(options: { config?: string | undefined; keylessRps?: string | number | undefined; keylessLoopback?: string | undefined }): Limits {
  let limits = defaultLimits();
  if (options.config) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(options.config, "utf8"));
    } catch (e) {
      throw new ConfigError(`--ratelimit-config ${options.config}: ${(e as Error).message}`);
    }
    limits = parseLimits(`--ratelimit-config ${options.config}`, raw, limits);
  }
  if (options.keylessRps !== undefined && options.keylessRps !== "") limits.keylessRps = rate("--keyless-rps", options.keylessRps);
  if (options.keylessLoopback !== undefined) {
    if (options.keylessLoopback !== "on" && options.keylessLoopback !== "off") throw new ConfigError(`--keyless-loopback ${options.keylessLoopback}: expected on or off`);
    limits.keylessLoopback = options.keylessLoopback === "on";
  }
  return limits;
}
