/**
 * Runs a utility for a server caller (`POST /api/tools/{id}`, the MCP
 * `run_utility` tool): finds it, holds the input to the tool's size limit,
 * validates it against the tool's schema exactly (no coercion; defaults
 * filled in), runs the core, and turns refusals into the error catalogue's
 * codes: 404 unknown tool, 413 too large, 422 invalid input or invalid JSON.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DomainError } from '../errors.js';
import { findTool } from './registry.js';
import { ToolInputError } from './types.js';

export interface RunOptions {
  /** Prefix of error locations: `/body` over HTTP, `/input` for MCP. */
  location?: string;
}

const ajv = new Ajv({ coerceTypes: false, useDefaults: true, allErrors: false, strict: false, removeAdditional: false });
const validators = new Map<string, ValidateFunction>();

function validatorFor(id: string, schema: object): ValidateFunction {
  let validate = validators.get(id);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(id, validate);
  }
  return validate;
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return `unexpected property "${String(error.params.additionalProperty)}"`;
  if (error.keyword === 'required') return `missing property "${String(error.params.missingProperty)}"`;
  if (error.keyword === 'enum') return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return error.message ?? 'is invalid';
}

export async function runTool(id: string, rawInput: unknown, options: RunOptions = {}): Promise<unknown> {
  const at = options.location ?? '/body';
  const entry = findTool(id);
  if (!entry?.meta.api) throw new DomainError('not_found', `No utility "${id.slice(0, 64)}" runs on the server. GET /api/tools lists them.`);
  const input = rawInput === undefined || rawInput === null ? {} : structuredClone(rawInput);
  const size = new TextEncoder().encode(JSON.stringify(input)).byteLength;
  if (size > entry.meta.limits.maxInputBytes) {
    throw new DomainError('payload_too_large', `The input of ${id} may be at most ${entry.meta.limits.maxInputBytes} bytes.`, { limitBytes: entry.meta.limits.maxInputBytes });
  }
  const validate = validatorFor(id, entry.meta.inputSchema);
  if (!validate(input)) {
    const errors = (validate.errors ?? []).map((e) => ({ location: `${at}${e.instancePath}`, message: describe(e) }));
    const first = errors[0];
    throw new DomainError('validation_failed', first ? `${first.location} ${first.message}` : 'The input is invalid.', { errors });
  }
  const core = await entry.load();
  try {
    return await core.run(input as never);
  } catch (error) {
    if (!(error instanceof ToolInputError)) throw error;
    const { field, kind, ...where } = error.details;
    const location = field ? `${at}/${field}` : at;
    if (kind === 'invalid_json') throw new DomainError('invalid_json', error.message, { location, ...where });
    throw new DomainError('validation_failed', error.message, { errors: [{ location, message: error.message, ...where }] });
  }
}
