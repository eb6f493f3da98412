/**
 * The stored form of a built index (issue 14: a cold index loads without analysing its records
 * again): its compact form (compact-index.ts) with the records it holds, in slot order, as one
 * byte string the store keeps per knowledge base with its content version.
 *
 * Made on an index thread (index-build-worker.ts) after a full build. Loaded on the HTTP thread
 * without a thread: the bytes are inflated by zlib on libuv's pool (no JavaScript runs meanwhile),
 * the typed arrays are read as they are stored, and the strings and the index are made in short
 * steps (`loadIndexSnapshot`), yielding between them, so other requests go on meanwhile.
 *
 * Layout, all little-endian: magic, format number, flags (1: both parts deflated at level 1), each
 * part's raw length and the first part's stored length; then two parts, inflated side by side:
 * - numbers: the sections the index keeps (Int32 document frequencies, each term's postings as
 *   slot gaps in 2 bytes up to 65,536 records, else 4, turned into slots in place on load, Int32
 *   field lengths) and the postings' title and text frequencies in 1, 2 or 4 bytes each (the
 *   fewest that hold the largest). The index's arrays are views of this part, which holds nothing
 *   else: the postings keep the stored widths (compact-index.ts; format 3, issue 14's memory per
 *   knowledge base; format 2 widened them to Int32 copies and kept the surface-word counts here).
 *   Formats 4 to 11 have format 3's layout; what changed is the terms. The postings also hold the
 *   terms of the kinds of answer the index counts (`indexedAnswerTermsIn`: phone numbers, email
 *   addresses, opening hours, postal addresses, and since format 7 an age limit; formats 4 to 6 had
 *   fewer); format 8's German terms have umlauts typed as two letters folded (languages.ts) and its
 *   French "combien" is a stop-word; format 10 marks a content word's stem that is spelt as a
 *   function word ("sich~", languages.ts); format 11 reads an English "US" in capitals as "USA"
 *   (tokenize.ts). An older snapshot is rebuilt, never read with the new analysis.
 * - text: a JSON header (language, BM25 options, counts), Int32 sections (each record's source and
 *   kind as an index into a table of the distinct ones, each surface word's term id and counts, every
 *   string's length, -1 for none, and the UTF-8 bytes of every chunk of `STEP` strings), and every
 *   string (record ids, titles, texts, terms, surface words, the distinct sources and kinds) as
 *   one UTF-8 run. A load decodes them in runs and holds where each string lies in its run, not
 *   the string (`StringReader`, string-column.ts).
 *
 * A snapshot made by code that analysed text differently would rank differently from a fresh
 * build, so a load re-analyses a sample of the records and checks their lengths and postings (and
 * the detected language) against the snapshot: a mismatch, like any damage, throws, and the caller
 * builds from the records instead. `SNAPSHOT_FORMAT` changes with the layout (and the magic did
 * with format 2: format 1 deflated its header with the rest).
 */
import { isAscii } from 'node:buffer';
import { createInflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { indexedAnswerTermsIn } from '../language/answer-types.js';
import { detectCorpusLanguage } from '../language/detect.js';
import { type CompactIndex, type CompactIndexSource, offsetArray, slotBytesFor, type TfArray, tfBytesFor } from './compact-index.js';
import { type IndexableRecord, KnowledgeIndex, type RecordsBySlot } from './knowledge-index.js';
import { StringColumn, type StringList } from './string-column.js';
import { analyzeWords } from './tokenize.js';
import { inSlices, nextTurn, Slices } from '../../time-slices.js';

export const SNAPSHOT_FORMAT = 11;
const MAGIC = 0x32495747; // "GWI2", little-endian
const DEFLATED = 1;
/**
 * Whether new snapshots are deflated. Measured at 100,000 records (docs/indexing.md): without,
 * a load is ~50 ms faster, but the stored form is ~3× larger and its synchronous read stalls the
 * HTTP thread ~100 ms or more.
 */
const DEFLATE = true;
/** Records re-analysed to check a snapshot against this code's analysis. */
const CHECKED_RECORDS = 16;
/** Strings per chunk of the text part (a layout constant: the snapshot's format changes with it). */
const STEP = 8192;
/** The lists of strings (record ids, titles, texts) stored with UTF-8 lengths and decoded one by one (see `StringReader`). */
const OWN_STRING_LISTS = 3;
/**
 * UTF-8 bytes of the records' strings decoded as one string (see `StringReader`): past V8's
 * large-object size (128 KB), which young-generation collections do not copy, and past the size
 * from which Node makes an ASCII run an external string (`EXTERN_APEX` in Node's string_bytes.cc,
 * 1,031,913 bytes), which no collection copies or promotes (session 21: the 256 KB runs of
 * session 11 were still promoted by the young generation's collections, 1 ms or more per MB).
 */
const RUN_BYTES = 1 << 20;
/** Runs shorter than this (a small index's, a chunk's end) are decoded string by string, as V8 would copy them anyway. */
const LARGE_RUN_BYTES = 128 * 1024;
/** V8 makes a slice of a string at least this long a view of it (a shorter one is a copy). */
const SLICED_STRING_MIN = 13;
/**
 * The loading loops look at the clock (`Slices`, time-slices.ts) every this many items (records'
 * strings, records, terms, surface words; postings by the 64) and yield only once a slice has run,
 * so a small index loads in one go and a large one in slices of `SLICE_MS` whatever the machine's
 * speed: what another knowledge base's query waits at most behind a cold load (issue 14).
 */
const CHECK_EVERY = 256;
/**
 * Bytes a part is inflated by per round trip through libuv's pool (~0.1–0.3 ms of zlib's work),
 * one part after the other: where the server has one CPU, the pool's threads share it with the
 * HTTP thread, and the two parts inflated at once and whole (~100–250 ms at 100,000 records)
 * held other requests up to ~90 ms (docs/indexing.md, "Session 11").
 */
const INFLATE_STEP = 64 * 1024;

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
  /** Distinct source names and kinds. */
  shared: number;
  /** Bytes per title or text frequency: 1, 2 or 4. */
  tfBytes: number;
  /** Bytes per posting's slot: 2 (at most 65,536 records) or 4. */
  slotBytes: number;
}

