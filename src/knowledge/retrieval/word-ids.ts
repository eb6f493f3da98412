/**
 * Ids of words, found by the word: an open-addressing hash table of ids over a word list its owner
 * keeps (`WordList`), so every word is held once, by that list. Two bytes per slot (four once an
 * id passes 65,534; at most three quarters full, `fits`) instead of the 30–60 bytes a `Map` entry costs, which is most of a small knowledge base's
 * index (docs/indexing.md, "Memory per knowledge base"). The same calls as a `Map<string, number>`
 * for what the index uses (`get`, `set`, `delete`, `clear`, `size`).
 */
import type { ColumnPacker } from './packed-columns.js';

/**
 * Whether `slots` slots hold `count` ids: at most three quarters full (issue 14, Session 11: half
 * full doubled a small knowledge base's tables, ~2 KB of its ~40; a hit takes ~2.5 probes on average, not ~1.5).
 */
const fits = (count: number, slots: number): boolean => count * 4 <= slots * 3;

/** FNV-1a over the UTF-16 code units, then mixed so that the low bits (the slot) vary. */
export function hashOf(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/** The owner's list of words the table holds ids of: a `PackedWords` (compared in place), or any list with these reads. */
export interface WordList {
  /** The word of an id that is in the table (read when rehashing). */
  at(id: number): string;
  /** Whether the word of `id` is `word` (read when probing). */
  equals(id: number, word: string): boolean;
}

/**
 * A word list read through a function (e.g. records' ids in a list the owner replaces). A class,
 * not an object literal of arrow functions: those are named functions, which under tsx (esbuild's
 * `keepNames`: the benchmarks and `npm run dev`) each get a ~256-byte property array per instance.
 */
export class WordsReadBy implements WordList {
  constructor(private readonly read: (id: number) => string) {}

  at(id: number): string {
    return this.read(id);
  }

  equals(id: number, word: string): boolean {
    return this.read(id) === word;
  }
}

export class WordIds {
  /** id + 1 by slot; 0: empty. */
  private slots: Uint16Array | Int32Array = new Uint16Array(0);
  private count = 0;
  /** Whether an id too large for 16 bits was ever set (the slots are then 32-bit). */
  private wide = false;

  /**
   * `words`: the owner's list, the same object for as long as the table is used (an owner that
   * changes its words does so in place: no closures over the owner per table, issue 14, Session 12).
   */
  constructor(private readonly words: WordList) {}

  get size(): number {
    return this.count;
  }

  /** Bytes of the slots (outside the JavaScript heap). */
  get byteLength(): number {
    return this.slots.byteLength;
  }

  get(word: string): number | undefined {
    const { slots } = this;
    const mask = slots.length - 1;
    if (mask < 0) return undefined;
    for (let i = hashOf(word) & mask; ; i = (i + 1) & mask) {
      const v = slots[i] as number;
      if (v === 0) return undefined;
      if (this.words.equals(v - 1, word)) return v - 1;
    }
  }

  /** Gives `word` the id `id` (the owner's list must already say `at(id) === word`). */
  set(word: string, id: number): this {
    if (!this.wide && id + 1 > 0xffff) {
      this.wide = true;
      this.resize(this.slots.length);
    }
    if (!fits(this.count + 1, this.slots.length)) this.resize(Math.max(16, this.slots.length * 2));
    const mask = this.slots.length - 1;
    for (let i = hashOf(word) & mask; ; i = (i + 1) & mask) {
      const v = this.slots[i] as number;
      if (v === 0) {
        this.slots[i] = id + 1;
        this.count++;
        return this;
      }
      if (this.words.equals(v - 1, word)) {
        this.slots[i] = id + 1;
        return this;
      }
    }
  }

  /** Takes the word out (before its place in the owner's list changes); false when it was not in. */
  delete(word: string): boolean {
    const { slots } = this;
    const mask = slots.length - 1;
    if (mask < 0) return false;
    let i = hashOf(word) & mask;
    for (; ; i = (i + 1) & mask) {
      const v = slots[i] as number;
      if (v === 0) return false;
      if (this.words.equals(v - 1, word)) break;
    }
    // Backward-shift deletion: later entries of the same run move up, so no probe stops short.
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const v = slots[j] as number;
      if (v === 0) break;
      const home = hashOf(this.words.at(v - 1)) & mask;
      // The entry at j may fill the hole at i unless its home lies cyclically in (i, j].
      if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
        slots[i] = v;
        i = j;
      }
    }
    slots[i] = 0;
    this.count--;
    return true;
  }

  /**
   * Makes room for ids up to `count - 1` at once, so that setting them never resizes (a resize
   * hashes every word again: ~10 ms at 100,000 words, one long step of a stepped load).
   */
  reserve(count: number): void {
    let n = 16;
    while (!fits(count, n)) n *= 2;
    const wide = this.wide || count > 0xffff;
    if (n > this.slots.length || wide !== this.wide) {
      this.wide = wide;
      this.resize(Math.max(n, this.slots.length));
    }
  }

  clear(): void {
    this.slots = new Uint16Array(0);
    this.count = 0;
    this.wide = false;
  }

  /** Frees the slack of a table that stopped growing (the fewest slots, a power of two, that `fits` the entries). */
  trim(): void {
    let n = 16;
    while (!fits(this.count, n)) n *= 2;
    if (n < this.slots.length) this.resize(n);
  }

  /** Puts the slots in the index's one buffer (packed-columns.ts). */
  packColumns(packer: ColumnPacker): void {
    packer.add(this.slots, (view) => {
      this.slots = view;
    });
  }

  private resize(length: number): void {
    const old = this.slots;
    this.slots = this.wide ? new Int32Array(length) : new Uint16Array(length);
    const mask = length - 1;
    for (let k = 0; k < old.length; k++) {
      const v = old[k] as number;
      if (v === 0) continue;
      let i = hashOf(this.words.at(v - 1)) & mask;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
      this.slots[i] = v;
    }
  }
}
