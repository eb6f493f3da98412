/** Assertions on refusals shared by the PDF tool tests. */
import { expect } from 'vitest';
import { DomainError } from '../../../src/errors.js';
import { runTool } from '../../../src/tools/runner.js';
import type { ToolInputErrorKind } from '../../../src/tools/types.js';
import { toolRefusal } from '../support.js';

/** `fn` refuses its input with a ToolInputError at `field`, of `kind` (undefined: plain 422), saying `message`. */
export async function expectRefused(fn: () => unknown, field: string | undefined, kind: ToolInputErrorKind | undefined, message: RegExp): Promise<void> {
  const error = await toolRefusal(fn);
  expect({ field: error.details.field, kind: error.details.kind }).toEqual({ field, kind });
  expect(error.message).toMatch(message);
}

/** The runner refuses the JSON input with the catalogue code and status. */
export async function expectApiRefusal(id: string, input: unknown, code: string, status: number): Promise<DomainError> {
  const error = await runTool(id, input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect(error).toMatchObject({ code, status });
  return error as DomainError;
}
