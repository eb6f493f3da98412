/** Messages between the page and the tool worker. */
import type { ToolMeta } from '../../tools/types.js';

export interface ToWorker {
  job: number;
  meta: Pick<ToolMeta, 'id' | 'browser'>;
  input: unknown;
}

export type FromWorker = { job: number; output: unknown } | { job: number; error: string } | { job: number; progress: number; label?: string | undefined };

/** A refusal's message as the person should read it. */
export function toMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The buffers of every Uint8Array in an output, to move rather than copy them. */
export function transferables(value: unknown, out: Transferable[] = []): Transferable[] {
  if (value instanceof Uint8Array) {
    if (value.buffer instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength && !out.includes(value.buffer)) out.push(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) transferables(item, out);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) transferables(item, out);
  }
  return out;
}
