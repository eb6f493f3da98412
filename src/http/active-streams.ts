/**
 * The answer streams in flight, for graceful shutdown: the server stops accepting, gives running
 * answers a few seconds to finish, then ends the rest with an `error` event (code `shutting_down`)
 * so clients know to retry elsewhere.
 *
 * A doubly linked list of one small entry per stream, not a `Map` keyed by the stream: V8 keeps a
 * Map's replaced hash tables with their entries in them, and once a long-lived Map's table was in
 * the old generation, every table it replaced kept the streams it held (their request, response
 * and answer) alive through young-generation collections until the next full one. Under a stream
 * of new questions that was ~10% of everything a stream allocated, copied into the old generation
 * and collected there (docs/decisions.md, "Per-request objects and V8's young generation"). A
 * removed entry drops its links, so an entry that did reach the old generation holds no neighbour.
 */

/** A stream's place in the list, as `add` returns it; `delete` it when the stream ends. */
export interface ActiveStream {
  /** Ends the stream with the `shutting_down` event. */
  readonly end: () => Promise<void>;
}

interface Entry extends ActiveStream {
  prev: Entry | null;
  next: Entry | null;
  linked: boolean;
}

export class ActiveStreams {
  private head: Entry | null = null;
  private count = 0;

  add(endWithError: () => Promise<void>): ActiveStream {
    const entry: Entry = { end: endWithError, prev: null, next: this.head, linked: true };
    if (this.head !== null) this.head.prev = entry;
    this.head = entry;
    this.count++;
    return entry;
  }

  /** Takes the stream out of the list; again, or for a stream of another list, nothing happens. */
  delete(stream: ActiveStream): void {
    const entry = stream as Entry;
    if (!entry.linked) return;
    if (entry.prev !== null) entry.prev.next = entry.next;
    else if (this.head === entry) this.head = entry.next;
    else return;
    if (entry.next !== null) entry.next.prev = entry.prev;
    entry.prev = null;
    entry.next = null;
    entry.linked = false;
    this.count--;
  }

  get size(): number {
    return this.count;
  }

  async drain(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.count > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const ends: Promise<void>[] = [];
    for (let entry = this.head; entry !== null; entry = entry.next) ends.push(entry.end());
    await Promise.all(ends);
  }
}
