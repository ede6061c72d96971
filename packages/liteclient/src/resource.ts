// The liteserver pool as a host resource: a service declares `needs: { liteClient: liteClientKey }`
// (or optional(liteClientKey)) and the host hands every such service one pool over the liteservers
// of the chain the command names (in-process global config, --global-config FILE or --network).
import { provide, resourceKey, type Provision, type RawOptions } from "@tongate/runtime";
import { globalConfigOf } from "./global-config.js";
import { LiteserverPool, type PoolOptions } from "./pool.js";

export const liteClientKey = resourceKey<LiteserverPool>("a chain to read: --global-config FILE or --network");

/** The pool of the chain `options` name; none when they name no chain. */
export function liteClientProvision(options: RawOptions, poolOptions: PoolOptions = {}): Provision<LiteserverPool> {
  return provide(liteClientKey, () => {
    const config = globalConfigOf(options);
    return config ? LiteserverPool.fromGlobalConfig(config, poolOptions) : undefined;
  });
}
