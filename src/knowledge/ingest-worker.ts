/**
 * The ingestion thread (ingest-threads.ts): prepares one upload at a time off the HTTP thread.
 * Expected refusals (invalid_json, no_extractable_text, …) travel back as their catalogue code,
 * detail and extra members, and become the same DomainError on the other side.
 */
import { parentPort } from 'node:worker_threads';
import { DomainError } from '../errors.js';
import { type PreparedUpload, type PrepareInput, prepareUploadAsync } from './prepare-upload.js';

export interface IngestJob extends PrepareInput {
  job: number;
}

export type IngestResult =
  | { job: number; ok: true; prepared: PreparedUpload }
  | { job: number; ok: false; error: { code: DomainError['code']; detail: string; extra: Record<string, unknown> } }
  | { job: number; ok: false; failure: string };

async function handle(message: IngestJob): Promise<IngestResult> {
  const { job, ...input } = message;
  try {
    // A PDF is first read by pdf.js (asynchronous); the thread takes one job at a time either way.
    return { job, ok: true, prepared: await prepareUploadAsync(input) };
  } catch (error) {
    if (error instanceof DomainError) return { job, ok: false, error: { code: error.code, detail: error.message, extra: error.extra } };
    return { job, ok: false, failure: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

parentPort?.on('message', (message: IngestJob) => {
  void handle(message).then((result) => parentPort?.postMessage(result));
});
