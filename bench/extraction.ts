/**
 * Extraction time of a 10 MB upload, per format, in process with `extract()`
 * (the pure step of an upload; storage and the record quota come after it).
 * The files are generated deterministically and look like real uploads:
 * prose paragraphs (txt), a sectioned Markdown handbook with lists, links
 * and emphasis (md), a pretty-printed FAQ array (json) and a product feed
 * (jsonl).
 */
import { extract, type SourceFormat } from '../src/knowledge/extraction/index.js';
import { round } from './stats.js';
import { seededRandom } from '../src/tools/lorem-ipsum/seeded-random.js';

export const TEN_MB = 10 * 1024 * 1024;


const WORDS = (
  'order delivery parcel warehouse return refund invoice payment card account password customer service team store showroom ' +
  'warranty repair replacement product lamp chair table sofa desk shelf cable charger battery screen size colour price discount ' +
  'shipping express standard working day week month within before after free cost euro tax business address phone e-mail ' +
  'available stock material wood steel cotton recycled packaging assembly carrier tracking number link page section option'
).split(' ');

function sentence(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(next() * WORDS.length)] as string);
  const text = out.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function paragraph(next: () => number): string {
  const count = 2 + Math.floor(next() * 5);
  return Array.from({ length: count }, () => sentence(next, 6 + Math.floor(next() * 14))).join(' ');
}

/** About `bytes` bytes (never more) of the given format. */
export function generate(format: SourceFormat, bytes: number = TEN_MB): Buffer {
  const next = seededRandom(42);
  const parts: string[] = [];
  let size = 0;
  const push = (s: string) => {
    parts.push(s);
    size += Buffer.byteLength(s);
  };
  if (format === 'txt') {
    while (size < bytes - 2000) push(`${paragraph(next)}\n\n`);
  } else if (format === 'md') {
    let n = 0;
    while (size < bytes - 4000) {
      n++;
      push(`## ${sentence(next, 3 + Math.floor(next() * 4)).slice(0, -1)} ${n}\n\n`);
      push(`${paragraph(next)} See [the ${WORDS[n % WORDS.length]} page](https://shop.example/help/${n}) and **${sentence(next, 2).slice(0, -1)}**.\n\n`);
      if (n % 2 === 0) push(`- ${sentence(next, 5)}\n- ${sentence(next, 7)}\n- \`${WORDS[n % WORDS.length]}-${n}\` ${sentence(next, 4)}\n\n`);
      if (n % 5 === 0) push(`### Details\n\n${paragraph(next)}\n\n`);
    }
  } else if (format === 'json') {
    push('[\n');
    let first = true;
    while (size < bytes - 2000) {
      const item = JSON.stringify({ question: `${sentence(next, 5 + Math.floor(next() * 6)).slice(0, -1)}?`, answer: paragraph(next) }, null, 2).replace(/\n/g, '\n  ');
      push(`${first ? '' : ',\n'}  ${item}`);
      first = false;
    }
    push('\n]\n');
  } else {
    let n = 0;
    while (size < bytes - 2000) {
      n++;
      push(
        `${JSON.stringify({
          sku: `SKU-${100000 + n}`,
          name: sentence(next, 3).slice(0, -1),
          description: paragraph(next),
          price: round(5 + next() * 500, 2),
          currency: 'EUR',
          brand: WORDS[n % WORDS.length],
          inStock: next() > 0.2,
        })}\n`,
      );
    }
  }
  return Buffer.from(parts.join(''));
}

export interface ExtractionResult {
  format: SourceFormat;
  bytes: number;
  records: number;
  rejected: number;
  iterations: number;
  /** Milliseconds per extraction. */
  minMs: number;
  medianMs: number;
  maxMs: number;
  mbPerSecond: number;
}

export function benchExtraction(format: SourceFormat, iterations: number, deadline: number): ExtractionResult {
  const bytes = generate(format);
  const first = extract(bytes, format); // warm-up
  const times: number[] = [];
  for (let i = 0; i < iterations && (i === 0 || performance.now() < deadline); i++) {
    const t0 = performance.now();
    extract(bytes, format);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  return {
    format,
    bytes: bytes.byteLength,
    records: first.records.length,
    rejected: first.rejected.length,
    iterations: times.length,
    minMs: round(times[0] as number, 1),
    medianMs: round(median, 1),
    maxMs: round(times[times.length - 1] as number, 1),
    mbPerSecond: round(bytes.byteLength / (1024 * 1024) / (median / 1000), 1),
  };
}
