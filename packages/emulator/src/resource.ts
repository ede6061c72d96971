// The emulator pool as a host resource: a service declares `needs: { emulator: emulatorKey }` and
// the host hands every such service of its process one pool, bounded by the command's flags, shows
// it on /healthz among the dependencies and closes it at shutdown.
import { ConfigError, provide, resourceKey, type OptionSpec, type Provision, type RawOptions } from "@tongate/runtime";
import { EmulatorPool, type EmulatorPoolOptions } from "./emulator-pool.js";

export const emulatorKey = resourceKey<EmulatorPool>("TON's emulator (get-methods, fee estimates)");

export const emulatorFlags: readonly OptionSpec[] = [
  { name: "emulator-processes", description: "processes running TON's emulator (get-methods, fee estimates; the localnet has its own); default: the machine's cores, at most 4" },
  { name: "emulator-timeout-ms", default: "10000", description: "time bound of one emulator run (a get-method, a transaction): past it the run is stopped and answers an error" },
  { name: "emulator-memory-mb", default: "512", description: "memory bound of one emulator process's WebAssembly heap, MiB: a run that needs more is stopped and answers an error" },
];

function positive(o: RawOptions, name: string, min: number, max: number): number | undefined {
  const v = o[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`--${name} ${String(v)}: expected a whole number from ${min} to ${max}`);
  return n;
}

/** The pool's bounds from the flags (emulatorFlags); unset ones keep the pool's defaults. */
export function emulatorPoolOptionsOf(o: RawOptions): EmulatorPoolOptions {
  return {
    size: positive(o, "emulator-processes", 1, 64),
    timeoutMs: positive(o, "emulator-timeout-ms", 100, 600_000),
    memoryMb: positive(o, "emulator-memory-mb", 64, 2048),
  };
}

/** One pool for the services of a process; its processes start on the first run. */
export function emulatorProvision(o: RawOptions): Provision<EmulatorPool> {
  return provide(emulatorKey, () => new EmulatorPool(emulatorPoolOptionsOf(o)));
}
