/**
 * The surface (normalised, unstemmed) words of an index's records and their terms, for variant,
 * compound and spelling matches (query-expansion.ts). A word stays while a record has it (counted
 * per record), and the words keep the order a fresh build would meet them in: by the first record
 * that has the word, then by its position there, so an index changed record by record lists its
 * words as a fresh build does (spelling neighbours no longer depend on it: language/edits.ts
 * returns them sorted). A removal that takes a word's first record only marks the word, and
 * `restoreOrder` finds its new first record when the order is next needed.
 *
 * Memory (docs/indexing.md, "Memory per knowledge base" and "Session 11"): no object per word.
 * Words are entries of a list in the order they were met (a removed word leaves a hole, a count of
 * 0, until the list is packed), found through a `WordIds` table; the words are a packed list
 * (packed-words.ts: a few long strings, not one string per word); each word's term is the index's
 * term id; counts and term ids live in one typed array; the sorted orders the prefix and suffix look-ups
 * read are lists of entries (2 bytes a word each), made on the first look-up and dropped with the index's
 * other query caches. A small vocabulary's spelling look-up reads the words where they lie.
 */
import type { CompactIndexSource } from './compact-index.js';
import { idAt, type IdList, idList, idListBytes } from './id-lists.js';
import type { ColumnPacker } from './packed-columns.js';
import { PackedWords } from './packed-words.js';
import { reverseWord, wordsEndingWith } from './sorted-words.js';
import type { AnalysedWords } from './tokenize.js';
import { WordIds } from './word-ids.js';

const SURFACE_MAX_CHARS = 30;
const PLAIN_WORD_RE = /^[a-z]+$/;
/** Per entry in `cells`: records that have the word; slot of the first of them (-1: removed, not yet looked up again); position of the word there (title words, then text words); the id of its term in the index. */
const REFS = 0;
const FIRST = 1;
const POS = 2;
const TERM = 3;
const CELLS = 4;

/** The counts: 16-bit while every value fits (a small knowledge base's), 32-bit from the first that does not. */
type Cells = Int16Array | Int32Array;
const cellsLike = (cells: Cells, length: number): Cells => (cells instanceof Int16Array ? new Int16Array(length) : new Int32Array(length));
const fitsInt16 = (value: number): boolean => value >= -0x8000 && value <= 0x7fff;

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

/** A copy of a word, so that it does not keep a slice's whole source text alive until its list is packed. */
const own = (word: string): string => ` ${word}`.slice(1);

export class SurfaceWords {
  /** Words by entry, in the order they were met; a removed word's entry stays (its count 0) until `repack`. */
  private readonly list = new PackedWords();
  private cells: Cells = new Int16Array(0);
  private readonly ids = new WordIds(this.list);
  private displaced = 0;
  /** The live entries sorted by their words (as `<` orders strings); null until a look-up needs it, or after a change. */
  private sorted: IdList | null = null;
  /** The live entries sorted by their words read backwards, for the suffix look-ups; null like `sorted`. */
  private reversed: IdList | null = null;

  /**
   * `termIds`: the index's ids of the terms it holds (every surface word's term is one: the word's
   * records have it); `terms`: the terms by id. Both are the index's own, read as they are now
   * (no closures over the index: issue 14, Session 12); the index renumbers its terms through
   * `renumberTerms`.
   */
  constructor(
    private readonly termIds: { get(term: string): number | undefined },
    private readonly terms: { at(id: number): string },
  ) {}

  get size(): number {
    return this.ids.size;
  }

  termOf(surface: string): string | undefined {
    const e = this.ids.get(surface);
    return e === undefined ? undefined : this.terms.at(this.cells[e * CELLS + TERM] as number);
  }

  /** The words, in the order a fresh build has them once `restoreOrder` ran. */
  words(): string[] {
    return this.entries().map((e) => this.list.at(e));
  }