type Int32 = Int32Array<ArrayBuffer>;

/** A snapshot's numbers, and its strings still as bytes. */
export interface PackedSnapshot {
  header: Header;
  arrays: Pick<CompactIndex, 'df' | 'start' | 'slot' | 'titleTf' | 'textTf' | 'titleLen' | 'textLen'> & { refs: Int32; first: Int32; pos: Int32 };
  /** Per record: its source name and kind in the shared strings (-1: no kind); per surface word, its term. */
  sourceOf: Int32;
  kindOf: Int32;
  surfaceTermOf: Int32;
  /** Every string's length (-1: null; see `StringReader`), and every chunk's UTF-8 bytes. */
  lengths: Int32;
  chunkBytes: Int32;
  strings: Buffer;
  /** Whether `arrays.slot` still holds each term's slot gaps (until `decodeAllPostings`). */
  gaps: boolean;
}

/** The snapshot of `compact` (compacted: each term's slots ascend) with its records in slot order. */
export function encodeIndexSnapshot(compact: CompactIndex, records: SnapshotRecords): Uint8Array<ArrayBuffer> {
  const n = compact.titleLen.length;
  if (records.ids.length !== n) throw new Error('the records are not the ones the index holds');
  const t = compact.terms.length;
  const s = compact.surfaces.words.length;
  const p = compact.slot.length;
  const sharedIds = new Map<string, number>();
  const sharedId = (value: string | undefined): number => {
    if (value === undefined) return -1;
    let id = sharedIds.get(value);
    if (id === undefined) sharedIds.set(value, (id = sharedIds.size));
    return id;
  };
  const sourceOf = Int32Array.from(records.sources, sharedId);
  const kindOf = Int32Array.from(records.kinds, sharedId);
  const termIds = new Map(compact.terms.map((term, id) => [term, id]));
  const surfaceTermOf = Int32Array.from(compact.surfaces.terms, (term) => {
    const id = termIds.get(term);
    if (id === undefined) throw new Error('a surface word of an unknown term');
    return id;
  });
  let maxTf = 0;
  for (let i = 0; i < p; i++) maxTf = Math.max(maxTf, compact.titleTf[i] as number, compact.textTf[i] as number);
  const tfBytes = tfBytesFor(maxTf);
  const slotBytes = slotBytesFor(n);
  // Slot gaps (deflate makes their high bytes almost nothing), turned back into slots in place on load.
  const gaps = slotBytes === 2 ? new Uint16Array(p) : new Int32Array(p);
  for (let term = 0; term < t; term++) {
    let previous = -1;
    for (let i = compact.start[term] as number, end = compact.start[term + 1] as number; i < end; i++) {
      const slot = compact.slot[i] as number;
      if (slot <= previous || slot >= n) throw new Error('the index is not compacted');
      gaps[i] = slot - previous - 1;
      previous = slot;
    }
  }
  const numbers = concat([compact.df, gaps, compact.titleLen, compact.textLen, narrow(compact.titleTf, tfBytes), narrow(compact.textTf, tfBytes)]);

  const header: Header = { language: compact.language, languagePinned: compact.languagePinned, options: compact.options, records: n, terms: t, surfaces: s, postings: p, shared: sharedIds.size, tfBytes, slotBytes };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const lists: readonly (readonly (string | null)[])[] = [records.ids, records.titles, records.texts, compact.terms, compact.surfaces.words, [...sharedIds.keys()]];
  const lengths = new Int32Array(lists.reduce((sum, list) => sum + list.length, 0));
  const chunkBytes = new Int32Array(lists.reduce((sum, list) => sum + Math.ceil(list.length / STEP), 0));
  let chars = 0;
  for (const list of lists) for (const value of list) chars += value?.length ?? 0;
  // The surface words' counts are copied by `SurfaceWords.restore`: in the text part, dropped after the load.
  const ints = [sourceOf, kindOf, surfaceTermOf, compact.surfaces.refs, compact.surfaces.first, compact.surfaces.pos, lengths, chunkBytes];
  const intsAt = align4(4 + json.length);
  const stringsAt = intsAt + ints.reduce((sum, a) => sum + a.length * 4, 0);
  // UTF-8: at most 3 bytes per UTF-16 unit.
  const text = Buffer.alloc(stringsAt + 3 * chars);
  text.writeUInt32LE(json.length, 0);
  json.copy(text, 4);
  let at = 0;
  let chunk = 0;
  let end = stringsAt;
  lists.forEach((list, l) => {
    const own = l < OWN_STRING_LISTS;
    for (let first = 0; first < list.length; first += STEP) {
      const chunkStart = end;
      for (let i = first; i < Math.min(list.length, first + STEP); i++) {
        const value = list[i];
        const written = value ? text.write(value, end, 'utf8') : 0;
        end += written;
        lengths[at++] = value === null || value === undefined ? -1 : own ? written : value.length;
      }
      chunkBytes[chunk++] = end - chunkStart;
    }
  });
  text.set(concat(ints), intsAt);
  const parts = [numbers, text.subarray(0, end)];
  // Level 1: the text and the small numbers compress well at the fastest level.
  const stored = parts.map((part) => (DEFLATE ? deflateRawSync(part, { level: 1 }) : part));
  const out = new Uint8Array(24 + (stored[0] as Uint8Array).length + (stored[1] as Uint8Array).length);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, SNAPSHOT_FORMAT, true);
  view.setUint32(8, DEFLATE ? DEFLATED : 0, true);
  view.setUint32(12, numbers.length, true);
  view.setUint32(16, end, true);
  view.setUint32(20, (stored[0] as Uint8Array).length, true);
  out.set(stored[0] as Uint8Array, 24);
  out.set(stored[1] as Uint8Array, 24 + (stored[0] as Uint8Array).length);
  return out;
}

