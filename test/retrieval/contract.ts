/**
 * The retrieval contract: what every Retriever must do, whatever its ranking. Run by
 * memory.test.ts (the in-memory BM25F registry over SQLite) always and by postgres-fts.test.ts
 * (PostgreSQL full-text search) when DATABASE_URL is set. Records are written through the real
 * store, as ingestion writes them, and every search passes the knowledge base as a query reads it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewSource, Store } from '../../src/ports/storage.js';
import { answerExtractively } from '../../src/knowledge/answering/extractive.js';
import type { RecordKind } from '../../src/knowledge/extraction/types.js';
import { fingerprint } from '../../src/knowledge/fingerprint.js';
import type { KnowledgeBase } from '../../src/knowledge/model.js';
import type { Retrieval, Retriever } from '../../src/knowledge/retrieval/port.js';
import { SHOP_FAQ } from '../answering/fixtures.js';

export interface RetrieverFixture {
  /** A migrated store the retriever reads. */
  store: Store;
  retriever: Retriever;
  /** Closes the retriever and the store (and drops what the fixture created). */
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

interface NewRecord {
  text: string;
  title?: string | null;
  kind?: RecordKind;
}

const TOPICS: NewRecord[] = [
  { text: 'Our lighthouse keeper polishes the brass lantern every evening before sunset.' },
  { text: 'The bakery sells sourdough loaves and cinnamon buns from seven in the morning.' },
  { text: 'Volcanic basalt columns formed when the lava cooled slowly along the coast.' },
  { text: 'The orchestra rehearses the symphony with a new conductor on Thursdays.' },
  { text: 'Beekeepers harvest heather honey in late August from hives on the moor.' },
  { text: 'A glacier carved the fjord, which is now twelve kilometres long and deep.' },
  { text: 'The chess club meets in the library; beginners learn openings and endgames.' },
  { text: 'Saffron threads are picked by hand from crocus flowers each autumn.' },
  { text: 'The ferry crosses the strait four times a day, weather permitting.' },
  { text: 'Tandem bicycles can be rented at the harbour kiosk by the hour.' },
  { text: 'The observatory telescope tracks comets and measures their brightness.' },
  { text: 'Carpenters joined the oak beams with wooden pegs instead of nails.' },
];

