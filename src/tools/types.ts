/**
 * The shape of a utility (product.md §9, utilities-research.md §2). Each tool
 * lives in its own folder: `meta.ts` is data only (what the catalogue, the
 * browser UI, search, the API and the MCP server need to know about it) and
 * `core.ts` is the pure function that does the work — no DOM, no Node-only
 * APIs — so the same code runs in the page, in a Worker and behind
 * `POST /api/tools/{id}`.
 */

export type ToolGroup = 'developer' | 'pdf' | 'image' | 'ai';

export const toolGroups: readonly { id: ToolGroup; name: string; description: string }[] = [
  { id: 'developer', name: 'Developer', description: 'Formatters, encoders, converters and generators for everyday development work.' },
  { id: 'pdf', name: 'PDF', description: 'Merge, split, rotate, stamp and read PDF files.' },
  { id: 'image', name: 'Image', description: 'Resize, crop, compress and convert images, read EXIF data and make icons.' },
  { id: 'ai', name: 'AI and text analysis', description: 'Token counts, OCR, language, sentiment, keywords, summaries and readability, all offline.' },
];

/** A JSON Schema (draft 2020-12 subset that Ajv and MCP clients understand), as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

export interface ToolExample {
  title: string;
  /**
   * The input as JSON: file fields (`contentEncoding: "base64"` in the schema) hold Base64 here,
   * exactly as an API caller sends them; the page turns them into an example file.
   */
  input: Record<string, unknown>;
  /** The exact output; omitted for tools whose output is random (uuid) or binary. */
  output?: unknown;
  /**
   * A part of the output that must match (Vitest `toMatchObject` semantics), for outputs with
   * files or random parts: e.g. `{ pageCount: 3 }` next to the PDF itself.
   */
  outputMatches?: Record<string, unknown>;
}

export interface ToolLimits {
  /** Largest accepted input, measured as the UTF-8 size of the input's JSON (files as Base64). */
  maxInputBytes: number;
  /** Longest a run may take before it is ended (server thread terminated, page Worker terminated). Default 10 000. */
  timeoutMs?: number;
}

/**
 * A file a tool returns: the page offers it for download (several → one ZIP), the API returns
 * `data` as Base64.
 */
export interface ToolFile {
  name: string;
  /** Media type, e.g. `application/pdf`, `image/png`. */
  type: string;
  data: Uint8Array;
}

/** What a run may use besides its input. */
export interface ToolContext {
  /** Progress between 0 and 1, for long runs (OCR); the page shows it. */
  onProgress?(fraction: number, label?: string): void;
}

export interface ToolMeta {
  /** URL-safe, stable: the page is `/tools/{id}`, the endpoint `POST /api/tools/{id}`. */
  id: string;
  group: ToolGroup;
  name: string;
  /** One or two sentences, shown in the catalogue and to agents. */
  description: string;
  keywords: string[];
  /** Whether the tool also runs on the server (`POST /api/tools/{id}`, the MCP `run_utility` tool). */
  api: boolean;
  limits: ToolLimits;
  /**
   * The input object; inputs are validated against it exactly (no coercion, no extra properties).
   * A file is `{type: "string", contentEncoding: "base64", contentMediaType: "application/pdf"}`
   * (an array of them for several files): Base64 over the API, a file picker on the page, and a
   * `Uint8Array` in `run()`. `"x-ui": "line"` makes a string a one-line field instead of a text area;
   * `"x-ui": "password"` hides it.
   */
  inputSchema: JsonSchema;
  examples: ToolExample[];
  /**
   * What the page runs: `core` (default: `<id>/core.ts`) or `browser` (`<id>/browser.ts`, for canvas
   * or pdf.js work). The API runs `<id>/server.ts` when `server` is `server` (sharp), else the core.
   */
  browser?: 'core' | 'browser';
  server?: 'core' | 'server';
  /** `worker` (default): the page runs it in a Web Worker it can end; `page`: needs the main thread (speech, pdf.js). */
  runsIn?: 'worker' | 'page';
  /** The page accepts several files for this file field, runs the tool on each and offers the outputs as one ZIP. */
  batchField?: string;
}

/**
 * What kind of refusal: `invalid_json` (422 invalid_json), `unsupported_type` (a file of a type the
 * tool does not read: 415), `too_large` (a file over the tool's own limit, e.g. pixels or pages: 413);
 * anything else is 422 validation_failed (corrupt or encrypted files, impossible options).
 */
export type ToolInputErrorKind = 'invalid_json' | 'unsupported_type' | 'too_large';

/**
 * A refusal of well-formed but unusable input (bad Base64, broken percent
 * escape, invalid JSON): what the caller sent and where it went wrong. The
 * HTTP layer answers 422; the MCP tool answers an error result.
 */
export class ToolInputError extends Error {
  constructor(
    message: string,
    readonly details: { field?: string; line?: number; column?: number; offset?: number; kind?: ToolInputErrorKind } = {},
  ) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/** A run's time limit, the same on the page and on the server: the tool's own, else 10 s. */
export function toolTimeLimitMs(meta: Pick<ToolMeta, 'limits'>): number {
  return meta.limits.timeoutMs ?? 10_000;
}

/**
 * Which lane of server threads a tool runs on (thread-pool.ts, runner.ts): `light` tools (small
 * text inputs, the default 10 s limit, no native code) have their own threads, so they never wait
 * behind PDF, image or OCR work. The registry decides (registry.ts `toolWeight`).
 */
export type ToolWeight = 'light' | 'heavy';

/** What each `core.ts`, `browser.ts` and `server.ts` exports. */
export interface ToolCore {
  run(input: never, context?: ToolContext): unknown | Promise<unknown>;
}
