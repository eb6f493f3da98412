/** Line diffs as a unified patch and word diffs as marked-up text, with the diff package. */
import { type ChangeObject, createTwoFilesPatch, diffLines, diffWords } from 'diff';
import { utf8Bytes } from '../shared/bytes.js';
import { ToolInputError } from '../types.js';

export interface TextDiffInput {
  before: string;
  after: string;
  mode?: 'line' | 'word';
  context?: number;
}

export interface TextDiffOutput {
  result: string;
  /** Lines (line mode) or words (word mode) added and removed. */
  added: number;
  removed: number;
  identical: boolean;
}

const maxSideBytes = 1_000_000;

function counted(changes: ChangeObject<string>[], measure: (c: ChangeObject<string>) => number): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    if (change.added) added += measure(change);
    else if (change.removed) removed += measure(change);
  }
  return { added, removed };
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export function run(input: TextDiffInput): TextDiffOutput {
  for (const field of ['before', 'after'] as const) {
    if (utf8Bytes(input[field]).length > maxSideBytes) throw new ToolInputError(`"${field}" is over 1 MB.`, { field, kind: 'too_large' });
  }
  if (input.before === input.after) return { result: '', added: 0, removed: 0, identical: true };
  if (input.mode === 'word') {
    const changes = diffWords(input.before, input.after);
    const result = changes.map((c) => (c.added ? `{+${c.value}+}` : c.removed ? `[-${c.value}-]` : c.value)).join('');
    return { result, ...counted(changes, (c) => words(c.value)), identical: false };
  }
  const patch = createTwoFilesPatch('before', 'after', input.before, input.after, undefined, undefined, { context: input.context ?? 3 });
  // The patch starts with an "Index"-less "===" line only for some callers; keep from "---" on.
  const result = patch.slice(patch.indexOf('--- '));
  return { result, ...counted(diffLines(input.before, input.after), (c) => c.count), identical: false };
}
