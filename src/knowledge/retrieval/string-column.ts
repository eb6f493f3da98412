/**
 * A record's strings by slot (its id, its text) for KnowledgeIndex, held without one object per
 * record when they come from a snapshot (issue 14, head of line while a large index loads;
 * docs/indexing.md, "Session 21").
 *
 * A string set one by one is held as it is. A snapshot's strings are decoded in runs of about
 * 1 MB, each one long string (index-snapshot.ts, `StringReader`), and the column keeps where each slot's
 * string lies in its run (three numbers in typed arrays) rather than a slice object per slot: the
 * slice is made when the string is read (`at`), for the few records a query reads, and dies young.
 * 100,000 records' ids and texts held as slices were 200,000 objects made in a few hundred
 * milliseconds that all survived, so that V8's young-generation collections copied them, 10–28 ms a
 * pause, on the HTTP thread, while other knowledge bases' queries waited.
 */
/** Strings by position, read one at a time: a list, or a column whose strings are made as they are read. */
export interface StringList {
  readonly length: number;
  at(index: number): string | undefined;
}

export class StringColumn {
  /** The strings set one by one, by slot; `undefined`: the slot's string is in a run; null: none (`placeNull`). */
  private own: (string | null | undefined)[] = [];
  /** Slots of `ofRuns`, for the run arrays made with the first run (a small index's strings are all set one by one: none). */
  private runSlots = 0;
  private runs: string[] = [];
  /** By slot: its run + 1 (0: not in a run), and where its string starts and ends there (UTF-16 units). */
  private runOf: Int32Array | null = null;
  private from: Int32Array | null = null;
  private to: Int32Array | null = null;

  get length(): number {
    return this.own.length;
  }

  /**
   * A column of `count` strings, the first `count` slots, each in one of `runs` (see `addRun`), or
   * none yet: `place` then puts them.
   */
  static ofRuns(count: number): StringColumn {
    const column = new StringColumn();
    column.own = new Array<string | null | undefined>(count).fill(undefined);
    column.runSlots = count;
    return column;
  }

  /** Adds a run of strings (one long decoded string); returns its number for `place`. */
  addRun(run: string): number {
    if (this.runOf === null) {
      this.runOf = new Int32Array(this.runSlots);
      this.from = new Int32Array(this.runSlots);
      this.to = new Int32Array(this.runSlots);
    }
    this.runs.push(run);
    return this.runs.length - 1;
  }

  /** Slot `slot`'s string is `run`'s units `from` … `to - 1`. */
  place(slot: number, run: number, from: number, to: number): void {
    if (this.runOf === null || this.from === null || this.to === null) throw new Error('no run to place a string in');
    this.runOf[slot] = run + 1;
    this.from[slot] = from;
    this.to[slot] = to;
  }

  /** Slot `slot` holds no string (`atOrNull` says null; `at` ''). */
  placeNull(slot: number): void {
    this.own[slot] = null;
  }

  /** The string at `slot`, or null where `placeNull` put none. */
  atOrNull(slot: number): string | null {
    const own = this.own[slot];
    return own !== undefined ? own : this.at(slot);
  }

  /** Whether a slot below `count` holds no string (`placeNull`), without making the strings. */
  hasNull(count: number): boolean {
    for (let slot = 0; slot < count; slot++) {
      if (this.own[slot] === null) return true;
    }
    return false;
  }

  /** The string at `slot` ('' past the end). */
  at(slot: number): string {
    const own = this.own[slot];
    if (own !== undefined) return own ?? '';
    const run = this.runOf === null || slot >= this.runOf.length ? 0 : (this.runOf[slot] as number);
    return run === 0 ? '' : (this.runs[run - 1] as string).slice((this.from as Int32Array)[slot], (this.to as Int32Array)[slot]);
  }

  /** The length of the string at `slot`, without making it. */
  lengthAt(slot: number): number {
    const own = this.own[slot];
    if (own !== undefined) return own === null ? 0 : own.length;
    const run = this.runOf === null || slot >= this.runOf.length ? 0 : (this.runOf[slot] as number);
    return run === 0 ? 0 : ((this.to as Int32Array)[slot] as number) - ((this.from as Int32Array)[slot] as number);
  }

  set(slot: number, value: string): void {
    this.own[slot] = value;
  }

  /**
   * Keeps the first `length` slots (after a renumbering moved the live ones there). A run that no
   * kept slot reads any more is let go: a removed record's characters are held until then.
   */
  truncate(length: number): void {
    this.own.length = length;
    const { runOf } = this;
    if (runOf === null) return;
    const used = new Uint8Array(this.runs.length);
    for (let slot = 0; slot < Math.min(length, runOf.length); slot++) {
      const run = runOf[slot] as number;
      if (run > 0 && this.own[slot] === undefined) used[run - 1] = 1;
    }
    for (let r = 0; r < this.runs.length; r++) if (used[r] === 0) this.runs[r] = '';
  }

  /** Drops the list's growth slack (an index that may sit idle for long). */
  trimSlack(length: number): void {
    this.own = this.own.slice(0, length);
  }

  /** Slot `to` gets slot `from`'s string (`to` ≤ `from`: the slots move down as a renumbering moves them). */
  move(from: number, to: number): void {
    this.own[to] = this.own[from];
    const { runOf, from: starts, to: ends } = this;
    if (runOf !== null && starts !== null && ends !== null && from < runOf.length) {
      runOf[to] = runOf[from] as number;
      starts[to] = starts[from] as number;
      ends[to] = ends[from] as number;
    }
  }
}
