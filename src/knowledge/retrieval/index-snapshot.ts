/**
 * The stored form of a built index (issue 14: a cold index loads without analysing its records
 * again): its compact form (compact-index.ts) with the records it holds, in slot order, as one
 * deflated byte string the store keeps per knowledge base with its content version.
 *
 * Encoding and decoding the bytes run on an index thread (index-build-worker.ts). What the thread
 * hands back (`PackedSnapshot`) holds no JavaScript strings, only transferable buffers, because
 * copying hundreds of thousands of strings between threads costs the receiving thread as much as
 * making them; the HTTP thread makes the strings and the index from it in short steps
 * (`indexFromSnapshot`), yielding between them, so other requests go on meanwhile.
 *
 * Layout before deflation: format number, a JSON header (language, BM25 options, counts), then
 * the postings as LEB128 varints per term (slot gaps, title and text frequencies), then Int32
 * sections (document frequencies, field lengths, surface-word counts, every string's UTF-8 byte
 * length, -1 for none) and every string (record ids, titles, texts, source names, kinds, terms,
 * surface words and their terms) as one UTF-8 run. Int32s are in the platform's byte order
 * (little-endian wherever Node runs in practice); a reader of the other order fails the checks.
 *
 * A snapshot made by code that analysed text differently would rank differently from a fresh
 * build, so `unpackIndexSnapshot` re-analyses a sample of the records and checks their lengths
 * and postings (and the detected language) against the snapshot: a mismatch, like any damage,
 * throws, and the caller builds from the records instead. `SNAPSHOT_FORMAT` changes with the layout.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { detectCorpusLanguage } from '../language/detect.js';
import type { CompactIndex } from './compact-index.js';
import { type IndexableRecord, KnowledgeIndex } from './knowledge-index.js';
import { type AnalysedWords, analyzeWords } from './tokenize.js';

export const SNAPSHOT_FORMAT = 1;
const MAGIC = 0x58495747; // "GWIX", little-endian
/** Records re-analysed to check a snapshot against this code's analysis. */
const CHECKED_RECORDS = 16;
/** Records (or terms, or surface words) made per step on the HTTP thread between yields. */
const STEP = 8192;

/** Records by column, in slot order (cheaper to pass between threads than objects). */
export interface SnapshotRecords {
  ids: string[];
  titles: (string | null)[];
  texts: string[];
  sources: string[];
  kinds: (string | undefined)[];
}

interface Header {
  language: string;
  languagePinned: boolean;
  options: CompactIndex['options'];
  records: number;
  terms: number;
  surfaces: number;
  postings: number;
}

/** A decoded snapshot without its strings: buffers only (see the top of the file). */
export interface PackedSnapshot {
  header: Header;
  arrays: Pick<CompactIndex, 'df' | 'start' | 'slot' | 'titleTf' | 'textTf' | 'titleLen' | 'textLen'> & { refs: Int32Array<ArrayBuffer>; first: Int32Array<ArrayBuffer>; pos: Int32Array<ArrayBuffer> };
  /** Every string's UTF-8 bytes, one after the other, and their byte lengths (-1: null). */
  strings: Uint8Array<ArrayBuffer>;
  lengths: Int32Array<ArrayBuffer>;
}

/** The buffers to transfer with a packed snapshot. */
export function packedTransferables(packed: PackedSnapshot): ArrayBuffer[] {
  return [...new Set([...Object.values(packed.arrays), packed.strings, packed.lengths].map((a) => a.buffer))];
}

