/** ISO 8601 dates for the metadata editor: strict, so 2026-02-30 is refused rather than rolled over. */
import { ToolInputError } from '../types.js';

const isoDate = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?)?$/;

export function parseIsoDate(text: string, field: string): Date {
  const match = isoDate.exec(text.trim());
  const refuse = (why: string) => new ToolInputError(`"${text.slice(0, 40)}" ${why}`, { field });
  if (!match) throw refuse('is not a date: write it as 2026-01-31 or 2026-01-31T14:30:00Z.');
  const [, year, month, day, hour = '00', minute = '00', second = '00', zone = 'Z'] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) throw refuse('is not a real calendar date.');
  if (h > 23 || mi > 59 || s > 59) throw refuse('has an impossible time of day.');
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`);
  if (Number.isNaN(date.getTime())) throw refuse('is not a valid date.');
  return date;
}
