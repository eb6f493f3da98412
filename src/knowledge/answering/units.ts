/**
 * Cuts retrieved records into the pieces an extractive answer is made of ("units"), each with
 * the context that qualifies it: a record's title (question, product name, heading) is not
 * repeated in every sentence, yet a sentence under it is about it.
 */
import { analyze, tokenize } from '../retrieval/tokenize.js';
import { removeDanglingCitations } from './citations.js';
import { collapseSpace, splitSentences } from './sentences.js';
import type { RetrievedRecord } from './types.js';

export interface Unit {
  /** Index of the record in the answerer's record list. */
  record: number;
  /** Collapsed text, as it goes into the answer. */
  text: string;
  /** Offset in the record's text (footnote markers removed): orders units of one record. */
  start: number;
  /** Term frequencies (stop-words included; only query terms are ever looked up). */
  tf: Map<string, number>;
  /** Number of terms, for length normalisation. */
  len: number;
  /** Distinct non-stop-word terms, for redundancy (MMR). */
  content: Set<string>;
  /** Terms of the record's title/question, which qualify every unit of the record. */
  context: ReadonlySet<string>;
}

interface RecordLayout {
  /** The question or heading, when the record has one. */
  context: string | null;
  /** Where the body (answer, section text) starts in the record's text. */
  bodyStart: number;
}

const NO_CONTEXT: ReadonlySet<string> = new Set();

/** Finds the question/heading of a record and where its body starts. */
function layout(r: RetrievedRecord, text: string): RecordLayout {
  const lead = text.length - text.trimStart().length;
  const title = r.title?.trim() ?? '';
  if (title.length > 0 && text.startsWith(title, lead)) return { context: title, bodyStart: lead + title.length };
  if (title.length > 0) return { context: title, bodyStart: 0 };
  // A Q&A without a title: its first line is the question when it reads like one.
  if (r.kind === 'qa') {
    const nl = text.indexOf('\n', lead);
    const first = text.slice(lead, nl < 0 ? undefined : nl).trim();
    if (nl > 0 && first.endsWith('?')) return { context: first, bodyStart: nl + 1 };
  }
  return { context: null, bodyStart: 0 };
}

function makeUnit(record: number, text: string, start: number, context: ReadonlySet<string>): Unit {
  const tf = new Map<string, number>();
  const content = new Set<string>();
  const tokens = analyze(text, 'index');
  for (const t of tokens) {
    tf.set(t.term, (tf.get(t.term) ?? 0) + 1);
    if (!t.stop) content.add(t.term);
  }
  return { record, text, start, tf, len: tokens.length, content, context };
}

interface CachedUnits {
  text: string;
  title: string | null;
  kind: RetrievedRecord['kind'];
  units: Unit[];
}

/**
 * Records do not change once stored, and the same few records answer most questions, so
 * their analysed units are kept (bounded, least recently used first out) instead of being
 * recomputed for every query. The entry is checked against the record's text, title and
 * kind, so a reused id with other content is analysed afresh.
 */
const unitCache = new Map<string, CachedUnits>();
const unitCacheCapacity = 20_000;

export function recordUnits(r: RetrievedRecord, recordIndex: number, maxChars: number): Unit[] {
  const key = `${r.recordId}\u0000${maxChars}`;
  let entry = unitCache.get(key);
  if (!entry || entry.text !== r.text || entry.title !== r.title || entry.kind !== r.kind) {
    entry = { text: r.text, title: r.title, kind: r.kind, units: analyseRecord(r, maxChars) };
    if (unitCache.size >= unitCacheCapacity) {
      const oldest = unitCache.keys().next().value;
      if (oldest !== undefined) unitCache.delete(oldest);
    }
  } else {
    unitCache.delete(key);
  }
  unitCache.set(key, entry);
  return entry.units.map((u) => ({ ...u, record: recordIndex }));
}

/**
 * The units of a record. A Q&A answer short enough to quote whole is one unit: answering with
 * half of it would be less readable and no more faithful.
 */
function analyseRecord(r: RetrievedRecord, maxChars: number): Unit[] {
  const recordIndex = 0;
  // Footnote markers copied into a record ("…in 1066.[3]") would read as citations of our
  // sources, and confuse sentence splitting; they go before anything else.
  const text = /[[【]/.test(r.text) ? removeDanglingCitations(r.text, 0) : r.text;
  const { context, bodyStart } = layout(r, text);
  const ctx = context ? new Set(tokenize(context)) : NO_CONTEXT;
  const body = text.slice(bodyStart);
  const collapsed = collapseSpace(body);
  if (collapsed.length === 0) {
    // Nothing but a title: the record's text is all there is to quote.
    return splitSentences(text).map((s) => makeUnit(recordIndex, s.text, s.start, NO_CONTEXT));
  }
  if (r.kind === 'qa' && context && collapsed.length <= maxChars) {
    const lead = body.length - body.trimStart().length;
    return [makeUnit(recordIndex, collapsed, bodyStart + lead, ctx)];
  }
  return splitSentences(body, bodyStart).map((s) => makeUnit(recordIndex, s.text, s.start, ctx));
}
