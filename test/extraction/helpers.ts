import { expect } from 'vitest';
import { DomainError, type ErrorCode } from '../../src/errors.js';
import { extract } from '../../src/knowledge/extraction/index.js';
import type { Extraction, SourceFormat } from '../../src/knowledge/extraction/types.js';

export const encoder = new TextEncoder();
export const bytes = (text: string): Uint8Array => encoder.encode(text);

export function run(text: string, format: SourceFormat, maxRecordChars?: number): Extraction {
  return extract(bytes(text), format, maxRecordChars === undefined ? undefined : { maxRecordChars });
}

/** The DomainError thrown by `fn`; fails the test when it throws anything else or nothing. */
export function domainError(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

export function expectError(fn: () => unknown, code: ErrorCode, extra?: Record<string, unknown>): DomainError {
  const err = domainError(fn);
  expect(err.code).toBe(code);
  if (extra) expect(err.extra).toMatchObject(extra);
  return err;
}

/** Records as compact tuples for table assertions. */
export const summary = (x: Extraction) => x.records.map((r) => [r.kind, r.title, r.text]);
