/** Cron expressions: a description from cronstrue, run times from cron-parser. */
import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue';
import { checkTimeZone, localTime } from '../shared/developer-time.js';
import { ToolInputError } from '../types.js';

export interface CronExplainInput {
  expression: string;
  from?: string;
  timezone?: string;
}

export interface CronExplainOutput {
  description: string;
  timezone: string;
  /** The next runs after `from`, as UTC ISO times. */
  next: string[];
  /** The same runs as local times in the time zone. */
  nextLocal: string[];
}

const runCount = 5;
const fiveFields = ['minute', 'hour', 'day of month', 'month', 'day of week'];

function message(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'it cannot be parsed';
}

/** Both libraries must accept the expression: one describes it, the other schedules it. */
function check(expression: string, timeZone: string): void {
  CronExpressionParser.parse(expression, { tz: timeZone });
  cronstrue.toString(expression, { throwExceptionOnParseError: true });
}

/** Which field is wrong: each field alone, with "*" in all the others. */
function refuse(expression: string, timeZone: string, error: unknown): never {
  const fields = expression.split(/\s+/);
  if (!expression.startsWith('@') && (fields.length < 5 || fields.length > 6)) {
    throw new ToolInputError(`A cron expression has 5 fields (6 with seconds); this one has ${fields.length}.`, { field: 'expression' });
  }
  const names = fields.length === 6 ? ['second', ...fiveFields] : fiveFields;
  for (let i = 0; i < fields.length && !expression.startsWith('@'); i++) {
    const alone = fields.map((field, j) => (j === i ? field : '*')).join(' ');
    try {
      check(alone, timeZone);
    } catch (fieldError) {
      throw new ToolInputError(`The ${names[i]} field "${fields[i]}" is invalid: ${message(fieldError)}.`, { field: 'expression' });
    }
  }
  throw new ToolInputError(`The cron expression is invalid: ${message(error)}.`, { field: 'expression' });
}

function startTime(from: string | undefined): Date {
  if (from === undefined) return new Date();
  const date = new Date(from);
  if (Number.isNaN(date.getTime())) throw new ToolInputError(`"${from}" is not an ISO 8601 time.`, { field: 'from' });
  return date;
}

export function run(input: CronExplainInput): CronExplainOutput {
  const expression = input.expression.trim().replace(/\s+/g, ' ');
  const timezone = checkTimeZone(input.timezone ?? 'UTC');
  const from = startTime(input.from);
  let description: string;
  let next: string[];
  try {
    check(expression, timezone);
    description = cronstrue.toString(expression, { throwExceptionOnParseError: true });
    const schedule = CronExpressionParser.parse(expression, { currentDate: from, tz: timezone });
    next = schedule.take(runCount).map((date) => date.toISOString() ?? '');
  } catch (error) {
    if (error instanceof ToolInputError) throw error;
    refuse(expression, timezone, error);
  }
  return { description, timezone, next, nextLocal: next.map((iso) => localTime(new Date(iso), timezone)) };
}
