/**
 * A large PostgreSQL vocabulary's spelling index is made in time slices, not by the question that
 * first needs it (issue 14, head of line: ~100,000 surfaces held the HTTP thread 0.5–1 s); until it
 * is there the surfaces are scanned. The answers must be the same at every moment: before, during
 * (with changes applied meanwhile) and after.
 */
import { describe, expect, it } from 'vitest';
import { SCAN_AT_MOST, withinOneEdit } from '../../src/knowledge/language/edits.js';
import { TermVocabulary } from '../../src/knowledge/retrieval/vocabulary.js';

/** Plain lowercase words (so each is its own surface): "bab", "bac", … then longer ones. */
function plainWords(count: number, from = 0): string[] {
  const letters = 'bcdfghklmnprstvz';
  const vowels = 'aeiou';
  const out: string[] = [];
  for (let i = from; out.length < count; i++) {
    let n = i;
    let w = '';
    do {
      w += `${letters.charAt(n % letters.length)}${vowels.charAt(Math.floor(n / letters.length) % vowels.length)}`;
      n = Math.floor(n / (letters.length * vowels.length));
    } while (n > 0);
    out.push(`${w}nt`);
  }
  return out;
}

const held = (v: TermVocabulary) => (v as unknown as { deletionIndex: unknown }).deletionIndex !== null;

describe('TermVocabulary: the spelling index of a large vocabulary', () => {
  it('is made in slices after the first look-up, which scans; every answer before, during and after is the scan of the surfaces held', async () => {
    const words = new Set(plainWords(SCAN_AT_MOST + 500));
    const vocabulary = new TermVocabulary([...words].map((word) => ({ word, docs: 1 })), words.size, 'en');
    const probes = ['banto', 'bant', 'cabent', 'zunt', 'dabant', 'kobant', 'xxxx', ...[...words].slice(0, 40).map((w) => `${w}s`), ...[...words].slice(100, 140).map((w) => w.slice(1))];
    const expected = () => probes.map((p) => [...words].filter((w) => w.length >= 4 && w !== p && Math.abs(w.length - p.length) <= 1 && withinOneEdit(p, w)).sort());
    const answers = () => probes.map((p) => vocabulary.surfacesWithinOneEdit(p));

    expect(answers()).toEqual(expected());
    // Not made by the look-up itself: it is being made.
    expect(held(vocabulary)).toBe(false);
    // Changed while it is made: some words gone, some new.
    const gone = [...words].slice(0, 30);
    const added = plainWords(40, 50_000);
    vocabulary.update([...gone.map((word) => ({ word, docs: 0 })), ...added.map((word) => ({ word, docs: 2 }))], words.size + 10);
    for (const w of gone) words.delete(w);
    for (const w of added) words.add(w);
    expect(answers()).toEqual(expected());

    await vocabulary.spellingSettled();
    expect(held(vocabulary)).toBe(true);
    expect(answers()).toEqual(expected());
    const later = plainWords(20, 60_000);
    vocabulary.update(later.map((word) => ({ word, docs: 1 })), words.size + 30);
    for (const w of later) words.add(w);
    expect(answers()).toEqual(expected());
  });

  it('is dropped, not kept stale, when more surfaces than it can carry arrive while it is made', async () => {
    const words = new Set(plainWords(SCAN_AT_MOST + 200));
    const vocabulary = new TermVocabulary([...words].map((word) => ({ word, docs: 1 })), words.size, 'en');
    vocabulary.surfacesWithinOneEdit('banto');
    const flood = plainWords(600, 70_000);
    vocabulary.update(flood.map((word) => ({ word, docs: 1 })), words.size + flood.length);
    for (const w of flood) words.add(w);
    await vocabulary.spellingSettled();
    expect(held(vocabulary)).toBe(false);
    const probe = `${flood[10] as string}s`;
    expect(vocabulary.surfacesWithinOneEdit(probe)).toEqual([...words].filter((w) => w !== probe && Math.abs(w.length - probe.length) <= 1 && withinOneEdit(probe, w)).sort());
  });
});
