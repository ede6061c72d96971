// Flags and environment: every option is `--kebab-name value` on the command
// line or TONGATE_SCREAMING_NAME in the environment; flags win.
export class ConfigError extends Error {}

export interface OptionSpec {
  /** Flag name without dashes, e.g. "port". */
  name: string;
  env?: string;
  /** May be given several times; the value is then a list. */
  repeated?: boolean;
  /** A switch that takes no value. */
  boolean?: boolean;
  default?: string;
  description: string;
}

export type Options = Record<string, string | string[] | boolean | undefined>;

const envName = (name: string) => "TONGATE_" + name.replace(/-/g, "_").toUpperCase();

export function parseOptions(argv: string[], specs: OptionSpec[], env: NodeJS.ProcessEnv = process.env): Options {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const out: Options = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) throw new ConfigError(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    let value = inline;
    const spec = byName.get(name);
    if (!spec) throw new ConfigError(`unknown option --${name}; known: ${specs.map((s) => "--" + s.name).join(", ")}`);
    if (spec.boolean) {
      out[name] = value === undefined ? true : value !== "false" && value !== "0";
      continue;
    }
    if (value === undefined) {
      value = argv[++i];
      if (value === undefined) throw new ConfigError(`option --${name} needs a value`);
    }
    if (spec.repeated) out[name] = [...((out[name] as string[] | undefined) ?? []), value];
    else out[name] = value;
  }
  for (const spec of specs) {
    if (out[spec.name] !== undefined) continue;
    const fromEnv = env[spec.env ?? envName(spec.name)];
    if (fromEnv !== undefined && fromEnv !== "") {
      if (spec.boolean) out[spec.name] = fromEnv !== "false" && fromEnv !== "0";
      else out[spec.name] = spec.repeated ? fromEnv.split(",").map((s) => s.trim()) : fromEnv;
    } else if (spec.default !== undefined) {
      out[spec.name] = spec.repeated ? [spec.default] : spec.default;
    }
  }
  return out;
}

export function usage(specs: OptionSpec[]): string {
  return specs
    .map((s) => `  --${s.name}${s.boolean ? "" : " VALUE"}${s.repeated ? " (repeatable)" : ""}\n      ${s.description} [env ${s.env ?? envName(s.name)}${s.default !== undefined ? `, default ${s.default}` : ""}]`)
    .join("\n");
}

/** "HOST:PORT" or "PORT" → {host, port}. */
export function parseListen(value: string, defaultHost = "127.0.0.1"): { host: string; port: number } {
  const m = /^(?:(.*):)?(\d{1,5})$/.exec(value);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new ConfigError(`"${value}" is not HOST:PORT`);
  return { host: m[1] || defaultHost, port };
}

/**
 * The <network> of event subjects (tongate.<network>.blocks.indexed): --network-name, else
 * `custom` with --global-config, else --network, else `localnet` for the chain `start` runs in
 * its process. Every publisher and subscriber of a process names its subjects from it.
 */
export function eventNetworkOf(o: Readonly<Record<string, unknown>>): string {
  const named = (name: string): string | undefined => {
    const v = o[name];
    if (v === undefined || v === "") return undefined;
    if (typeof v !== "string") throw new ConfigError(`--${name}: expected one value`);
    return v;
  };
  const network = (named("network-name") ?? (o["global-config"] ? "custom" : named("network"))) ?? (o.globalConfig ? "localnet" : "custom");
  if (!/^[A-Za-z0-9_-]+$/.test(network)) throw new ConfigError(`--network-name ${network}: letters, digits, '-' and '_' only (a NATS subject token)`);
  return network;
}
