// The route table reads each service's envelope from its descriptor (option tongate.options.v1.envelope).
import { describe, expect, it } from "vitest";
import { RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { Ticks } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { Index } from "@tongate/proto/gen/tongate/v3/index_pb.js";
import { buildRoutes, envelopeOf } from "../src/routes.js";

describe("envelope option", () => {
  it("each public service declares its envelope", () => {
    expect(envelopeOf(LiteProxy)).toBe("v2");
    expect(envelopeOf(Index)).toBe("v3");
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
    // Index is not among the upstreams: its API's envelope still answers its paths.
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
