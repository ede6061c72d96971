// How failures become HTTP statuses and messages, shared by the stages.
import { httpStatusOf, type Logger } from "@tongate/runtime";
import { InputError } from "../codec/parse.js";
import { errorBody } from "../envelope.js";
import type { ApiFlavour, Route } from "../routes.js";
import type { Reply } from "./stage.js";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `retryAfterS`: the service refused for now (a dependency is down) and said when to try again. */
export type Classify = (err: unknown, route: Route | undefined) => { status: number; message: string; retryAfterS?: number };

export function classifier(log: Logger): Classify {
  return (err, route) => {
    if (err instanceof InputError || err instanceof HttpError) return { status: err.status, message: err.message };
    const { status, message, retryAfterS } = httpStatusOf(err);
    if (status === 501 && route) return { status, message: `${route.name} is not implemented yet` };
    // A refusal with Retry-After is a decision (a dependency is down and the service knows), not a failure.
    if (retryAfterS !== undefined) return { status, message, retryAfterS };
    if (status >= 500 && status !== 501 && status !== 504 && status !== 542) {
      log.error({ err, route: route?.path }, "service call failed");
    }
    return { status, message };
  };
}

/** An error answered before any call, with "_" as its @extra. */
export function refusal(flavour: ApiFlavour, status: number, message: string, route: string): Reply {
  return { status, body: errorBody(flavour, status, message, "_"), route };
}
