/** A TermVocabulary's answers, for comparing two vocabularies (term-vocabulary-update.test.ts, postgres-term-stats.test.ts). */
import type { TermVocabulary } from '../../src/knowledge/retrieval/vocabulary.js';

/** Everything a vocabulary answers, through its public interface, in a comparable form. */
export function vocabularyState(v: TermVocabulary, probes: readonly string[] = []) {
  const terms = v.termsWithSuffix('', Number.POSITIVE_INFINITY);
  const surfaces = v.surfacesWithPrefix('', Number.POSITIVE_INFINITY);
  return {
    size: v.size,
    language: v.language,
    terms: terms.map((t) => ({ t, df: v.docFreq(t), words: [...v.wordsOf(t)].sort() })),
    surfaces: surfaces.map((s) => [s, v.termOfSurface(s)]),
    spelling: probes.map((p) => [p, v.surfacesWithinOneEdit(p)]),
    suffixes: probes.map((p) => [p, v.surfacesWithSuffix(p.slice(-3), 16)]),
    expansions: probes.slice(0, 8).map((p) => v.expand(`${p} shipping`)),
  };
}
