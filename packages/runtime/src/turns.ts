// One in-process call starts per turn of the event loop. A service answering from memory computes
// synchronously (a key index page: decode, book step; then the gateway renders it), so a burst of
// such calls started in one turn would hold the loop for the whole burst, and every request that
// arrives meanwhile — a cached v2 answer the gateway gives at once — waits behind all of them.
// Started one per turn, each call's work (and the rendering that follows it in the same microtask
// chain) takes one check phase, and the loop polls for new requests between two of them.
const waiting: (() => void)[] = [];
let draining = false;

/** Resolves in a later turn of the loop, in arrival order, one waiter per turn. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!draining) {
      draining = true;
      setImmediate(release);
    }
  });
}

function release(): void {
  const next = waiting.shift();
  // an immediate queued from an immediate runs in the next turn, after that turn's poll for I/O
  if (waiting.length) setImmediate(release);
  else draining = false;
  next?.();
}
