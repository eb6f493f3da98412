/**
 * The kinds of answer a unit holds ("30 days": a duration) are found when a question first asks
 * for one, not when the record is analysed (issue 14, the 10,000-knowledge-base cliff: most
 * questions ask for none, and the patterns were a third of a record's analysis). Looked up through
 * `unitTermCount` / `recordHasTerm`, they must answer exactly as the pseudo-terms in `tf` and
 * `terms` did, and answers must not depend on which questions a shared cache saw first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src/knowledge/answering/extractive.js';
import { type RecordUnits, RecordUnitsCache, recordHasTerm, recordUnits, type Unit, unitPlainText, unitTermCount } from '../../src/knowledge/answering/units.js';
import { type AnswerType, answerTypesIn, answerTypeTerm } from '../../src/knowledge/language/answer-types.js';
import { type FixtureRecord, qa, retrieverFor, SHOP_FAQ } from './fixtures.js';

const TYPES: AnswerType[] = ['duration', 'amount', 'quantity'];

/** What the eager analysis put in a unit's term counts: the kinds of answer of its text, list numbers removed. */
function eagerCount(u: Unit, term: string): number {
  for (const type of answerTypesIn(unitPlainText(u))) if (answerTypeTerm(type) === term) return 1;
  return u.tf.get(term) ?? 0;
}

/** And in its record's terms (left empty for a record of one unit). */
function eagerRecordHas(entry: RecordUnits, term: string): boolean {
  if (entry.units.length <= 1) return false;
  return entry.terms.has(term) || entry.units.some((u) => eagerCount(u, term) > 0 || u.context.has(term));
}

const PIECES = [
  'Returns are accepted within 30 days.', 'Shipping costs 4.90 EUR.', 'It is free of charge.', 'We reply within one working day.',
  'Delivery takes 2 to 4 working days.', 'Steps:', '1. Open the box.', '2. Wait 30 minutes.', '3) Call us.', 'Hello there.',
  'Lieferung in 3 Tagen.', 'Livraison en 3 à 5 jours ouvrés.', 'Open 9:00 to 18:00, 48 h service.', '£5 off.', 'Up to 5 users.',
  'a. Check the cable.', 'No numbers here at all.', 'About a week or two weeks.',
];
const textOf = fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(' ', '\n', '  ')), { minLength: 1, maxLength: 6 }).map((parts) => parts.map(([piece, space]) => piece + space).join(''));

describe('answer types of a unit, on first use', () => {
  it('count and belong to the record exactly as the eager pseudo-terms did (property)', () => {
    fc.assert(
      fc.property(textOf, fc.constantFrom<FixtureRecord['kind']>('qa', 'passage'), fc.option(fc.constantFrom('How long is delivery?', 'Returns'), { nil: null }), fc.integer({ min: 20, max: 600 }), (text, kind, title, maxChars) => {
        const record = { recordId: 'r', sourceName: 's', title, text: title ? `${title}\n${text}` : text, kind, score: 1 };
        const entry = recordUnits(record, maxChars, 'en');
        const terms = [...TYPES.map(answerTypeTerm), 'day', 'wait', '30', 'eur', 'nothing'];
        for (const term of terms) {
          for (const u of entry.units) expect(unitTermCount(u, term)).toBe(eagerCount(u, term));
          expect(recordHasTerm(entry, term)).toBe(eagerRecordHas(entry, term));
        }
        // Not among the counted terms themselves.
        for (const u of entry.units) for (const type of TYPES) expect(u.tf.has(answerTypeTerm(type))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('give the same answers from a shared cache, whatever questions came first (property)', () => {
    const records = [
      ...SHOP_FAQ,
      qa('fee', 'How much is express shipping?', 'Express shipping costs 12.90 EUR; standard shipping is free of charge over 60 EUR.'),
      qa('box', 'How many filters come in a box?', 'A box holds 100 filters.'),
      { recordId: 'steps', sourceName: 'help.md', title: 'Refunds', text: 'To get a refund:\n1. Start a return.\n2. Wait 5 business days.\nWe answer within one working day.', kind: 'passage' as const },
    ];
    const { retrieve, options } = retrieverFor(records);
    const questions = ['How long does shipping take?', 'how much is express shipping', 'how many filters are in a box', 'how long until my refund', 'Do you ship to Canada?', 'return policy', 'how soon do you answer', 'what payment methods'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...questions), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), (asked, budgetRecords) => {
        // A small budget drops and re-analyses records between questions, a large one keeps them.
        const units = new RecordUnitsCache({ maxBytes: budgetRecords * 3000 });
        for (const q of asked) expect(answerExtractively(q, retrieve(q), { ...options, units })).toEqual(answerExtractively(q, retrieve(q), options));
      }),
      { numRuns: 100 },
    );
  });
});
