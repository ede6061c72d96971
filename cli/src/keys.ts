// `tongate keys create|list|revoke`: manages the API keys of a running tongate
// through its gateway's admin API (/api/admin/v1/keys/*, the ratelimit service's
// admin RPCs), authenticated by the admin token.
import { ConfigError, parseOptions, usage, type OptionSpec } from "@tongate/runtime";

export interface KeysIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

const connection: OptionSpec[] = [
  { name: "url", default: "http://127.0.0.1:8081", description: "the tongate gateway" },
  { name: "admin-token", description: "the admin token (ratelimit's --admin-token, or the file DIR/admin-token under --data-dir)" },
  { name: "json", boolean: true, description: "print the answer as JSON" },
];

/** A key's settings come from flags only (TONGATE_KEYS_<NAME> at most, never tongate's own TONGATE_<NAME> variables). */
const keyEnv = (name: string) => `TONGATE_KEYS_${name.toUpperCase()}`;
const listOption = (name: string, what: string): OptionSpec => ({ name, env: keyEnv(name), repeated: true, description: `${what} (repeat or separate with commas); default: any` });

const subcommands: Record<string, { summary: string; args?: string; options: OptionSpec[] }> = {
  create: {
    summary: "create an API key; its secret is printed once",
    options: [
      { name: "plan", env: keyEnv("plan"), default: "free", description: "free (10 rps), plus (25), advanced (100), a plan of --ratelimit-config, or custom (with --rps)" },
      { name: "rps", env: keyEnv("rps"), description: "requests per second of a custom key" },
      listOption("networks", "networks the key may be used on"),
      listOption("ips", "client IPs or CIDRs the key may be used from"),
      listOption("origins", "origins (https://host[:port]) the key may be used from"),
      { name: "account", env: keyEnv("account"), description: "account the key belongs to: keys of one account share one limit" },
      ...connection,
    ],
  },
  list: { summary: "list the API keys (never their secrets)", options: connection },
  revoke: { summary: "revoke an API key: requests with it answer 401", args: "ID", options: connection },
};

export function keysHelp(): string {
  const lines: string[] = [];
  for (const [name, c] of Object.entries(subcommands)) lines.push(`tongate keys ${name}${c.args ? " " + c.args : ""}: ${c.summary}`, usage(c.options), "");
  return lines.join("\n");
}

interface ApiKeyJson {
  id: string;
  plan: string;
  rps: number;
  networks?: string[];
  ips?: string[];
  origins?: string[];
  account?: string;
  created_at?: string;
  revoked?: boolean;
}

const listOf = (v: unknown): string[] => ((v as string[] | undefined) ?? []).flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);

function describe(k: ApiKeyJson): string {
  const parts = [`${k.id}  ${k.plan} (${k.rps} rps)`];
  if (k.account) parts.push(`account ${k.account}`);
  if (k.networks?.length) parts.push(`networks ${k.networks.join(",")}`);
  if (k.ips?.length) parts.push(`ips ${k.ips.join(",")}`);
  if (k.origins?.length) parts.push(`origins ${k.origins.join(",")}`);
  if (k.created_at) parts.push(`created ${k.created_at}`);
  if (k.revoked) parts.push("REVOKED");
  return parts.join("  ");
}

/** Runs `tongate keys …`; the exit code. */
export async function keysCommand(argv: string[], io: KeysIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), env: process.env }): Promise<number> {
  const [sub, ...rest] = argv;
  const spec = sub ? subcommands[sub] : undefined;
  if (!spec || rest.includes("--help")) {
    (spec || sub === "--help" || sub === "help" ? io.out : io.err)(keysHelp() + "\n");
    return spec || sub === "--help" || sub === "help" ? 0 : 2;
  }
  let o: Record<string, unknown>;
  let id: string | undefined;
  try {
    const flags = [...rest];
    if (spec.args) {
      let i = 0;
      while (i < flags.length && flags[i]!.startsWith("--")) i += flagTakesValue(flags[i]!, spec.options) ? 2 : 1;
      if (i >= flags.length) throw new ConfigError(`needs the key's ${spec.args} (or the key itself)`);
      id = flags.splice(i, 1)[0];
    }
    o = parseOptions(flags, spec.options, io.env);
    if (!o["admin-token"]) throw new ConfigError("needs --admin-token (or TONGATE_ADMIN_TOKEN): the ratelimit service's admin token");
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.err(`tongate keys ${sub}: ${e.message}\n`);
    return 2;
  }
  const adminToken = o["admin-token"] as string;
  let body: Record<string, unknown> = { admin_token: adminToken };
  if (sub === "create") {
    const rps = o.rps === undefined ? 0 : Number(o.rps);
    if (!Number.isInteger(rps) || rps < 0) {
      io.err(`tongate keys create: --rps ${String(o.rps)} is not a whole number\n`);
      return 2;
    }
    body = { ...body, plan: o.plan, rps, networks: listOf(o.networks), ips: listOf(o.ips), origins: listOf(o.origins), account: (o.account as string | undefined) ?? "" };
  } else if (sub === "revoke") {
    body = { ...body, id };
  }
  const url = `${String(o.url).replace(/\/+$/, "")}/api/admin/v1/keys/${sub}`;
  let status: number;
  let answer: Record<string, unknown>;
  try {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    status = res.status;
    const text = await res.text();
    try {
      answer = JSON.parse(text) as Record<string, unknown>;
    } catch {
      answer = { error: text.slice(0, 200) };
    }
  } catch (e) {
    io.err(`tongate keys ${sub}: cannot reach ${url}: ${(e as Error).message}\n`);
    return 1;
  }
  // The admin API answers plain JSON; accept v2's {ok, result} envelope too.
  const result = (answer.ok === true && answer.result ? answer.result : answer) as Record<string, unknown>;
  if (status !== 200) {
    const message = typeof answer.error === "string" ? answer.error : JSON.stringify(answer);
    io.err(`tongate keys ${sub}: ${status} ${message}\n`);
    return 1;
  }
  if (o.json) {
    io.out(JSON.stringify(result, null, 2) + "\n");
    return 0;
  }
  if (sub === "create") {
    io.out(`created ${describe(result.key as ApiKeyJson)}\n`);
    io.out(`secret (shown once; present it as X-API-Key or api_key): ${String(result.secret)}\n`);
  } else if (sub === "list") {
    const keys = (result.keys as ApiKeyJson[] | undefined) ?? [];
    if (!keys.length) io.out("no API keys\n");
    for (const k of keys) io.out(describe(k) + "\n");
  } else {
    io.out(`revoked ${describe(result.key as ApiKeyJson)}\n`);
  }
  return 0;
}

function flagTakesValue(arg: string, specs: OptionSpec[]): boolean {
  if (!arg.startsWith("--") || arg.includes("=")) return false;
  const spec = specs.find((s) => s.name === arg.slice(2));
  return !!spec && !spec.boolean;
}
