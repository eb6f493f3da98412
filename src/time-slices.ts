/**
 * Long work on the HTTP thread done in slices (issue 14, head of line): a loop asks `Slices.maybe`
 * often and cheaply, and it lets other work run (`nextTurn`) once `SLICE_MS` of work has run since
 * the last pause, so no other request waits longer than that, whatever the record size or the
 * machine. Used by a snapshot's load, the registry's slow steps and the store's paged reads.
 */

/**
 * Longest run of work between two pauses, ms. A request waits behind a slice at every turn it
 * needs (each database reply of a query on PostgreSQL is one), so the slice is short: while a
 * 100,000-record knowledge base's vocabulary was built on one CPU, a 25-record knowledge base's
 * query p99 was 21–25 ms with 4 ms slices, 13–17 ms with 1 ms and 11–14 ms with 0.5 ms, against
 * 7–9 ms alone (session 29, docs/indexing.md). A pause costs one turn of the event loop (a few µs);
 * the large knowledge base's first query took as long with 0.5 ms slices as with 4 ms when alone.
 */
export const SLICE_MS = 0.5;

/** Resolves after the event loop has run the I/O and timers waiting now. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Pauses (`pause`, by default `nextTurn`) once `ms` (by default `SLICE_MS`) of work ran since the last pause. */
export class Slices {
  private since = performance.now();

  constructor(
    private readonly pause: () => Promise<void> = nextTurn,
    private readonly ms = SLICE_MS,
  ) {}

  async maybe(): Promise<void> {
    if (performance.now() - this.since < this.ms) return;
    await this.pause();
    this.since = performance.now();
  }
}

/** Runs `steps` to their end, in slices. */
export async function inSlices<T>(steps: Generator<void, T>, slices = new Slices()): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await slices.maybe();
  }
}
