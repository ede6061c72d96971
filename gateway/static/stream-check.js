// The stream check: the subscription in this page's query, opened over EventSource and over a
// WebSocket at once; each event is listed with its id, type and finality under its transport.
import { getJson, h } from "./api.js";
import { StreamClient } from "./stream.js";

const $ = (id) => document.getElementById(id);
const MAX_EVENTS = 100;

main().catch((err) => {
  $("sse-status").textContent = $("ws-status").textContent = `The site document could not be read: ${err.message}`;
});

async function main() {
  const q = new URLSearchParams(location.search);
  const sub = {
    types: q.getAll("types").length ? q.getAll("types") : ["blocks"],
    addresses: q.getAll("addresses"),
    minFinality: q.get("min_finality") ?? "pending",
  };
  $("subscription").textContent = JSON.stringify(sub);
  const site = await getJson("/api/tongate/v1/site");
  for (const transport of ["sse", "ws"]) {
    const status = $(`${transport}-status`);
    if (!site.streaming?.[transport]) {
      status.textContent = "This gateway does not serve this stream.";
      continue;
    }
    const list = $(`${transport}-events`);
    const client = new StreamClient(site.streaming, {
      onStatus: (s) => (status.textContent = s),
      onEvent: (n, id) => {
        const what = n.type === "blocks" ? `block ${n.block.seqno}` : (n.trace_external_hash_norm ?? n.account ?? "");
        list.prepend(h("li", { "data-id": id ?? "", "data-type": n.type, "data-finality": n.finality ?? "" }, h("strong", {}, n.type), ` ${n.finality ?? ""} `, h("span", { class: "mono" }, what), h("div", { class: "meta" }, `event ${id ?? "?"}`)));
        while (list.children.length > MAX_EVENTS) list.lastElementChild.remove();
      },
    });
    client.subscribe({ transport, ...sub });
  }
}
