/** Assertions on refusals shared by the PDF tool tests. */
import { expect, it } from 'vitest';
import { DomainError } from '../../../src/errors.js';
import { runTool } from '../../../src/tools/runner.js';
import type { ToolInputErrorKind } from '../../../src/tools/types.js';
import { toolRefusal } from '../support.js';
import { corruptPdf, encryptedPdf, notAPdf } from './fixtures.js';

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

type BadPdf = readonly [name: string, make: () => Promise<Uint8Array>, kind: ToolInputErrorKind | undefined, message: RegExp];

/** What every pdf-lib tool refuses: a file that is not a PDF (415), an encrypted one and a damaged one (422). */
const badPdfs: readonly BadPdf[] = [
  ['not a PDF', async () => notAPdf, 'unsupported_type', /not a PDF/],
  ['encrypted', encryptedPdf, undefined, /encrypted/],
  ['damaged', async () => corruptPdf, undefined, /could not be read/],
];

/** One test per bad file (plus `extra`), each refused by `run(file)` at the field `file`. */
export function itRefusesBadPdfs(run: (file: Uint8Array) => unknown, extra: readonly BadPdf[] = []): void {
  it.each([...badPdfs, ...extra])('refuses a %s file', async (_name, make, kind, message) => {
    const file = await make();
    await expectRefused(() => run(file), 'file', kind, message);
  });
}
