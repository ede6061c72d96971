// ServiceHost: each module's options parsed by the module (a bad one is a ConfigError naming the
// flag), its needs supplied by key (opened once, shared, closed after the services), in-process
// transports between them, health, and shutdown in order — also after a failed start.
import { createClient } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { Ticks } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { ConfigError, createLogger, defineService, ifOpened, optional, provide, resourceKey, ServiceHost, type RawOptions } from "../src/index.js";

const log = createLogger({ level: "silent" });

/** A resource that records its life. */
class Counter {
  constructor(
    readonly name: string,
    private readonly events: string[],
  ) {
    events.push(`open ${name}`);
  }
  async close() {
    this.events.push(`close ${this.name}`);
  }
}
const counterKey = resourceKey<Counter>("a counter (--counter)");
const absentKey = resourceKey<Counter>("a thing nobody provides (--thing)");

/** A module serving Ticks whose `count` answers its option `--start` and the name of the counter it was given. */
function ticker(name: string, events: string[], extra: { fail?: boolean } = {}) {
  return defineService({
    name,
    service: Ticks,
    options: (raw: RawOptions) => {
      const start = Number(raw.start ?? 0);
      if (!Number.isInteger(start)) throw new ConfigError(`--start ${String(raw.start)}: expected an integer`);
      return { start: BigInt(start) };
    },
    needs: { counter: counterKey, thing: optional(absentKey) },
    async start(ctx) {
      if (extra.fail) throw new Error(`${name} cannot start`);
      events.push(`start ${name} with ${ctx.needs.counter.name}, thing ${String(ctx.needs.thing)}`);
      return {
        impl: {
          async *count() {
            yield { n: ctx.options.start, pad: ctx.needs.counter.name };
          },
        },
        health: () => ({ ok: true, detail: { name } }),
        close: async () => void events.push(`close ${name}`),
      };
    },
  });
}

describe("ServiceHost", () => {
  it("supplies each need once, shared; parses each module's options; closes services, then resources", async () => {
    const events: string[] = [];
    let opened = 0;
    const host = await ServiceHost.start([ticker("a", events), ticker("b", events)], {
      log,
      options: { start: "7" },
      provide: [provide(counterKey, () => new Counter(`counter${++opened}`, events))],
    });
    expect(opened).toBe(1);
    expect(events.filter((e) => e.startsWith("start")).sort()).toEqual(["start a with counter1, thing undefined", "start b with counter1, thing undefined"]);
    const [a] = host.upstreams();
    const client = createClient(Ticks, a!.transport);
    for await (const m of client.count({})) expect([m.n, m.pad]).toEqual([7n, "counter1"]);
    expect(await host.health()()).toEqual({ ok: true, detail: { a: { name: "a" }, b: { name: "b" } } });
    events.length = 0;
    await host.close();
    expect(events).toEqual(["close b", "close a", "close counter1"]);
  });

  it("a bad option is a ConfigError naming the flag; a required need nobody provides names what to give", async () => {
    await expect(ServiceHost.start([ticker("a", [])], { log, options: { start: "x" }, provide: [provide(counterKey, () => new Counter("c", []))] })).rejects.toThrow(
      new ConfigError("--start x: expected an integer"),
    );
    await expect(ServiceHost.start([ticker("a", [])], { log, options: {} })).rejects.toThrow(new ConfigError("a needs a counter (--counter)"));
  });

  it("a failed start closes what did start, and what was opened for it", async () => {
    const events: string[] = [];
    const start = ServiceHost.start([ticker("a", events), ticker("b", events, { fail: true })], {
      log,
      options: {},
      provide: [provide(counterKey, () => new Counter("c", events))],
    });
    await expect(start).rejects.toThrow("b cannot start");
    expect(events).toEqual(["open c", "start a with c, thing undefined", "close a", "close c"]);
  });

  it("/healthz: a dependency or an added contributor that is not ok degrades the process, with its reason", async () => {
    let chainOk = true;
    const host = await ServiceHost.start([ticker("a", [])], {
      log,
      options: {},
      provide: [
        provide(counterKey, () =>
          Object.assign(new Counter("c", []), {
            health: () => [
              { name: "liteservers", ok: true },
              { name: "chain", ok: chainOk, ...(chainOk ? {} : { reason: "chain: no new masterchain block for 95 s, last seqno 41" }) },
            ],
          }),
        ),
      ],
    });
    const health = host.health();
    expect(await health()).toEqual({ ok: true, detail: { a: { name: "a" }, dependencies: { liteservers: { ok: true }, chain: { ok: true } } } });
    chainOk = false;
    expect(await health()).toMatchObject({ ok: true, degraded: true, reasons: ["chain: no new masterchain block for 95 s, last seqno 41"] });
    const emulator = { ok: true };
    const remove = host.addHealth({ health: () => ({ name: "emulator", ...emulator, ...(emulator.ok ? {} : { reason: "emulator: no worker can start" }) }) });
    emulator.ok = false;
    expect(await health()).toMatchObject({
      ok: true,
      degraded: true,
      reasons: ["chain: no new masterchain block for 95 s, last seqno 41", "emulator: no worker can start"],
      detail: { dependencies: { emulator: { ok: false } } },
    });
    remove();
    chainOk = true;
    expect(await health()).toEqual({ ok: true, detail: { a: { name: "a" }, dependencies: { liteservers: { ok: true }, chain: { ok: true } } } });
    await host.close();
  });

  it("ifOpened gives a resource only when another module opened it, and never opens one", async () => {
    const peeker = (events: string[], got: (c: Counter | undefined) => void) =>
      defineService({
        name: "peeker",
        service: Ticks,
        options: () => ({}),
        needs: { counter: ifOpened(counterKey) },
        start(ctx) {
          events.push("start peeker");
          return { impl: { async *count() {} }, health: () => ({ ok: true }), close: async () => got(await ctx.needs.counter()) };
        },
      });
    const alone: string[] = [];
    let seen: Counter | undefined | null = null;
    const solo = await ServiceHost.start([peeker(alone, (c) => (seen = c))], { log, options: {}, provide: [provide(counterKey, () => new Counter("c", alone))] });
    await solo.close();
    expect(seen).toBeUndefined();
    expect(alone).toEqual(["start peeker"]);

    const shared: string[] = [];
    const both = await ServiceHost.start([ticker("a", shared), peeker(shared, (c) => (seen = c))], { log, options: {}, provide: [provide(counterKey, () => new Counter("c", shared))] });
    await both.close();
    expect(seen).toBeInstanceOf(Counter);
    expect(shared.filter((e) => e.startsWith("open"))).toEqual(["open c"]);
  });
});
