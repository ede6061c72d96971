// tongate's public HTTP API as the page uses it, and how it shows TON's values (addresses, amounts).

/** An answer of the API that is not a 2xx: its status and the API's own message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** GET `path` with `params` (arrays become repeated keys); the JSON answer, or an ApiError with the API's message. */
export async function getJson(path, params = {}) {
  const url = path + query(params);
  const res = await fetch(url, { headers: { accept: "application/json" } });
  let body;
  try {
    body = await res.json();
  } catch {
    throw new ApiError(res.status, `${path} answered ${res.status} without JSON`);
  }
  if (!res.ok) throw new ApiError(res.status, body?.error ?? `${path} answered ${res.status}`);
  return body;
}

/** `?a=1&b=x&b=y` from {a: 1, b: ["x", "y"]}; "" when there is nothing to send. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

const RAW = /^-?\d{1,3}:[0-9a-fA-F]{64}$/;
const FRIENDLY = /^[A-Za-z0-9_\-+/]{48}$/;

/** Whether `s` looks like a TON address (raw `0:…` or a 48-character friendly form); the API checks it for real. */
export function looksLikeAddress(s) {
  return RAW.test(s) || FRIENDLY.test(s);
}

/** The raw form ("0:ABC…", upper case as API v3 writes it) of a raw or friendly address; undefined if it is neither. */
export function rawOf(address) {
  if (RAW.test(address)) {
    const [wc, hash] = address.split(":");
    return `${Number(wc)}:${hash.toUpperCase()}`;
  }
  if (!FRIENDLY.test(address)) return undefined;
  let bytes;
  try {
    bytes = Uint8Array.from(atob(address.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  // tag, workchain (int8), 32 bytes of hash, CRC16
  const wc = bytes[1] > 127 ? bytes[1] - 256 : bytes[1];
  const hash = [...bytes.slice(2, 34)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${wc}:${hash.toUpperCase()}`;
}

/** The friendly form an address book gives `raw`, else `raw` as it is. */
export function friendly(raw, book) {
  if (!raw) return "";
  return book?.[raw]?.user_friendly ?? raw;
}

/** A long address or hash cut to its ends, for lists (the whole value stays in the title). */
export function short(s) {
  return s && s.length > 20 ? `${s.slice(0, 8)}…${s.slice(-6)}` : (s ?? "");
}

/** An integer amount in the smallest unit (a decimal string) as a decimal number of `decimals` places. */
export function units(amount, decimals = 9) {
  let n;
  try {
    n = BigInt(amount ?? 0);
  } catch {
    return String(amount);
  }
  const negative = n < 0n;
  if (negative) n = -n;
  const scale = 10n ** BigInt(decimals);
  const whole = n / scale;
  const frac = (n % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole.toLocaleString("en-US")}${frac ? `.${frac}` : ""}`;
}

/** nanoton → "1.5 TON". */
export const ton = (nano) => `${units(nano, 9)} TON`;

/** A unix time (seconds, number or string) as the browser's local time. */
export function time(utime) {
  const n = Number(utime);
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toLocaleTimeString() : "";
}

/** The token_info a metadata map gives `address` (name, symbol, decimals in `extra`), if any. */
export function tokenInfo(metadata, address) {
  const entry = metadata?.[address];
  return entry?.token_info?.find((t) => t.valid !== false) ?? entry?.token_info?.[0];
}

/** Builds an element: `h("li", {class: "x"}, "text", child)`. Text is always text (no HTML parsing). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}
