/** SQL pretty-printing with sql-formatter; its parse errors become refusals with a position. */
import { format, type SqlLanguage } from 'sql-formatter';
import { ToolInputError } from '../types.js';

export interface SqlFormatInput {
  sql: string;
  dialect?: SqlLanguage;
  keywordCase?: 'preserve' | 'upper' | 'lower';
  indent?: 2 | 4 | 'tab';
}

/** The first line of sql-formatter's message (the rest is a long grammar trace) and its position. */
function refusal(error: unknown): ToolInputError {
  const text = error instanceof Error ? error.message : String(error);
  const first = (text.split('\n')[0] ?? text).replace(/\s*\.?$/, '');
  const at = /line (\d+) column (\d+)/.exec(first);
  const where = at ? { line: Number(at[1]), column: Number(at[2]) } : {};
  return new ToolInputError(`The SQL cannot be parsed: ${first.replace(/^Parse error:?\s*/, '')}. Choosing the matching dialect often helps.`, { field: 'sql', ...where });
}

export function run(input: SqlFormatInput): { result: string } {
  if (input.sql.trim() === '') throw new ToolInputError('The SQL is empty.', { field: 'sql' });
  const indent = input.indent ?? 2;
  try {
    const result = format(input.sql, {
      language: input.dialect ?? 'sql',
      keywordCase: input.keywordCase ?? 'upper',
      tabWidth: indent === 'tab' ? 2 : indent,
      useTabs: indent === 'tab',
    });
    return { result };
  } catch (error) {
    throw refusal(error);
  }
}