/** Frequencies in `bytes` bytes each (the largest fits). */
function narrow(tf: TfArray, bytes: number): Uint8Array | Uint16Array | Int32Array {
  return bytes === 1 ? Uint8Array.from(tf) : bytes === 2 ? Uint16Array.from(tf) : Int32Array.from(tf);
}

/** The bytes of typed arrays one after the other (each a multiple of 4 bytes long but the last, or padded). */
function concat(arrays: readonly (Uint8Array | Uint16Array | Int32Array)[]): Uint8Array {
  const out = new Uint8Array(arrays.reduce((sum, a) => sum + align4(a.byteLength), 0));
  let offset = 0;
  for (const a of arrays) {
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offset);
    offset += align4(a.byteLength);
  }
  return out;
}

type Inflate = (data: Uint8Array, length: number) => Buffer;

/** The two parts of a stored form, numbers then text (inflated when deflated: on libuv's pool when `inflate` is asynchronous). */
function partsOf(bytes: Uint8Array, inflate: Inflate): [Buffer, Buffer];
function partsOf(bytes: Uint8Array, inflate: (data: Uint8Array, length: number) => Promise<Buffer>): Promise<[Buffer, Buffer]>;
function partsOf(bytes: Uint8Array, inflate: (data: Uint8Array, length: number) => Buffer | Promise<Buffer>): [Buffer, Buffer] | Promise<[Buffer, Buffer]> {
  if (bytes.length < 24) throw new Error('not an index snapshot');
  const view = new DataView(bytes.buffer, bytes.byteOffset, 24);
  if (view.getUint32(0, true) !== MAGIC) throw new Error('not an index snapshot of this format');
  if (view.getUint32(4, true) !== SNAPSHOT_FORMAT) throw new Error('an index snapshot of another format');
  const deflated = view.getUint32(8, true) === DEFLATED;
  const lengths = [view.getUint32(12, true), view.getUint32(16, true)] as const;
  const split = 24 + view.getUint32(20, true);
  if (split > bytes.length) throw new Error('a damaged index snapshot');
  const stored = [bytes.subarray(24, split), bytes.subarray(split)] as const;
  // Not deflated: the numbers are copied out, so that the index's views of them keep nothing else alive.
  if (!deflated) return [Buffer.from(stored[0]), Buffer.from(stored[1].buffer, stored[1].byteOffset, stored[1].length)];
  const parts = stored.map((part, i) => inflate(part, lengths[i] as number));
  return parts[0] instanceof Promise ? (Promise.all(parts) as Promise<[Buffer, Buffer]>) : (parts as [Buffer, Buffer]);
}

