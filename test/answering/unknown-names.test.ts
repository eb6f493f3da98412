/**
 * Names of several words that no retrieved record writes (src/knowledge/answering/unknown-names.ts):
 * found in order, at most two words apart, compared as the records' terms.
 */
import { describe, expect, it } from 'vitest';
import { unknownNames, withUnknownNames } from '../../src/knowledge/answering/unknown-names.js';
import type { RetrievedRecord } from '../../src/knowledge/answering/types.js';
import type { QueryWord } from '../../src/knowledge/retrieval/query-expansion.js';

const record = (text: string): RetrievedRecord => ({ recordId: text, sourceName: 'help.md', title: null, text, kind: 'passage', score: 1 });
const word = (surface: string, phrase?: string): QueryWord => ({ surface, term: surface, general: 1, matches: [{ term: surface, credit: 1 }], via: 'exact', ...(phrase ? { phrase } : {}) });

describe('names no record writes', () => {
  const records = [record('Anyone can use Sign in with Microsoft. Slack is included in the Team plan.'), record('Cast-iron casseroles are heavy. The Glass Cone Dripper comes with filters.')];

  it('are the names whose words no record has in order, at most two words apart, in any form', () => {
    const names = (...phrases: string[]) => unknownNames(records, phrases.map((p) => word(p.split(' ')[0] as string, p)), 'en');
    expect(names('microsoft teams')).toEqual(new Set(['microsoft teams']));
    expect(names('cast iron casserole')).toBeUndefined();
    expect(names('glass dripper')).toBeUndefined();
    // Out of order, or three words apart.
    expect(names('casseroles cast')).toEqual(new Set(['casseroles cast']));
    expect(names('glass filters')).toEqual(new Set(['glass filters']));
    expect(unknownNames(records, [word('team')], 'en')).toBeUndefined();
  });

  it('leave the words of an unknown name unmatched and the others as they were', () => {
    const words = [word('integrate'), word('microsoft', 'microsoft teams'), word('teams', 'microsoft teams')];
    const out = withUnknownNames(words, new Set(['microsoft teams']));
    expect(out.map((w) => w.matches.length)).toEqual([1, 0, 0]);
    expect(out[0]).toBe(words[0]);
  });
});
