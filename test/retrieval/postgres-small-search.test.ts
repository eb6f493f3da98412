/**
 * The PostgreSQL retriever's search of a small knowledge base (`knowledgeBaseScanStatement`): it
 * returns exactly the GIN search's rows, scores and order; the retriever uses it for knowledge bases
 * of up to SCAN_KNOWLEDGE_BASES_UP_TO records and the GIN search above; and next to a large knowledge
 * base, with the table's statistics from before either existed (as after a new tenant's first
 * upload), its plan reads the small knowledge base's rows, not the GIN index's matches over every
 * tenant, which the planner chooses for the GIN search there.
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { knowledgeBaseScanStatement, lexemeQuery, RECORD_FTS_INDEX, SCAN_KNOWLEDGE_BASES_UP_TO, searchStatement } from '../../src/adapters/retrieval/postgres-fts.js';
import type { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import type { KnowledgeBase } from '../../src/knowledge/model.js';
import { describeIf, postgres } from '../support/requirements.js';
import { postgresRecordsFixture, type RecordText } from './postgres-records-fixture.js';

const connectionString = process.env.DATABASE_URL ?? '';

/** Few words, so records share words and tie; texts of varied lengths, titles or none. */
const POOL = ['ship', 'shipping', 'deliver', 'lamp', 'reading', 'brass', 'black', 'price', 'returns', 'card', 'café', 'o’brien'];
const textArb = fc.array(fc.constantFrom(...POOL), { minLength: 1, maxLength: 14 }).map((words) => words.join(' '));
const recordArb = fc.record({ title: fc.option(textArb, { nil: null }), text: textArb });

describeIf(postgres, 'searches of small knowledge bases (PostgreSQL)', () => {
  const fx = postgresRecordsFixture(connectionString);
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

  /** The SQL texts the retrievers send, from here on. */
  function recordStatements(): string[] {
    const sent: string[] = [];
    const query = pg.Pool.prototype.query as (...args: unknown[]) => Promise<pg.QueryResult>;
    vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
      if (typeof args[0] === 'string') sent.push(args[0]);
      return query.apply(this, args);
    } as never);
    return sent;
  }

  const plan = async (statement: string, params: unknown[]) =>
    (await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${statement}`, values: params })).rows.map((r) => r['QUERY PLAN']).join('\n');

  it('returns the GIN search’s rows, scores and order', async () => {
    const scan = knowledgeBaseScanStatement(1);
    const full = searchStatement(1);
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArb, { minLength: 1, maxLength: 30 }),
        fc.uniqueArray(fc.constantFrom(...POOL, 'unknown'), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        async (records, words, k) => {
          const kb = await fx.knowledgeBase();
          await fx.upload(kb, records);
          const query = lexemeQuery(words.map((w) => w.replace('’', '')));
          const expected = (await client.query<{ record_id: string; score: number; title: string | null; text: string }>(full, [kb.ragId, query, k])).rows;
          const rows = (await client.query<{ record_id: string; score: number; title: string | null; text: string }>(scan, [kb.ragId, query, k])).rows;
          expect(rows).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('searches a small knowledge base by its own rows next to a large one the statistics do not know, and a large one through the GIN index', async () => {
    // The statistics are the migrations' `ANALYZE` of the empty table, as for a new tenant's rows.
    const large = await fx.knowledgeBase();
    const many: RecordText[] = [];
    for (let i = 0; i < 4000; i++) many.push({ title: `Do you ship the kettle k${i}?`, text: `We ship the kettle k${i} within ${i % 9} days, by post or courier.` });
    const largeVersion = await upload(large, many);
    const small = await fx.knowledgeBase();
    const smallVersion = await upload(small, [
      { title: 'Shipping', text: 'We ship to Canada and Mexico within five days.' },
      { title: 'Returns', text: 'Returns are accepted within 30 days of delivery.' },
      { title: 'Warranty', text: 'Every kettle carries a two-year warranty.' },
    ]);
    const query = lexemeQuery(['ship', 'shipping', 'mexico']);
    // What the planner does with the GIN search here: the index's matches over every tenant.
    expect(await plan(searchStatement(1), [small.ragId, query, 5])).toContain(`Bitmap Index Scan on ${RECORD_FTS_INDEX}`);
    expect(await plan(knowledgeBaseScanStatement(1), [small.ragId, query, 5])).not.toContain(RECORD_FTS_INDEX);

    const sent = recordStatements();
    const r = fx.retriever();
    const { hits } = await r.search({ ragId: small.ragId, contentVersion: smallVersion }, 'Do you ship to Mexico?', 5);
    expect(hits[0]?.title).toBe('Shipping');
    expect(sent.filter((text) => text === knowledgeBaseScanStatement(1))).toHaveLength(1);
    expect(sent).not.toContain(searchStatement(1));

    sent.length = 0;
    const largeHits = await r.search({ ragId: large.ragId, contentVersion: largeVersion }, 'Do you ship the kettle k17?', 5);
    expect(largeHits.hits[0]?.title).toBe('Do you ship the kettle k17?');
    expect(sent).not.toContain(knowledgeBaseScanStatement(1));
    expect(4000).toBeGreaterThan(SCAN_KNOWLEDGE_BASES_UP_TO);
  });

  it('chooses by the record count up to and past the bound', async () => {
    const kb = await fx.knowledgeBase();
    const records = (n: number, from: number): RecordText[] => Array.from({ length: n }, (_, i) => ({ title: null, text: `The lamp l${from + i} ships in brass.` }));
    let version = await upload(kb, records(SCAN_KNOWLEDGE_BASES_UP_TO, 0));
    const sent = recordStatements();
    const r = fx.retriever();
    await r.search({ ragId: kb.ragId, contentVersion: version }, 'brass lamp', 3);
    expect(sent).toContain(knowledgeBaseScanStatement(1));
    version = await upload(kb, records(1, SCAN_KNOWLEDGE_BASES_UP_TO));
    sent.length = 0;
    const { hits } = await r.search({ ragId: kb.ragId, contentVersion: version }, 'lamp l200', 3);
    expect(sent).not.toContain(knowledgeBaseScanStatement(1));
    expect(sent).toContain(searchStatement(1));
    expect(hits[0]?.text).toBe('The lamp l200 ships in brass.');
  });
});