/** The numbers of a snapshot (see `PackedSnapshot`); throws when it is damaged or of another format. */
export function unpackIndexSnapshot(bytes: Uint8Array): PackedSnapshot {
  return unpackParts(...partsOf(bytes, (data) => inflateRawSync(data)));
}

/**
 * As `unpackIndexSnapshot`, inflating its two parts one after the other on libuv's pool in steps
 * of `INFLATE_STEP` output bytes (each step's output copied into one buffer of the part's known
 * length, so no second buffer of that size is made: external memory that brings on V8's full
 * collections), and checking the numbers in slices.
 */
export async function unpackIndexSnapshotAsync(bytes: Uint8Array, slices = new Slices()): Promise<PackedSnapshot> {
  let previous: Promise<unknown> = Promise.resolve();
  const inOrder = (data: Uint8Array, length: number): Promise<Buffer> => {
    const inflated = previous.then(() => inflateInSteps(data, length));
    previous = inflated.catch(() => undefined);
    return inflated;
  };
  return inSlices(unpackSteps(...(await partsOf(bytes, inOrder))), slices);
}

/** `data` inflated (raw deflate) into one buffer of exactly `length` bytes, `INFLATE_STEP` bytes per trip through the pool. */
function inflateInSteps(data: Uint8Array, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out = Buffer.allocUnsafeSlow(length);
    let at = 0;
    const inflater = createInflateRaw({ chunkSize: INFLATE_STEP });
    inflater.on('data', (chunk: Buffer) => {
      if (at + chunk.length > length) inflater.destroy(new Error('a damaged index snapshot'));
      else {
        chunk.copy(out, at);
        at += chunk.length;
      }
    });
    inflater.once('error', reject);
    inflater.once('end', () => (at === length ? resolve(out) : reject(new Error('a damaged index snapshot'))));
    inflater.end(data);
  });
}

