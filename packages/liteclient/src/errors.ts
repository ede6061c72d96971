// Typed failures of the liteserver pool. Each carries the HTTP status toncenter answers for it
// (v2-api.md §3), so the service maps them without string matching: toApiError(err).
import { apiError } from "@tongate/runtime";
import type { ConnectError } from "@connectrpc/connect";

/** What one liteserver answered (or why it did not), for errors that involve several. */
export interface LiteserverAttempt {
  readonly liteserver: string;
  readonly error: string;
}

export abstract class PoolError extends Error {
  abstract readonly httpStatus: number;
  /** The liteserver that produced this error (`host:port`), when one did. */
  readonly liteserver: string | undefined;
  /** broadcast(): what every liteserver said when all of them failed. */
  attempts: readonly LiteserverAttempt[] | undefined;

  constructor(message: string, liteserver?: string) {
    super(message);
    this.liteserver = liteserver;
  }
}

/**
 * A liteServer.error answer. `code` is TON's error code (651 notready, 652 timeout, 602 error, …) and
 * `message` the liteserver's text verbatim. toncenter answers these with HTTP 500 (tonlib errors); the
 * service refines it (404 for "not in db", 4xx for a rejected external message).
 */
export class LiteServerError extends PoolError {
  override readonly name = "LiteServerError";
  readonly httpStatus = 500;

  constructor(
    readonly code: number,
    message: string,
    liteserver?: string,
  ) {
    super(message, liteserver);
  }

  /** "block … not in db", "lt not in db": the data may be on an archival liteserver. */
  get notInDb(): boolean {
    return /not in db/i.test(this.message);
  }
}

export interface DownLiteserver {
  readonly liteserver: string;
  readonly reason: string;
}

/** No liteserver that is alive (and archival, when asked) can take the request: HTTP 542. */
export class NoAliveLiteserverError extends PoolError {
  override readonly name = "NoAliveLiteserverError";
  readonly httpStatus = 542;

  constructor(
    /** Every liteserver that could not be used, and why. */
    readonly down: readonly DownLiteserver[],
    readonly archival: boolean,
  ) {
    const what = archival ? "no alive archival liteserver" : "no alive liteserver";
    super(down.length === 0 ? what : `${what}: ${down.map((d) => `${d.liteserver} (${d.reason})`).join(", ")}`);
  }
}

/** The liteserver did not answer within the deadline: HTTP 504 "Liteserver timeout" (toncenter's text). */
export class LiteserverTimeoutError extends PoolError {
  override readonly name = "LiteserverTimeoutError";
  readonly httpStatus = 504;

  constructor(
    readonly timeoutMs: number,
    liteserver?: string,
  ) {
    super("Liteserver timeout", liteserver);
  }
}

/**
 * The connection to the liteserver was lost (or its answer was unreadable) while a query was in flight,
 * and the query could not be retried elsewhere (sendMessage is never retried): HTTP 542.
 */
export class LiteserverUnavailableError extends PoolError {
  override readonly name = "LiteserverUnavailableError";
  readonly httpStatus = 542;

  constructor(
    readonly reason: "not-connected" | "closed" | "protocol",
    detail: string,
    liteserver: string,
  ) {
    super(`liteserver ${liteserver} ${reason === "protocol" ? "answered unreadably" : "unavailable"}: ${detail}`, liteserver);
  }
}

/** The pool was closed. */
export class PoolClosedError extends PoolError {
  override readonly name = "PoolClosedError";
  readonly httpStatus = 503;

  constructor() {
    super("liteserver pool is closed");
  }
}

/** The ConnectError (with its HTTP status in the metadata) that a service throws for a pool error. */
export function toApiError(err: PoolError): ConnectError {
  return apiError(err.httpStatus, err.message);
}
