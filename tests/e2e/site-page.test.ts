// The page at the gateway's root in headless Chromium (Debian's `chromium`, driven by puppeteer-core),
// on an embedded tongate indexing a localnet: it loads with no console error, shows the head, an
// account's jettons and NFTs, and a block sealed while it is open. The stream check page subscribes
// with EventSource and with a WebSocket and shows the same events on both. The parts that need the
// Streaming API skip, saying so, on a gateway that does not serve it (GET /api/streaming/v2/sse 404).
import { beginCell, toNano, type Address } from "@ton/core";
import { readNftAddressByIndex, storeNftCollectionStorage } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onchainContent, snake } from "../support/contracts/index.js";
import { decodedTo, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { actorsOf, getMethod, intArg, type Actors } from "../support/scenarios/chain.js";
import { fixtureCode } from "../support/scenarios/fixtures.js";
import { jettonScenario, type JettonScenario } from "../support/scenarios/jettons.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let net: Localnet;
let t: Embedded;
let browser: Browser;
let actors: Actors;
let jetton: JettonScenario;
let nftItem: Address;
/** Whether this gateway serves the Streaming API (the streaming service is hosted). */
let streaming = false;
/** What the pages said on their consoles as errors, and exceptions they threw. */
const consoleErrors: string[] = [];

/** A genesis wallet no scenario uses: the index has never seen it. */
const idle = () => net.genesis.wallets[5]!;
const upper = (a: Address) => a.toRawString().toUpperCase();
const friendlyOf = (a: Address) => a.toString({ bounceable: false });

/** An editable getgems collection of `actors.admin` with one item minted to `owner`; the item's address. */
async function mintNft(owner: Address): Promise<Address> {
  const { admin } = actors;
  const data = beginCell()
    .store(
      storeNftCollectionStorage({
        ownerAddress: admin.address,
        nextItemIndex: 0n,
        content: { collectionContent: onchainContent({ name: "Page collection" }), commonContent: snake(Buffer.from("https://example.org/page-nft/")) },
        nftItemCode: fixtureCode("nft_item"),
        royaltyParams: { numerator: 0, denominator: 100, destination: admin.address },
      }),
    )
    .endCell();
  const collection = await admin.deploy({ code: fixtureCode("nft_collection_editable"), data }, toNano("1"));
  const init = beginCell().storeAddress(owner).storeRef(snake(Buffer.from("0.json"))).endCell();
  await admin.send({ to: collection, value: toNano("0.2"), body: beginCell().storeUint(1, 32).storeUint(1, 64).storeUint(0, 64).storeCoins(toNano("0.1")).storeRef(init).endCell() });
  return readNftAddressByIndex(await getMethod(net, collection, "get_nft_address_by_index", [intArg(0n)]))!;
}

/** A new tab whose console errors and exceptions are recorded. */
async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(`${page.url()}: ${m.text()} ${JSON.stringify(m.location())}`);
  });
  page.on("pageerror", (e) => consoleErrors.push(`${page.url()}: ${String(e)}`));
  return page;
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? "");
const texts = (page: Page, selector: string) => page.$$eval(selector, (els) => els.map((el) => el.textContent ?? ""));

