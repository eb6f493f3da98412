/**
 * Timestamps: numbers are Unix time, text must be ISO 8601 or RFC 2822. Other date strings are
 * refused because browsers and Node parse them differently.
 */
import { checkTimeZone, localTime } from '../shared/developer-time.js';
import { ToolInputError } from '../types.js';

export interface TimestampInput {
  value: string;
  unit?: 'auto' | 'seconds' | 'milliseconds';
  timezone?: string;
}

export interface TimestampOutput {
  detected: string;
  iso: string;
  utc: string;
  rfc2822: string;
  unixSeconds: number;
  unixMilliseconds: number;
  timezone: string;
  local: string;
}

const numeric = /^[+-]?\d+(\.\d+)?$/;
const isoDate = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const rfc2822Date = /^(?:[A-Z][a-z]{2},\s*)?\d{1,2}\s+[A-Z][a-z]{2}\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s+(?:[+-]\d{4}|GMT|UT|UTC|[ECMP][SD]T|Z)$/i;
/** 12 or more digits: milliseconds (as seconds that would be after the year 5000). */
const millisecondsFrom = 1e11;
const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function rfc2822(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${weekdays[date.getUTCDay()]}, ${two(date.getUTCDate())} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

function read(value: string, unit: TimestampInput['unit']): { date: Date; detected: string } {
  if (numeric.test(value)) {
    const number = Number(value);
    const ms = unit === 'milliseconds' || (unit !== 'seconds' && Math.abs(number) >= millisecondsFrom);
    return { date: new Date(ms ? number : number * 1000), detected: ms ? 'unix milliseconds' : 'unix seconds' };
  }
  const iso = isoDate.exec(value);
  if (iso) {
    // A date-time without an offset is read as UTC, not as the machine's local time.
    const text = value.includes(':') && !iso[1] ? `${value.replace(' ', 'T')}Z` : value.replace(' ', 'T');
    return { date: new Date(text), detected: 'ISO 8601 date' };
  }
  if (rfc2822Date.test(value)) return { date: new Date(value), detected: 'RFC 2822 date' };
  throw new ToolInputError(`"${value}" is not a Unix time, an ISO 8601 date (2026-01-31T09:00:00Z) or an RFC 2822 date (Sat, 31 Jan 2026 09:00:00 +0000).`, { field: 'value' });
}

export function run(input: TimestampInput): TimestampOutput {
  const value = input.value.trim();
  const timezone = checkTimeZone(input.timezone ?? 'UTC');
  const { date, detected } = read(value, input.unit ?? 'auto');
  if (Number.isNaN(date.getTime())) throw new ToolInputError(`"${value}" is out of range or not a real date.`, { field: 'value' });
  const ms = date.getTime();
  return {
    detected,
    iso: date.toISOString(),
    utc: date.toUTCString(),
    rfc2822: rfc2822(date),
    unixSeconds: Math.floor(ms / 1000),
    unixMilliseconds: ms,
    timezone,
    local: localTime(date, timezone),
  };
}
