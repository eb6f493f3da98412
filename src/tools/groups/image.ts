/** The image tools, in catalogue order. */
import type { ToolEntry } from './entry.js';

export const imageTools: ToolEntry[] = [];
