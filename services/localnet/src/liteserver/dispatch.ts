// The liteserver protocol over ADNL: unwraps liteServer.query (and an optional
// liteServer.waitMasterchainSeqno prefix), dispatches the function to its
// handler by TL name, and answers the result or liteServer.error. Malformed
// queries are answered with an error, never allowed to take the server down.
import { liteApi, TlDecodeError, type TlObject, type TlSchema } from "@tongate/tl";
import type { AdnlQueryHandler } from "@tongate/adnl";
import { LiteErrorCode, LiteServerError } from "./errors.js";

export type { TlObject };

export type LiteHandler = (query: TlObject) => Promise<TlObject> | TlObject;

export interface DispatchOptions {
  handlers: Record<string, LiteHandler>;
  /** Resolves once the masterchain reaches `seqno`; rejects (timeout) after `timeoutMs`. */
  waitMasterchainSeqno(seqno: number, timeoutMs: number): Promise<void>;
  schema?: TlSchema;
  /** Called for every query, with its name and outcome, for metrics and logs. */
  observe?(name: string, ok: boolean, ms: number): void;
}

export function createLiteDispatcher(o: DispatchOptions): AdnlQueryHandler {
  const schema = o.schema ?? liteApi;
  const errorAnswer = (code: number, message: string) => schema.encode({ kind: "liteServer.error", code, message });
  return async (bytes) => {
    const started = performance.now();
    let name = "invalid";
    try {
      const outer = schema.decode(bytes);
      // tcp.ping etc. are answered by the ADNL layer; here only liteServer.query is expected.
      if (outer.kind !== "liteServer.query") return errorAnswer(LiteErrorCode.protoviolation, `expected liteServer.query, got ${outer.kind}`);
      const data = outer.data as Buffer;
      let offset = 0;
      let first = schema.decodePrefix(data, "Function", 0);
      if (first.value.kind === "liteServer.waitMasterchainSeqno") {
        const w = first.value;
        offset = first.end;
        await o.waitMasterchainSeqno(w.seqno as number, w.timeout_ms as number);
        first = schema.decodePrefix(data, "Function", offset);
      }
      if (first.end !== data.length) throw new TlDecodeError(`${data.length - first.end} trailing bytes after the query`, first.end);
      const query = first.value;
      name = query.kind;
      const handler = o.handlers[name];
      if (!handler) {
        o.observe?.(name, false, performance.now() - started);
        return errorAnswer(LiteErrorCode.protoviolation, `unknown query ${name}`);
      }
      const result = await handler(query);
      o.observe?.(name, true, performance.now() - started);
      return schema.encode(result);
    } catch (e) {
      o.observe?.(name, false, performance.now() - started);
      if (e instanceof LiteServerError) return errorAnswer(e.code, e.message);
      if (e instanceof TlDecodeError) return errorAnswer(LiteErrorCode.protoviolation, `cannot parse query: ${e.message}`);
      return errorAnswer(LiteErrorCode.error, e instanceof Error ? e.message : String(e));
    }
  };
}
