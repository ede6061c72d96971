// From a TEP-64 content URI to the URL that is requested: http(s) as written, ipfs:// through the
// operator's gateway; anything else refused with the reason.

/** The longest URI fetched: a content URI is a short link, a longer one is junk or an attack. */
export const MAX_URI_LENGTH = 2048;

export type Located = { ok: true; url: URL; viaGateway: boolean } | { ok: false; reason: string };

/** The gateway as a base URL that ends with "/" (so that a CID is appended below its path). */
export function gatewayBase(gateway: string): URL {
  const url = new URL(gateway);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`the IPFS gateway must be an http(s) URL, not ${gateway}`);
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  url.search = "";
  url.hash = "";
  return url;
}

/** The URL to request for a content URI, or why it is not fetched. */
export function locate(uri: string, gateway: URL): Located {
  // Content cells are written by hand: trailing NULs and blanks are common.
  const text = uri.replace(/[\s\0]+$/u, "").replace(/^\s+/u, "");
  if (text === "") return { ok: false, reason: "empty URI" };
  if (text.length > MAX_URI_LENGTH) return { ok: false, reason: `URI longer than ${MAX_URI_LENGTH} characters` };
  const scheme = /^([a-z][a-z0-9+.-]*):/iu.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) return { ok: false, reason: `not an absolute URI: ${shorten(text)}` };
  if (scheme === "ipfs") return throughGateway(text.slice("ipfs:".length), gateway);
  if (scheme !== "http" && scheme !== "https") return { ok: false, reason: `unsupported URI scheme ${scheme}: (only https, http and ipfs are fetched)` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: `invalid URL: ${shorten(text)}` };
  }
  if (url.hostname === "") return { ok: false, reason: `URL without a host: ${shorten(text)}` };
  url.hash = "";
  return { ok: true, url, viaGateway: false };
}

// ipfs://<cid>/<path>, also the common ipfs://ipfs/<cid>/<path>. The CID is case-sensitive
// (base58 v0), so the text is cut by hand instead of read as a URL's host.
function throughGateway(rest: string, gateway: URL): Located {
  let path = rest.replace(/^\/\//u, "").replace(/^ipfs\//iu, "");
  path = path.split("#")[0]!;
  if (path === "" || path.startsWith("/")) return { ok: false, reason: "ipfs URI without a CID" };
  let url: URL;
  try {
    url = new URL(path, gateway);
  } catch {
    return { ok: false, reason: `invalid ipfs URI: ipfs://${shorten(rest)}` };
  }
  // "..", an absolute URL or "//host" in the path would lead away from the gateway.
  if (url.origin !== gateway.origin || !url.pathname.startsWith(gateway.pathname)) {
    return { ok: false, reason: `ipfs URI leads outside the gateway: ipfs://${shorten(rest)}` };
  }
  return { ok: true, url, viaGateway: true };
}

export function shorten(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
