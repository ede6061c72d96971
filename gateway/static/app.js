// The page at tongate's root: what this tongate serves (the site document, the head), a live feed of
// blocks, transactions and actions over the Streaming API, and an account view from API v3. Only the
// public API: GET /api/tongate/v1/site, /api/v3/… and /api/streaming/v2/….
import { ApiError, friendly, getJson, h, looksLikeAddress, rawOf, short, time, ton, tokenInfo, units } from "./api.js";
import { StreamClient } from "./stream.js";

const $ = (id) => document.getElementById(id);
const MAX_BLOCKS = 30;
const MAX_TRACES = 60;
const HEAD_POLL_MS = 2_000;

const state = {
  site: undefined,
  hasV3: false,
  watched: [],
  head: 0,
  stream: undefined,
  poller: undefined,
  polling: false,
};

main().catch((err) => {
  $("summary").textContent = `This page could not read what this tongate serves: ${err.message}`;
  $("summary").classList.add("error");
});

async function main() {
  const site = await getJson("/api/tongate/v1/site");
  state.site = site;
  state.hasV3 = site.apis.some((a) => a.docs.startsWith("/api/v3"));
  showSite(site);
  await refreshHead();
  state.watched = (site.localnet?.wallets ?? []).map((w) => w.address);
  wireForms();
  startFeed();
  window.addEventListener("hashchange", showAccountFromHash);
  showAccountFromHash();
}

function showSite(site) {
  $("network").textContent = site.network;
  $("version").textContent = site.version || "unknown";
  $("summary").textContent = `A toncenter-compatible TON API on ${site.network}.`;
  $("apis").replaceChildren(
    ...site.apis.map((a) => h("li", {}, h("a", { href: a.docs }, `${a.name} docs`), " (", h("a", { href: a.openapi }, "OpenAPI"), ")")),
  );
  if (site.apis.length === 0) $("apis").append(h("li", {}, "none"));
  const streams = [];
  if (site.streaming?.sse) streams.push(h("li", {}, "Server-Sent Events: ", h("code", {}, `POST or GET ${site.streaming.sse}`)));
  if (site.streaming?.ws) streams.push(h("li", {}, "WebSocket: ", h("code", {}, `GET ${site.streaming.ws}`)));
  if (site.streaming) streams.push(h("li", {}, h("a", { href: "/static/stream-check.html" }, "Stream check"), " (both transports side by side)"));
  else streams.push(h("li", {}, "This gateway serves no Streaming API; the feed below polls the head."));
  $("streams").replaceChildren(...streams);
  if (site.localnet) {
    $("localnet").hidden = false;
    $("control").textContent = site.localnet.control ? `(${site.localnet.control})` : "";
    $("wallets").replaceChildren(
      ...site.localnet.wallets.map((w) =>
        h("li", {}, h("span", { class: "hint" }, `${w.version} `), h("a", { href: `#account=${encodeURIComponent(w.address)}`, class: "mono" }, w.address), " ", h("span", { class: "balance", "data-address": w.address })),
      ),
    );
    if (state.hasV3) walletBalances(site.localnet.wallets.map((w) => w.address));
  }
}

/**
 * What the localnet's wallets hold now: API v3's account states for those the index knows (one
 * request), the chain (a liteserver, through use_v2) for the others — a genesis wallet that never
 * made a transaction is in no block the indexer read.
 */
async function walletBalances(addresses) {
  const shown = new Map([...document.querySelectorAll("#wallets .balance")].map((el) => [rawOf(el.dataset.address), el]));
  try {
    const r = await getJson("/api/v3/accountStates", { address: addresses, include_boc: false });
    for (const a of r.accounts) {
      const el = shown.get(a.address);
      if (el) el.textContent = `— ${ton(a.balance)}`;
      shown.delete(a.address);
    }
    for (const el of shown.values()) {
      const info = await getJson("/api/v3/addressInformation", { address: el.dataset.address, use_v2: true });
      el.textContent = `— ${ton(info.balance)}`;
    }
  } catch {
    // the balances are a nicety: the wallets are listed without them
  }
}

