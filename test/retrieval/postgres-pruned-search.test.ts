/**
 * Pruned searches of the PostgreSQL retriever (storage migration 21, record-term-impacts.ts):
 * `record_term_stats.max_impact` bounds what each word adds to a record's rank through any
 * sequence of writes (ts_rank_cd's own figure when no word of a record repeats), the pruned statement returns
 * exactly the full search's rows, scores and order for every split of a question's words, the
 * retriever prunes a large knowledge base's search for the ingest probe's question, and migration
 * 21 bounds the words of records stored before it and sets the GIN index's pending list limit.
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { lexemeQuery, prunedSearchStatement, pruningSplit, RECORD_DOCUMENT, RECORD_FTS_INDEX, searchStatement, searchWords } from '../../src/adapters/retrieval/postgres-fts.js';
import type { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import { applyFunction } from '../../src/adapters/storage/postgres/record-term-stats.js';
import { GIN_PENDING_LIST_KB, RANK_WEIGHTS_ARRAY } from '../../src/adapters/storage/postgres/record-term-impacts.js';
import type { KnowledgeBase } from '../../src/knowledge/model.js';
import type { TermVocabulary } from '../../src/knowledge/retrieval/vocabulary.js';
import { describeIf, postgres } from '../support/requirements.js';
import { postgresRecordsFixture, type RecordText } from './postgres-records-fixture.js';

const connectionString = process.env.DATABASE_URL ?? '';

/** Few words, so records share words and tie; texts of varied lengths, titles or none. */
const POOL = ['ship', 'shipping', 'deliver', 'lamp', 'reading', 'brass', 'black', 'price', 'returns', 'card', 'café', 'o’brien'];
const textArb = fc.array(fc.constantFrom(...POOL), { minLength: 1, maxLength: 14 }).map((words) => words.join(' '));
const recordArb = fc.record({ title: fc.option(textArb, { nil: null }), text: textArb });

/** A lexeme as a tsquery of one word, in SQL. */
const LEXEME_QUERY = "(('''' || replace(t.word, '''', '''''') || ''''))::tsquery";

interface BoundRow {
  word: string;
  ndoc: number;
  max_impact: number | null;
  /** ts_rank_cd of the word alone, largest over the knowledge base's records (null: none holds it). */
  actual: number | null;
}

