/**
 * The stored full-text document of records (storage migration 20, PostgreSQL): the retriever ranks
 * exactly as it did when it analysed the texts in the query and sorted whole rows; the migration
 * stores the documents of records written before it, replaces the expression index earlier
 * versions created at start, and record_term_stats' triggers then read the stored column; a
 * retriever refuses to start on records without it.
 */
import fc from 'fast-check';
import type pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { lexemeQuery, RECORD_DOCUMENT, RECORD_FTS_INDEX, RECORD_TSVECTOR, searchWords } from '../../src/adapters/retrieval/postgres-fts.js';
import type { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import { applyFunction } from '../../src/adapters/storage/postgres/record-term-stats.js';
import type { KnowledgeBase } from '../../src/knowledge/model.js';
import type { TermVocabulary } from '../../src/knowledge/retrieval/vocabulary.js';
import { describeIf, postgres } from '../support/requirements.js';
import { postgresRecordsFixture, type RecordText } from './postgres-records-fixture.js';

const connectionString = process.env.DATABASE_URL ?? '';

/** Few words, so many records tie and share words (ranking by cover density and the seq tie-break both matter). */
const POOL = ['ship', 'shipping', 'deliver', 'delivery', 'lamp', 'reading', 'brass', 'black', 'price', 'returns', 'card', 'café'];
const textArb = fc.array(fc.constantFrom(...POOL), { minLength: 1, maxLength: 10 }).map((words) => words.join(' '));
const recordArb = fc.record({ title: fc.option(textArb, { nil: null }), text: textArb });

/** The search as it was before migration 20: each matching record's document analysed from its text, whole rows sorted. */
const FORMER_SEARCH = `
SELECT r.record_id, ts_rank_cd('{0.5,0.5,0.5,1.0}'::float4[], ${RECORD_TSVECTOR}, q.query, 1) AS score
FROM records r
JOIN sources s ON s.source_id = r.source_id
CROSS JOIN (SELECT $2::tsquery AS query) q
WHERE r.rag_id = $1 AND ${RECORD_TSVECTOR} @@ q.query
ORDER BY score DESC, r.seq
LIMIT $3`;

describeIf(postgres, 'stored full-text documents (PostgreSQL, migration 20)', () => {
  const fx = postgresRecordsFixture(connectionString);
  const { schema } = fx;
  let store: PostgresStore;
  let client: pg.Client;
  beforeAll(() => {
    store = fx.store();
    client = fx.client();
  });
  const retriever = fx.retriever;
  const knowledgeBase = fx.knowledgeBase;

  /** Uploads `records`; the content version they make visible. */
  async function upload(kb: KnowledgeBase, records: RecordText[]): Promise<number> {
    await fx.upload(kb, records);
    return (await store.knowledge.findKnowledgeBase(kb.ragId))?.contentVersion ?? 0;
  }

  /** Records whose stored document is not the one analysed from their title and text. */
  const mismatched = async () => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM records WHERE ${RECORD_DOCUMENT} IS DISTINCT FROM ${RECORD_TSVECTOR}`)).rows[0]?.n);

  const termCountsMatch = async (ragId: string) => {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM (
         (SELECT word, ndoc FROM ts_stat('SELECT ${RECORD_TSVECTOR.replaceAll("'", "''")} FROM records WHERE rag_id = ' || quote_literal($1::text))
          EXCEPT SELECT word, ndoc FROM record_term_stats WHERE rag_id = $1 AND ndoc <> 0)
         UNION ALL
         (SELECT word, ndoc FROM record_term_stats WHERE rag_id = $1 AND ndoc <> 0
          EXCEPT SELECT word, ndoc FROM ts_stat('SELECT ${RECORD_TSVECTOR.replaceAll("'", "''")} FROM records WHERE rag_id = ' || quote_literal($1::text)))
       ) d`,
      [ragId],
    );
    return Number(rows[0]?.n) === 0;
  };

  it('ranks exactly as the former search over the analysed texts: same records, scores and order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.array(fc.constantFrom(...POOL, 'unknown'), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 12 }),
        async (records, questions, k) => {
          const kb = await knowledgeBase();
          const version = await upload(kb, records);
          const r = retriever();
          for (const words of questions) {
            const question = words.join(' ');
            const { hits, stats } = await r.search({ ragId: kb.ragId, contentVersion: version }, question, k);
            const vocabulary = stats as TermVocabulary;
            const lexemes = searchWords(vocabulary, vocabulary.expand(question), 0.5);
            const former = lexemes.size === 0 ? [] : (await client.query<{ record_id: string; score: number }>(FORMER_SEARCH, [kb.ragId, lexemeQuery(lexemes), k])).rows;
            expect(hits.map((h) => [h.recordId, h.score])).toEqual(former.filter((row) => row.score > 0).map((row) => [row.record_id, row.score]));
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('stores the documents of records written before it, replaces the expression index, and counts words from the stored column', async () => {
    const kb = await knowledgeBase();
    await upload(kb, [{ title: 'Größe', text: 'The café ships e-mail orders' }]);
    // As a database of schema 19 whose retriever created its expression index at start.
    await client.query(`DROP INDEX ${RECORD_FTS_INDEX}`);
    await client.query(`ALTER TABLE records DROP COLUMN ${RECORD_DOCUMENT}`);
    await client.query(applyFunction(RECORD_TSVECTOR));
    await client.query(`CREATE INDEX ${RECORD_FTS_INDEX} ON records USING gin (${RECORD_TSVECTOR})`);
    await client.query('DELETE FROM schema_migrations WHERE id = 20');
    await upload(kb, [{ title: null, text: "O'Brien delivers the cafe's grosse parcels" }]);
    await expect(retriever().start()).rejects.toThrow(/migration 20/);

    await fx.migrateAgain();
    expect(await mismatched()).toBe(0);
    const documents = await client.query<{ n: string }>(`SELECT count(*) AS n FROM records WHERE rag_id = $1 AND ${RECORD_DOCUMENT} IS NOT NULL`, [kb.ragId]);
    expect(Number(documents.rows[0]?.n)).toBe(2);
    const index = await client.query<{ indexdef: string }>('SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [schema, RECORD_FTS_INDEX]);
    expect(index.rows.map((row) => row.indexdef)).toEqual([expect.stringMatching(new RegExp(`USING gin \\(${RECORD_DOCUMENT}\\)$`))]);
    // The triggers' function reads the stored column, and the counts stay exact through writes.
    const body = await client.query<{ prosrc: string }>("SELECT prosrc FROM pg_proc WHERE proname = 'record_term_stats_apply' AND pronamespace = $1::regnamespace", [schema]);
    expect(body.rows[0]?.prosrc).toContain(`tsvector_to_array(${RECORD_DOCUMENT})`);
    expect(body.rows[0]?.prosrc).not.toContain('to_tsvector');
    await upload(kb, [{ title: 'Ships', text: 'café grosse ships' }]);
    await client.query("UPDATE records SET text = 'parcels only' WHERE rag_id = $1 AND title IS NULL", [kb.ragId]);
    await client.query("DELETE FROM records WHERE rag_id = $1 AND title = 'Größe'", [kb.ragId]);
    expect(await mismatched()).toBe(0);
    expect(await termCountsMatch(kb.ragId)).toBe(true);
    await expect(retriever().start()).resolves.toBeUndefined();
  });
});
