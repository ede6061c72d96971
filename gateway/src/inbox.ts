// The requests of a bidirectional call as the transport takes them: an async iterable fed by the
// client's frames. It holds a few; past `high` the feeder is told to stop reading (a WebSocket pauses
// its socket, so a client that sends faster than the service takes is held back by TCP, not by memory
// here) and to go on once it is down to half.
export class Inbox<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | undefined;
  private ended = false;

  constructor(
    private readonly high: number,
    /** Told when to stop (true) and go on (false) feeding. */
    private readonly hold: (stop: boolean) => void,
  ) {}

  push(item: T): void {
    if (this.ended) return;
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      w({ value: item, done: false });
      return;
    }
    this.items.push(item);
    if (this.items.length === this.high) this.hold(true);
  }

  /** No more items: the iteration ends once the held ones are taken. */
  end(): void {
    this.ended = true;
    const w = this.waiting;
    this.waiting = undefined;
    w?.({ value: undefined, done: true });
  }

  private close(): Promise<IteratorResult<T>> {
    this.end();
    this.items.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) {
          if (this.items.length === this.high >> 1) this.hold(false);
          return Promise.resolve({ value: item, done: false });
        }
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => this.close(),
      // A consumer that gives up with an error (connect's abortable iterables end their input so).
      throw: () => this.close(),
    };
  }
}
