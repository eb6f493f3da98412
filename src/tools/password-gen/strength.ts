/** Password strength with zxcvbn-ts and its common and English dictionaries (no network). */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

let checker: ZxcvbnFactory | undefined;

export interface Strength {
  /** 0 (too guessable) to 4 (very unguessable). */
  score: number;
  guessesLog10: number;
  /** Estimated time for an offline attack against a slow hash (bcrypt-like, 10⁴ guesses/s). */
  crackTime: string;
  warning: string | null;
  suggestions: string[];
}

export function strengthOf(password: string): Strength {
  checker ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  const result = checker.check(password);
  return {
    score: result.score,
    guessesLog10: Math.round(result.guessesLog10 * 100) / 100,
    crackTime: result.crackTimes.offlineSlowHashingXPerSecond.display,
    warning: result.feedback.warning || null,
    suggestions: result.feedback.suggestions,
  };
}
