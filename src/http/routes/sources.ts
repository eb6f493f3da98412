/**
 * `/api/v1/knowledge-bases/{ragId}/sources`: upload a file (multipart field
 * `file`) or paste text (JSON), import a web page or sitemap (`/import`), list
 * sources, delete one with its records.
 */
import type { MultipartFile } from '@fastify/multipart';
import { Type } from 'typebox';
import { DomainError } from '../../errors.js';
import { detectFormat } from '../../knowledge/extraction/index.js';
import type { KnowledgeService, Upload } from '../../knowledge/knowledge-service.js';
import type { WebImportService } from '../../knowledge/web-import/web-import-service.js';
import { accountOf } from '../plugins/auth.js';
import {
  accountSecurity,
  defaultPageSize,
  errorResponses,
  ImportBody,
  ImportReport,
  PageQuery,
  PasteBody,
  pageOf,
  RagIdParams,
  Source,
  SourceParams,
  UploadReport,
} from '../schemas.js';
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

export function sourceRoutes(app: App, knowledge: KnowledgeService, uploadMaxBytes: number, webImport?: WebImportService): void {
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

  if (webImport) {
    const caps = webImport.limits;
    app.post(
      '/api/v1/knowledge-bases/:ragId/sources/import',
      {
        onRequest: app.requireAccount('kb:write'),
        schema: {
          tags,
          security,
          summary: 'Import a web page or a sitemap',
          description:
            'Fetches `url` — one HTML page, or a sitemap (`<urlset>`, or a `<sitemapindex>` followed one level deep) whose pages on the same host are fetched — and stores each page as a source named by its title that remembers its URL. ' +
            `At most ${caps.maxPages} pages, ${caps.maxPageBytes} bytes each, ${caps.concurrency} at a time, ${Math.round(caps.timeLimitMs / 1000)} s in all (IMPORT_* settings). ` +
            'Only https URLs of hosts with public addresses are fetched, redirects only within the same host (at most 3); robots.txt is honoured for the `GroundworkImporter` token and `*` (disallowed pages are `skipped`). ' +
            'A page keeps its main content (navigation, header, footer, aside, forms and scripts are dropped) and is read like an uploaded .html file, with the same dedupe, quota and atomicity. ' +
            'Importing again updates by fingerprint: an unchanged page is left alone, a changed one has its records replaced (identical records kept), a new one added; pages gone from the sitemap are listed in `notInSitemap`, not deleted. ' +
            'The answer reports every page (`added`, `updated`, `unchanged`, `skipped`, `failed` with a reason); a URL refused before fetching is 422 `url_not_allowed`; one import per account at a time (429 `rate_limited`, limit "import").',
          params: RagIdParams,
          body: ImportBody,
          response: { 200: ImportReport, ...errorResponses(401, 404, 422, 429) },
        },
      },
      async (request, reply) => webImport.import(accountOf(request), request.params.ragId, request.body.url, abortOnClose(reply)),
    );
  }

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