export function retrieverContract(open: () => Promise<RetrieverFixture>): void {
  let fixture: RetrieverFixture;
  let store: Store;
  let retriever: Retriever;
  let owner: string;

  beforeAll(async () => {
    fixture = await open();
    store = fixture.store;
    retriever = fixture.retriever;
    owner = (await store.accounts.accountForEmail(`${randomUUID()}@example.test`, id('acc'))).accountId;
  });
  afterAll(async () => {
    await fixture?.close();
  });

  async function knowledgeBase(): Promise<KnowledgeBase> {
    const result = await store.knowledge.createKnowledgeBase({ ragId: id('kb'), ownerId: owner, botName: 'Helper', description: null, greeting: null, theme: {} }, 1000);
    if (result.kind !== 'created') throw new Error('expected created');
    return result.knowledgeBase;
  }

  /** Stores one source of records; returns the knowledge base as a query would read it next, and the record ids. */
  async function addSource(kb: KnowledgeBase, records: NewRecord[], sourceName = 'faq.txt'): Promise<{ kb: KnowledgeBase; ids: string[]; sourceId: string }> {
    const source: NewSource = { sourceId: id('src'), sourceName, format: 'txt', byteSize: 10, sha256: 'a'.repeat(64), rejectedCount: 0 };
    const candidates = records.map((r) => ({ recordId: id('rec'), kind: r.kind ?? 'passage', title: r.title ?? null, text: r.text, fingerprint: fingerprint(`${r.title ?? ''}\n${r.text}`) }));
    const result = await store.knowledge.commitSource(owner, kb.ragId, source, candidates, 10_000);
    if (result.kind !== 'committed') throw new Error(`expected committed, got ${result.kind}`);
    return { kb: result.knowledgeBase, ids: candidates.map((c) => c.recordId), sourceId: source.sourceId };
  }

  async function current(kb: KnowledgeBase): Promise<KnowledgeBase> {
    const fresh = await store.knowledge.findKnowledgeBase(kb.ragId);
    if (!fresh) throw new Error('knowledge base gone');
    return fresh;
  }

  const ids = (retrieval: Retrieval) => retrieval.hits.map((h) => h.recordId);

  describe('finding records', () => {
    it('finds a record containing every word of the query among the top k', async () => {
      const { kb, ids: recordIds } = await addSource(await knowledgeBase(), TOPICS);
      const queries = ['brass lantern keeper', 'sourdough cinnamon bakery', 'basalt lava columns', 'heather honey hives', 'fjord glacier', 'saffron crocus', 'comets telescope'];
      const expected = [0, 1, 2, 4, 5, 7, 10];
      for (const [i, query] of queries.entries()) {
        const found = ids(await retriever.search(kb, query, 3));
        expect(found, query).toContain(recordIds[expected[i] as number]);
      }
    });

    it('returns the stored record with a positive score, best first', async () => {
      const { kb, ids: recordIds } = await addSource(
        await knowledgeBase(),
        [
          { title: 'How long does shipping take?', text: 'How long does shipping take?\nStandard shipping takes 3 to 5 business days.', kind: 'qa' },
          { text: 'Express shipping is available for a fee.' },
          { text: 'Gift cards never expire.' },
        ],
        'shop.json',
      );
      const { hits } = await retriever.search(kb, 'shipping days', 5);
      expect(hits[0]).toEqual({
        recordId: recordIds[0],
        sourceName: 'shop.json',
        title: 'How long does shipping take?',
        text: 'How long does shipping take?\nStandard shipping takes 3 to 5 business days.',
        kind: 'qa',
        score: expect.any(Number),
      });
      expect(hits.map((h) => h.recordId)).not.toContain(recordIds[2]);
      for (const [i, hit] of hits.entries()) {
        expect(hit.score).toBeGreaterThan(0);
        if (i > 0) expect(hit.score).toBeLessThanOrEqual((hits[i - 1] as { score: number }).score);
      }
    });

    it('matches other forms of a word and ignores case', async () => {
      const { kb, ids: recordIds } = await addSource(await knowledgeBase(), [{ text: 'We deliver parcels on Saturdays.' }, { text: 'Payment is due on receipt.' }]);
      expect(ids(await retriever.search(kb, 'DELIVERY on a saturday?', 5))[0]).toBe(recordIds[0]);
    });

    it('finds the records that name the US for "US" or "USA" in a question, though "us" is a stop word', async () => {
      const { kb, ids: recordIds } = await addSource(await knowledgeBase(), [
        { text: 'Send it back to us within 30 days for a full refund.' },
        { text: 'We ship within the US and to Canada. Orders arrive in 3 to 5 business days.' },
        { text: 'Email us or call us; tell us your order number.' },
      ]);
      // Found, whatever the ranking: an index that keeps words lower-cased (PostgreSQL) cannot tell
      // the country from the pronoun, and ranks by how often "us" occurs.
      expect(ids(await retriever.search(kb, 'Do you deliver to the US?', 5))).toContain(recordIds[1]);
      expect(ids(await retriever.search(kb, 'Do you deliver to the USA?', 5))).toContain(recordIds[1]);
    });

    it('respects k: never more hits than asked, none for k ≤ 0', async () => {
      const records = Array.from({ length: 10 }, (_, i) => ({ text: `Kayak tour number ${i} leaves from the pier.` }));
      const { kb } = await addSource(await knowledgeBase(), records);
      expect((await retriever.search(kb, 'kayak tour', 3)).hits).toHaveLength(3);
      expect((await retriever.search(kb, 'kayak tour', 10)).hits).toHaveLength(10);
      expect((await retriever.search(kb, 'kayak tour', 50)).hits).toHaveLength(10);
      expect((await retriever.search(kb, 'kayak tour', 0)).hits).toEqual([]);
      expect((await retriever.search(kb, 'kayak tour', -1)).hits).toEqual([]);
    });

    it('finds nothing for an empty, blank or punctuation-only query, or for words no record has', async () => {
      const { kb } = await addSource(await knowledgeBase(), TOPICS);
      for (const query of ['', '   ', '?!', '...', '— – ;', 'zyxwvut qwrtplk']) {
        expect((await retriever.search(kb, query, 5)).hits, JSON.stringify(query)).toEqual([]);
      }
    });

    it('searches a stop-word-only query with its stop-words, never returning records without them', async () => {
      const { kb, ids: recordIds } = await addSource(await knowledgeBase(), [{ text: 'The Who played live.' }, { text: 'A quiet evening.' }]);
      expect(ids(await retriever.search(kb, 'The Who', 5))).toEqual([recordIds[0]]);
      expect(ids(await retriever.search(kb, 'of to', 5))).toEqual([]);
    });

    it('matches accented and unaccented spellings and non-Latin scripts', async () => {
      const { kb, ids: recordIds } = await addSource(await knowledgeBase(), [
        { text: 'Le café crème est servi au comptoir.' },
        { text: 'Die Größe steht auf dem Etikett.' },
        { text: 'Доставка по Москве бесплатная.' },
        { text: 'Ο καιρός είναι ηλιόλουστος σήμερα.' },
      ]);
      expect(ids(await retriever.search(kb, 'café crème', 5))[0]).toBe(recordIds[0]);
      expect(ids(await retriever.search(kb, 'cafe creme', 5))[0]).toBe(recordIds[0]);
      expect(ids(await retriever.search(kb, 'GRÖSSE', 5))[0]).toBe(recordIds[1]);
      expect(ids(await retriever.search(kb, 'доставка', 5))).toEqual([recordIds[2]]);
      expect(ids(await retriever.search(kb, 'ηλιόλουστος', 5))).toEqual([recordIds[3]]);
    });
  });

  describe('isolation and freshness', () => {
    it("never returns another knowledge base's records, even with the same text", async () => {
      const a = await addSource(await knowledgeBase(), [{ text: 'Parking is free behind the town hall.' }, { text: 'Opening hours are nine to five.' }]);
      const b = await addSource(await knowledgeBase(), [{ text: 'Parking is free behind the town hall.' }, { text: 'Our secret recipe uses cardamom.' }]);
      const fromA = await retriever.search(a.kb, 'free parking town hall', 5);
      expect(ids(fromA)).toEqual([a.ids[0]]);
      expect((await retriever.search(a.kb, 'cardamom recipe', 5)).hits).toEqual([]);
      expect(ids(await retriever.search(b.kb, 'cardamom recipe', 5))).toEqual([b.ids[1]]);
      // Statistics are the knowledge base's own too.
      expect(fromA.stats.size).toBe(2);
      expect((await retriever.search(a.kb, 'cardamom', 5)).stats.docFreq('cardamom')).toBe(0);
    });

    it('sees added records once the content version is bumped, with or without a local invalidation', async () => {
      const first = await addSource(await knowledgeBase(), [{ text: 'Tickets are sold at the entrance.' }]);
      expect((await retriever.search(first.kb, 'snorkel rental', 5)).hits).toEqual([]);
      // Added through "another instance": nothing tells this retriever but the version the next query reads.
      const second = await addSource(first.kb, [{ text: 'Snorkel rental costs five euros.' }]);
      expect(second.kb.contentVersion).toBeGreaterThan(first.kb.contentVersion);
      const after = await retriever.search(await current(first.kb), 'snorkel rental', 5);
      expect(ids(after)).toEqual([second.ids[0]]);
      expect(after.stats.size).toBe(2);
      // Added locally: invalidated first, as the knowledge service's change listener does.
      const third = await addSource(second.kb, [{ text: 'Wetsuits come in three sizes.' }]);
      await retriever.invalidate(first.kb.ragId, third.kb.contentVersion);
      expect(ids(await retriever.search(await current(first.kb), 'wetsuits', 5))).toEqual([third.ids[0]]);
    });

    it('never returns a deleted record or the records of a deleted source or knowledge base', async () => {
      const kb0 = await knowledgeBase();
      const one = await addSource(kb0, [{ text: 'Umbrellas can be borrowed at reception.' }, { text: 'Umbrella stands are by the door.' }]);
      const two = await addSource(one.kb, [{ text: 'Lost umbrellas are kept for a month.' }], 'lost.txt');
      expect((await retriever.search(two.kb, 'umbrella', 5)).hits).toHaveLength(3);

      expect(await store.knowledge.deleteRecord(owner, kb0.ragId, one.ids[0] as string)).toBe(true);
      let kb = await current(kb0);
      expect(ids(await retriever.search(kb, 'umbrella', 5)).sort()).toEqual([one.ids[1], two.ids[0]].sort());

      expect(await store.knowledge.deleteSource(owner, kb0.ragId, two.sourceId)).toBe(true);
      kb = await current(kb0);
      await retriever.invalidate(kb.ragId, kb.contentVersion);
      const left = await retriever.search(kb, 'umbrella', 5);
      expect(ids(left)).toEqual([one.ids[1]]);
      expect(left.stats.size).toBe(1);

      expect(await store.knowledge.deleteKnowledgeBase(owner, kb0.ragId)).toBe(true);
      await retriever.invalidate(kb0.ragId, undefined);
      expect((await retriever.search(kb, 'umbrella', 5)).hits).toEqual([]);
    });
  });

  describe('statistics for the answerer', () => {
    it('gives the size, document frequencies and expansion the answerer needs, so it answers on-topic and refuses off-topic questions', async () => {
      const records = SHOP_FAQ.map((r) => ({ title: r.title, text: r.text, kind: r.kind }));
      const { kb } = await addSource(await knowledgeBase(), records);
      const onTopic = 'How long does shipping take?';
      const found = await retriever.search(kb, onTopic, 6);
      expect(found.stats.size).toBe(records.length);
      expect(found.stats.language).toBe('en');
      const shipTerm = found.stats.expand('shipping').words[0]?.matches[0]?.term as string;
      expect(found.stats.docFreq(shipTerm)).toBeGreaterThanOrEqual(2);
      expect(found.stats.docFreq(shipTerm)).toBeLessThanOrEqual(records.length);
      const answer = answerExtractively(onTopic, found.hits, { stats: found.stats });
      expect(answer.grounded).toBe(true);
      expect(answer.answer).toMatch(/3 to 5 business days/);

      for (const offTopic of ['Who won the football world cup in 2014?', 'What is the capital of Mongolia?', 'How do I bake sourdough bread?']) {
        const retrieved = await retriever.search(kb, offTopic, 6);
        expect(answerExtractively(offTopic, retrieved.hits, { stats: retrieved.stats }).grounded, offTopic).toBe(false);
      }
    });

    it("uses the owner's synonyms of the scope in the search and in the statistics' expansion, and forgets them when they go", async () => {
      const { kb, ids } = await addSource(await knowledgeBase(), TOPICS);
      const question = 'Do you sell Sauerteigbrot?';
      const plain = await retriever.search(kb, question, 3);
      expect(answerExtractively(question, plain.hits, { stats: plain.stats }).grounded).toBe(false);

      const withWords: KnowledgeBase = { ...kb, synonyms: [['Sauerteigbrot', 'sourdough loaves']] };
      const found = await retriever.search(withWords, question, 3);
      expect(found.hits[0]?.recordId).toBe(ids[1]);
      const sourdough = found.stats.expand('sourdough loaves').words.map((w) => w.term);
      const terms = () => found.stats.expand(question).words.flatMap((w) => w.matches.map((m) => m.term));
      expect(terms()).toEqual(expect.arrayContaining(sourdough));
      const answer = answerExtractively(question, found.hits, { stats: found.stats });
      expect(answer.grounded).toBe(true);
      expect(answer.answer).toMatch(/sells sourdough loaves/);

      const again = await retriever.search(kb, question, 3);
      expect(again.stats.expand(question).words.flatMap((w) => w.matches.map((m) => m.term))).not.toContain(sourdough[0]);
      expect(answerExtractively(question, again.hits, { stats: again.stats }).grounded).toBe(false);
    });
  });
}
