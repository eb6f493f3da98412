/**
 * `/api/v1/knowledge-bases/{ragId}/sources`: upload a file (multipart field
 * `file`) or paste text (JSON), list sources, delete one with its records.
 */
import type { MultipartFile } from '@fastify/multipart';
import { Type } from 'typebox';
import { DomainError } from '../../errors.js';
import { detectFormat } from '../../knowledge/extraction/index.js';
import type { KnowledgeService, Upload } from '../../knowledge/knowledge-service.js';
import { accountOf } from '../plugins/auth.js';
import { accountSecurity, defaultPageSize, errorResponses, PageQuery, PasteBody, pageOf, RagIdParams, Source, SourceParams, UploadReport } from '../schemas.js';
import type { App } from '../types.js';
import { abortOnClose } from '../abort-on-close.js';

const tags = ['Sources'];
const security = accountSecurity;

/** A display name from a client-supplied file name: no path, no control characters, at most 200 characters. */
export function cleanSourceName(raw: string): string {
  const base = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return clean || 'upload';
}

async function readMultipartUpload(parts: AsyncIterableIterator<MultipartFile | { type: 'field'; fieldname: string; value: unknown }>): Promise<Upload> {
  let upload: Upload | undefined;
  let givenName: string | undefined;
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || upload) {
        await part.toBuffer().catch(() => undefined);
        throw new DomainError('bad_request', 'Send exactly one file, in the form field "file".');
      }
      const format = detectFormat(part.filename, part.mimetype);
      if (!format) {
        part.file.resume();
        throw new DomainError('unsupported_media_type', `"${cleanSourceName(part.filename)}" is not a .json, .jsonl, .txt, .md, .csv, .pdf or .html file.`);
      }
      upload = { name: cleanSourceName(part.filename), format, bytes: await part.toBuffer() };
    } else if (part.fieldname === 'name' && typeof part.value === 'string' && part.value.trim()) {
      givenName = part.value;
    }
  }
  if (!upload) throw new DomainError('bad_request', 'The form has no file: send it in the field "file".');
  return givenName ? { ...upload, name: cleanSourceName(givenName) } : upload;
}

export function sourceRoutes(app: App, knowledge: KnowledgeService, uploadMaxBytes: number): void {
  app.post(
    '/api/v1/knowledge-bases/:ragId/sources',
    {
      onRequest: app.requireAccount('kb:write'),
      // JSON escaping can double the size of pasted text; the text itself is held to the upload limit below.
      bodyLimit: uploadMaxBytes * 2 + 65_536,
      // What a 413 names as the limit (plugins/errors.ts): the file's, not the escaped body's.
      config: { limitBytes: uploadMaxBytes },
      schema: {
        tags,
        security,
        summary: 'Upload a file or paste text',
        description:
          'Multipart: one `.json`, `.jsonl`/`.ndjson`, `.txt`, `.md`, `.csv`, `.pdf` or `.html`/`.htm` file in the field `file` (optional field `name`); ' +
          'the format is taken from the extension, else from the part\'s content type (`text/csv`, `application/pdf`, `text/html`, …). JSON: `{name, text, format}`. ' +
          'CSV rows become Q&A, product or text records by their header names; a PDF becomes one record per page of its text layer (a scanned PDF without one is refused, 422); HTML keeps its main content, split at headings. ' +
          'Records are fingerprinted; duplicates use no quota; an upload that does not fit the free slots is refused whole (409 quota_exceeded), as is one of more records than one upload may hold (413 too_many_records). ' +
          'Uploads wait for a reading thread in one queue per account, served in turn; an account with UPLOAD_QUEUE_PER_ACCOUNT uploads already waiting gets 429 rate_limited (limit "upload_queue") with Retry-After.',
        params: RagIdParams,
        consumes: ['multipart/form-data', 'application/json'],
        // Only the JSON form is validated by schema; the multipart form is streamed and checked by hand,
        // and added to the OpenAPI document by the docs plugin from `x-multipart-body`.
        body: { content: { 'application/json': { schema: PasteBody } } },
        'x-multipart-body': Type.Object({
          file: Type.String({ format: 'binary', description: 'The .json, .jsonl, .txt, .md, .csv, .pdf or .html file' }),
          name: Type.Optional(Type.String({ description: 'Source name; defaults to the file name' })),
        }),
        response: { 201: UploadReport, ...errorResponses(401, 404, 409, 413, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const signal = abortOnClose(reply);
      let upload: Upload;
      if (request.isMultipart()) {
        upload = await readMultipartUpload(request.parts({ limits: { fileSize: uploadMaxBytes, files: 2, fields: 5 } }) as never);
      } else {
        const body = request.body as PasteBody;
        upload = { name: cleanSourceName(body.name), format: body.format ?? 'txt', bytes: Buffer.from(body.text, 'utf8') };
      }
      const report = await knowledge.ingest(accountOf(request), request.params.ragId, upload, signal);
      return reply.code(201).send(report);
    },
  );

  app.get(
    '/api/v1/knowledge-bases/:ragId/sources',
    {
      onRequest: app.requireAccount('kb:read'),
      schema: { tags, security, summary: 'List sources', params: RagIdParams, querystring: PageQuery, response: { 200: pageOf(Source), ...errorResponses(401, 404) } },
    },
    async (request) => knowledge.listSources(accountOf(request), request.params.ragId, { ...request.query, limit: request.query.limit ?? defaultPageSize }),
  );

  app.delete(
    '/api/v1/knowledge-bases/:ragId/sources/:sourceId',
    {
      onRequest: app.requireAccount('kb:write'),
      schema: { tags, security, summary: 'Delete a source and its records', params: SourceParams, response: { 204: Type.Null(), ...errorResponses(401, 404) } },
    },
    async (request, reply) => {
      await knowledge.deleteSource(accountOf(request), request.params.ragId, request.params.sourceId);
      return reply.code(204).send(null);
    },
  );
}