describeIf(postgres, 'pruned searches (PostgreSQL, migration 21)', () => {
  const fx = postgresRecordsFixture(connectionString);
  const { schema } = fx;
  let store: PostgresStore;
  let client: pg.Client;
  beforeAll(() => {
    store = fx.store();
    client = fx.client();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function upload(kb: KnowledgeBase, records: RecordText[]): Promise<number> {
    await fx.upload(kb, records);
    return (await store.knowledge.findKnowledgeBase(kb.ragId))?.contentVersion ?? 0;
  }

  const bounds = async (ragId: string) =>
    (
      await client.query<BoundRow>(
        `SELECT t.word, t.ndoc, t.max_impact,
           (SELECT max(ts_rank_cd('${RANK_WEIGHTS_ARRAY}'::float4[], r.${RECORD_DOCUMENT}, ${LEXEME_QUERY}, 1))
            FROM records r WHERE r.rag_id = t.rag_id AND r.${RECORD_DOCUMENT} @@ ${LEXEME_QUERY}) AS actual
         FROM record_term_stats t WHERE t.rag_id = $1`,
        [ragId],
      )
    ).rows;

  /** Every bound is known, at least the word's largest rank (float4 rounding allowed), and 0 for a word no record holds. */
  function expectSafe(rows: BoundRow[]): void {
    for (const row of rows) {
      expect(row.max_impact, row.word).not.toBeNull();
      if (row.actual === null) {
        expect(row.ndoc, row.word).toBe(0);
        expect(row.max_impact, row.word).toBe(0);
      } else {
        expect(row.max_impact as number, row.word).toBeGreaterThanOrEqual(row.actual * (1 - 1e-6));
      }
    }
  }

  it('bounds each word’s rank through uploads, hand-written updates and deletions', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('upload' as const), records: fc.array(recordArb, { minLength: 1, maxLength: 8 }) }),
      fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), text: textArb }),
      fc.record({ kind: fc.constant('delete-record' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('delete-source' as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(recordArb, { minLength: 1, maxLength: 12 }), fc.array(op, { maxLength: 8 }), async (first, ops) => {
        const kb = await fx.knowledgeBase();
        const sources = [await fx.upload(kb, first)];
        for (const o of ops) {
          const seqs = (await client.query<{ seq: string }>('SELECT seq FROM records WHERE rag_id = $1 ORDER BY seq', [kb.ragId])).rows.map((r) => r.seq);
          if (o.kind === 'upload') sources.push(await fx.upload(kb, o.records));
          else if (o.kind === 'update' && seqs.length > 0) {
            await client.query('UPDATE records SET text = $2 WHERE seq = $1', [seqs[o.pick % seqs.length], o.text]);
          } else if (o.kind === 'delete-record' && seqs.length > 0) {
            await client.query('DELETE FROM records WHERE seq = $1', [seqs[o.pick % seqs.length]]);
          } else if (o.kind === 'delete-source' && sources.length > 0) {
            const [sourceId] = sources.splice(o.pick % sources.length, 1);
            await store.knowledge.deleteSource(fx.owner(), kb.ragId, sourceId as string);
          }
        }
        expectSafe(await bounds(kb.ragId));
      }),
      { numRuns: 15 },
    );
  });

  it('bounds with ts_rank_cd’s own figure when no word of a record repeats', async () => {
    const distinct = fc.uniqueArray(fc.constantFrom(...POOL), { minLength: 1, maxLength: POOL.length }).map((words) => words.join(' '));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ title: fc.constant(null), text: distinct }), { minLength: 1, maxLength: 10 }), async (records) => {
        const kb = await fx.knowledgeBase();
        await fx.upload(kb, records);
        for (const row of await bounds(kb.ragId)) expect(row.max_impact as number, row.word).toBeCloseTo(row.actual as number, 6);
      }),
      { numRuns: 10 },
    );
  });

  it('returns the full search’s rows, scores and order for every split of the question’s words', async () => {
    const full = searchStatement(1);
    const pruned = prunedSearchStatement();
    let prunedRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArb, { minLength: 1, maxLength: 40 }),
        fc.uniqueArray(fc.constantFrom(...POOL, 'unknown'), { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        async (records, words, k, thenDelete) => {
          const kb = await fx.knowledgeBase();
          await fx.upload(kb, records);
          // Bounds left high by a deletion stay safe.
          if (thenDelete) await client.query('DELETE FROM records WHERE seq = (SELECT min(seq) FROM records WHERE rag_id = $1)', [kb.ragId]);
          const lexemes = words.map((w) => w.replace('’', ''));
          const query = lexemeQuery(lexemes);
          const expected = (await client.query<{ record_id: string; score: number }>(full, [kb.ragId, query, k])).rows.map((r) => [r.record_id, r.score]);
          for (let mask = 1; mask < (1 << lexemes.length) - 1; mask++) {
            const rare = lexemes.filter((_, i) => mask & (1 << i));
            const common = lexemes.filter((_, i) => !(mask & (1 << i)));
            const { rows } = await client.query<{ record_id: string; score: number; pruned: boolean }>(pruned, [kb.ragId, query, k, lexemeQuery(rare), common]);
            expect(rows.map((r) => [r.record_id, r.score])).toEqual(expected);
            if (rows[0]?.pruned) prunedRuns++;
          }
        },
      ),
      { numRuns: 25 },
    );
    // The pruned branch ran, not only the full search.
    expect(prunedRuns).toBeGreaterThan(0);
  });

  it('prunes the probe question’s search in a large knowledge base: only the rarer words’ records ranked, same hits', async () => {
    const kb = await fx.knowledgeBase();
    const records: RecordText[] = [];
    for (let i = 0; i < 2000; i++) records.push({ title: `Is the kettle k${i} available?`, text: `The kettle k${i} is available in steel and ships within ${i % 9} days.` });
    for (let i = 0; i < 500; i++) records.push({ title: `Do you sell the desk lamp l${i}?`, text: `Yes, the desk lamp l${i} costs ${i} EUR and is available in black.` });
    for (let i = 0; i < 3000; i++) records.push({ title: `Warranty of the chair c${i}`, text: `The chair c${i} has a two-year warranty.` });
    await upload(kb, records);
    const version = await upload(kb, [{ title: 'Do you sell the zorblat reading lamp?', text: 'Yes. The zorblat reading lamp is in stock in black and brass.' }]);

    const queries: { text: string; pruned: boolean | undefined }[] = [];
    const query = pg.Pool.prototype.query as (...args: unknown[]) => Promise<pg.QueryResult>;
    vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(async function (this: pg.Pool, ...args: unknown[]) {
      const result = await query.apply(this, args);
      if (typeof args[0] === 'string') queries.push({ text: args[0], pruned: (result.rows[0] as { pruned?: boolean } | undefined)?.pruned });
      return result;
    } as never);
    const r = fx.retriever();
    const question = 'Is the zorblat lamp available?';
    const { hits, stats } = await r.search({ ragId: kb.ragId, contentVersion: version }, question, 6);
    const vocabulary = stats as TermVocabulary;
    const expanded = vocabulary.expand(question);
    const split = pruningSplit(vocabulary, expanded, 0.5, 6);
    expect(split).toBeDefined();
    expect([...(split?.rare ?? [])].sort()).toEqual(['lamp', 'zorblat']);
    expect(split?.common).toEqual(['available']);
    expect(queries.filter((q) => q.text === prunedSearchStatement()).map((q) => q.pruned)).toEqual([true]);

    const full = await client.query<{ record_id: string; score: number }>(searchStatement(1), [kb.ragId, lexemeQuery(searchWords(vocabulary, expanded, 0.5)), 6]);
    expect(hits.map((h) => [h.recordId, h.score])).toEqual(full.rows.map((row) => [row.record_id, row.score]));
    expect(hits[0]?.title).toBe('Do you sell the zorblat reading lamp?');
    // A small knowledge base ranks every match (no split).
    const small = await fx.knowledgeBase();
    await upload(small, records.slice(0, 40));
    const smallVersion = await upload(small, [{ title: 'zorblat lamp', text: 'available' }]);
    const smallHits = await r.search({ ragId: small.ragId, contentVersion: smallVersion }, question, 6);
    expect(pruningSplit(smallHits.stats as TermVocabulary, (smallHits.stats as TermVocabulary).expand(question), 0.5, 6)).toBeUndefined();
  });

  it('migration 21 bounds the words of records stored before it, and the triggers keep them from then on', async () => {
    const kb = await fx.knowledgeBase();
    await upload(kb, [{ title: 'Größe', text: 'The café ships e-mail orders to the café' }]);
    // As a database of schema 20: no column, migration 20's trigger function.
    await client.query('ALTER TABLE record_term_stats DROP COLUMN max_impact');
    await client.query(applyFunction(RECORD_DOCUMENT));
    await client.query(`ALTER INDEX ${RECORD_FTS_INDEX} RESET (gin_pending_list_limit)`);
    await client.query('DELETE FROM schema_migrations WHERE id = 21');
    await upload(kb, [{ title: null, text: "O'Brien delivers the cafe's grosse parcels" }]);
    await client.query('DELETE FROM records WHERE rag_id = $1 AND title IS NULL', [kb.ragId]);
    await upload(kb, [{ title: 'Ships', text: 'ships' }]);
    await expect(fx.retriever().start()).rejects.toThrow(/migration 21/);
    await fx.migrateAgain();
    const rows = await bounds(kb.ragId);
    expect(rows.filter((row) => row.ndoc > 0).length).toBeGreaterThan(5);
    expectSafe(rows);
    const options = await client.query<{ reloptions: string[] | null }>('SELECT reloptions FROM pg_class WHERE oid = $1::regclass', [`"${schema}".${RECORD_FTS_INDEX}`]);
    expect(options.rows[0]?.reloptions).toEqual([`gin_pending_list_limit=${GIN_PENDING_LIST_KB}`]);
    await upload(kb, [{ title: 'café', text: 'café' }]);
    await client.query("UPDATE records SET text = 'ships ships' WHERE rag_id = $1 AND title = 'Ships'", [kb.ragId]);
    expectSafe(await bounds(kb.ragId));
    await expect(fx.retriever().start()).resolves.toBeUndefined();
  });
});
