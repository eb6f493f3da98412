/** The AI and text-analysis tools, in catalogue order. */
import { meta as wordCount } from '../word-count/meta.js';
import type { ToolEntry } from './entry.js';

export const aiTools: ToolEntry[] = [{ meta: wordCount, load: () => import('../word-count/core.js') }];