  /** The words that start with `prefix`, sorted, at most `limit`. */
  withPrefix(prefix: string, limit: number): string[] {
    const sorted = this.sortedEntries();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.list.compare(idAt(sorted, mid), prefix) < 0) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && out.length < limit; i++) {
      const e = idAt(sorted, i);
      if (!this.list.startsWith(e, prefix)) break;
      out.push(this.list.at(e));
    }
    return out;
  }

  /** The words that end with `suffix`, in the order of their reversed spelling, at most `limit`. */
  withSuffix(suffix: string, limit: number): string[] {
    const reversed = this.reversedEntries();
    return wordsEndingWith(reversed.length, (i) => this.list.at(idAt(reversed, i)), suffix, limit);
  }

  /**
   * The words of at least 4 letters one edit away from `word` (not `word` itself), sorted: every
   * word is looked at where it lies (a small vocabulary's spelling look-up), only those of a near
   * length compared, and a string made only of those found.
   */
  withinOneEdit(word: string): string[] {
    const found: string[] = [];
    for (let e = 0; e < this.list.length; e++) {
      if ((this.cells[e * CELLS + REFS] as number) <= 0) continue;
      const length = this.list.lengthAt(e);
      if (length < 4 || Math.abs(length - word.length) > 1) continue;
      if (this.list.withinOneEdit(e, word) && !(length === word.length && this.list.equals(e, word))) found.push(this.list.at(e));
    }
    return found.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  }

  /** The index's terms got new ids (`map`: old id → new; every term of a word here is kept). */
  renumberTerms(map: Int32Array): void {
    for (let e = 0; e < this.list.length; e++) {
      const at = e * CELLS + TERM;
      if ((this.cells[e * CELLS + REFS] as number) > 0) this.put(at, map[this.cells[at] as number] as number);
    }
  }

  /** Drops the sorted orders (query caches: made again on the next look-up). */
  releaseSorted(): void {
    this.sorted = null;
    this.reversed = null;
  }

  /** Counts the record at `slot` (the highest so far); true when it brought a new word. */
  add(slot: number, title: AnalysedWords | null, text: AnalysedWords): boolean {
    const counted = new Set<number>();
    let added = false;
    eachWord(title, text, (surface, term, pos) => {
      const known = this.ids.get(surface);
      if (known === undefined) {
        counted.add(this.append(own(surface), this.termId(term), 1, slot, pos));
        added = true;
      } else if (!counted.has(known)) {
        counted.add(known);
        this.put(known * CELLS + REFS, (this.cells[known * CELLS + REFS] as number) + 1);
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
        this.ids.delete(surface);
        removed = true;
      } else if (this.cells[at + FIRST] === slot) {
        this.cells[at + FIRST] = -1;
        this.displaced++;
      }
    });
    if (removed) {
      this.releaseSorted();
      if (this.ids.size * 2 < this.list.length) this.repack(this.entries());
    }
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
          this.put(e * CELLS + FIRST, slot);
          this.put(e * CELLS + POS, pos);
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
      if ((this.cells[e * CELLS + REFS] as number) > 0 && (this.cells[at] as number) >= 0) this.cells[at] = map[this.cells[at] as number] as number;
    }
  }

  snapshot(): CompactSurfaces {
    const n = this.ids.size;
    const out: CompactSurfaces = { words: [], terms: [], refs: new Int32Array(n), first: new Int32Array(n), pos: new Int32Array(n) };
    let i = 0;
    for (const e of this.entries()) {
      out.words.push(this.list.at(e));
      out.terms.push(this.terms.at(this.cells[e * CELLS + TERM] as number));
      out.refs[i] = this.cells[e * CELLS + REFS] as number;
      out.first[i] = this.cells[e * CELLS + FIRST] as number;
      out.pos[i] = this.cells[e * CELLS + POS] as number;
      i++;
    }
    return out;
  }

  /** The words of `snapshot()`. */
  restore(compact: CompactSurfaces): void {
    for (const step = this.restoreInSteps(compact, Infinity); !step.next().done; );
  }

  /**
   * `restore` in steps of `perStep` words, so that a caller can let other work run between them
   * (a 100,000-record index has ~150,000 words: ~40 ms at once; index-snapshot.ts loads on the
   * HTTP thread). The table is sized for every word first, so no step rehashes them all. The
   * result is the same as `restore`'s, whatever the steps (test/retrieval/incremental-index.test.ts).
   */
  *restoreInSteps(compact: CompactIndexSource['surfaces'], perStep: number): Generator<void, void> {
    const n = compact.words.length;
    this.list.clear();
    this.releaseSorted();
    this.cells = new Int16Array(n * CELLS);
    this.ids.clear();
    this.ids.reserve(n);
    this.displaced = 0;
    for (let i = 0; i < n; i++) {
      const first = compact.first[i] as number;
      if (first < 0) this.displaced++;
      this.append(compact.words.at(i) as string, this.termId(compact.terms.at(i) as string), compact.refs[i] as number, first, compact.pos[i] as number);
      if (i % perStep === perStep - 1) yield;
    }
    this.list.seal();
  }

  /** Frees the slack left by growth: call once the words stop changing for a while (after a build). */
  trim(): void {
    if (this.list.length !== this.ids.size) this.repack(this.entries());
    else if (this.cells.length > this.list.length * CELLS) this.cells = this.cells.slice(0, this.list.length * CELLS);
    this.list.seal();
    this.ids.trim();
  }

  /** Heap and array-buffer bytes held: the packed words, the counts and term ids, the table and the sorted order. */
  approximateBytes(): number {
    return 400 + this.list.approximateBytes() + this.cells.byteLength + this.ids.byteLength + (this.sorted === null ? 0 : idListBytes(this.sorted)) + (this.reversed === null ? 0 : idListBytes(this.reversed));
  }

  /** Puts the counts, the table's slots and the words' end offsets in the index's one buffer (packed-columns.ts; the sorted order, a query cache, is left out). */
  packColumns(packer: ColumnPacker): void {
    packer.add(this.cells.subarray(0, this.list.length * CELLS), (cells) => {
      this.cells = cells;
    });
    this.ids.packColumns(packer);
    this.list.packColumns(packer);
  }

  /** Live entries in list order. */
  private entries(): number[] {
    const out: number[] = [];
    for (let e = 0; e < this.list.length; e++) if ((this.cells[e * CELLS + REFS] as number) > 0) out.push(e);
    return out;
  }

  /** The live entries sorted by their words, made when first needed after a change. */
  private sortedEntries(): IdList {
    if (this.sorted === null) {
      const byWord = this.entries().map((e) => ({ e, word: this.list.at(e) }));
      byWord.sort((x, y) => (x.word < y.word ? -1 : x.word > y.word ? 1 : 0));
      this.sorted = idList(byWord.map((x) => x.e));
    }
    return this.sorted;
  }

  /** The live entries sorted by their reversed words, made when first needed after a change. */
  private reversedEntries(): IdList {
    if (this.reversed === null) {
      const byWord = this.entries().map((e) => ({ e, reversed: reverseWord(this.list.at(e)) }));
      byWord.sort((x, y) => (x.reversed < y.reversed ? -1 : x.reversed > y.reversed ? 1 : 0));
      this.reversed = idList(byWord.map((x) => x.e));
    }
    return this.reversed;
  }

  /** The index's id of a term it holds. */
  private termId(term: string): number {
    const t = this.termIds.get(term);
    if (t === undefined) throw new Error(`a surface word of an unknown term: ${term}`);
    return t;
  }

  private append(word: string, term: number, refs: number, first: number, pos: number): number {
    const e = this.list.length;
    if (this.cells.length < (e + 1) * CELLS) {
      const next = cellsLike(this.cells, Math.max(16, e * 2) * CELLS);
      next.set(this.cells);
      this.cells = next;
    }
    this.list.push(word);
    this.releaseSorted();
    this.put(e * CELLS + REFS, refs);
    this.put(e * CELLS + FIRST, first);
    this.put(e * CELLS + POS, pos);
    this.put(e * CELLS + TERM, term);
    this.ids.set(word, e);
    return e;
  }

  /** Sets a count, widening the counts to 32 bits when it does not fit in 16. */
  private put(at: number, value: number): void {
    if (this.cells instanceof Int16Array && !fitsInt16(value)) this.cells = Int32Array.from(this.cells);
    this.cells[at] = value;
  }

  /** Rebuilds the list, counts and table with the live entries in `order` (no holes, no slack). */
  private repack(order: readonly number[]): void {
    const { cells } = this;
    // The words first: the list is emptied and filled again in place (the table reads it).
    const words = order.map((e) => this.list.at(e));
    this.list.clear();
    this.cells = cellsLike(cells, order.length * CELLS);
    this.ids.clear();
    order.forEach((e, k) => {
      const at = e * CELLS;
      this.append(words[k] as string, cells[at + TERM] as number, cells[at + REFS] as number, cells[at + FIRST] as number, cells[at + POS] as number);
    });
    this.list.seal();
  }
}
