/**
 * The surface (normalised, unstemmed) words of an index's records and their terms, for variant,
 * compound and spelling matches (query-expansion.ts). A word stays while a record has it (counted
 * per record), and the words keep the order a fresh build would meet them in: by the first record
 * that has the word, then by its position there, so an index changed record by record lists its
 * words as a fresh build does (spelling neighbours no longer depend on it: language/edits.ts
 * returns them sorted). A removal that takes a word's first record only marks the word, and
 * `restoreOrder` finds its new first record when the order is next needed.
 *
 * Memory (docs/indexing.md, "Memory per knowledge base"): no object per word. Words are entries of
 * a list in the order they were met (a removed word leaves a hole until the list is packed), found
 * through a `WordIds` table; counts live in one typed array; a word spelled like an indexed term,
 * and every word's term, is the index's own string of that term (`canonical`), not a copy.
 */
import type { AnalysedWords } from './tokenize.js';
import { WordIds } from './word-ids.js';

const SURFACE_MAX_CHARS = 30;
const PLAIN_WORD_RE = /^[a-z]+$/;
/** Per entry in `cells`: records that have the word; slot of the first of them (-1: removed, not yet looked up again); position of the word there (title words, then text words). */
const REFS = 0;
const FIRST = 1;
const POS = 2;
const CELLS = 3;
/** A removed word's entry (no word is this short). */
const HOLE = '';

/** The words in order, for another thread's index (see compact-index.ts). */
export interface CompactSurfaces {
  words: string[];
  terms: string[];
  refs: Int32Array<ArrayBuffer>;
  first: Int32Array<ArrayBuffer>;
  pos: Int32Array<ArrayBuffer>;
}

/** Calls `visit` for each surface word of a record worth remembering (plain words of 3 to 30 letters). */
function eachWord(title: AnalysedWords | null, text: AnalysedWords, visit: (surface: string, term: string, pos: number) => void): void {
  let offset = 0;
  for (const words of title ? [title, text] : [text]) {
    const { surfaces, terms } = words;
    for (let i = 0; i < surfaces.length; i++) {
      const surface = surfaces[i] as string;
      if (surface.length >= 3 && surface.length <= SURFACE_MAX_CHARS && PLAIN_WORD_RE.test(surface)) visit(surface, terms[i] as string, offset + i);
    }
    offset += surfaces.length;
  }
}

/** Heap of a one-byte string: header and characters, in 8-byte steps. */
const wordBytes = (word: string): number => 16 + ((word.length + 7) & ~7);

/** A copy of a word, so that it does not keep a slice's whole source text alive. */
const own = (word: string): string => ` ${word}`.slice(1);

export class SurfaceWords {
  /** Words by entry, in the order they were met; `HOLE` where a word was removed. */
  private list: string[] = [];
  /** The term of each entry's word. */
  private terms: string[] = [];
  private cells = new Int32Array(0);
  private readonly ids = new WordIds((e) => this.list[e] as string);
  private displaced = 0;
  /** Bytes of the words held as copies of their own (not shared with the index's terms), about. */
  private ownBytes = 0;

  /** `canonical(word)`: the index's own string of that term, or undefined when it is not a term. */
  constructor(private readonly canonical: (word: string) => string | undefined = () => undefined) {}

  get size(): number {
    return this.ids.size;
  }

  termOf(surface: string): string | undefined {
    const e = this.ids.get(surface);
    return e === undefined ? undefined : this.terms[e];
  }

  /** The words, in the order a fresh build has them once `restoreOrder` ran. */
  words(): string[] {
    return this.list.length === this.ids.size ? this.list.slice() : this.list.filter((w) => w !== HOLE);
  }

  /** Counts the record at `slot` (the highest so far); true when it brought a new word. */
  add(slot: number, title: AnalysedWords | null, text: AnalysedWords): boolean {
    const counted = new Set<number>();
    let added = false;
    eachWord(title, text, (surface, term, pos) => {
      const known = this.ids.get(surface);
      if (known === undefined) {
        counted.add(this.append(this.shared(surface) ?? own(surface), this.canonical(term) ?? own(term), 1, slot, pos));
        added = true;
      } else if (!counted.has(known)) {
        counted.add(known);
        this.cells[known * CELLS + REFS] = (this.cells[known * CELLS + REFS] as number) + 1;
      }
    });
    return added;
  }

  /** Uncounts the record at `slot`; true when a word went with it. */
  remove(slot: number, title: AnalysedWords | null, text: AnalysedWords): boolean {
    const counted = new Set<number>();
    let removed = false;
    eachWord(title, text, (surface) => {
      const e = this.ids.get(surface);
      if (e === undefined || counted.has(e)) return;
      counted.add(e);
      const at = e * CELLS;
      const refs = (this.cells[at + REFS] as number) - 1;
      this.cells[at + REFS] = refs;
      if (refs === 0) {
        if ((this.cells[at + FIRST] as number) < 0) this.displaced--;
        if (this.canonical(surface) === undefined) this.ownBytes = Math.max(0, this.ownBytes - wordBytes(surface));
        this.ids.delete(surface);
        this.list[e] = HOLE;
        this.terms[e] = HOLE;
        removed = true;
      } else if (this.cells[at + FIRST] === slot) {
        this.cells[at + FIRST] = -1;
        this.displaced++;
      }
    });
    if (removed && this.ids.size * 2 < this.list.length) this.repack(this.entries());
    return removed;
  }

