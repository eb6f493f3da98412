/**
 * Runs a utility for a server caller (`POST /api/tools/{id}`, the MCP
 * `run_utility` tool): finds it, holds the input to the tool's size limit,
 * validates it against the tool's schema exactly (no coercion; defaults
 * filled in), decodes its files, runs it in a worker thread with a time and a
 * memory limit (thread-pool.ts), and turns refusals into the error catalogue's
 * codes: 404 unknown tool, 413 too large (input, output, or memory), 415
 * unsupported file, 422 invalid input, invalid JSON or over the time limit;
 * 429 when the client already holds its share of the queue; 503 when the queue is full.
 *
 * Two lanes of threads (docs/utilities.md, "Fair use of the worker pool"): light tools
 * (registry.ts `toolWeight`) have their own small lane, so a flood of PDF or image runs never
 * delays a JSON format; within each lane clients take turns (thread-pool.ts).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DomainError } from '../errors.js';
import { decodeFileFields, encodeFiles } from './files.js';
import { findTool, toolWeight } from './registry.js';
import { defaultPoolSize, type QueueRefusal, ToolThreadPool, type ToolThreadPoolOptions } from './thread-pool.js';
import { ToolInputError, type ToolMeta, type ToolWeight, toolTimeLimitMs } from './types.js';

export interface RunOptions {
  /** Prefix of error locations: `/body` over HTTP, `/input` for MCP. */
  location?: string;
  /** A cap on every tool's own time limit (TOOL_TIME_LIMIT_MS). */
  timeLimitMs?: number;
  /** Who asks (`ip:…`, `bot:…`): each client gets its share of the queue. Default: one shared bucket. */
  client?: string;
  /** Called with the run's time limit when a worker thread starts it (after any wait in the queue): MCP progress notifications. */
  onStarted?: (timeLimitMs: number) => void;
}

const mb = 1024 * 1024;

/** Each lane's threads, queue and limits; sized from the machine (os.availableParallelism()). */
export const laneSettings: Record<ToolWeight, ToolThreadPoolOptions & { maxOutputBytes: number }> = {
  heavy: {
    size: defaultPoolSize(),
    maxQueue: 64,
    maxQueuedPerClient: 8,
    maxRunningPerClient: Math.ceil(defaultPoolSize() / 2),
    maxQueuedBytes: 256 * mb,
    resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 32 },
    maxOutputBytes: 128 * mb,
  },
  light: {
    size: defaultPoolSize() >= 7 ? 2 : 1,
    maxQueue: 64,
    maxQueuedPerClient: 8,
    maxRunningPerClient: 1,
    maxQueuedBytes: 64 * mb,
    resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
    maxOutputBytes: 16 * mb,
  },
};

const ajv = new Ajv({ coerceTypes: false, useDefaults: true, allErrors: false, strict: false, removeAdditional: false });
const validators = new Map<string, ValidateFunction>();
const lanes = new Map<ToolWeight, ToolThreadPool>();

function lane(weight: ToolWeight): ToolThreadPool {
  let pool = lanes.get(weight);
  if (!pool) {
    pool = new ToolThreadPool(laneSettings[weight]);
    lanes.set(weight, pool);
  }
  return pool;
}

/** Ends the worker threads (at shutdown; a later run starts new ones). */
export async function closeToolThreads(): Promise<void> {
  const current = [...lanes.values()];
  lanes.clear();
  await Promise.all(current.map((pool) => pool.close()));
}

/** 429 when the client holds its share of the lane's queue, 503 when the lane is full. */
function queueError(refusal: QueueRefusal, meta: ToolMeta, pool: ToolThreadPool, limitMs: number): DomainError {
  if (refusal === 'client_share') {
    return new DomainError(
      'rate_limited',
      `This client already has ${pool.maxQueuedPerClient} utility runs waiting; wait for them to finish before sending more.`,
      { limit: 'tool_queue', retryAfterMs: Math.min(30_000, Math.max(1000, limitMs)) },
    );
  }
  const what = refusal === 'bytes_full' ? 'Too much input is waiting for the utility threads' : 'Too many utility runs are waiting';
  return new DomainError('server_busy', `${what}. Try ${meta.name} again in a moment.`, { retryAfterMs: 5000 });
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
  const limitMs = timeLimitOf(meta, options.timeLimitMs);
  const client = options.client ?? 'anonymous';
  const weight = toolWeight(entry);
  const pool = lane(weight);
  // Refused before the files are decoded; run() checks again (nothing runs in between).
  const early = pool.refusal(client, size);
  if (early) throw queueError(early, meta, pool, limitMs);
  let decoded: Record<string, unknown>;
  try {
    decoded = decodeFileFields(meta.inputSchema, input as Record<string, unknown>);
  } catch (error) {
    if (error instanceof ToolInputError) throw refusalError(error, at);
    throw error;
  }
  const outcome = await pool.run({ tool: id, input: decoded, maxOutputBytes: laneSettings[weight].maxOutputBytes }, limitMs, client, size, () => options.onStarted?.(limitMs));
  if (outcome.ok) return encodeFiles(outcome.output);
  if ('refused' in outcome) throw queueError(outcome.refused, meta, pool, limitMs);
  if ('timedOut' in outcome) {
    throw new DomainError('time_limit_exceeded', `${meta.name} took longer than ${limitMs} ms and was stopped. Try a smaller input.`, { limitMs });
  }
  if ('outOfMemory' in outcome) {
    throw new DomainError(
      'payload_too_large',
      `${meta.name} needed more than ${outcome.memoryLimitMb} MB of memory and was stopped. Try a smaller input.`,
      { memoryLimitMb: outcome.memoryLimitMb },
    );
  }
  if (outcome.refusal) throw refusalError(outcome.refusal, at);
  throw new Error(`utility ${id} failed: ${outcome.failure ?? 'unknown error'}`);
}
