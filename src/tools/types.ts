/**
 * The shape of a utility (product.md §9, utilities-research.md §2). Each tool
 * lives in its own folder: `meta.ts` is data only (what the catalogue, the
 * browser UI, search, the API and the MCP server need to know about it) and
 * `core.ts` is the pure function that does the work — no DOM, no Node-only
 * APIs — so the same code runs in the page, in a Worker and behind
 * `POST /api/tools/{id}`.
 */

export type ToolGroup = 'developer' | 'text' | 'pdf' | 'image' | 'ai';

/** A JSON Schema (draft 2020-12 subset that Ajv and MCP clients understand), as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

export interface ToolExample {
  title: string;
  input: Record<string, unknown>;
  /** The exact output; omitted for tools whose output is random (uuid). */
  output?: unknown;
}

export interface ToolLimits {
  /** Largest accepted input, measured as the UTF-8 size of the input's JSON. */
  maxInputBytes: number;
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
  /** The input object; inputs are validated against it exactly (no coercion, no extra properties). */
  inputSchema: JsonSchema;
  examples: ToolExample[];
}

/**
 * A refusal of well-formed but unusable input (bad Base64, broken percent
 * escape, invalid JSON): what the caller sent and where it went wrong. The
 * HTTP layer answers 422; the MCP tool answers an error result.
 */
export class ToolInputError extends Error {
  constructor(
    message: string,
    readonly details: { field?: string; line?: number; column?: number; offset?: number; kind?: 'invalid_json' } = {},
  ) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/** What each `core.ts` exports. */
export interface ToolCore {
  run(input: never): unknown | Promise<unknown>;
}
