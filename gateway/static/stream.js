// A client of tongate's Streaming API v2, over Server-Sent Events (EventSource, GET with the
// subscription in the query) or a WebSocket (subscribe, ping). Both resume after the last event id
// they saw when their connection drops (EventSource sends Last-Event-ID itself; the WebSocket
// resubscribes with resume_from), so a reconnect loses nothing within the server's retention window.
import { query } from "./api.js";

const PING_MS = 15_000;
const MAX_BACKOFF_MS = 10_000;
const POLICY_VIOLATION = 1008;

/**
 * `urls`: the site document's `streaming` ({sse, ws} paths). Callbacks: `onEvent(notification, id)`,
 * `onStatus(text)` for what a person should know (connected, reconnecting, an error of the server).
 */
export class StreamClient {
  constructor(urls, { onEvent, onStatus }) {
    this.urls = urls;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.lastId = undefined;
    this.connection = undefined;
  }

  /** Opens (or replaces) the subscription: {transport: "sse" | "ws", types, addresses, minFinality}. */
  subscribe(sub) {
    this.close();
    this.sub = sub;
    this.lastId = undefined;
    if (sub.transport === "ws") this.openWs();
    else this.openSse();
  }

  close() {
    const c = this.connection;
    this.connection = undefined;
    c?.close();
  }

  params() {
    const s = this.sub;
    return { types: s.types, addresses: s.addresses, min_finality: s.minFinality ?? "pending", include_address_book: true, include_metadata: true };
  }

  openSse() {
    const es = new EventSource(this.urls.sse + query(this.params()));
    this.connection = es;
    const live = () => this.connection === es;
    const deliver = (e) => {
      if (!live()) return;
      if (e.lastEventId) this.lastId = e.lastEventId;
      this.onEvent(JSON.parse(e.data), e.lastEventId);
    };
    es.addEventListener("connected", () => live() && this.onStatus("Connected over Server-Sent Events."));
    es.addEventListener("event", deliver);
    es.addEventListener("message", deliver);
    es.addEventListener("resume_gap", (e) => live() && this.onStatus(`Some events were missed while disconnected: ${gapText(e.data)}`));
    // the server's `event: error` (a message with data) and the connection's own error share a name
    es.addEventListener("error", (e) => {
      if (!live()) return;
      if (e instanceof MessageEvent && e.data) this.onStatus(`The stream answered an error: ${errorText(e.data)}`);
      else if (es.readyState === EventSource.CLOSED) this.onStatus("The stream closed.");
      else this.onStatus("Reconnecting (resuming after the last event)…");
    });
  }

  openWs(backoffMs = 500) {
    const url = new URL(this.urls.ws, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url);
    const connection = { close: () => ws.close(1000) };
    this.connection = connection;
    const live = () => this.connection === connection;
    let ping;
    ws.addEventListener("open", () => {
      if (!live()) return;
      const resume = this.lastId === undefined ? {} : { resume_from: this.lastId };
      ws.send(JSON.stringify({ operation: "subscribe", id: "subscribe", ...this.params(), ...resume }));
      ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ operation: "ping", id: "ping" })), PING_MS);
      backoffMs = 500;
    });
    ws.addEventListener("message", (e) => {
      if (!live()) return;
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      if (m.error !== undefined) this.onStatus(`The stream answered an error: ${m.error}`);
      else if (m.status === "subscribed") this.onStatus("Connected over WebSocket.");
      else if (m.status !== undefined) return; // pong, unsubscribed
      else if (m.type === "resume_gap") this.onStatus(`Some events were missed while disconnected: ${gapText(e.data)}`);
      else {
        if (m.event_id) this.lastId = m.event_id;
        this.onEvent(m, m.event_id);
      }
    });
    ws.addEventListener("close", (e) => {
      clearInterval(ping);
      if (!live()) return;
      // 1008: the server refused what this client asked (its error frame said why); asking again would not help
      if (e.code === POLICY_VIOLATION) {
        this.connection = undefined;
        this.onStatus(`The stream closed: ${e.reason || "the server refused the subscription"}`);
        return;
      }
      this.onStatus("Reconnecting (resuming after the last event)…");
      setTimeout(() => live() && this.openWs(Math.min(backoffMs * 2, MAX_BACKOFF_MS)), backoffMs);
    });
  }
}

function errorText(data) {
  try {
    return JSON.parse(data).error ?? data;
  } catch {
    return data;
  }
}

function gapText(data) {
  try {
    const m = JSON.parse(data);
    return m.error ?? m.message ?? data;
  } catch {
    return data;
  }
}