/** The numbers of a snapshot's inflated parts, checked (at once). */
function unpackParts(numbers: Buffer, text: Buffer): PackedSnapshot {
  const steps = unpackSteps(numbers, text);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** `unpackParts` in steps: its checks over every record, term and surface word look at the clock every `CHECK_EVERY` × 16 items. */
function* unpackSteps(numbers: Buffer, text: Buffer): Generator<void, PackedSnapshot> {
  const damaged = (): never => {
    throw new Error('a damaged index snapshot');
  };
  if (text.length < 4) damaged();
  const jsonLength = text.readUInt32LE(0);
  if (4 + jsonLength > text.length) damaged();
  const header = JSON.parse(text.toString('utf8', 4, 4 + jsonLength)) as Header;
  const { records: n, terms: t, surfaces: s, postings: p, shared, tfBytes, slotBytes } = header;
  for (const count of [n, t, s, p, shared]) if (!Number.isInteger(count) || count < 0 || count > numbers.length + text.length) damaged();
  if (tfBytes !== 1 && tfBytes !== 2 && tfBytes !== 4) damaged();
  // 16-bit slots only where every slot fits: a wider one would wrap when decoded.
  if (slotBytes !== slotBytesFor(n)) damaged();
  // The numbers the index keeps are views of their part (which holds nothing else) when it is
  // aligned, as an inflated part is; the text part is dropped once the strings are made.
  let offset = 0;
  let source = numbers;
  const section = <A>(count: number, bytes: number, make: (buffer: ArrayBuffer, at: number, count: number) => A): A => {
    const length = count * bytes;
    if (offset + length > source.length) damaged();
    let at = source.byteOffset + offset;
    let buffer = source.buffer as ArrayBuffer;
    if (at % 4 !== 0) {
      const copy = new Uint8Array(align4(length));
      copy.set(source.subarray(offset, offset + length));
      buffer = copy.buffer;
      at = 0;
    }
    offset += align4(length);
    return make(buffer, at, count);
  };
  const int32 = (count: number): Int32 => section(count, 4, (buffer, at, c) => new Int32Array(buffer, at, c));
  // The postings are kept as stored (views, no wider copies).
  const tf = (): TfArray => section(p, tfBytes, (buffer, at, c) => (tfBytes === 1 ? new Uint8Array(buffer, at, c) : tfBytes === 2 ? new Uint16Array(buffer, at, c) : new Int32Array(buffer, at, c)));
  const df = int32(t);
  const slot = section(p, slotBytes, (buffer, at, c) => (slotBytes === 2 ? new Uint16Array(buffer, at, c) : new Int32Array(buffer, at, c)));
  const titleLen = int32(n);
  const textLen = int32(n);
  const titleTf = tf();
  const textTf = tf();
  if (offset !== numbers.length) damaged();
  source = text;
  offset = align4(4 + jsonLength);
  const sourceOf = int32(n);
  const kindOf = int32(n);
  const surfaceTermOf = int32(s);
  const refs = int32(s);
  const first = int32(s);
  const pos = int32(s);
  const lengths = int32(3 * n + t + s + shared);
  const chunkBytes = int32([n, n, n, t, s, shared].reduce((sum, count) => sum + Math.ceil(count / STEP), 0));
  // ~1–5 ms each for 100,000 records and terms, and tens of ms the first time (not yet optimised): in steps.
  const every = CHECK_EVERY * 16;
  let postings = 0;
  for (let term = 0; term < t; term++) {
    postings += df[term] as number;
    if (term % every === every - 1) yield;
  }
  const start = offsetArray(t + 1, postings);
  for (let term = 0; term < t; term++) {
    start[term + 1] = (start[term] as number) + (df[term] as number);
    if (term % every === every - 1) yield;
  }
  if (start[t] !== p) damaged();
  for (let i = 0; i < n; i++) {
    if ((sourceOf[i] as number) < 0 || (sourceOf[i] as number) >= shared || (kindOf[i] as number) < -1 || (kindOf[i] as number) >= shared) damaged();
    if (i % every === every - 1) yield;
  }
  for (let i = 0; i < s; i++) {
    if ((surfaceTermOf[i] as number) < 0 || (surfaceTermOf[i] as number) >= t) damaged();
    if (i % every === every - 1) yield;
  }
  let total = 0;
  for (const bytes of chunkBytes) total += bytes;
  if (offset + total !== text.length) damaged();
  return {
    header,
    arrays: { df, start, slot, titleTf, textTf, titleLen, textLen, refs, first, pos },
    sourceOf,
    kindOf,
    surfaceTermOf,
    lengths,
    chunkBytes,
    strings: text.subarray(offset),
    gaps: true,
  };
}

/** Turns the slot gaps of terms `from` … `to - 1` into slots, in place; throws unless every one names a record. */
function decodePostings({ arrays, header }: PackedSnapshot, from: number, to: number): void {
  const { start, slot } = arrays;
  for (let term = from; term < to; term++) {
    let previous = -1;
    for (let i = start[term] as number, end = start[term + 1] as number; i < end; i++) {
      const gap = slot[i] as number;
      if (gap < 0) throw new Error('a damaged index snapshot');
      previous += gap + 1;
      slot[i] = previous;
    }
    if (previous >= header.records) throw new Error('a damaged index snapshot');
  }
}

/** Turns the snapshot's slot gaps into slots, a few terms (about `CHECK_EVERY` × 64 postings) between looks at the clock. */
async function decodeAllPostings(packed: PackedSnapshot, slices: Slices): Promise<void> {
  if (!packed.gaps) return;
  packed.gaps = false;
  const { start } = packed.arrays;
  const t = packed.header.terms;
  for (let term = 0; term < t; ) {
    let end = term + 1;
    while (end < t && (start[end + 1] as number) - (start[term] as number) < CHECK_EVERY * 64) end++;
    decodePostings(packed, term, end);
    term = end;
    await slices.maybe();
  }
}

/**
 * Makes the strings of a packed snapshot, in order, a chunk at a time, into columns
 * (string-column.ts) that hold each string's place in a decoded run rather than the string: a
 * string is made when it is read, and dies young. 100,000 records' strings decoded one by one were
 * ~40 MB of strings made in a few hundred milliseconds that all survived, and V8's young-generation
 * collections copied them, 10–20 ms each, on the HTTP thread (docs/indexing.md, "Session 11");
 * held as slices of runs (session 11 to 20), there were still 300,000 slice objects and the
 * terms' and surface words' strings surviving, and the runs promoted (session 21).
 *
 * The records' strings (the first `OWN_STRING_LISTS` lists: ids, titles, texts) are read in runs of
 * at least `RUN_BYTES`: an ASCII run as an external Latin-1 string (outside V8's heap), another as
 * one large string. The index keeps the ids' and texts' columns, so a record's characters are held
 * until a renumbering finds its run unread (`StringColumn.truncate`). A run shorter than
 * `LARGE_RUN_BYTES` (a small index's, a chunk's end) is decoded string by string, each string
 * owning its characters (a small index keeps no run alive). The terms and surface words are read
 * a chunk at a time into columns that the index copies into its packed lists; the few distinct
 * sources and kinds, as strings.
 */
class StringReader {
  private at = 0;
  private chunk = 0;
  private byte = 0;
  /** Where the chunk `readOwn` is in began (-1: between chunks). */
  private ownFrom = -1;
  /** The position of the first string of the list being read (`startList`). */
  private listStart = 0;

  constructor(private readonly packed: PackedSnapshot) {}

  /** Strings read so far (the index of the next one's length). */
  get position(): number {
    return this.at;
  }

  /** The next string read starts a list: `readOwn` puts strings in slots counted from it. */
  startList(): void {
    this.listStart = this.at;
  }

  /**
   * The next `count` strings of the current chunk into `into`, at their places in the list, as
   * places in one decoded run (the records' strings; see the class); `last`: they end the chunk,
   * whose bytes must then all have been read.
   */
  readOwn(count: number, into: StringColumn, last: boolean): void {
    const { lengths, strings } = this.packed;
    const first = this.at - this.listStart;
    if (this.ownFrom < 0) this.ownFrom = this.byte;
    let bytes = 0;
    for (let k = 0; k < count; k++) bytes += Math.max(0, lengths[this.at + k] as number);
    const from = this.byte;
    if (from + bytes > strings.length) throw new Error('a damaged index snapshot');
    if (bytes < LARGE_RUN_BYTES) {
      // A short run would be copied by the young generation's collections like its strings: each
      // string decoded on its own (owning its characters: a small index keeps no run alive).
      let byte = from;
      for (let k = 0; k < count; k++) {
        const length = lengths[this.at++] as number;
        if (length < 0) into.placeNull(first + k);
        else {
          into.set(first + k, strings.toString('utf8', byte, byte + length));
          byte += length;
        }
      }
      this.endOwn(byte, last);
      return;
    }
    // ASCII read as Latin-1 is the same string, and past ~1 MB (`RUN_BYTES`) Node makes a Latin-1
    // string an external one: its characters outside V8's heap, which no collection then copies,
    // promotes or scans (docs/indexing.md, "Session 21").
    const ascii = isAscii(strings.subarray(from, from + bytes));
    const run = strings.toString(ascii ? 'latin1' : 'utf8', from, from + bytes);
    const r = into.addRun(run);
    let char = 0;
    let byte = from;
    for (let k = 0; k < count; k++) {
      const length = lengths[this.at++] as number;
      if (length < 0) into.placeNull(first + k);
      else {
        // Outside ASCII, the characters a string's UTF-8 bytes decode to (a pair for a 4-byte sequence).
        const chars = ascii ? length : utf16Length(strings, byte, byte + length);
        into.place(first + k, r, char, char + chars);
        char += chars;
        byte += length;
      }
    }
    if (char !== run.length) throw new Error('a damaged index snapshot');
    this.endOwn(byte, last);
  }

  /** After `readOwn`: `byte` is where the next string starts; `last`: the chunk ends there. */
  private endOwn(byte: number, last: boolean): void {
    this.byte = byte;
    if (!last) return;
    if (byte !== this.ownFrom + (this.packed.chunkBytes[this.chunk++] as number)) throw new Error('a damaged index snapshot');
    this.ownFrom = -1;
  }

  /**
   * The next chunk (of `STEP` strings, fewer at the end of a list) into `into`, at their places in
   * the list: the chunk decoded once, each string a place in it, made only as it is read (the
   * terms and surface words, which the index copies into its packed lists: no string of each is
   * held while the load goes on).
   */
  readChunkInto(count: number, into: StringColumn): void {
    const { lengths, chunkBytes, strings } = this.packed;
    const first = this.at - this.listStart;
    const bytes = chunkBytes[this.chunk++] as number;
    const run = strings.toString('utf8', this.byte, this.byte + bytes);
    const r = into.addRun(run);
    let char = 0;
    for (let k = 0; k < count; k++) {
      const length = lengths[this.at++] as number;
      if (length < 0) into.placeNull(first + k);
      else {
        into.place(first + k, r, char, char + length);
        char += length;
      }
    }
    if (char !== run.length) throw new Error('a damaged index snapshot');
    this.byte += bytes;
  }

  /** The next chunk (of `STEP` strings, fewer at the end of a list) onto `into`, one decoding for the chunk (see the class). */
  readChunk(count: number, into: (string | null)[]): void {
    const { lengths, chunkBytes, strings } = this.packed;
    const bytes = chunkBytes[this.chunk++] as number;
    const end = this.byte + bytes;
    const run = strings.toString('utf8', this.byte, end);
    const ascii = run.length === bytes;
    let char = 0;
    let byte = this.byte;
    for (let k = 0; k < count; k++) {
      const length = lengths[this.at++] as number;
      if (length < 0) into.push(null);
      else {
        const piece = run.slice(char, char + length);
        const pieceBytes = ascii ? length : Buffer.byteLength(piece, 'utf8');
        // A slice this long would be a view keeping the whole chunk alive: decoded on its own instead.
        into.push(length < SLICED_STRING_MIN ? piece : strings.toString('utf8', byte, byte + pieceBytes));
        char += length;
        byte += pieceBytes;
      }
    }
    if (char !== run.length) throw new Error('a damaged index snapshot');
    this.byte = end;
  }
}

interface Strings {
  /** The records' strings by slot (string-column.ts: a large index's are held as runs, not a string each). */
  ids: StringColumn;
  titles: StringColumn;
  texts: StringColumn;
  /** The terms and surface words, made as they are read (`readChunkInto`). */
  terms: StringColumn;
  words: StringColumn;
  shared: string[];
}

/** UTF-16 code units that the UTF-8 bytes `from` … `to - 1` decode to (well-formed, as `encodeIndexSnapshot` writes them). */
function utf16Length(bytes: Uint8Array, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i] as number;
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** The strings of a packed snapshot, made in parts with looks at the clock between them. */
async function readStrings(packed: PackedSnapshot, slices: Slices): Promise<Strings> {
  const { records: n, terms: t, surfaces: s, shared } = packed.header;
  const reader = new StringReader(packed);
  const columns: StringColumn[] = [];
  const lists: (string | null)[][] = [];
  for (const [l, count] of [n, n, n, t, s, shared].entries()) {
    // The records' strings and the terms and surface words as columns; the few distinct sources and kinds as strings.
    const column = l < OWN_STRING_LISTS + 2 ? StringColumn.ofRuns(count) : undefined;
    const list: (string | null)[] = [];
    reader.startList();
    for (let done = 0; done < count; done += STEP) {
      const inChunk = Math.min(STEP, count - done);
      if (column && l >= OWN_STRING_LISTS) {
        reader.readChunkInto(inChunk, column);
        await slices.maybe();
      } else if (column) {
        for (let k = 0; k < inChunk; ) {
          // As many strings as make `RUN_BYTES` (at least one), to the chunk's end.
          let count = 0;
          for (let bytes = 0; k + count < inChunk && bytes < RUN_BYTES; count++) bytes += Math.max(0, packed.lengths[reader.position + count] as number);
          k += count;
          reader.readOwn(count, column, k >= inChunk);
          await slices.maybe();
        }
      } else {
        reader.readChunk(inChunk, list);
        await slices.maybe();
      }
    }
    if (column) columns.push(column);
    else lists.push(list);
  }
  const [ids, titles, texts, terms, words] = columns as [StringColumn, StringColumn, StringColumn, StringColumn, StringColumn];
  const [sharedStrings] = lists as [string[]];
  // Every record has an id and a text (a title may be missing); every term and surface word is a string.
  if (ids.hasNull(n) || texts.hasNull(n) || terms.hasNull(t) || words.hasNull(s)) throw new Error('a damaged index snapshot');
  return { ids, titles, texts, terms, words, shared: sharedStrings };
}

function compactOf(packed: PackedSnapshot, strings: Strings): CompactIndexSource {
  const { header, arrays } = packed;
  return {
    language: header.language,
    languagePinned: header.languagePinned,
    options: header.options,
    terms: strings.terms,
    df: arrays.df,
    start: arrays.start,
    slot: arrays.slot,
    titleTf: arrays.titleTf,
    textTf: arrays.textTf,
    titleLen: arrays.titleLen,
    textLen: arrays.textLen,
    surfaces: {
      words: strings.words,
      // Each surface word's term, read from the terms as it is asked for (no list of 150,000 references made).
      terms: { length: packed.surfaceTermOf.length, at: (i: number) => strings.terms.at(packed.surfaceTermOf[i] as number) },
      refs: arrays.refs,
      first: arrays.first,
      pos: arrays.pos,
    },
  };
}

function recordsOf(packed: PackedSnapshot, strings: Strings): SnapshotRecords {
  const all = <T>(read: (slot: number) => T) => Array.from({ length: packed.header.records }, (_, slot) => read(slot));
  return {
    ids: all((slot) => strings.ids.at(slot)),
    titles: all((slot) => strings.titles.atOrNull(slot)),
    texts: all((slot) => strings.texts.at(slot)),
    sources: Array.from(packed.sourceOf, (id) => strings.shared[id] as string),
    kinds: Array.from(packed.kindOf, (id) => (id < 0 ? undefined : strings.shared[id])),
  };
}

/** The snapshot's compact index with its records, made at once and checked (tests). */
export async function decodeIndexSnapshot(bytes: Uint8Array): Promise<{ compact: CompactIndex; records: SnapshotRecords }> {
  const packed = unpackIndexSnapshot(bytes);
  const slices = new Slices(() => Promise.resolve());
  await decodeAllPostings(packed, slices);
  const strings = await readStrings(packed, slices);
  await checkAnalysis(packed, strings, slices);
  const source = compactOf(packed, strings);
  const all = (list: StringList) => Array.from({ length: list.length }, (_, i) => list.at(i) as string);
  const compact: CompactIndex = { ...source, terms: all(source.terms), surfaces: { ...source.surfaces, words: all(source.surfaces.words), terms: all(source.surfaces.terms) } };
  return { compact, records: recordsOf(packed, strings) };
}

/**
 * The index in a stored form, inflated off this thread and made on it in slices of about
 * `SLICE_MS` (time-slices.ts), yielding to other work between them (`pause`, by default `nextTurn`).
 * Rejects when the stored form is damaged, of another format, or analysed differently.
 */
export async function loadIndexSnapshot(bytes: Uint8Array, pause: () => Promise<void> = nextTurn): Promise<KnowledgeIndex> {
  return indexFromSnapshot(await unpackIndexSnapshotAsync(bytes, new Slices(pause)), pause);
}

/** The index of a packed snapshot (see `loadIndexSnapshot`). */
export async function indexFromSnapshot(packed: PackedSnapshot, pause: () => Promise<void> = nextTurn): Promise<KnowledgeIndex> {
  const n = packed.header.records;
  const slices = new Slices(pause);
  await decodeAllPostings(packed, slices);
  const strings = await readStrings(packed, slices);
  await checkAnalysis(packed, strings, slices);
  const { ids, titles, texts, shared } = strings;
  // Each record made as the index reads it, and dropped once its fields are kept (no 100,000 objects alive at once).
  // The index holds the ids and texts as their columns; each record is made only as the index reads
  // it (its strings die young), and dropped once its fields are kept.
  const records: RecordsBySlot = {
    length: n,
    columns: { ids, texts },
    at(i: number): IndexableRecord {
      const kind = packed.kindOf[i] as number;
      return { recordId: ids.at(i), title: titles.atOrNull(i), text: texts.at(i), sourceName: shared[packed.sourceOf[i] as number] as string, ...(kind < 0 ? {} : { kind: shared[kind] as string }) };
    },
  };
  const steps = KnowledgeIndex.fromCompactInSteps(compactOf(packed, strings), records, CHECK_EVERY);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await slices.maybe();
  }
}