/** Polls `check` until it holds; throws naming `what` after `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "site-page", wallets: 3 });
  actors = actorsOf(net);
  jetton = await jettonScenario(net, actors, "legacy");
  nftItem = await mintNft(actors.alice.address);
  // alice and bob (actorsOf), and a wallet that never made a transaction, as the banner lists genesis wallets
  const wallets = [2, 3, 5].map((i) => net.genesis.wallets[i]!).map((w) => ({ version: String(w.version), address: friendlyOf(w.address) }));
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" }, { site: { network: "localnet", version: "test", localnet: { wallets } } });
  // the browser starts while the decoder catches up
  await Promise.all([
    decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 }),
    puppeteer.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"], headless: true }).then((b) => (browser = b)),
  ]);
  streaming = (await fetch(`${t.url}/api/streaming/v2/sse?types=blocks`, { signal: AbortSignal.timeout(5000) }).then((r) => (r.body?.cancel(), r.status))) !== 404;
  if (!streaming) console.warn("site-page: this gateway serves no Streaming API (GET /api/streaming/v2/sse answers 404): the stream checks skip; they run once the streaming service is hosted");
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await net?.close();
});

describe("the page at the gateway's root", () => {
  let page: Page;

  beforeAll(async () => {
    page = await newPage();
    await page.goto(`${t.url}/`, { waitUntil: "load" });
  });

  it("shows what this tongate serves: the network, the head, the docs, the localnet's wallets", async () => {
    const head = net.chain.lastMasterchain!.id.seqno;
    await until(async () => Number(/block (\d+)/.exec(await text(page, "#head"))?.[1]) >= head, `the head at block ${head}`);
    expect(await text(page, "#network")).toBe("localnet");
    const docs = await page.$$eval("#apis a", (as) => as.map((a) => a.getAttribute("href")));
    expect(docs).toEqual(["/api/v2/", "/api/v2/openapi.json", "/api/v3/", "/api/v3/openapi.json"]);
    const wallets = await page.$$eval("#wallets a", (as) => as.map((a) => a.textContent));
    expect(wallets).toEqual([actors.alice, actors.bob, idle()].map((w) => friendlyOf(w.address)));
    // what they hold, from /api/v3/accountStates
    await until(async () => (await texts(page, "#wallets .balance")).every((s) => /TON$/.test(s)), "the wallets' balances");
  });

  it("shows an account's balance, jettons, NFTs and actions when a wallet is clicked", async () => {
    await page.click(`#wallets a[href="#account=${encodeURIComponent(friendlyOf(actors.alice.address))}"]`);
    await page.waitForSelector("#jettons tbody tr[data-jetton]", { timeout: 10_000 });
    expect(await text(page, "#account-raw")).toBe(upper(actors.alice.address));
    expect(await text(page, "#account-balance")).toMatch(/^[\d,]+(\.\d+)? TON$/);
    const jettons = await page.$$eval("#jettons tbody tr", (rows) => rows.map((r) => ({ jetton: r.getAttribute("data-jetton"), name: r.cells[0]?.textContent, balance: r.cells[1]?.textContent })));
    const alice = jetton.wallets.find((w) => w.owner?.equals(actors.alice.address))!;
    // minted 1,000,000,000 nano-units of a 9-decimal jetton, sent and burned some: 0.71
    expect(jettons).toEqual([{ jetton: upper(jetton.master.address), name: "LEGACY", balance: (Number(alice.balance) / 1e9).toString() }]);
    const nfts = await page.$$eval("#nfts tbody tr", (rows) => rows.map((r) => r.getAttribute("data-nft")));
    expect(nfts).toEqual([upper(nftItem)]);
    const actions = await page.$$eval("#account-actions li", (lis) => lis.map((li) => li.textContent ?? ""));
    expect(actions.some((a) => a.startsWith("jetton_transfer"))).toBe(true);
  });

  it("shows an account the index has not seen (no transaction yet) from the chain", async () => {
    await page.click(`#wallets a[href="#account=${encodeURIComponent(friendlyOf(idle().address))}"]`);
    await until(async () => (await text(page, "#account-raw")) === upper(idle().address), "the idle wallet's raw address");
    expect(await text(page, "#account-status")).toBe("active");
    expect(await text(page, "#account-balance")).toMatch(/^[\d,]+(\.\d+)? TON$/);
    expect(await texts(page, "#jettons tbody tr")).toEqual(["No jettons."]);
  });

  it("refuses an address that is not one with a message, without asking the API", async () => {
    await page.locator("#account-address").fill("not an address");
    await page.click("#account-form button[type=submit]");
    await until(async () => /is not a TON address/.test(await text(page, "#account-message")), "the message on a bad address");
  });

  it("adds a block sealed while it is open to the live feed", async () => {
    await net.chain.seal();
    const seqno = net.chain.lastMasterchain!.id.seqno;
    await page.waitForSelector(`#blocks li[data-seqno="${seqno}"]`, { timeout: 15_000 });
    const status = await text(page, "#feed-status");
    if (streaming) expect(status).toBe("Connected over Server-Sent Events.");
    else expect(status).toMatch(/^Polling the head/);
  });

  it("said no error on its console", () => {
    expect(consoleErrors).toEqual([]);
  });
});

describe("the stream check page", () => {
  it("shows the same events over EventSource and over a WebSocket", async (ctx) => {
    if (!streaming) return ctx.skip("the gateway serves no Streaming API (GET /api/streaming/v2/sse answers 404)");
    const page = await newPage();
    const alice = upper(actors.alice.address);
    await page.goto(`${t.url}/static/stream-check.html?types=blocks&types=transactions&types=actions&addresses=${encodeURIComponent(alice)}&min_finality=pending`, { waitUntil: "load" });
    for (const transport of ["sse", "ws"]) {
      await until(async () => /^Connected/.test(await text(page, `#${transport}-status`)), `${transport} connected`);
    }
    // alice pays bob: a block with her transactions and actions
    await actors.alice.send({ to: actors.bob.address, value: toNano("0.5"), body: beginCell().storeUint(0, 32).storeStringTail("from the page test").endCell() });
    const seqno = net.chain.lastMasterchain!.id.seqno;
    for (const transport of ["sse", "ws"]) {
      await until(async () => (await texts(page, `#${transport}-events li[data-type="blocks"]`)).some((s) => s.includes(`block ${seqno}`)), `block ${seqno} over ${transport}`);
      await page.waitForSelector(`#${transport}-events li[data-type="actions"][data-finality="finalized"]`, { timeout: 15_000 });
      await page.waitForSelector(`#${transport}-events li[data-type="transactions"][data-finality="finalized"]`, { timeout: 15_000 });
    }
    // one stream, two transports: the same events by id
    const ids = (list: string) => page.$$eval(`#${list} li`, (lis) => lis.map((li) => `${li.getAttribute("data-id")} ${li.getAttribute("data-type")}`).sort());
    await until(async () => (await texts(page, "#sse-events li")).length === (await texts(page, "#ws-events li")).length, "as many events on both");
    expect(await ids("ws-events")).toEqual(await ids("sse-events"));
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it("lets the root page's feed run over a WebSocket, with the watched wallets' traces", async (ctx) => {
    if (!streaming) return ctx.skip("the gateway serves no Streaming API (GET /api/streaming/v2/sse answers 404)");
    const page = await newPage();
    await page.goto(`${t.url}/`, { waitUntil: "load" });
    await page.click('input[name="transport"][value="ws"]');
    await until(async () => (await text(page, "#feed-status")) === "Connected over WebSocket.", "the feed connected over WebSocket");
    await actors.alice.send({ to: actors.bob.address, value: toNano("0.1") });
    await page.waitForSelector('#traces li[data-type="actions"][data-finality="finalized"]', { timeout: 15_000 });
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});
