/**
 * A question that shares nothing with the knowledge base but a place's name asks something of the
 * place that the records do not say (src/knowledge/answering/place-only.ts).
 */
import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src/knowledge/answering/extractive.js';
import type { Answer } from '../../src/knowledge/answering/types.js';
import { qa, retrieverFor } from './fixtures.js';

const shop = retrieverFor([
  qa('hours', 'When is the Berlin store open?', 'Our Berlin store at Torstraße 12 is open Monday to Friday from 10:00 to 19:00 and on Saturday from 10:00 to 16:00.'),
  qa('abroad', 'Which other countries do you ship to?', 'Outside Europe we currently ship to Mexico and Japan for a flat rate of £19.95, with delivery in 7–14 working days.'),
  qa('boots', 'How do I care for leather boots?', 'Clean the leather with a damp cloth and let the boots dry away from heat.'),
  qa('canada', 'Do you deliver to Canada?', 'Tracked delivery to Canada costs £16.95 and usually takes 5–10 working days.'),
  qa('pay', 'Which payment methods do you accept?', 'We accept Visa, Mastercard and PayPal for every order.'),
  qa('europe', 'Do you ship to Europe?', 'Yes, we ship to all 27 EU countries for £9.95.'),
]);
const ask = (q: string): Answer => answerExtractively(q, shop.retrieve(q), shop.options);

describe('a question that meets only a place', () => {
  it('is refused when its other words are ones the knowledge base never writes', () => {
    // "weather" is in no record ("leather" is another word, not its slip), "tomorrow" only meets a day.
    expect(ask('What is the weather in Berlin tomorrow?').grounded).toBe(false);
    expect(ask('What is the weather in Berlin?').grounded).toBe(false);
    // Unmatched ordinary words weigh nothing, yet they say what is asked of the place.
    expect(ask('Is Berlin nice?').grounded).toBe(false);
  });

  it('is answered when it names nothing else', () => {
    const a = ask('Berlin?');
    expect(a.grounded).toBe(true);
    expect(a.sources[0]?.recordId).toBe('hours');
  });

  it('is answered when its other words are the knowledge base’s, met elsewhere or not', () => {
    // "order" is written in the payment record only; "shipping" nowhere near Canada's "delivery".
    const mexico = ask('I live in Mexico, can I order from you?');
    expect(mexico.grounded).toBe(true);
    expect(mexico.sources[0]?.recordId).toBe('abroad');
    const canada = ask("what's the shipping to Canada?");
    expect(canada.grounded).toBe(true);
    expect(canada.answer).toContain('£16.95');
  });

  it('is answered when the place is met by the larger place it is in: the records list where they reach', () => {
    // "post" is in no record; "Ireland" meets "EU". Such a question asks how far the records reach.
    const a = ask('Do you post to Ireland?');
    expect(a.grounded).toBe(true);
    expect(a.sources[0]?.recordId).toBe('europe');
  });

  it('is answered when a word besides the place is met', () => {
    const a = ask('Is the Berlin store open on Saturday?');
    expect(a.grounded).toBe(true);
    expect(a.answer).toContain('10:00 to 16:00');
  });
});
