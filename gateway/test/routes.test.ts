// The route table reads each service's envelope from its descriptor (option tongate.options.v1.envelope).
import { describe, expect, it } from "vitest";
import { RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { Ticks } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { Accounts } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { Actions } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { ApiV2 } from "@tongate/proto/gen/tongate/v3/apiv2_pb.js";
import { Blockchain } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { Stats } from "@tongate/proto/gen/tongate/v3/stats_pb.js";
import { Streaming } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import { buildOpenApi } from "../src/openapi.js";
import { buildRoutes, envelopeOf } from "../src/routes.js";

/** API v3's services, one per toncenter tag. */
const V3 = [Blockchain, Accounts, Actions, Stats, ApiV2];

describe("envelope option", () => {
  it("each public service declares its envelope", () => {
    expect(envelopeOf(LiteProxy)).toBe("v2");
    for (const service of V3) expect(envelopeOf(service), service.name).toBe("v3");
    expect(envelopeOf(RateLimit)).toBe("v3");
    expect(envelopeOf(Ticks)).toBe("v3");
  });

  it("routes take their service's envelope; a path no route answers takes its API's", () => {
    const t = buildRoutes([LiteProxy, Ticks]);
    expect(t.byPath.get("/api/v2/detectAddress")!.get("GET")!.flavour).toBe("v2");
    const stream = t.byPath.get("/api/test/v1/count")!.get("GET")!;
    expect(stream).toMatchObject({ flavour: "v3", stream: true });
    expect(t.byRpcName.has("count")).toBe(false);
    expect(t.flavourOf("/api/v2/nothing")).toBe("v2");
    // API v3's services are not among the upstreams: their API's envelope still answers its paths.
    expect(t.flavourOf("/api/v3/nothing")).toBe("v3");
    expect(t.flavourOf("/api/v3")).toBe("v3");
    expect(t.flavourOf("/api/admin/v1/x")).toBe("v3");
    expect(t.flavourOf("/api/test/v1/x")).toBe("v3");
    expect(t.flavourOf("/elsewhere")).toBe("v2");
  });

  it("a service with HTTP routes and no envelope is refused", () => {
    const bare = { ...Ticks, typeName: "x.NoEnvelope", proto: { ...Ticks.proto, options: undefined } } as typeof Ticks;
    expect(() => buildRoutes([bare])).toThrow(/declares no envelope/);
  });
});

describe("API v3 by toncenter's tags", () => {
  // every path and HTTP method of API v3, as the single tongate.v3.Index service routed them
  const PATHS = [
    "GET /api/v3/masterchainInfo",
    "GET /api/v3/blocks",
    "GET /api/v3/masterchainBlockShards",
    "GET /api/v3/masterchainBlockShardState",
    "GET /api/v3/transactions",
    "GET /api/v3/transactionsByMasterchainBlock",
    "GET /api/v3/transactionsByMessage",
    "GET /api/v3/adjacentTransactions",
    "GET /api/v3/messages",
    "GET /api/v3/pendingTransactions",
    "GET /api/v3/accountStates",
    "GET /api/v3/walletStates",
    "GET /api/v3/addressBook",
    "GET /api/v3/metadata",
    "GET /api/v3/topAccountsByBalance",
    "GET /api/v3/traces",
    "GET /api/v3/actions",
    "GET /api/v3/events",
    "GET /api/v3/balanceChanges",
    "GET /api/v3/pendingTraces",
    "GET /api/v3/pendingActions",
    "GET /api/v3/addressInformation",
    "GET /api/v3/account",
    "GET /api/v3/walletInformation",
    "GET /api/v3/wallet",
    "POST /api/v3/message",
    "POST /api/v3/runGetMethod",
    "POST /api/v3/estimateFee",
  ];

  it("the tag services route every v3 path, each once, in the bare envelope", () => {
    const t = buildRoutes(V3);
    const routed = [...t.byPath].flatMap(([path, methods]) => [...methods.values()].map((r) => ({ key: `${r.httpMethod} ${path}`, r })));
    expect(routed.map((x) => x.key).sort()).toEqual([...PATHS].sort());
    for (const { r } of routed) expect(r.flavour).toBe("v3");
  });

  it("OpenAPI groups the operations under toncenter's tag names", () => {
    const doc = buildOpenApi(buildRoutes(V3), "v3") as { tags: { name: string }[]; paths: Record<string, Record<string, { tags: string[] }>> };
    const tagOf = (path: string, method = "get") => doc.paths[path]![method]!.tags;
    expect(tagOf("/api/v3/transactions")).toEqual(["Blockchain data"]);
    expect(tagOf("/api/v3/addressBook")).toEqual(["Accounts"]);
    expect(tagOf("/api/v3/traces")).toEqual(["Actions and traces"]);
    expect(tagOf("/api/v3/topAccountsByBalance")).toEqual(["Stats"]);
    expect(tagOf("/api/v3/runGetMethod", "post")).toEqual(["API v2"]);
    expect(doc.tags.map((x) => x.name).sort()).toEqual(["API v2", "Accounts", "Actions and traces", "Blockchain data", "Stats"]);
  });
});

describe("stream routes", () => {
  it("the Streaming API routes: SSE on POST (the body) and GET, the WebSocket on GET, none of them a JSON-RPC method", () => {
    const t = buildRoutes([Streaming, Ticks]);
    expect(t.byPath.get("/api/streaming/v2/sse")!.get("POST")).toMatchObject({ stream: true, websocket: false, body: true, flavour: "v3" });
    expect(t.byPath.get("/api/streaming/v2/sse")!.get("GET")).toMatchObject({ stream: true, websocket: false });
    expect(t.byPath.get("/api/streaming/v2/ws")!.get("GET")).toMatchObject({ stream: false, websocket: true });
    expect(t.byPath.get("/api/test/v1/echo")!.get("GET")).toMatchObject({ websocket: true });
    expect([...t.byRpcName.keys()]).toEqual([]);
  });

  it("OpenAPI documents SSE routes as text/event-stream and the WebSocket as an upgrade with its frames' schema", () => {
    const doc = buildOpenApi(buildRoutes([Streaming]), "v3") as { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } };
    const sse = doc.paths["/api/streaming/v2/sse"]!;
    expect(Object.keys(sse).sort()).toEqual(["get", "post"]);
    expect(Object.keys(sse.post.responses["200"].content)).toEqual(["text/event-stream"]);
    expect(sse.post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/streaming_v2_SseRequest" });
    expect(sse.get.parameters.map((p: { name: string }) => p.name)).toContain("Last-Event-ID");
    const ws = doc.paths["/api/streaming/v2/ws"]!.get;
    expect(Object.keys(ws.responses)).toEqual(["101", "426", "default"]);
    expect(ws["x-websocket-client-frame"]).toEqual({ $ref: "#/components/schemas/streaming_v2_WsRequest" });
    expect(doc.components.schemas.streaming_v2_WsRequest).toBeDefined();
  });
});
