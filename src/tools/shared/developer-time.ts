/** Time zone helpers for the developer tools: validation and a stable local-time format. */
import { ToolInputError } from '../types.js';

/** The canonical IANA name of a time zone, or a refusal naming the field. */
export function checkTimeZone(timeZone: string, field = 'timezone'): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    throw new ToolInputError(`"${timeZone}" is not a known IANA time zone (e.g. "Europe/Berlin", "America/New_York", "UTC").`, { field });
  }
}

/**
 * `2026-01-31 09:05:00 +01:00` in a time zone. Built from formatToParts rather than a locale's
 * format so that the result is the same in every browser and in Node.
 */
export function localTime(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    hourCycle: 'h23', timeZoneName: 'longOffset',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const offset = part('timeZoneName').replace('GMT', '') || '+00:00';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} ${offset}`;
}
