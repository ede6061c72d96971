// liteServer.error codes, as TON's common/errorcode.h defines them.
export const LiteErrorCode = {
  failure: 601,
  error: 602,
  warning: 603,
  protoviolation: 621,
  notready: 651,
  timeout: 652,
} as const;

/** A liteServer.error answer: what a real liteserver says for this case. */
export class LiteServerError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const notInDb = (what: string) => new LiteServerError(LiteErrorCode.notready, `${what}: not in db`);
export const protoViolation = (message: string) => new LiteServerError(LiteErrorCode.protoviolation, message);