async function refreshHead() {
  if (!state.site.apis.length) {
    $("head").textContent = "unknown (this gateway serves neither API v2 nor API v3)";
    return undefined;
  }
  try {
    let seqno;
    if (state.hasV3) seqno = (await getJson("/api/v3/masterchainInfo")).last.seqno;
    else seqno = (await getJson("/api/v2/getMasterchainInfo")).result.last.seqno;
    setHead(seqno);
    return seqno;
  } catch (err) {
    $("head").textContent = `unknown (${err.message})`;
    return undefined;
  }
}

function setHead(seqno) {
  if (seqno < state.head) return;
  state.head = seqno;
  $("head").textContent = `masterchain block ${seqno}`;
}

// ---- the live feed ----

function wireForms() {
  $("feed-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const a = $("watch-address").value.trim();
    if (watch(a)) $("watch-address").value = "";
  });
  $("feed-form").addEventListener("change", (e) => {
    if (e.target.name === "transport") startFeed();
  });
  $("account-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const a = $("account-address").value.trim();
    const hash = `#account=${encodeURIComponent(a)}`;
    // the same address again: no hashchange, so read it again here (it may hold more by now)
    if (location.hash === hash) showAccount(a);
    else location.hash = hash;
  });
  $("watch-button").addEventListener("click", () => watch($("account-address").value.trim()));
}

/** Adds an address to the feed's subscription; false (and a message) when it does not look like one. */
function watch(address) {
  if (!looksLikeAddress(address)) {
    $("feed-status").textContent = `"${address.slice(0, 80)}" is not a TON address (raw 0:<64 hex digits>, or a 48-character friendly form).`;
    return false;
  }
  if (!state.watched.includes(address)) state.watched.push(address);
  startFeed();
  return true;
}

function transport() {
  return document.querySelector('input[name="transport"]:checked')?.value === "ws" ? "ws" : "sse";
}

function startFeed() {
  $("watched").textContent = state.watched.length ? state.watched.map(short).join(", ") : "no address";
  state.stream?.close();
  clearInterval(state.poller);
  const streaming = state.site.streaming;
  const t = transport();
  if (!streaming?.[t]) {
    $("feed-status").textContent = streaming ? `This gateway has no ${t === "ws" ? "WebSocket" : "SSE"} stream.` : "Polling the head every 2 s (this gateway serves no Streaming API).";
    state.poller = setInterval(pollHead, HEAD_POLL_MS);
    return;
  }
  $("feed-status").textContent = "Connecting…";
  state.stream ??= new StreamClient(streaming, { onEvent, onStatus: (s) => ($("feed-status").textContent = s) });
  const types = state.watched.length ? ["blocks", "transactions", "actions", "trace_invalidated"] : ["blocks"];
  state.stream.subscribe({ transport: t, types, addresses: state.watched, minFinality: "pending" });
}

/** Without a stream: each new head (API v3's masterchainInfo gives its block) is a feed entry. */
async function pollHead() {
  if (!state.hasV3) return void refreshHead();
  if (state.polling) return; // the last poll is still reading
  state.polling = true;
  try {
    const info = await getJson("/api/v3/masterchainInfo");
    const last = info.last.seqno;
    // the blocks since the last poll (a few at most: this is a fallback, not a stream)
    for (let n = Math.max(state.head + 1, last - 4); n < last; n++) {
      const r = await getJson("/api/v3/blocks", { workchain: -1, seqno: n, limit: 1 });
      if (r.blocks[0]) showBlock({ block: r.blocks[0], finality: "finalized" });
    }
    if (last > state.head) showBlock({ block: info.last, finality: "finalized" });
    setHead(last);
  } catch (err) {
    $("feed-status").textContent = `The head could not be read: ${err.message}`;
  } finally {
    state.polling = false;
  }
}

