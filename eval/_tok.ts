import { analyzeWords } from '../src/knowledge/retrieval/tokenize.js';
const [mode, lang, ...rest] = process.argv.slice(2);
const r = analyzeWords(rest.join(' '), lang as string, mode as 'query');
console.log(JSON.stringify({ terms: r.terms, stops: r.stops, surfaces: r.surfaces }));