  /**
   * Puts the words back in a fresh build's order after removals took words' first records: the
   * live records are read again from the first slot until every such word has its new first one.
   */
  restoreOrder(analyse: (slot: number) => { title: AnalysedWords | null; text: AnalysedWords }, slots: number, isLive: (slot: number) => boolean): void {
    if (this.displaced === 0) return;
    for (let slot = 0; slot < slots && this.displaced > 0; slot++) {
      if (!isLive(slot)) continue;
      const { title, text } = analyse(slot);
      eachWord(title, text, (surface, _term, pos) => {
        const e = this.ids.get(surface);
        if (e !== undefined && (this.cells[e * CELLS + FIRST] as number) < 0) {
          this.cells[e * CELLS + FIRST] = slot;
          this.cells[e * CELLS + POS] = pos;
          this.displaced--;
        }
      });
    }
    const { cells } = this;
    this.repack(this.entries().sort((x, y) => (cells[x * CELLS + FIRST] as number) - (cells[y * CELLS + FIRST] as number) || (cells[x * CELLS + POS] as number) - (cells[y * CELLS + POS] as number)));
  }

  /** The records moved to new slots (`map`: old slot → new). */
  renumber(map: Int32Array): void {
    for (let e = 0; e < this.list.length; e++) {
      const at = e * CELLS + FIRST;
      if (this.list[e] !== HOLE && (this.cells[at] as number) >= 0) this.cells[at] = map[this.cells[at] as number] as number;
    }
  }

  snapshot(): CompactSurfaces {
    const n = this.ids.size;
    const out: CompactSurfaces = { words: [], terms: [], refs: new Int32Array(n), first: new Int32Array(n), pos: new Int32Array(n) };
    let i = 0;
    for (const e of this.entries()) {
      out.words.push(this.list[e] as string);
      out.terms.push(this.terms[e] as string);
      out.refs[i] = this.cells[e * CELLS + REFS] as number;
      out.first[i] = this.cells[e * CELLS + FIRST] as number;
      out.pos[i] = this.cells[e * CELLS + POS] as number;
      i++;
    }
    return out;
  }

  /** The words of `snapshot()` (the index's terms already known, so that `canonical` finds them). */
  restore(compact: CompactSurfaces): void {
    for (const step = this.restoreInSteps(compact, Infinity); !step.next().done; );
  }

  /**
   * `restore` in steps of `perStep` words, so that a caller can let other work run between them
   * (a 100,000-record index has ~150,000 words: ~40 ms at once; index-snapshot.ts loads on the
   * HTTP thread). The table is sized for every word first, so no step rehashes them all. The
   * result is the same as `restore`'s, whatever the steps (test/retrieval/incremental-index.test.ts).
   */
  *restoreInSteps(compact: CompactSurfaces, perStep: number): Generator<void, void> {
    const n = compact.words.length;
    this.list = [];
    this.terms = [];
    this.cells = new Int32Array(n * CELLS);
    this.ids.clear();
    this.ids.reserve(n);
    this.displaced = 0;
    this.ownBytes = 0;
    for (let i = 0; i < n; i++) {
      const word = compact.words[i] as string;
      const term = compact.terms[i] as string;
      const first = compact.first[i] as number;
      if (first < 0) this.displaced++;
      this.append(this.shared(word) ?? word, this.canonical(term) ?? term, compact.refs[i] as number, first, compact.pos[i] as number);
      if (i % perStep === perStep - 1) yield;
    }
  }

  /** Frees the slack left by growth: call once the words stop changing for a while (after a build). */
  trim(): void {
    if (this.list.length !== this.ids.size) this.repack(this.entries());
    else if (this.cells.length > this.list.length * CELLS) this.cells = this.cells.slice(0, this.list.length * CELLS);
    this.ids.trim();
  }

  /** Heap and array-buffer bytes held: the lists, the words not shared with the index's terms, the counts and the table. */
  approximateBytes(): number {
    return 400 + this.list.length * 16 + this.ownBytes + this.cells.byteLength + this.ids.byteLength;
  }

  /** The index's string of a word spelled like one of its terms; otherwise undefined, and the word's copy is counted. */
  private shared(word: string): string | undefined {
    const term = this.canonical(word);
    if (term === undefined) this.ownBytes += wordBytes(word);
    return term;
  }

  /** Live entries in list order. */
  private entries(): number[] {
    const out: number[] = [];
    for (let e = 0; e < this.list.length; e++) if (this.list[e] !== HOLE) out.push(e);
    return out;
  }

  private append(word: string, term: string, refs: number, first: number, pos: number): number {
    const e = this.list.length;
    if (this.cells.length < (e + 1) * CELLS) {
      const next = new Int32Array(Math.max(16, e * 2) * CELLS);
      next.set(this.cells);
      this.cells = next;
    }
    this.list.push(word);
    this.terms.push(term);
    this.cells[e * CELLS + REFS] = refs;
    this.cells[e * CELLS + FIRST] = first;
    this.cells[e * CELLS + POS] = pos;
    this.ids.set(word, e);
    return e;
  }

  /** Rebuilds the list, counts and table with the live entries in `order` (no holes, no slack). */
  private repack(order: readonly number[]): void {
    const { list, terms, cells } = this;
    this.list = [];
    this.terms = [];
    this.cells = new Int32Array(order.length * CELLS);
    this.ids.clear();
    for (const e of order) {
      const at = e * CELLS;
      this.append(list[e] as string, terms[e] as string, cells[at + REFS] as number, cells[at + FIRST] as number, cells[at + POS] as number);
    }
  }
}
