/** The PDF tools, in catalogue order. */
import type { ToolEntry } from './entry.js';

export const pdfTools: ToolEntry[] = [];