/** The snapshot of `compact` (compacted: each term's slots ascend) with its records in slot order. */
export function encodeIndexSnapshot(compact: CompactIndex, records: SnapshotRecords): Uint8Array<ArrayBuffer> {
  const n = compact.titleLen.length;
  if (records.ids.length !== n) throw new Error('the records are not the ones the index holds');
  const t = compact.terms.length;
  const s = compact.surfaces.words.length;
  const p = compact.slot.length;
  const header: Header = { language: compact.language, languagePinned: compact.languagePinned, options: compact.options, records: n, terms: t, surfaces: s, postings: p };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const lists = [records.ids, records.titles, records.texts, records.sources, records.kinds, compact.terms, compact.surfaces.words, compact.surfaces.terms];
  const lengths = new Int32Array(5 * n + t + 2 * s);
  let chars = 0;
  for (const list of lists) for (const value of list) chars += value?.length ?? 0;
  const ints = [compact.titleLen, compact.textLen, compact.surfaces.refs, compact.surfaces.first, compact.surfaces.pos, lengths];
  const intBytes = ints.reduce((sum, a) => sum + a.length * 4, 0) + t * 4 + 4;
  // Varints: at most 5 bytes per value, 3 values per posting; UTF-8: at most 3 bytes per UTF-16 unit.
  const raw = Buffer.alloc(align4(8 + json.length) + 15 * p + intBytes + 3 * chars);
  raw.writeUInt32LE(SNAPSHOT_FORMAT, 0);
  raw.writeUInt32LE(json.length, 4);
  json.copy(raw, 8);
  let offset = align4(8 + json.length);
  raw.set(new Uint8Array(compact.df.buffer, compact.df.byteOffset, t * 4), offset);
  offset += t * 4;
  const varint = (value: number): void => {
    let v = value >>> 0;
    while (v >= 0x80) {
      raw[offset++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    raw[offset++] = v;
  };
  for (let term = 0; term < t; term++) {
    let previous = -1;
    for (let i = compact.start[term] as number, end = compact.start[term + 1] as number; i < end; i++) {
      const slot = compact.slot[i] as number;
      if (slot <= previous) throw new Error('the index is not compacted');
      varint(slot - previous - 1);
      varint(compact.titleTf[i] as number);
      varint(compact.textTf[i] as number);
      previous = slot;
    }
  }
  let at = 0;
  // The strings are written after room for the Int32 sections, then moved up against them.
  const stringsAt = offset + intBytes;
  let stringsEnd = stringsAt;
  for (const list of lists) {
    for (const value of list) {
      if (value === null || value === undefined) lengths[at++] = -1;
      else {
        const written = raw.write(value, stringsEnd, 'utf8');
        lengths[at++] = written;
        stringsEnd += written;
      }
    }
  }
  offset = align4(offset);
  for (const a of ints) {
    raw.set(new Uint8Array(a.buffer, a.byteOffset, a.length * 4), offset);
    offset += a.length * 4;
  }
  raw.copyWithin(offset, stringsAt, stringsEnd);
  // Level 1: the text and the small numbers compress well at the fastest level.
  const packed = deflateRawSync(raw.subarray(0, offset + stringsEnd - stringsAt), { level: 1 });
  const out = new Uint8Array(4 + packed.length);
  new DataView(out.buffer).setUint32(0, MAGIC, true);
  out.set(packed, 4);
  return out;
}

/** The buffers of a snapshot (see `PackedSnapshot`); throws when it is damaged, of another format, or analysed differently. */
export function unpackIndexSnapshot(bytes: Uint8Array): PackedSnapshot {
  if (bytes.length < 4 || new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) !== MAGIC) throw new Error('not an index snapshot');
  const raw = inflateRawSync(bytes.subarray(4));
  if (raw.length < 8 || raw.readUInt32LE(0) !== SNAPSHOT_FORMAT) throw new Error('an index snapshot of another format');
  const jsonLength = raw.readUInt32LE(4);
  const header = JSON.parse(raw.toString('utf8', 8, 8 + jsonLength)) as Header;
  const { records: n, terms: t, surfaces: s, postings: p } = header;
  for (const count of [n, t, s, p]) if (!Number.isInteger(count) || count < 0 || count > raw.length) throw new Error('a damaged index snapshot');
  let offset = align4(8 + jsonLength);
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (offset >= raw.length || shift > 28) throw new Error('a damaged index snapshot');
      const byte = raw[offset++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  const int32 = (count: number): Int32Array<ArrayBuffer> => {
    if (offset + count * 4 > raw.length) throw new Error('a truncated index snapshot');
    // A copy, aligned and owning its buffer (transferable on its own).
    const out = new Int32Array(count);
    new Uint8Array(out.buffer).set(raw.subarray(offset, offset + count * 4));
    offset += count * 4;
    return out;
  };
  const df = int32(t);
  const start = new Int32Array(t + 1);
  for (let term = 0; term < t; term++) start[term + 1] = (start[term] as number) + (df[term] as number);
  if (start[t] !== p) throw new Error('a damaged index snapshot');
  const slot = new Int32Array(p);
  const titleTf = new Int32Array(p);
  const textTf = new Int32Array(p);
  for (let term = 0, i = 0; term < t; term++) {
    let previous = -1;
    for (const end = start[term + 1] as number; i < end; i++) {
      previous += varint() + 1;
      if (previous >= n) throw new Error('a damaged index snapshot');
      slot[i] = previous;
      titleTf[i] = varint();
      textTf[i] = varint();
    }
  }
  offset = align4(offset);
  const titleLen = int32(n);
  const textLen = int32(n);
  const refs = int32(s);
  const first = int32(s);
  const pos = int32(s);
  const lengths = int32(5 * n + t + 2 * s);
  let total = 0;
  for (const length of lengths) total += Math.max(0, length);
  if (offset + total !== raw.length) throw new Error('a damaged index snapshot');
  const strings = new Uint8Array(total);
  strings.set(raw.subarray(offset));
  const packed: PackedSnapshot = { header, arrays: { df, start, slot, titleTf, textTf, titleLen, textLen, refs, first, pos }, strings, lengths };
  checkAnalysis(packed);
  return packed;
}

/** Makes the strings of a packed snapshot, in order, a few at a time. */
class StringReader {
  private at = 0;
  private byte = 0;
  private readonly buffer: Buffer;

  constructor(private readonly packed: PackedSnapshot) {
    this.buffer = Buffer.from(packed.strings.buffer, packed.strings.byteOffset, packed.strings.length);
  }

  read(count: number, into: (string | null)[]): void {
    const { lengths } = this.packed;
    for (let k = 0; k < count; k++) {
      const length = lengths[this.at++] as number;
      if (length < 0) into.push(null);
      else {
        into.push(this.buffer.toString('utf8', this.byte, this.byte + length));
        this.byte += length;
      }
    }
  }
}

/** The records and strings of a packed snapshot, all at once. */
function readAll(packed: PackedSnapshot): { records: SnapshotRecords; terms: string[]; words: string[]; surfaceTerms: string[] } {
  const { records: n, terms: t, surfaces: s } = packed.header;
  const reader = new StringReader(packed);
  const [ids, titles, texts, sources, kinds, terms, words, surfaceTerms] = [n, n, n, n, n, t, s, s].map((count) => {
    const list: (string | null)[] = [];
    reader.read(count, list);
    return list;
  }) as string[][];
  const records = { ids: ids as string[], titles: titles as (string | null)[], texts: texts as string[], sources: sources as string[], kinds: (kinds as (string | null)[]).map((k) => k ?? undefined) };
  return { records, terms: terms as string[], words: words as string[], surfaceTerms: surfaceTerms as string[] };
}

/** The snapshot's compact index with its records, made at once (tests, and the index thread). */
export function decodeIndexSnapshot(bytes: Uint8Array): { compact: CompactIndex; records: SnapshotRecords } {
  const packed = unpackIndexSnapshot(bytes);
  const { records, terms, words, surfaceTerms } = readAll(packed);
  return { compact: compactOf(packed, terms, { words, terms: surfaceTerms }), records };
}

function compactOf(packed: PackedSnapshot, terms: string[], surfaces: { words: string[]; terms: string[] }): CompactIndex {
  const { header, arrays } = packed;
  return {
    language: header.language,
    languagePinned: header.languagePinned,
    options: header.options,
    terms,
    df: arrays.df,
    start: arrays.start,
    slot: arrays.slot,
    titleTf: arrays.titleTf,
    textTf: arrays.textTf,
    titleLen: arrays.titleLen,
    textLen: arrays.textLen,
    surfaces: { words: surfaces.words, terms: surfaces.terms, refs: arrays.refs, first: arrays.first, pos: arrays.pos },
  };
}

/**
 * The index of a packed snapshot, made on this thread in steps of a few thousand strings or
 * records, yielding to other work between them (`pause`, by default `setImmediate`).
 */
export async function indexFromSnapshot(packed: PackedSnapshot, pause: () => Promise<void> = nextTurn): Promise<KnowledgeIndex> {
  const { records: n, terms: t, surfaces: s } = packed.header;
  const reader = new StringReader(packed);
  const read = async (count: number): Promise<(string | null)[]> => {
    const list: (string | null)[] = [];
    for (let done = 0; done < count; done += STEP) {
      reader.read(Math.min(STEP, count - done), list);
      await pause();
    }
    return list;
  };
  const ids = await read(n);
  const titles = await read(n);
  const texts = await read(n);
  const sources = await read(n);
  const kinds = await read(n);
  const terms = (await read(t)) as string[];
  const words = (await read(s)) as string[];
  const surfaceTerms = (await read(s)) as string[];
  const records: IndexableRecord[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const kind = kinds[i];
    records[i] = { recordId: ids[i] as string, title: titles[i] ?? null, text: texts[i] as string, sourceName: sources[i] as string, ...(kind === null || kind === undefined ? {} : { kind }) };
    if (i % STEP === STEP - 1) await pause();
  }
  const steps = KnowledgeIndex.fromCompactInSteps(compactOf(packed, terms, { words, terms: surfaceTerms }), records, STEP);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await pause();
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Throws unless this code analyses a sample of the records (and detects the language) as the snapshot says. */
function checkAnalysis(packed: PackedSnapshot): void {
  const { header, arrays, lengths } = packed;
  const n = header.records;
  if (n === 0) return;
  const bytes = Buffer.from(packed.strings.buffer, packed.strings.byteOffset, packed.strings.length);
  // Byte offset of every string, to read only the sampled ones (and the terms).
  const offsets = new Float64Array(lengths.length + 1);
  for (let i = 0; i < lengths.length; i++) offsets[i + 1] = (offsets[i] as number) + Math.max(0, lengths[i] as number);
  const string = (i: number): string | null => ((lengths[i] as number) < 0 ? null : bytes.toString('utf8', offsets[i], offsets[i + 1]));
  const title = (slot: number) => string(n + slot);
  const text = (slot: number) => string(2 * n + slot) as string;
  if (!header.languagePinned) {
    const first = (function* () {
      for (let slot = 0; slot < n; slot++) yield text(slot);
    })();
    if (detectCorpusLanguage(first) !== header.language) throw new Error('the index snapshot was made with another language detection');
  }
  const termIds = new Map<string, number>();
  for (let t = 0; t < header.terms; t++) termIds.set(string(5 * n + t) as string, t);
  const step = Math.max(1, Math.floor(n / CHECKED_RECORDS));
  for (let slot = 0; slot < n; slot += step) {
    const titleText = title(slot);
    const analysed: [AnalysedWords | null, AnalysedWords] = [titleText ? analyzeWords(titleText, header.language, 'index') : null, analyzeWords(text(slot), header.language, 'index')];
    if ((analysed[0]?.terms.length ?? 0) !== arrays.titleLen[slot] || analysed[1].terms.length !== arrays.textLen[slot]) throw new Error('the index snapshot was made with another analysis');
    const counts = new Map<string, [number, number]>();
    analysed.forEach((words, field) => {
      for (const term of words?.terms ?? []) {
        const count = counts.get(term) ?? [0, 0];
        count[field] = (count[field] as number) + 1;
        counts.set(term, count);
      }
    });
    for (const [term, [titleTf, textTf]] of counts) {
      const id = termIds.get(term);
      const at = id === undefined ? -1 : postingOf(packed, id, slot);
      if (at < 0 || arrays.titleTf[at] !== titleTf || arrays.textTf[at] !== textTf) throw new Error('the index snapshot was made with another analysis');
    }
  }
}

/** Where the posting of `slot` is in term `id`'s range (slots ascend there), or -1. */
function postingOf({ arrays }: PackedSnapshot, id: number, slot: number): number {
  let lo = arrays.start[id] as number;
  let hi = (arrays.start[id + 1] as number) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = arrays.slot[mid] as number;
    if (at === slot) return mid;
    if (at < slot) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
