/**
 * The surface (normalised, unstemmed) words of an index's records and their terms, for variant,
 * compound and spelling matches (query-expansion.ts). A word stays while a record has it (counted
 * per record), and the words keep the order a fresh build would meet them in: by the first record
 * that has the word, then by its position there. Spelling corrections take the first of equally
 * frequent candidates, so that order is part of the ranking; a removal that takes a word's first
 * record only marks the word, and `restoreOrder` finds its new first record when the order is next needed.
 */
import type { AnalysedWords } from './tokenize.js';

const SURFACE_MAX_CHARS = 30;
const PLAIN_WORD_RE = /^[a-z]+$/;

interface Surface {
  term: string;
  /** Records that have the word. */
  refs: number;
  /** Slot of the first record with the word, or -1 when that record was removed (not yet looked up again). */
  first: number;
  /** Position of the word in that record (title words, then text words). */
  pos: number;
  /** Stamp of the last record operation that counted the word (one count per record). */
  mark: number;
}

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

export class SurfaceWords {
  private map = new Map<string, Surface>();
  private displaced = 0;
  private stamp = 0;

  get size(): number {
    return this.map.size;
  }

  termOf(surface: string): string | undefined {
    return this.map.get(surface)?.term;
  }

  /** The words, in the order a fresh build has them once `restoreOrder` ran. */
  words(): string[] {
    return [...this.map.keys()];
  }

  /** Counts the record at `slot` (the highest so far); true when it brought a new word. */
  add(slot: number, title: AnalysedWords | null, text: AnalysedWords): boolean {
    const stamp = ++this.stamp;
    let added = false;
    eachWord(title, text, (surface, term, pos) => {
      const known = this.map.get(surface);
      if (known === undefined) {
        // Copies, so that the map does not keep the record's whole normalised text alive.
        this.map.set(` ${surface}`.slice(1), { term: ` ${term}`.slice(1), refs: 1, first: slot, pos, mark: stamp });
        added = true;
      } else if (known.mark !== stamp) {
        known.mark = stamp;
        known.refs++;
      }
    });
    return added;
  }

  /** Uncounts the record at `slot`; true when a word went with it. */
  remove(slot: number, title: AnalysedWords | null, text: AnalysedWords): boolean {
    const stamp = ++this.stamp;
    let removed = false;
    eachWord(title, text, (surface) => {
      const known = this.map.get(surface);
      if (known === undefined || known.mark === stamp) return;
      known.mark = stamp;
      known.refs--;
      if (known.refs === 0) {
        this.map.delete(surface);
        if (known.first < 0) this.displaced--;
        removed = true;
      } else if (known.first === slot) {
        known.first = -1;
        this.displaced++;
      }
    });
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
        const known = this.map.get(surface);
        if (known !== undefined && known.first < 0) {
          known.first = slot;
          known.pos = pos;
          this.displaced--;
        }
      });
    }
    this.map = new Map([...this.map].sort(([, x], [, y]) => x.first - y.first || x.pos - y.pos));
  }

  /** The records moved to new slots (`map`: old slot → new). */
  renumber(map: Int32Array): void {
    for (const surface of this.map.values()) if (surface.first >= 0) surface.first = map[surface.first] as number;
  }

  snapshot(): CompactSurfaces {
    const n = this.map.size;
    const out: CompactSurfaces = { words: [], terms: [], refs: new Int32Array(n), first: new Int32Array(n), pos: new Int32Array(n) };
    let i = 0;
    for (const [word, s] of this.map) {
      out.words.push(word);
      out.terms.push(s.term);
      out.refs[i] = s.refs;
      out.first[i] = s.first;
      out.pos[i] = s.pos;
      i++;
    }
    return out;
  }

  restore(compact: CompactSurfaces): void {
    this.map = new Map();
    this.displaced = 0;
    for (let i = 0; i < compact.words.length; i++) {
      const first = compact.first[i] as number;
      if (first < 0) this.displaced++;
      this.map.set(compact.words[i] as string, { term: compact.terms[i] as string, refs: compact.refs[i] as number, first, pos: compact.pos[i] as number, mark: 0 });
    }
  }

  approximateBytes(): number {
    return this.map.size * 136;
  }
}
