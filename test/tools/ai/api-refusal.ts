/** Runs a tool through the server runner and returns the DomainError it refuses with. */
import { DomainError } from '../../../src/errors.js';
import { runTool } from '../../../src/tools/runner.js';

export async function apiRefusal(id: string, input: unknown): Promise<DomainError> {
  try {
    await runTool(id, input);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`${id} accepted ${JSON.stringify(input).slice(0, 200)}`);
}
