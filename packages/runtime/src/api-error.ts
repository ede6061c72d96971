// Errors a service raises for a client to see. A service speaks gRPC status
// codes; toncenter's APIs answer HTTP statuses (409, 542, 504, …) that have no
// exact gRPC code. The HTTP status travels in the error metadata, so it survives
// the hop over gRPC between processes, and the gateway puts it in the envelope.
import { Code, ConnectError } from "@connectrpc/connect";

export const HTTP_STATUS_KEY = "tongate-http-status";
/** Seconds a refused client should wait (a 503 of a dependency that is down): the gateway's Retry-After. */
export const RETRY_AFTER_KEY = "tongate-retry-after";

const codeForStatus = (status: number): Code => {
  switch (status) {
    case 400:
    case 422:
      return Code.InvalidArgument;
    case 401:
      return Code.Unauthenticated;
    case 403:
      return Code.PermissionDenied;
    case 404:
      return Code.NotFound;
    case 409:
      return Code.FailedPrecondition;
    case 429:
      return Code.ResourceExhausted;
    case 501:
      return Code.Unimplemented;
    case 504:
      return Code.DeadlineExceeded;
    case 503:
    case 542:
      return Code.Unavailable;
    default:
      return status >= 500 ? Code.Internal : Code.InvalidArgument;
  }
};

/** An error with the HTTP status toncenter would answer and a message for a person. */
export function apiError(status: number, message: string, o: { retryAfterS?: number } = {}): ConnectError {
  const err = new ConnectError(message, codeForStatus(status));
  err.metadata.set(HTTP_STATUS_KEY, String(status));
  if (o.retryAfterS !== undefined) err.metadata.set(RETRY_AFTER_KEY, String(o.retryAfterS));
  return err;
}

const statusForCode: Partial<Record<Code, number>> = {
  [Code.InvalidArgument]: 422,
  [Code.OutOfRange]: 422,
  [Code.Unauthenticated]: 401,
  [Code.PermissionDenied]: 403,
  [Code.NotFound]: 404,
  [Code.FailedPrecondition]: 409,
  [Code.AlreadyExists]: 409,
  [Code.ResourceExhausted]: 429,
  [Code.Unimplemented]: 501,
  [Code.DeadlineExceeded]: 504,
  [Code.Unavailable]: 503,
  [Code.Canceled]: 499,
};

/** The HTTP status and message of any error thrown by a service call. */
export function httpStatusOf(err: unknown): { status: number; message: string; retryAfterS?: number } {
  const ce = ConnectError.from(err);
  const given = Number(ce.metadata.get(HTTP_STATUS_KEY));
  const status = Number.isInteger(given) && given >= 400 && given <= 599 ? given : statusForCode[ce.code] ?? 500;
  const retryAfter = Number(ce.metadata.get(RETRY_AFTER_KEY) ?? NaN);
  return { status, message: ce.rawMessage, ...(Number.isInteger(retryAfter) && retryAfter >= 0 ? { retryAfterS: retryAfter } : {}) };
}
