export { citedIndices, removeDanglingCitations } from './citations.js';
export { answerExtractively, notFound } from './extractive.js';
export { type AnswerPlan, DEFAULT_EXTRACTIVE_OPTIONS, type ExtractiveOptions, planAnswer, type TermStats } from './plan.js';
export { type Sentence, splitSentences } from './sentences.js';
export { tokensOf } from './stream-tokens.js';
export { type Answer, type Citation, NOT_FOUND_ANSWER, type RetrievedRecord } from './types.js';
