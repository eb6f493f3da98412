export { DEFAULT_BM25, idf } from './bm25.js';
export { DEFAULT_TITLE_WEIGHT, type Hit, type IndexableRecord, type IndexOptions, KnowledgeIndex } from './knowledge-index.js';
export { type AnalysisMode, analyze, analyzeSurface, normalizeText, type SurfaceToken, type Token, tokenize } from './tokenize.js';
