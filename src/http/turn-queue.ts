/**
 * Work that may wait its turn: each waiter is let go in its own turn of the
 * event loop, one per turn, in arrival order. Between two turns Node polls the
 * sockets, so requests that arrive meanwhile are read, checked and answered
 * with their first event before the next waiter's work runs. An answer stream
 * uses it after its `meta` event: under a burst of streams every client hears
 * from the server within a few requests' time, not after everyone else's
 * retrieval and answer.
 */
export class TurnQueue {
  private readonly waiting: (() => void)[] = [];
  private head = 0;
  private scheduled = false;

  /** Resolves in a later turn of the event loop, after everyone who asked before. */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.next);
      }
    });
  }

  get size(): number {
    return this.waiting.length - this.head;
  }

  private readonly next = (): void => {
    const resolve = this.waiting[this.head];
    this.waiting[this.head++] = noop;
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    // The waiter's work runs in this turn's microtasks; the next waiter gets the next turn.
    if (this.size > 0) setImmediate(this.next);
    else this.scheduled = false;
    resolve?.();
  };
}

function noop(): void {}
