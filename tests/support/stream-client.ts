// Clients of the Streaming API as a user's code would be: Server-Sent Events read from a fetch()
// body (toncenter's SSE is a POST, which EventSource cannot send), and a WebSocket (`ws`). Both keep
// every event they received and can wait for one that matches.
import WebSocket from "ws";

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

type Json = any;

/** Parses the text of an event stream into events; comments (": keepalive") are counted apart. */
export class SseParser {
  private buf = "";
  comments = 0;

  push(chunk: string): SseEvent[] {
    this.buf += chunk.replace(/\r\n/g, "\n");
    const out: SseEvent[] = [];
    for (let i = this.buf.indexOf("\n\n"); i >= 0; i = this.buf.indexOf("\n\n")) {
      const block = this.buf.slice(0, i);
      this.buf = this.buf.slice(i + 2);
      const e: SseEvent = { event: "message", data: "" };
      const data: string[] = [];
      let any = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) {
          this.comments++;
          continue;
        }
        const c = line.indexOf(":");
        const field = c < 0 ? line : line.slice(0, c);
        const value = c < 0 ? "" : line.slice(c + 1).replace(/^ /, "");
        if (field === "data") data.push(value);
        else if (field === "event") e.event = value;
        else if (field === "id") e.id = value;
        else continue;
        any = true;
      }
      if (!any) continue;
      e.data = data.join("\n");
      out.push(e);
    }
    return out;
  }
}

abstract class Collected<T> {
  readonly events: T[] = [];
  private waiters = new Set<() => void>();
  closed = false;
  closeReason: unknown;

  protected add(e: T): void {
    this.events.push(e);
    for (const w of this.waiters) w();
  }

  protected ended(reason?: unknown): void {
    this.closed = true;
    this.closeReason = reason;
    for (const w of this.waiters) w();
  }

  /** Resolves with the first event (from `from` on) that `pred` accepts; rejects on timeout or close. */
  waitFor(pred: (e: T) => boolean, timeoutMs = 30_000, from = 0): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (let i = from; i < this.events.length; i++) {
          if (pred(this.events[i]!)) {
            done();
            resolve(this.events[i]!);
            return;
          }
        }
        if (this.closed) {
          done();
          reject(new Error(`the stream closed before the event came (${String(this.closeReason)}); got ${this.events.length} events`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching event within ${timeoutMs} ms; got ${this.events.length}: ${JSON.stringify(this.events.slice(-5)).slice(0, 1500)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }
}

export interface SseOpen {
  status: number;
  /** the JSON body of a refused subscription */
  error?: Json;
}

/** One SSE subscription (POST by default), read until closed. */
export class SseClient extends Collected<SseEvent> {
  private readonly ac = new AbortController();
  readonly parser = new SseParser();
  status = 0;
  body: Json;

  private constructor() {
    super();
  }

  /** Subscribes; resolves once the answer's status is known (a refusal: its JSON body in `body`). */
  static async open(url: string, request: Json, headers: Record<string, string> = {}, method: "POST" | "GET" = "POST"): Promise<SseClient> {
    const c = new SseClient();
    const target = method === "GET" ? `${url}?${query(request)}` : url;
    const res = await fetch(target, {
      method,
      headers: { accept: "text/event-stream", ...(method === "POST" ? { "content-type": "application/json" } : {}), ...headers },
      body: method === "POST" ? JSON.stringify(request) : undefined,
      signal: c.ac.signal,
    });
    c.status = res.status;
    if (!res.ok || !res.headers.get("content-type")?.startsWith("text/event-stream")) {
      c.body = await res.json().catch(() => undefined);
      c.ended(`HTTP ${res.status}`);
      return c;
    }
    void c.read(res);
    return c;
  }

  private async read(res: Response): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) for (const e of this.parser.push(decoder.decode(chunk, { stream: true }))) this.add(e);
      this.ended("end of stream");
    } catch (e) {
      this.ended(e);
    }
  }

  /** The notifications (event "event") as JSON. */
  notifications(): Json[] {
    return this.events.filter((e) => e.event === "event").map((e) => JSON.parse(e.data));
  }

  get lastId(): string | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) if (this.events[i]!.id) return this.events[i]!.id;
    return undefined;
  }

  close(): void {
    this.ac.abort();
  }
}

/** A request's fields as a query string (repeated fields repeated), for GET. */
export function query(request: Json): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(request)) {
    if (Array.isArray(v)) for (const x of v) q.append(k, String(x));
    else if (v !== undefined) q.append(k, String(v));
  }
  return q.toString();
}

/** A WebSocket of the Streaming API: every JSON frame received, requests with ids. */
export class WsClient extends Collected<Json> {
  private n = 0;

  private constructor(readonly ws: WebSocket) {
    super();
    ws.on("message", (data, binary) => this.add(binary ? { binary: true } : JSON.parse(data.toString())));
    ws.on("close", (code, reason) => this.ended(`closed ${code} ${reason.toString()}`));
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
    const ws = new WebSocket(url.replace(/^http/, "ws"), { headers });
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(new WsClient(ws)));
      ws.once("unexpected-response", (_req, res) => reject(Object.assign(new Error(`upgrade refused: HTTP ${res.statusCode}`), { status: res.statusCode })));
      ws.once("error", reject);
    });
  }

  /** Sends a request with a fresh id and waits for the answer carrying it. */
  async request(body: Json, timeoutMs = 10_000): Promise<Json> {
    const id = body.id ?? `r${++this.n}`;
    const from = this.events.length;
    this.ws.send(typeof body === "string" ? body : JSON.stringify({ ...body, id }));
    return this.waitFor((e) => e.id === id && (e.status !== undefined || e.error !== undefined), timeoutMs, from);
  }

  /** Notifications (not acks or errors). */
  notifications(): Json[] {
    return this.events.filter((e) => typeof e.type === "string");
  }

  close(): void {
    this.ws.close();
  }
}