function onEvent(n, id) {
  switch (n.type) {
    case "blocks":
      showBlock(n);
      setHead(n.block.seqno);
      break;
    case "transactions":
    case "actions":
      showTrace(n, id);
      break;
    case "trace_invalidated":
      for (const el of document.querySelectorAll(`#traces li[data-trace="${CSS.escape(n.trace_external_hash_norm)}"]`)) {
        el.classList.add("invalidated");
        el.querySelector(".finality").textContent = "invalidated";
      }
      break;
  }
}

function showBlock(n) {
  const b = n.block;
  if ($("blocks").querySelector(`li[data-seqno="${Number(b.seqno)}"]`)) return;
  const parts = [`${time(b.gen_utime)}`];
  if (n.transaction_count !== undefined) parts.push(`${n.transaction_count} transaction${n.transaction_count === 1 ? "" : "s"}`);
  if (n.shards) parts.push(`${n.shards.length} shard block${n.shards.length === 1 ? "" : "s"}`);
  const li = h("li", { "data-seqno": b.seqno }, h("strong", {}, `Block ${b.seqno}`), " ", finality(n.finality), h("div", { class: "meta" }, parts.join(" · ")));
  prepend($("blocks"), li, MAX_BLOCKS);
}

/** One entry per trace and type, updated in place as its finality grows. */
function showTrace(n, id) {
  const key = `${n.type}:${n.trace_external_hash_norm}`;
  const book = n.address_book;
  const lines = n.type === "actions" ? n.actions.map((a) => h("div", {}, describeAction(a, book, n.metadata))) : n.transactions.map((t) => h("div", { class: "mono" }, `${short(friendly(t.account, book))} lt ${t.lt} ${t.description?.aborted ? "(aborted)" : ""}`));
  const li = h(
    "li",
    { "data-key": key, "data-trace": n.trace_external_hash_norm, "data-type": n.type, "data-finality": n.finality },
    h("strong", {}, n.type === "actions" ? "Actions" : "Transactions"),
    " ",
    finality(n.finality),
    h("div", { class: "meta mono", title: n.trace_external_hash_norm }, `trace ${short(n.trace_external_hash_norm)}${id ? ` · event ${id}` : ""}`),
    lines,
  );
  const old = document.querySelector(`#traces li[data-key="${CSS.escape(key)}"]`);
  if (old) old.replaceWith(li);
  else prepend($("traces"), li, MAX_TRACES);
}

function describeAction(a, book, metadata) {
  const d = a.details ?? {};
  const who = (raw) => short(friendly(raw, book));
  const jettons = (amount, asset) => {
    const info = tokenInfo(metadata, asset);
    const decimals = Number(info?.extra?.decimals ?? info?.decimals);
    return `${units(amount, Number.isInteger(decimals) ? decimals : 0)} ${info?.symbol || who(asset)}`;
  };
  switch (a.type) {
    case "ton_transfer":
      return `ton_transfer ${ton(d.value)} ${who(d.source)} → ${who(d.destination)}${d.comment ? ` “${d.comment}”` : ""}`;
    case "jetton_transfer":
      return `jetton_transfer ${jettons(d.amount, d.asset)} ${who(d.sender)} → ${who(d.receiver)}`;
    case "nft_transfer":
      return `nft_transfer ${who(d.nft_item)} ${who(d.old_owner)} → ${who(d.new_owner)}`;
    case "jetton_mint":
      return `jetton_mint ${jettons(d.amount, d.asset)} to ${who(d.receiver)}`;
    case "jetton_burn":
      return `jetton_burn ${jettons(d.amount, d.asset)} by ${who(d.owner)}`;
    case "nft_mint":
      return `nft_mint ${who(d.nft_item)} to ${who(d.owner)}`;
    case "contract_deploy":
      return `contract_deploy ${who(d.destination)}`;
    default:
      return `${a.type}${a.success === false ? " (failed)" : ""}`;
  }
}

function finality(f) {
  return h("span", { class: `finality ${f ?? ""}` }, f ?? "");
}

