/**
 * A list of words kept as a few long strings with end offsets instead of one string each (issue
 * 14, memory per idle knowledge base; docs/indexing.md, "Session 11"). A short word held as a
 * string of its own costs a 16-byte header, its characters rounded up to 8 bytes and an 8-byte list
 * slot (~32 bytes for a 7-letter term); here it costs its characters and a 2-byte end offset. A
 * 25-record knowledge base has ~350 terms and ~350 surface words: ~17 KB as strings, ~6 KB packed.
 *
 * Words are appended; a word is read back as a new string (`at`) or compared in place (`equals`,
 * which the word tables probe with). Appended words wait in a plain list until `seal()` or until
 * `SEGMENT` of them have come, then are joined into one segment: a segment is never joined again
 * (bounded work per word appended, however long the list), except the last, partly filled one,
 * which is opened again when a word is appended after a `seal()`.
 */
import { withinOneEdit, withinOneEditAt } from '../language/edits.js';
import type { ColumnPacker } from './packed-columns.js';

const SEGMENT_BITS = 12;
/** Words per segment: a segment's join (and its reopening) costs at most this many words' work. */
const SEGMENT = 1 << SEGMENT_BITS;
const IN_SEGMENT = SEGMENT - 1;

interface Segment {
  /** The segment's words one after another. */
  readonly text: string;
  /** Where word k of the segment ends in `text` (it starts where word k - 1 ends, or at 0). */
  readonly ends: Uint16Array | Int32Array;
}

function packed(words: readonly string[]): Segment {
  // `join` makes one flat string: no per-word objects stay behind.
  const text = words.join('');
  const ends = text.length <= 0xffff ? new Uint16Array(words.length) : new Int32Array(words.length);
  let at = 0;
  for (let k = 0; k < words.length; k++) {
    at += (words[k] as string).length;
    ends[k] = at;
  }
  return { text, ends };
}

export class PackedWords {
  /** Joined words: every segment but the last holds `SEGMENT` words. */
  private segments: Segment[] = [];
  /** Words in the segments. */
  private sealed = 0;
  /** Words appended after the segments, not joined yet. */
  private open: string[] = [];

  static from(words: readonly string[]): PackedWords {
    const list = new PackedWords();
    for (const word of words) list.push(word);
    list.seal();
    return list;
  }

  get length(): number {
    return this.sealed + this.open.length;
  }

  /** The word at `i` (0 ≤ i < length), as a string of its own. */
  at(i: number): string {
    if (i >= this.sealed) return this.open[i - this.sealed] as string;
    const segment = this.segments[i >>> SEGMENT_BITS] as Segment;
    const k = i & IN_SEGMENT;
    return segment.text.slice(k === 0 ? 0 : (segment.ends[k - 1] as number), segment.ends[k] as number);
  }

  /** Whether the word at `i` is `word`, without making a string of it. */
  equals(i: number, word: string): boolean {
    if (i >= this.sealed) return this.open[i - this.sealed] === word;
    const segment = this.segments[i >>> SEGMENT_BITS] as Segment;
    const k = i & IN_SEGMENT;
    const start = k === 0 ? 0 : (segment.ends[k - 1] as number);
    if ((segment.ends[k] as number) - start !== word.length) return false;
    const { text } = segment;
    for (let c = 0; c < word.length; c++) if (text.charCodeAt(start + c) !== word.charCodeAt(c)) return false;
    return true;
  }

  /** The word at `i` compared with `word` as `<` compares strings (negative, 0, positive), without making a string of it. */
  compare(i: number, word: string): number {
    if (i >= this.sealed) {
      const own = this.open[i - this.sealed] as string;
      return own < word ? -1 : own > word ? 1 : 0;
    }
    const segment = this.segments[i >>> SEGMENT_BITS] as Segment;
    const k = i & IN_SEGMENT;
    const start = k === 0 ? 0 : (segment.ends[k - 1] as number);
    const length = (segment.ends[k] as number) - start;
    const { text } = segment;
    const common = Math.min(length, word.length);
    for (let c = 0; c < common; c++) {
      const d = text.charCodeAt(start + c) - word.charCodeAt(c);
      if (d !== 0) return d;
    }
    return length - word.length;
  }

  /** Whether the word at `i` starts with `prefix`, without making a string of it. */
  startsWith(i: number, prefix: string): boolean {
    if (i >= this.sealed) return (this.open[i - this.sealed] as string).startsWith(prefix);
    const segment = this.segments[i >>> SEGMENT_BITS] as Segment;
    const k = i & IN_SEGMENT;
    const start = k === 0 ? 0 : (segment.ends[k - 1] as number);
    if ((segment.ends[k] as number) - start < prefix.length) return false;
    const { text } = segment;
    for (let c = 0; c < prefix.length; c++) if (text.charCodeAt(start + c) !== prefix.charCodeAt(c)) return false;
    return true;
  }

  /** Whether the word at `i` is `word` or one edit from it (edits.ts `withinOneEdit`), without making a string of it. */
  withinOneEdit(i: number, word: string): boolean {
    if (i >= this.sealed) return withinOneEdit(this.open[i - this.sealed] as string, word);
    const segment = this.segments[i >>> SEGMENT_BITS] as Segment;
    const k = i & IN_SEGMENT;
    const start = k === 0 ? 0 : (segment.ends[k - 1] as number);
    return withinOneEditAt(segment.text, start, (segment.ends[k] as number) - start, word);
  }

  /** The length of the word at `i`, without making a string of it. */
  lengthAt(i: number): number {
    if (i >= this.sealed) return (this.open[i - this.sealed] as string).length;
    const segment = this.segments[i >>> SEGMENT_BITS] as Segment;
    const k = i & IN_SEGMENT;
    return (segment.ends[k] as number) - (k === 0 ? 0 : (segment.ends[k - 1] as number));
  }

  /** Empties the list (in place: word tables over it keep reading it). */
  clear(): void {
    this.segments = [];
    this.sealed = 0;
    this.open = [];
  }

  /** Appends `word`; returns its position. */
  push(word: string): number {
    if ((this.sealed & IN_SEGMENT) !== 0) this.reopen();
    this.open.push(word);
    if (this.open.length === SEGMENT) this.seal();
    return this.length - 1;
  }

  /** Joins the words appended since the last seal (call when the list stops growing for a while). */
  seal(): void {
    if (this.open.length === 0) return;
    // A new list, not `push`: no growth slack kept (a small index has one segment per list).
    this.segments = [...this.segments, packed(this.open)];
    this.sealed += this.open.length;
    this.open = [];
  }

  toArray(): string[] {
    const out: string[] = new Array(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.at(i);
    return out;
  }

  /** Heap and array-buffer bytes held, about (one-byte characters; two-byte ones count twice in a segment that has any). */
  approximateBytes(): number {
    let bytes = 64 + this.open.length * 40;
    for (const { text, ends } of this.segments) bytes += 120 + ((text.length + 7) & ~7) + ends.byteLength;
    return bytes;
  }

  /** Puts the segments' end offsets in the index's one buffer (packed-columns.ts). */
  packColumns(packer: ColumnPacker): void {
    this.segments.forEach((segment, i) => {
      packer.add(segment.ends, (ends) => {
        this.segments[i] = { text: segment.text, ends };
      });
    });
  }

  /** The last, partly filled segment back to a list, so that words can follow it. */
  private reopen(): void {
    const first = this.sealed & ~IN_SEGMENT;
    const words: string[] = [];
    for (let i = first; i < this.sealed; i++) words.push(this.at(i));
    this.segments.pop();
    this.sealed = first;
    this.open = words.concat(this.open);
  }
}
