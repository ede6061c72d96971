// The send service's pending traces, as API v3's pending endpoints and the Emulate API reach them:
// its tongate.send.v1.Pending RPCs, in this process or over gRPC. Rendering them is each tag's
// (blockchain/pending.ts, actions/pending.ts, emulate/service.ts).
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type Client, Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { Pending, type EmulateTraceRequestSchema, type EmulateTraceResponse, type GetPendingTracesRequest, type PendingTrace } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { apiError, HTTP_STATUS_KEY } from "@tongate/runtime";

export type PendingClient = Client<typeof Pending>;

/** The Pending client, made on first use (undefined: no send service reachable from this process). */
export type PendingSource = () => PendingClient;

export function pendingSource(transportOf: () => Transport | undefined): PendingSource {
  let client: PendingClient | undefined;
  return () => {
    if (client) return client;
    const transport = transportOf();
    if (!transport) throw apiError(503, "the send service is not reachable from the indexer (run them in one process, or give the indexer --upstream send=URL)");
    return (client = createClient(Pending, transport));
  };
}

/** A call that could not reach the send service names it; the service's own answers (a 4xx with its reason) pass as they are. */
async function reaching<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ConnectError && e.code === Code.Unavailable && !e.metadata.has(HTTP_STATUS_KEY)) {
      throw apiError(503, `the send service is not reachable: ${e.rawMessage}`);
    }
    throw e;
  }
}

export type PendingTracesFilter = Pick<GetPendingTracesRequest, "accounts" | "extMsgHashes" | "traceIds">;

export async function pendingTraces(source: PendingSource, filter: Partial<PendingTracesFilter>, signal?: AbortSignal): Promise<PendingTrace[]> {
  const client = source();
  const r = await reaching(() => client.getPendingTraces({ accounts: filter.accounts ?? [], extMsgHashes: filter.extMsgHashes ?? [], traceIds: filter.traceIds ?? [] }, { signal }));
  return r.traces;
}

export async function emulateTrace(source: PendingSource, req: MessageInitShape<typeof EmulateTraceRequestSchema>, signal?: AbortSignal): Promise<EmulateTraceResponse> {
  const client = source();
  return reaching(() => client.emulateTrace(req, { signal }));
}