function prepend(list, li, max) {
  list.prepend(li);
  while (list.children.length > max) list.lastElementChild.remove();
}

// ---- the account view ----

function showAccountFromHash() {
  const m = /^#account=(.+)$/.exec(location.hash);
  if (!m) return;
  const address = decodeURIComponent(m[1]);
  $("account-address").value = address;
  showAccount(address);
}

async function showAccount(address) {
  const message = $("account-message");
  message.classList.remove("error");
  if (!looksLikeAddress(address)) {
    message.textContent = `"${address.slice(0, 80)}" is not a TON address (raw 0:<64 hex digits>, or a 48-character friendly form).`;
    message.classList.add("error");
    return;
  }
  if (!state.hasV3) {
    message.textContent = "This tongate serves no API v3 (it runs without its indexer): no account view.";
    return;
  }
  message.textContent = "Loading…";
  try {
    const [states, jettons, nfts, actions] = await Promise.all([
      getJson("/api/v3/accountStates", { address, include_boc: false }),
      getJson("/api/v3/jetton/wallets", { owner_address: address, limit: 50 }),
      getJson("/api/v3/nft/items", { owner_address: address, limit: 50 }),
      getJson("/api/v3/actions", { account: address, limit: 20, sort: "desc" }),
    ]);
    // an account the index has not seen (no transaction yet, e.g. a genesis wallet): the chain's state
    const acc = states.accounts[0] ?? (await getJson("/api/v3/addressInformation", { address, use_v2: true }));
    const raw = acc.address ?? rawOf(address);
    $("account-friendly").textContent = states.address_book?.[raw]?.user_friendly ?? states.address_book?.[address]?.user_friendly ?? address;
    $("account-raw").textContent = raw;
    $("account-status").textContent = acc.status;
    $("account-balance").textContent = ton(acc.balance);
    showJettons(jettons);
    showNfts(nfts);
    $("account-actions").replaceChildren(...actions.actions.map((a) => h("li", {}, describeAction(a, actions.address_book, actions.metadata), h("div", { class: "meta" }, time(a.start_utime)))));
    if (actions.actions.length === 0) $("account-actions").append(h("li", {}, "No actions indexed yet."));
    $("account-view").hidden = false;
    message.textContent = "";
  } catch (err) {
    message.textContent = err instanceof ApiError ? `The API answered ${err.status}: ${err.message}` : `The account could not be read: ${err.message}`;
    message.classList.add("error");
  }
}

function showJettons(r) {
  const rows = r.jetton_wallets.map((w) => {
    const info = tokenInfo(r.metadata, w.jetton);
    const decimals = Number(info?.extra?.decimals ?? 9);
    const name = info?.symbol || info?.name || short(friendly(w.jetton, r.address_book));
    return h(
      "tr",
      { "data-jetton": w.jetton },
      h("td", {}, h("a", { href: `#account=${encodeURIComponent(friendly(w.jetton, r.address_book))}`, title: w.jetton }, name)),
      h("td", { class: "amount" }, units(w.balance, Number.isInteger(decimals) ? decimals : 9)),
      h("td", { class: "mono", title: w.address }, short(friendly(w.address, r.address_book))),
    );
  });
  $("jettons").tBodies[0].replaceChildren(...(rows.length ? rows : [h("tr", {}, h("td", { colspan: 3 }, "No jettons."))]));
}

function showNfts(r) {
  const rows = r.nft_items.map((n) => {
    const info = tokenInfo(r.metadata, n.address);
    const collection = n.collection_address ? friendly(n.collection_address, r.address_book) : "";
    return h(
      "tr",
      { "data-nft": n.address },
      h("td", { title: n.address }, info?.name || short(friendly(n.address, r.address_book))),
      h("td", { class: "mono", title: n.collection_address ?? "" }, collection ? short(collection) : "none"),
      h("td", {}, String(n.index)),
    );
  });
  $("nfts").tBodies[0].replaceChildren(...(rows.length ? rows : [h("tr", {}, h("td", { colspan: 3 }, "No NFTs."))]));
}
