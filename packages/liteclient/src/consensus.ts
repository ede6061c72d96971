// The consensus masterchain block and the liveness rule, as toncenter's references compute them
// (../shared/reference/v2-api.md §4.4):
//
// - PY (`manager.py check_working`): best = the highest last block; among the liteservers within 4 blocks
//   of best, the consensus is the first best-i (i = 0..3) that at least 60% of them have reached. It only
//   ever increases; its timestamp is when it last advanced (getConsensusBlock).
// - CPP (`multi_client_actor.cpp`): a liteserver is alive when last_mc_seqno >= consensus - 3.
//
// tongate takes the consensus from PY (a quorum, so one liteserver that is a block ahead does not make the
// others look behind) and the 3-block tolerance from CPP. Monotonicity has one exception: when no responding
// liteserver is within the tolerance of the held consensus (the leaders went away, or a localnet was reset),
// the held value is replaced by the fresh one instead of declaring every liteserver dead forever.

/** Blocks below best that still count towards the quorum (PY: best-0 … best-3). */
export const CONSENSUS_WINDOW = 4;
/** Share of the liteservers in the window that must have reached the consensus block (PY: 60%). */
export const CONSENSUS_QUORUM = 0.6;
/** A liteserver is alive within this many blocks of consensus (CPP: consensus_block - 3). */
export const ALIVE_TOLERANCE = 3;

/** The consensus seqno of these last masterchain seqnos (one per responding liteserver); null when empty. */
export function computeConsensus(seqnos: readonly number[]): number | null {
  if (seqnos.length === 0) return null;
  const best = Math.max(...seqnos);
  const window = seqnos.filter((s) => s > best - CONSENSUS_WINDOW);
  const needed = Math.ceil(window.length * CONSENSUS_QUORUM - 1e-9);
  for (let i = 0; i < CONSENSUS_WINDOW; i++) {
    if (window.filter((s) => s >= best - i).length >= needed) return best - i;
  }
  return best - (CONSENSUS_WINDOW - 1); // unreachable: at i = 3 the whole window counts
}

/** The consensus to hold next, given the held one and the fresh computation (see the header). */
export function advanceConsensus(held: number | null, seqnos: readonly number[], tolerance = ALIVE_TOLERANCE): number | null {
  const fresh = computeConsensus(seqnos);
  if (fresh === null) return held;
  if (held === null || fresh >= held) return fresh;
  return seqnos.some((s) => s >= held - tolerance) ? held : fresh;
}

/** CPP's rule: alive when the liteserver's last masterchain seqno is within `tolerance` blocks of consensus. */
export function withinConsensus(seqno: number, consensus: number | null, tolerance = ALIVE_TOLERANCE): boolean {
  return consensus === null || seqno >= consensus - tolerance;
}
