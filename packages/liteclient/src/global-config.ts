// TON global configs: the ones bundled here for the public networks (`global-config/<network>.json`, copies
// of ton.org's) and the choice between an in-process config, --global-config FILE and --network.
import { readdirSync, readFileSync } from "node:fs";
import { ConfigError } from "@tongate/runtime";

/** Global configs of the public networks, `<network>.json`. */
const BUNDLED = new URL("../global-config/", import.meta.url);

function readConfig(flag: string, file: string | URL): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ConfigError(`${flag}: ${(e as Error).message}`);
  }
}

/** Networks whose global config is bundled (`mainnet`, …). */
export function bundledNetworks(): string[] {
  return readdirSync(BUNDLED)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5));
}

/** The parsed global config bundled for `network`; undefined when none is. */
export function bundledGlobalConfig(network: string): unknown {
  if (!bundledNetworks().includes(network)) return undefined;
  return readConfig(`--network ${network}`, new URL(`${network}.json`, BUNDLED));
}

/** The chain's global config: given in-process (start's localnet), --global-config FILE, or --network's bundled one. */
export function globalConfigOf(options: Record<string, unknown>): unknown {
  if (options.globalConfig) return options.globalConfig;
  const path = options["global-config"];
  if (typeof path === "string" && path) return readConfig(`--global-config ${path}`, path);
  const network = options.network;
  if (typeof network !== "string" || !network) return undefined;
  const bundled = bundledNetworks();
  if (!bundled.includes(network)) {
    const localnet = network === "localnet" ? "; localnet is only run by `tongate start` (for a separate `tongate localnet`, give --global-config its --write-global-config FILE)" : "";
    throw new ConfigError(`--network ${network}: no global config bundled for it (bundled: ${bundled.join(", ")})${localnet}; --global-config FILE names any other`);
  }
  return readConfig(`--network ${network}`, new URL(`${network}.json`, BUNDLED));
}
