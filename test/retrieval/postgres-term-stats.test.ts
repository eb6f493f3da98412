/**
 * The PostgreSQL retriever's vocabulary from `record_term_stats` (issue 14, PostgreSQL at 100,000
 * records): the triggers keep each knowledge base's word counts equal to `ts_stat` over its
 * records through every kind of write, concurrent ones included; migration 19 counts the records
 * already stored; and a retriever that applies the words changed since the version it holds, a
 * second instance that lags several versions, and a cold one all hold the vocabulary the former
 * `ts_stat` read built.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { type PostgresFtsRetriever, RECORD_TSVECTOR, readAllWords, WORDS_PER_PAGE, type WordRow, wordsOfPages } from '../../src/adapters/retrieval/postgres-fts.js';
import type { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import { detectCorpusLanguage } from '../../src/knowledge/language/detect.js';
import type { KnowledgeBase } from '../../src/knowledge/model.js';
import type { TermVocabulary } from '../../src/knowledge/retrieval/vocabulary.js';
import { TermVocabulary as Vocabulary } from '../../src/knowledge/retrieval/vocabulary.js';
import { describeIf, postgres } from '../support/requirements.js';
import { candidatesOf, postgresRecordsFixture } from './postgres-records-fixture.js';
import { vocabularyState } from './vocabulary-state.js';

const connectionString = process.env.DATABASE_URL ?? '';
const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

const POOL = ['ship', 'shipping', 'shipped', 'deliver', 'delivery', 'Größe', 'grosse', 'café', 'cafe', 'e-mail', "o'brien", 'mastercard', 'card', 'returns', 'x9', 'abc123'];
const wordArb = fc.oneof(fc.constantFrom(...POOL), fc.stringMatching(/^[abdeklnrst]{3,6}$/));
const textArb = fc.array(wordArb, { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));
const recordArb = fc.record({ title: fc.option(textArb, { nil: null }), text: textArb });

type Op =
  | { kind: 'upload'; kb: number; records: { title: string | null; text: string }[] }
  | { kind: 'page'; kb: number; url: number; records: { title: string | null; text: string }[] }
  | { kind: 'deleteRecord'; kb: number; pick: number }
  | { kind: 'deleteSource'; kb: number; pick: number }
  | { kind: 'rewrite'; kb: number; pick: number; text: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('upload' as const), kb: fc.nat(1), records: fc.array(recordArb, { minLength: 1, maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('page' as const), kb: fc.nat(1), url: fc.nat(1), records: fc.array(recordArb, { maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteRecord' as const), kb: fc.nat(1), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteSource' as const), kb: fc.nat(1), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewrite' as const), kb: fc.nat(1), pick: fc.nat(), text: textArb }) },
);

describeIf(postgres, 'record_term_stats and the PostgreSQL retriever vocabulary', () => {
  const fx = postgresRecordsFixture(connectionString, 8);
  const { schema } = fx;
  let store: PostgresStore;
  let client: pg.Client;
  let owner: string;
  beforeAll(() => {
    store = fx.store();
    client = fx.client();
    owner = fx.owner();
  });
  const retriever = fx.retriever;
  const knowledgeBase = fx.knowledgeBase;
  const upload = fx.upload;
  const candidates = candidatesOf;

  /** What `ts_stat` says of the knowledge base's records, as the retriever read it before. */
  async function tsStat(ragId: string): Promise<Map<string, number>> {
    const { rows } = await client.query<{ word: string; ndoc: number }>(
      `SELECT word, ndoc FROM ts_stat('SELECT ${RECORD_TSVECTOR.replaceAll("'", "''")} FROM records WHERE rag_id = ' || quote_literal($1::text))`,
      [ragId],
    );
    return new Map(rows.map((r) => [r.word, Number(r.ndoc)]));
  }

  async function stored(ragId: string): Promise<Map<string, number>> {
    const { rows } = await client.query<{ word: string; ndoc: number }>('SELECT word, ndoc FROM record_term_stats WHERE rag_id = $1 AND ndoc <> 0', [ragId]);
    return new Map(rows.map((r) => [r.word, Number(r.ndoc)]));
  }

  const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

  /** The vocabulary as the retriever built it from `ts_stat` before record_term_stats. */
  async function reference(ragId: string): Promise<TermVocabulary> {
    const size = await client.query<{ n: string }>('SELECT count(*) AS n FROM records WHERE rag_id = $1', [ragId]);
    const sample = await client.query<{ text: string }>('SELECT left(text, 200) AS text FROM records WHERE rag_id = $1 ORDER BY seq LIMIT 64', [ragId]);
    const words = sorted(await tsStat(ragId)).map(([word, docs]) => ({ word, docs }));
    return new Vocabulary(words, Number(size.rows[0]?.n ?? 0), detectCorpusLanguage(sample.rows.map((r) => r.text)));
  }

  async function vocabularyOf(r: PostgresFtsRetriever, ragId: string): Promise<TermVocabulary> {
    const kb = await store.knowledge.findKnowledgeBase(ragId);
    const { stats } = await r.search({ ragId, contentVersion: kb?.contentVersion ?? 0 }, 'ship', 0);
    return stats as TermVocabulary;
  }

  const PROBES = ['shiping', 'delivry', 'cafe', 'grose', 'abdek', 'mastercrd'];

  it('keeps the counts equal to ts_stat, and every retriever (warm, lagging, cold) holds the vocabulary ts_stat built, through any sequence of writes', async () => {
    let appliedInPlace = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }), async (ops, lagging) => {
        const kbs = [await knowledgeBase(), await knowledgeBase()];
        const warm = retriever();
        const lagger = retriever();
        const seen = new Map<string, TermVocabulary>();
        try {
          for (const [step, op] of ops.entries()) {
            const kb = kbs[op.kb] as KnowledgeBase;
            if (op.kind === 'upload') await upload(kb, op.records);
            else if (op.kind === 'page') {
              const page = { sourceId: id('src'), sourceName: 'page', format: 'html' as const, byteSize: 1, sha256: randomBytes(32).toString('hex'), rejectedCount: 0, url: `https://x.example/${op.url}` };
              await store.knowledge.commitPageSource(owner, kb.ragId, page, candidates(op.records), 100_000);
            } else {
              const { rows } = await client.query<{ record_id: string; source_id: string }>('SELECT record_id, source_id FROM records WHERE rag_id = $1 ORDER BY seq', [kb.ragId]);
              const row = rows[op.pick % Math.max(1, rows.length)];
              if (row && op.kind === 'deleteRecord') await store.knowledge.deleteRecord(owner, kb.ragId, row.record_id);
              if (row && op.kind === 'deleteSource') await store.knowledge.deleteSource(owner, kb.ragId, row.source_id);
              if (row && op.kind === 'rewrite') {
                // Written by hand: the triggers count it too (the version raised as a writer would).
                await client.query('BEGIN');
                await client.query('UPDATE records SET text = $1 WHERE record_id = $2', [op.text, row.record_id]);
                await client.query('UPDATE knowledge_bases SET content_version = content_version + 1 WHERE rag_id = $1', [kb.ragId]);
                await client.query('COMMIT');
              }
            }
            for (const { ragId } of kbs) {
              expect(sorted(await stored(ragId))).toEqual(sorted(await tsStat(ragId)));
              const expected = vocabularyState(await reference(ragId), PROBES);
              const held = await vocabularyOf(warm, ragId);
              if (held === seen.get(ragId)) appliedInPlace++;
              seen.set(ragId, held);
              expect(vocabularyState(held, PROBES)).toEqual(expected);
              if (lagging[step] === true || step === ops.length - 1) expect(vocabularyState(await vocabularyOf(lagger, ragId), PROBES)).toEqual(expected);
            }
          }
          const cold = retriever();
          for (const { ragId } of kbs) expect(vocabularyState(await vocabularyOf(cold, ragId), PROBES)).toEqual(vocabularyState(await reference(ragId), PROBES));
          // A deleted knowledge base's counts go with it.
          await store.knowledge.deleteKnowledgeBase(owner, (kbs[0] as KnowledgeBase).ragId);
          expect((await stored((kbs[0] as KnowledgeBase).ragId)).size).toBe(0);
        } finally {
          await warm.close();
          await lagger.close();
        }
      }),
      { numRuns: 12 },
    );
    expect(appliedInPlace).toBeGreaterThan(0);
    // Some hundred round trips per run: allowed more than the default on a busy machine.
  }, 180_000);

  it('applies an upload to the vocabulary it holds, and reads one that changes many words in full, with the same result', async () => {
    const kb = await knowledgeBase();
    await upload(kb, [{ title: 'Shipping', text: 'We ship parcels every day' }]);
    const r = retriever();
    const first = await vocabularyOf(r, kb.ragId);
    await upload(kb, [{ title: null, text: 'Deliveries arrive within two days' }]);
    const second = await vocabularyOf(r, kb.ragId);
    expect(second).toBe(first);
    expect(second.docFreq('deliveri') + second.docFreq('delivery')).toBeGreaterThan(0);
    expect(vocabularyState(second, PROBES)).toEqual(vocabularyState(await reference(kb.ragId), PROBES));
    // More changed words than it applies in place (1,000): a new vocabulary, read in full.
    const many = Array.from({ length: 2100 }, (_, i) => `w${i.toString(36)}q`).join(' ');
    await upload(kb, [{ title: null, text: many }]);
    const third = await vocabularyOf(r, kb.ragId);
    expect(third).not.toBe(second);
    expect(vocabularyState(third, PROBES)).toEqual(vocabularyState(await reference(kb.ragId), PROBES));
    // invalidate() brings the held vocabulary forward as well.
    await upload(kb, [{ title: null, text: 'Returns are free' }]);
    const after = await store.knowledge.findKnowledgeBase(kb.ragId);
    await r.invalidate(kb.ragId, after?.contentVersion);
    expect(await vocabularyOf(r, kb.ragId)).toBe(third);
    expect(third.docFreq('return')).toBe(1);
  });

  it('reads the words of a cold knowledge base a page at a time, with the result of one read whatever the page size', async () => {
    const kb = await knowledgeBase();
    // Several pages of the small page sizes below, some words in several records.
    const many = Array.from({ length: 637 }, (_, i) => `p${i.toString(36)}z`).join(' ');
    await upload(kb, [{ title: 'Shipping', text: many }, { title: null, text: 'We ship p0z p1z and p2z every day' }]);
    const whole = await client.query<WordRow>('SELECT word, ndoc FROM record_term_stats WHERE rag_id = $1 AND ndoc > 0 ORDER BY word', [kb.ragId]);
    const expected = whole.rows.map((row) => ({ word: row.word, docs: row.ndoc }));
    expect(expected.length).toBeGreaterThan(637);
    for (const pageSize of [1, 2, 7, 100, expected.length - 1, expected.length, expected.length + 1, WORDS_PER_PAGE]) {
      const pages = await readAllWords(client, kb.ragId, pageSize);
      expect(pages.length).toBe(Math.ceil(expected.length / pageSize));
      expect(pages.every((page) => 'lines' in page)).toBe(true);
      expect([...wordsOfPages(pages)]).toEqual(expected);
    }
    expect(vocabularyState(await vocabularyOf(retriever(), kb.ragId), PROBES)).toEqual(vocabularyState(await reference(kb.ragId), PROBES));
  });

  it('reads words holding a tab or a line break, written by hand, as they are', async () => {
    const kb = await knowledgeBase();
    await upload(kb, [{ title: null, text: 'alpha bravo charlie delta echo' }]);
    // The `simple` parser never makes such words; a row written by hand can hold them.
    const odd = ['b\nreak', 'c\ttab', 'd\n', '\ne', 'f\t\n\tg'];
    for (const word of odd) await client.query('INSERT INTO record_term_stats (rag_id, word, ndoc, version) VALUES ($1, $2, 3, 0)', [kb.ragId, word]);
    const whole = await client.query<WordRow>('SELECT word, ndoc FROM record_term_stats WHERE rag_id = $1 AND ndoc > 0 ORDER BY word', [kb.ragId]);
    const expected = whole.rows.map((row) => ({ word: row.word, docs: row.ndoc }));
    expect(expected.map((w) => w.word)).toEqual(expect.arrayContaining(odd));
    for (const pageSize of [1, 2, 3, expected.length, WORDS_PER_PAGE]) {
      const pages = await readAllWords(client, kb.ragId, pageSize);
      expect([...wordsOfPages(pages)]).toEqual(expected);
      // Pages with a line break in a word are read as rows; the others stay text.
      expect(pages.some((page) => 'rows' in page)).toBe(true);
      if (pageSize === 1) expect(pages.filter((page) => 'rows' in page).length).toBe(4);
    }
  });

  it('neither deadlocks nor loses a count when uploads and hand-written inserts of the same words run at once', async () => {
    const kb = await knowledgeBase();
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
    const shuffled = (seed: number) => [...words].sort((a, b) => ((a.charCodeAt(1) * seed) % 7) - ((b.charCodeAt(1) * seed) % 7) || (a < b ? -1 : 1));
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => upload(kb, [{ title: null, text: shuffled(i + 1).join(' ') }, { title: words[i] ?? null, text: shuffled(i + 3).reverse().join(' ') }])));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const sourceId = (results[0] as PromiseFulfilledResult<string>).value;
    // Without the store's knowledge-base lock: each statement inserts several records whose words
    // overlap every other statement's, in different orders; their upserts lock words in one order.
    const clients = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const c = new pg.Client({ connectionString, options: `-c search_path="${schema}"` });
        await c.connect();
        return c;
      }),
    );
    try {
      for (let round = 0; round < 3; round++) {
        const inserts = await Promise.allSettled(
          clients.map((c, i) => {
            const values: unknown[] = [];
            const rows: string[] = [];
            for (let k = 0; k < 4; k++) {
              const n = values.length;
              rows.push(`($${n + 1}, $${n + 2}, $${n + 3}, 'passage', NULL, $${n + 4}, $${n + 5}, now(), 0)`);
              values.push(id('rec'), kb.ragId, sourceId, shuffled(round * 10 + i * 4 + k + 1).join(' '), randomUUID());
            }
            return c.query(`INSERT INTO records (record_id, rag_id, source_id, kind, title, text, fingerprint, created_at, content_version) VALUES ${rows.join(', ')}`, values);
          }),
        );
        expect(inserts.filter((r) => r.status === 'rejected')).toEqual([]);
      }
    } finally {
      for (const c of clients) await c.end();
    }
    const expected = await tsStat(kb.ragId);
    expect(expected.get('alpha')).toBe(20 + 3 * 6 * 4);
    expect(sorted(await stored(kb.ragId))).toEqual(sorted(expected));
  });

  it('counts the records stored before migration 19 when it runs', async () => {
    const kb = await knowledgeBase();
    await upload(kb, [{ title: 'Größe', text: 'The café ships e-mail orders' }]);
    // As a database of schema 18: no table, no triggers, then records written without them.
    await client.query('DROP TABLE record_term_stats');
    await client.query('DROP FUNCTION record_term_stats_apply() CASCADE');
    await client.query('DELETE FROM schema_migrations WHERE id = 19');
    await upload(kb, [{ title: null, text: "O'Brien delivers the cafe's grosse parcels" }]);
    await fx.migrateAgain();
    const expected = await tsStat(kb.ragId);
    expect(expected.size).toBeGreaterThan(5);
    expect(sorted(await stored(kb.ragId))).toEqual(sorted(expected));
    await upload(kb, [{ title: null, text: 'ships' }]);
    expect(sorted(await stored(kb.ragId))).toEqual(sorted(await tsStat(kb.ragId)));
  });
});
