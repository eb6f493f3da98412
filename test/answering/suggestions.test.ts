/**
 * What a refusal offers instead (src/knowledge/answering/suggestions.ts): the titles of the
 * retrieved records that share the question's telling words, best first, at most three (those that
 * write half of them or two, else those that write one, when together they write that many);
 * nothing for a question only a common word or a chance word links to the records.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extract, type SourceFormat } from '../../src/knowledge/extraction/index.js';
import { answerExtractively } from '../../src/knowledge/answering/extractive.js';
import { suggestionsFor } from '../../src/knowledge/answering/suggestions.js';
import type { RetrievedRecord } from '../../src/knowledge/answering/types.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

function knowledgeBase(file: string, format: SourceFormat) {
  const content = readFileSync(new URL(`../../eval/sets/${file}`, import.meta.url));
  const records = extract(content, format).records.map((r, i) => ({ recordId: `${file}#${i + 1}`, sourceName: file, title: r.title ?? null, text: r.text, kind: r.kind }));
  const index = KnowledgeIndex.build(records);
  const byId = new Map(records.map((r) => [r.recordId, r]));
  /** The refusal's suggested titles, or null when the question is answered. */
  return (query: string): string[] | null => {
    const retrieved: RetrievedRecord[] = index.search(query, 6).map((h) => ({ ...(byId.get(h.recordId) as RetrievedRecord), score: h.score }));
    if (answerExtractively(query, retrieved, { stats: index }).grounded) return null;
    return suggestionsFor(index.expand(query), retrieved).map((s) => s.title);
  };
}

describe('suggestions beside a refusal', () => {
  const catalogue = knowledgeBase('catalogue-en/catalogue.json', 'json');
  const help = knowledgeBase('saas-help-en/help-centre.md', 'md');

  it('are the records near the question, by the title a visitor reads', () => {
    expect(catalogue('Does the E48 grinder come in red?')).toEqual(['Fellside E48 Electric Grinder']);
    expect(catalogue('Does the Brew Scale Pro connect to a phone app over Bluetooth?')).toEqual(['Brew Scale Pro', 'Brew Scale Mini', 'Kitchen Coffee Scale']);
    // A help centre's section is offered by its own heading, not the path above it.
    expect(help('Do you integrate with Microsoft Teams?')).toEqual(['Slack', 'Payroll integrations', 'API and webhooks']);
  });

  it('are the records that each write a part of the question, when none writes enough of it alone', () => {
    // "cancel" is the cancellation record's, "pay" the payment methods': neither writes half of
    // "stuck", "traffic", "pay", "cancel" alone, and together they write two.
    const clinic = knowledgeBase('clinic-faq-en/faq.json', 'json');
    expect(clinic("I'm stuck in traffic, will I still have to pay if I cancel?")?.[0]).toBe('What is your cancellation policy?');
    const garden = knowledgeBase('garden-catalogue-de/catalogue.json', 'json');
    expect(garden('Was kostet bei euch die große Gießkanne aus Metall?')).toEqual(expect.arrayContaining(['Lindner Kunststoff-Gießkanne 5 l', 'Lindner Zink-Gießkanne 10 l']));
  });

  it('are none for a question a chance word or none links to the records', () => {
    expect(catalogue('Which programming language is best for machine learning?')).toEqual([]);
    expect(catalogue('Who won the FIFA World Cup in 2018?')).toEqual([]);
    expect(catalogue('What is the capital of Mongolia?')).toEqual([]);
    expect(help('How many calories are in a banana?')).toEqual([]);
  });
});
