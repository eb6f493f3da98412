/**
 * Table-driven tool tests: every worked example of a tool's metadata as a test case, with its
 * input as `run()` receives it (file fields decoded from Base64).
 */
import { expect } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { runTool } from '../../src/tools/runner.js';
import { decodeFileFields, encodeFiles } from '../../src/tools/files.js';
import { ToolInputError, type ToolExample, type ToolMeta } from '../../src/tools/types.js';

/** `[title, example]` rows for `it.each`. */
export function exampleCases(meta: ToolMeta): [string, ToolExample][] {
  return meta.examples.map((example) => [example.title, example]);
}

/** The example's input as `run()` receives it. */
export function exampleInput(meta: ToolMeta, example: ToolExample): never {
  return decodeFileFields(meta.inputSchema, structuredClone(example.input)) as never;
}

/** Checks an output against the example: exact `output`, or `outputMatches` (files compared as Base64). */
export function expectExampleOutput(example: ToolExample, output: unknown): void {
  const json = encodeFiles(output);
  if (example.output !== undefined) expect(json).toEqual(example.output);
  if (example.outputMatches !== undefined) expect(json).toMatchObject(example.outputMatches);
}

/** Runs `fn` and returns the ToolInputError it throws; fails if it throws anything else or nothing. */
export async function toolRefusal(fn: () => unknown): Promise<ToolInputError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof ToolInputError) return error;
    throw error;
  }
  throw new Error('expected a ToolInputError, but the tool accepted the input');
}

/** Runs a tool as the API does (`runTool`) and returns the DomainError it refuses with; fails when it accepts. */
export async function apiRefusal(id: string, input: unknown): Promise<DomainError> {
  try {
    await runTool(id, input);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`${id} accepted ${JSON.stringify(input).slice(0, 200)}`);
}
