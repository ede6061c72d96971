// The parts of a streamed message as SSE lines and WebSocket frames.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { CountResponseSchema, EventSchema } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { eventParts, frameOf, sseEvent } from "../src/stream-parts.js";

describe("stream parts", () => {
  it("id, event and data become their SSE lines; empty ones are left out", () => {
    expect(sseEvent(eventParts(EventSchema, create(EventSchema, { id: "7.1", event: "event", data: '{"a":1}' })))).toBe('id: 7.1\nevent: event\ndata: {"a":1}\n\n');
    expect(sseEvent(eventParts(EventSchema, create(EventSchema, { data: "{}" })))).toBe("data: {}\n\n");
  });

  it("a line break cannot end a field early: data is split into data: lines, id and event are kept on one line", () => {
    const e = create(EventSchema, { id: "1\nevent: forged", event: "a\r\nb", data: "x\ry\n\nz" });
    expect(sseEvent(eventParts(EventSchema, e))).toBe("id: 1 event: forged\nevent: a b\ndata: x\ndata: y\ndata: \ndata: z\n\n");
  });

  it("a message DATA field is rendered as JSON; a message without parts is its JSON whole; a frame is the data", () => {
    const e = create(EventSchema, { id: "2", tick: { n: 5n } });
    expect(eventParts(EventSchema, e).data).toBe('{"n":"5","pad":""}');
    expect(frameOf(EventSchema, e)).toBe('{"n":"5","pad":""}');
    expect(eventParts(CountResponseSchema, create(CountResponseSchema, { n: 3n }))).toEqual({ id: "", event: "", data: '{"n":"3","pad":""}' });
  });
});
