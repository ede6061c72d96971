// Pending traces in NATS JetStream KV (--nats-url), shared by the send replicas: any replica answers
// a client whatever replica accepted its message. One entry per trace (`t.<trace id>`: the proto's
// binary form and its accounts) and one empty entry per key it is found by (`i.<key>.<trace id>`:
// an account, an external hash), all in a bucket whose TTL forgets them (the server's memory).
//
// While NATS is down (the link knows, nothing waits on it) a replica keeps and answers the traces it
// emulated itself, in its own memory; when NATS is back, the link recreates the bucket and sharing
// resumes (what was kept only locally meanwhile stays local until its TTL).
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { StorageType, type KV } from "nats";
import { PendingTraceSchema } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { ConfigError, type Logger } from "@tongate/runtime";
import { isJetStreamTimeout, NatsLink } from "@tongate/runtime/nats";
import { keysOf, MemoryPendingStore, newestFirst, queryKeys, traceIdOf, type PendingEntry, type PendingQuery, type PendingStore } from "./pending-store.js";

export const NATS_PENDING_BUCKET = "tongate_pending";
/** A KV operation NATS leaves unanswered this long is given up (the link checks the server). */
const DEADLINE_MS = 250;
const KV_TIMEOUT_MS = 1000;

/** KV keys allow [-/_=.a-zA-Z0-9]: "a:0:ABC…" → "a.0_ABC…", "h:<hex>" → "h.<hex>". */
const kvKey = (key: string) => key.replace(/:/g, "_").replace(/^([aht])_/, "$1.");

interface Stored {
  trace: string;
  accounts: string[];
  expiresAt: number;
}

export class NatsPendingStore implements PendingStore {
  private kv!: KV;
  private link!: NatsLink;
  /** This replica's own traces: answered from here while NATS is down. */
  private readonly local: MemoryPendingStore;
  private shared = 0;

  private constructor(
    private readonly ttlMs: number,
    maxLocal: number,
  ) {
    this.local = new MemoryPendingStore(maxLocal);
  }

  static async connect(o: { url: string; log: Logger; ttlMs: number; maxLocal: number; bucket?: string }): Promise<NatsPendingStore> {
    const store = new NatsPendingStore(o.ttlMs, o.maxLocal);
    const bucket = o.bucket ?? NATS_PENDING_BUCKET;
    store.link = await NatsLink.connect(o.url, {
      name: "tongate-send",
      log: o.log,
      prepare: async (nc) => {
        try {
          store.kv = await nc.jetstream({ timeout: KV_TIMEOUT_MS }).views.kv(bucket, { history: 1, ttl: o.ttlMs, storage: StorageType.Memory });
        } catch (e) {
          if (isJetStreamTimeout(e)) throw new Error(`JetStream KV "${bucket}" did not answer within ${KV_TIMEOUT_MS} ms`, { cause: e });
          throw new ConfigError(`--nats-url ${o.url}: JetStream KV "${bucket}": ${(e as Error).message} (is the server started with JetStream, -js?)`);
        }
      },
      startDown: true,
    });
    o.log.info({ nats: o.url, kv: bucket, ttlMs: o.ttlMs }, "pending traces in NATS JetStream KV");
    return store;
  }

  health() {
    return this.link.health();
  }

  async put(entry: PendingEntry): Promise<void> {
    await this.local.put(entry);
    if (!this.link.up) return;
    const id = traceIdOf(entry);
    const value: Stored = { trace: Buffer.from(toBinary(PendingTraceSchema, entry.trace)).toString("base64"), accounts: entry.accounts, expiresAt: entry.expiresAt };
    await this.link.run(async () => {
      await this.kv.put(`t.${id}`, JSON.stringify(value));
      await Promise.all(keysOf(entry).filter((k) => !k.startsWith("t:")).map((k) => this.kv.put(`i.${kvKey(k)}.${id}`, "")));
    }, { deadlineMs: DEADLINE_MS });
  }

  async find(q: PendingQuery): Promise<PendingEntry[]> {
    if (!this.link.up) return this.local.find(q);
    try {
      return await this.link.run(async () => {
        const ids = new Set(q.traceIds);
        for (const k of queryKeys(q).filter((k) => !k.startsWith("t:"))) for await (const key of await this.kv.keys(`i.${kvKey(k)}.*`)) ids.add(key.slice(key.lastIndexOf(".") + 1));
        return (await this.entries([...ids])).sort(newestFirst);
      }, { deadlineMs: DEADLINE_MS });
    } catch {
      return this.local.find(q);
    }
  }

  async all(): Promise<PendingEntry[]> {
    if (!this.link.up) return this.local.all();
    try {
      return await this.link.run(async () => {
        const ids: string[] = [];
        for await (const key of await this.kv.keys("t.*")) ids.push(key.slice(2));
        const entries = await this.entries(ids);
        this.shared = entries.length;
        return entries;
      }, { deadlineMs: DEADLINE_MS });
    } catch {
      return this.local.all();
    }
  }

  async remove(traceId: string): Promise<void> {
    const [entry] = await this.entries([traceId]).catch(() => []);
    await this.local.remove(traceId);
    if (!this.link.up) return;
    await this.link.run(async () => {
      await this.kv.purge(`t.${traceId}`);
      if (entry) await Promise.all(keysOf(entry).filter((k) => !k.startsWith("t:")).map((k) => this.kv.purge(`i.${kvKey(k)}.${traceId}`)));
    }, { deadlineMs: DEADLINE_MS });
  }

  /** The shared count as last read (by the finality sweep), or this replica's own while NATS is down. */
  count(): number {
    return this.link.up ? Math.max(this.shared, this.local.count()) : this.local.count();
  }

  async close(): Promise<void> {
    await this.local.close();
    await this.link.close();
  }

  private async entries(ids: string[]): Promise<PendingEntry[]> {
    const now = Date.now();
    const out: PendingEntry[] = [];
    for (const id of ids) {
      const e = await this.kv.get(`t.${id}`);
      if (!e || e.operation !== "PUT" || e.value.length === 0) continue;
      const v = e.json<Stored>();
      if (v.expiresAt <= now) continue;
      out.push({ trace: fromBinary(PendingTraceSchema, Buffer.from(v.trace, "base64")), accounts: v.accounts, expiresAt: v.expiresAt });
    }
    return out;
  }
}