/** Rejects unless this code analyses a sample of the records (and detects the language) as the snapshot says. */
async function checkAnalysis(packed: PackedSnapshot, strings: Strings, slices: Slices): Promise<void> {
  const { header, arrays } = packed;
  const n = header.records;
  if (n === 0) return;
  if (!header.languagePinned && detectCorpusLanguage(textsOf(strings.texts, n)) !== header.language) throw new Error('the index snapshot was made with another language detection');
  const step = Math.max(1, Math.floor(n / CHECKED_RECORDS));
  const sample: { slot: number; counts: Map<string, [number, number]> }[] = [];
  const wanted = new Set<string>();
  for (let slot = 0; slot < n; slot += step) {
    const title = strings.titles.atOrNull(slot);
    const text = strings.texts.at(slot);
    const textTerms = analyzeWords(text, header.language, 'index').terms;
    const analysed = [title ? analyzeWords(title, header.language, 'index').terms : [], [...textTerms, ...indexedAnswerTermsIn(text)]];
    // A kind of contact's term does not count in a text's length (knowledge-index.ts).
    if ((analysed[0] as string[]).length !== arrays.titleLen[slot] || textTerms.length !== arrays.textLen[slot]) throw new Error('the index snapshot was made with another analysis');
    const counts = new Map<string, [number, number]>();
    analysed.forEach((terms, field) => {
      for (const term of terms) {
        const count = counts.get(term) ?? [0, 0];
        count[field] = (count[field] as number) + 1;
        counts.set(term, count);
        wanted.add(term);
      }
    });
    sample.push({ slot, counts });
  }
  // The ids of the sampled records' terms only: one pass over the terms, no table of all of them.
  const termIds = new Map<string, number>();
  for (let id = 0; id < strings.terms.length; id++) {
    const term = strings.terms.at(id);
    if (wanted.has(term)) termIds.set(term, id);
    // ~3–5 ms for the 100,000 terms of 100,000 records: with looks at the clock.
    if (id % (CHECK_EVERY * 4) === 0) await slices.maybe();
  }
  for (const { slot, counts } of sample) {
    for (const [term, [titleTf, textTf]] of counts) {
      const id = termIds.get(term);
      const at = id === undefined ? -1 : postingOf(packed, id, slot);
      if (at < 0 || arrays.titleTf[at] !== titleTf || arrays.textTf[at] !== textTf) throw new Error('the index snapshot was made with another analysis');
    }
  }
}

/** The texts in slot order, made as they are read (the language detection reads the first few). */
function* textsOf(texts: StringColumn, n: number): Generator<string> {
  for (let slot = 0; slot < n; slot++) yield texts.at(slot);
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
