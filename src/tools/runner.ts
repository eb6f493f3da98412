/**
 * Runs a utility for a server caller (`POST /api/tools/{id}`, the MCP
 * `run_utility` tool): finds it, holds the input to the tool's size limit,
 * validates it against the tool's schema exactly (no coercion; defaults
 * filled in), decodes its files, runs it in a worker thread with a time limit
 * (thread-pool.ts), and turns refusals into the error catalogue's codes:
 * 404 unknown tool, 413 too large, 415 unsupported file, 422 invalid input,
 * invalid JSON or over the time limit; 503 when too many runs wait.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DomainError } from '../errors.js';
import { decodeFileFields, encodeFiles } from './files.js';
import { findTool } from './registry.js';
import { ToolThreadPool } from './thread-pool.js';
import { ToolInputError, type ToolMeta, toolTimeLimitMs } from './types.js';

export interface RunOptions {
  /** Prefix of error locations: `/body` over HTTP, `/input` for MCP. */
  location?: string;
  /** A cap on every tool's own time limit (TOOL_TIME_LIMIT_MS). */
  timeLimitMs?: number;
}

const ajv = new Ajv({ coerceTypes: false, useDefaults: true, allErrors: false, strict: false, removeAdditional: false });
const validators = new Map<string, ValidateFunction>();
let pool: ToolThreadPool | undefined;

/** Ends the worker threads (at shutdown; a later run starts new ones). */
export async function closeToolThreads(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.close();
}

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

/** The catalogue's error for a tool's refusal of its input. */
function refusalError(refusal: { message: string; details: ToolInputError['details'] }, at: string): DomainError {
  const { field, kind, ...where } = refusal.details;
  const location = field ? `${at}/${field}` : at;
  if (kind === 'invalid_json') return new DomainError('invalid_json', refusal.message, { location, ...where });
  if (kind === 'unsupported_type') return new DomainError('unsupported_media_type', refusal.message, { location });
  if (kind === 'too_large') return new DomainError('payload_too_large', refusal.message, { location });
  return new DomainError('validation_failed', refusal.message, { errors: [{ location, message: refusal.message, ...where }] });
}

/** The time limit of one run: the tool's own, capped by the operator's setting. */
function timeLimitOf(meta: ToolMeta, cap?: number): number {
  const own = toolTimeLimitMs(meta);
  return cap === undefined ? own : Math.min(own, cap);
}

/**
 * Runs a server-capable tool on a JSON input and returns its JSON output (files as Base64).
 * Throws DomainError for everything the caller did wrong, and for runs over the time limit.
 */
export async function runTool(id: string, rawInput: unknown, options: RunOptions = {}): Promise<unknown> {
  const at = options.location ?? '/body';
  const entry = findTool(id);
  if (!entry?.meta.api) throw new DomainError('not_found', `No utility "${id.slice(0, 64)}" runs on the server. GET /api/tools lists them.`);
  const { meta } = entry;
  const input = rawInput === undefined || rawInput === null ? {} : structuredClone(rawInput);
  const size = new TextEncoder().encode(JSON.stringify(input)).byteLength;
  if (size > meta.limits.maxInputBytes) {
    throw new DomainError('payload_too_large', `The input of ${id} may be at most ${meta.limits.maxInputBytes} bytes.`, { limitBytes: meta.limits.maxInputBytes });
  }
  const validate = validatorFor(id, meta.inputSchema);
  if (!validate(input)) {
    const errors = (validate.errors ?? []).map((e) => ({ location: `${at}${e.instancePath}`, message: describe(e) }));
    const first = errors[0];
    throw new DomainError('validation_failed', first ? `${first.location} ${first.message}` : 'The input is invalid.', { errors });
  }
  let decoded: Record<string, unknown>;
  try {
    decoded = decodeFileFields(meta.inputSchema, input as Record<string, unknown>);
  } catch (error) {
    if (error instanceof ToolInputError) throw refusalError(error, at);
    throw error;
  }
  pool ??= new ToolThreadPool();
  if (pool.saturated) throw new DomainError('server_busy', 'Too many utility runs are waiting. Try again in a moment.', { retryAfterMs: 1000 });
  const limitMs = timeLimitOf(meta, options.timeLimitMs);
  const outcome = await pool.run({ tool: id, input: decoded }, limitMs);
  if (outcome.ok) return encodeFiles(outcome.output);
  if ('timedOut' in outcome) {
    throw new DomainError('time_limit_exceeded', `${meta.name} took longer than ${limitMs} ms and was stopped. Try a smaller input.`, { limitMs });
  }
  if (outcome.refusal) throw refusalError(outcome.refusal, at);
  throw new Error(`utility ${id} failed: ${outcome.failure ?? 'unknown error'}`);
}
