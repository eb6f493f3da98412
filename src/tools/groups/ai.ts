/** The AI and text-analysis tools, in catalogue order. */
import { meta as keywords } from '../keywords/meta.js';
import { meta as languageDetect } from '../language-detect/meta.js';
import { meta as ocrImage } from '../ocr-image/meta.js';
import { meta as readability } from '../readability/meta.js';
import { meta as sentiment } from '../sentiment/meta.js';
import { meta as summarize } from '../summarize/meta.js';
import { meta as textSimilarity } from '../text-similarity/meta.js';
import { meta as textToSpeech } from '../text-to-speech/meta.js';
import { meta as tokenCounter } from '../token-counter/meta.js';
import { meta as wordCount } from '../word-count/meta.js';
import type { ToolEntry } from './entry.js';

export const aiTools: ToolEntry[] = [
  { meta: wordCount, load: () => import('../word-count/core.js') },
  { meta: tokenCounter, load: () => import('../token-counter/core.js') },
  { meta: ocrImage, load: () => import('../ocr-image/server.js') },
  { meta: languageDetect, load: () => import('../language-detect/core.js') },
  { meta: sentiment, load: () => import('../sentiment/core.js') },
  { meta: summarize, load: () => import('../summarize/core.js') },
  { meta: readability, load: () => import('../readability/core.js') },
  { meta: keywords, load: () => import('../keywords/core.js') },
  { meta: textSimilarity, load: () => import('../text-similarity/core.js') },
  // Browser only (speechSynthesis); its core only checks the input and explains that.
  { meta: textToSpeech, load: () => import('../text-to-speech/core.js') },
];
