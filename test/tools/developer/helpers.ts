/** Shared pieces of the developer tool tests: example tables and refusals through the runner. */
import { afterAll, expect, it } from 'vitest';
import { closeToolThreads, runTool } from '../../../src/tools/runner.js';
import type { ToolMeta } from '../../../src/tools/types.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';

/** One test per worked example of the tool, run through `run` (core.ts or server.ts). */
export function itRunsExamples(meta: ToolMeta, run: (input: never) => unknown): void {
  it.each(exampleCases(meta))('example: %s', async (_title, example) => {
    expectExampleOutput(example, await run(exampleInput(meta, example)));
  });
}

/** The DomainError the runner throws for an input (fails when the input is accepted). */
export { apiRefusal as runnerRefusal } from '../support.js';

/** The runner's output for the tool's first example, which must match it (the API path). */
export async function expectFirstExampleOverApi(meta: ToolMeta): Promise<void> {
  const example = meta.examples[0];
  if (!example) throw new Error(`${meta.id} has no examples`);
  const output = await runTool(meta.id, example.input);
  if (example.output !== undefined) expect(output).toEqual(example.output);
  if (example.outputMatches !== undefined) expect(output).toMatchObject(example.outputMatches);
}

/** Ends the runner's worker threads after the file's tests. */
export function closeThreadsAfterAll(): void {
  afterAll(() => closeToolThreads());
}
