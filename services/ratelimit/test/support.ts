// A ratelimit service in this process with a clock the test moves, and its client.
import { createClient, type Client as RpcClient } from "@connectrpc/connect";
import { RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { createLogger, inProcessTransport, type RunningService } from "@tongate/runtime";
import { rateLimitService } from "../src/index.js";

export const ADMIN = "test-admin-token";

export class FakeClock {
  constructor(public ms = 1_700_000_000_000) {}
  readonly now = (): number => this.ms;
  advance(ms: number) {
    this.ms += ms;
  }
}

export interface Started {
  rl: RpcClient<typeof RateLimit>;
  clock: FakeClock;
  running: RunningService;
  close(): Promise<void>;
  /** A key made through CreateKey; returns its secret and id. */
  key(spec?: { plan?: string; rps?: number; networks?: string[]; ips?: string[]; origins?: string[]; account?: string }): Promise<{ secret: string; id: string }>;
}

export async function startRateLimit(options: Record<string, unknown> = {}, clock = new FakeClock()): Promise<Started> {
  const log = createLogger({ level: process.env.TONGATE_TEST_LOG_LEVEL ?? "silent" });
  const running = await rateLimitService.start({ log, options: rateLimitService.options({ adminToken: ADMIN, clock: clock.now, ...options }), needs: {} });
  const rl = createClient(RateLimit, inProcessTransport(RateLimit, running as RunningService));
  return {
    rl,
    clock,
    running: running as RunningService,
    close: async () => running.close?.(),
    async key(spec = {}) {
      const res = await rl.createKey({ adminToken: ADMIN, plan: "free", ...spec });
      return { secret: res.secret, id: res.key!.id };
    },
  };
}

export type ClientInit = { apiKey?: string; address?: string; origin?: string; network?: string };

export const client = (c: ClientInit = {}): ClientInit => ({ address: "10.0.0.1", network: "mainnet", ...c });
