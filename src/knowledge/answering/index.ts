export { citedIndices, removeDanglingCitations } from './citations.js';
export { answerExtractively, notFound } from './extractive.js';
export { type AnswerPlan, planAnswer } from './plan.js';
export { DEFAULT_EXTRACTIVE_OPTIONS, type ExtractiveOptions, type TermStats } from './plan-options.js';
export { type Sentence, splitSentences } from './sentences.js';
export { tokensOf } from './stream-tokens.js';
export { type Answer, type Citation, NOT_FOUND_ANSWER, type RetrievedRecord } from './types.js';
