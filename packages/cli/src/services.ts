// Every service module tongate can host, by name.
import { liteProxyService } from "@tongate/lite-proxy";
import { rateLimitService } from "@tongate/ratelimit";
import type { ServiceModule } from "@tongate/runtime";

export const serviceModules: ServiceModule[] = [liteProxyService as unknown as ServiceModule, rateLimitService as unknown as ServiceModule];

export function findService(name: string): ServiceModule {
  const m = serviceModules.find((s) => s.name === name);
  if (!m) throw new Error(`unknown service "${name}"; known: ${serviceModules.map((s) => s.name).join(", ")}`);
  return m;
}
