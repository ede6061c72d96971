// A token bucket: it holds up to `burst` tokens, refills `rps` tokens per second
// continuously, and every request takes one (or its cost). tongate's burst is the
// per-second limit: a client may spend one second's worth at once, then the
// bucket admits `rps` requests per second.
//
// The state is kept in milli-tokens, so refills over whole milliseconds are exact
// integers (1 rps refills 1 milli-token per ms): no floating-point drift at the
// edges (the 2nd keyless request at t=0.5 s is refused, the one at t=1.0 s admitted).

export interface BucketState {
  /** Milli-tokens held at `atMs` (negative: in debt after a request that cost more than the burst). */
  milli: number;
  atMs: number;
}

export interface Rate {
  /** Tokens refilled per second. */
  rps: number;
  /** Tokens the bucket holds at most. */
  burst: number;
}

export interface Take {
  ok: boolean;
  /** Tokens taken (0 when refused). */
  taken: number;
  state: BucketState;
  /** Whole tokens left after the decision. */
  remaining: number;
  /** ms until the bucket is full again. */
  resetMs: number;
  /** ms until `need` tokens are held again (0 when taken). */
  retryAfterMs: number;
}

const MILLI = 1000;

/** The bucket at `now`: a missing bucket is a full one. */
export function refill(state: BucketState | undefined, rate: Rate, now: number): BucketState {
  const cap = rate.burst * MILLI;
  if (!state) return { milli: cap, atMs: now };
  const elapsed = Math.max(0, now - state.atMs);
  return { milli: Math.min(cap, state.milli + elapsed * rate.rps), atMs: Math.max(now, state.atMs) };
}

function outcome(state: BucketState, rate: Rate, ok: boolean, taken: number, need: number): Take {
  const cap = rate.burst * MILLI;
  const missing = Math.max(0, need * MILLI - state.milli);
  return {
    ok,
    taken,
    state,
    remaining: Math.max(0, Math.floor(state.milli / MILLI)),
    resetMs: Math.ceil(Math.max(0, cap - state.milli) / rate.rps),
    retryAfterMs: ok ? 0 : Math.ceil(missing / rate.rps),
  };
}

/**
 * Takes `cost` tokens, all or nothing. A cost above the burst can never be held at
 * once: it is admitted when the bucket is full and leaves it in debt, so the
 * long-run rate stays exact.
 */
export function takeExactly(prev: BucketState | undefined, rate: Rate, now: number, cost: number): Take {
  const state = refill(prev, rate, now);
  const need = Math.min(cost, rate.burst);
  if (state.milli < need * MILLI) return outcome(state, rate, false, 0, need);
  return outcome({ milli: state.milli - cost * MILLI, atMs: state.atMs }, rate, true, cost, need);
}

/** Takes up to `max` whole tokens (at least one, or nothing: then refused). */
export function takeUpTo(prev: BucketState | undefined, rate: Rate, now: number, max: number): Take {
  const state = refill(prev, rate, now);
  const n = Math.min(max, Math.floor(state.milli / MILLI));
  if (n < 1) return outcome(state, rate, false, 0, 1);
  return outcome({ milli: state.milli - n * MILLI, atMs: state.atMs }, rate, true, n, 1);
}

/** A bucket that is full at `now` carries no information and may be forgotten. */
export function isFull(state: BucketState, rate: Rate, now: number): boolean {
  return refill(state, rate, now).milli >= rate.burst * MILLI;
}
