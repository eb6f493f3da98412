/**
 * Preparing an upload off the HTTP thread (src/knowledge/prepare-upload.ts, ingest-threads.ts):
 * reading stops once the upload cannot fit or holds too many records, in-file duplicates share
 * their first record, and refusals cross the thread as the same DomainError.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { fingerprint, sha256Hex } from '../../src/knowledge/fingerprint.js';
import { IngestThreads } from '../../src/knowledge/ingest-threads.js';
import { type PrepareInput, prepareUpload } from '../../src/knowledge/prepare-upload.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const headings = (n: number, from = 0) => Array.from({ length: n }, (_, k) => `# Heading ${from + k}\n`).join('');

function input(text: string, maxDistinct = 25, maxRecords = 10_000, format: PrepareInput['format'] = 'md'): PrepareInput {
  return { bytes: bytes(text), format, options: { maxRecordChars: 2000 }, limits: { maxDistinct, maxRecords } };
}

describe('prepareUpload', () => {
  it('fingerprints every record, keeps the first of each fingerprint with an id, and hashes the file', () => {
    const text = '# A\nalpha\n# B\nbeta\n# C\nalpha\n';
    const prepared = prepareUpload(input(text));
    if (prepared.kind !== 'prepared') throw new Error(prepared.kind);
    expect(prepared.sha256).toBe(sha256Hex(bytes(text)));
    expect(prepared.unique.map((r) => r.text)).toEqual(['alpha', 'beta']);
    expect(prepared.unique.every((r) => /^rec_/.test(r.recordId) && r.fingerprint === fingerprint(r.text))).toBe(true);
    expect(prepared.order).toEqual([0, 1, 0]);
    // The report keeps each record's own title, and the id of its fingerprint's first record.
    expect(prepared.head.map((h) => [h.title, h.preview, h.recordId])).toEqual([
      ['A', 'alpha', prepared.unique[0]?.recordId],
      ['B', 'beta', prepared.unique[1]?.recordId],
      ['C', 'alpha', prepared.unique[0]?.recordId],
    ]);
  });

  it('stops reading once more distinct records than can ever fit have been seen', () => {
    const started = performance.now();
    expect(prepareUpload(input(headings(500_000)))).toEqual({ kind: 'over_quota', distinct: 26 });
    // Only the first 26 sections were read: far less than extracting 500 000 (about a second).
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('hands the whole upload on when the file ends at the first record past the limit (the store counts exactly)', () => {
    const prepared = prepareUpload(input(headings(26)));
    expect(prepared.kind).toBe('prepared');
    if (prepared.kind === 'prepared') expect(prepared.unique).toHaveLength(26);
  });

  it('refuses more records than one upload may hold, duplicates included', () => {
    expect(prepareUpload(input('# Same\n'.repeat(50), 25, 40))).toEqual({ kind: 'too_many_records', maxRecords: 40 });
    expect(prepareUpload(input('# Same\n'.repeat(40), 25, 40)).kind).toBe('prepared');
  });

  it('throws the extraction’s DomainError as before', () => {
    expect(() => prepareUpload(input('[1,', 25, 10_000, 'json'))).toThrow(DomainError);
  });
});

describe('IngestThreads', () => {
  const threads = new IngestThreads({ size: 1 });
  afterAll(() => threads.close());

  it('prepares an upload on a worker thread', async () => {
    const prepared = await threads.prepare(input('Q: Is it free?\nA: Yes.\n', 25, 10_000, 'txt'));
    expect(prepared.kind).toBe('prepared');
    if (prepared.kind === 'prepared') expect(prepared.unique.map((r) => r.kind)).toEqual(['qa']);
  });

  it('brings a refusal back as the same DomainError', async () => {
    const refused = await threads.prepare(input('{"a": [1, 2,]}', 25, 10_000, 'json')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'invalid_json', extra: { line: 1, column: 13 } });
  });

  it('ends a preparation past its time limit with time_limit_exceeded, and the next one gets a new thread', async () => {
    const hasty = new IngestThreads({ size: 1, timeoutMs: 1 });
    try {
      const refused = await hasty.prepare(input(headings(200_000), 1e9, 1e9)).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'time_limit_exceeded', extra: { limitMs: 1 } });
    } finally {
      await hasty.close();
    }
    expect((await threads.prepare(input('# One\nbody\n'))).kind).toBe('prepared');
  });

  it('refuses with 503 server_busy when too many uploads wait', async () => {
    const small = new IngestThreads({ size: 1, maxQueue: 1 });
    try {
      const big = input(headings(100_000), 1e9, 1e9);
      const outcomes = await Promise.allSettled([small.prepare(big), small.prepare(big), small.prepare(big)]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'server_busy' });
    } finally {
      await small.close();
    }
  });
});
