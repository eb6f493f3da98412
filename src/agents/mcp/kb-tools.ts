/** The knowledge-base tools of the MCP server (product.md §7). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SourceFormat } from '../../knowledge/extraction/types.js';
import { maxFallbackMessageChars } from '../../knowledge/knowledge-service.js';
import type { KnowledgeBase } from '../../knowledge/model.js';
import { starterQuestionLimits } from '../../knowledge/starter-questions.js';
import { synonymLimits } from '../../knowledge/synonyms.js';
import { maxQueryChars } from '../../knowledge/query/query-service.js';
import { guarded, type McpCaller, type McpServices, ok, toolError } from './context.js';

const noControl = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;
const ragId = z.string().min(1).max(64).describe('The knowledge base id (ragId), as list_knowledge_bases shows it.');
const query = z.string().min(1).max(maxQueryChars).describe('The question, 1 to 4,000 characters.');
// As over HTTP: the schema bounds what is sent; the knowledge service checks the limit after trimming.
const fallbackMessage = z
  .string()
  .max(4 * maxFallbackMessageChars)
  .regex(noControl)
  .describe(
    `What the bot answers when the records do not answer a question, e.g. "Ask us at help@shop.example"; plain text, at most ${maxFallbackMessageChars} characters after trimming. ` +
      "Empty restores the default refusal (in the question's language).",
  );
// As over HTTP: the shape is bounded here, the members are checked by the knowledge service (synonyms.ts).
const synonyms = z
  .array(z.array(z.string().max(200)).min(2).max(synonymLimits.maxTermsPerGroup))
  .max(synonymLimits.maxGroups)
  .describe(
    'Groups of words or phrases that mean the same to your visitors, e.g. [["postage", "delivery cost"], ["sign up", "account"]]: a question using one member also finds the records that use another. ' +
      `At most ${synonymLimits.maxGroups} groups of 2–${synonymLimits.maxTermsPerGroup} members, each at most ${synonymLimits.maxTermChars} characters. Replaces the groups stored; [] removes them.`,
  );
// As over HTTP: the shape is bounded here, each question is checked by the knowledge service (starter-questions.ts).
const starterQuestions = z
  .array(z.string().max(500))
  .max(starterQuestionLimits.maxQuestions)
  .describe(
    'Questions the chat widget offers as buttons before the visitor types, e.g. ["What does delivery cost?", "How do I return an item?"]; a click asks it. ' +
      `At most ${starterQuestionLimits.maxQuestions}, each at most ${starterQuestionLimits.maxChars} characters. Replaces the questions stored; [] removes them.`,
  );
const formats = { text: 'txt', markdown: 'md', json: 'json', jsonl: 'jsonl' } as const satisfies Record<string, SourceFormat>;

const Citation = z.object({ sourceName: z.string(), title: z.string().nullable(), recordId: z.string(), passage: z.string(), score: z.number() });
const AnswerOutput = {
  answer: z.string().describe('Plain text; [n] cites sources[n-1].'),
  grounded: z.boolean().describe('False when the records do not answer the question.'),
  cached: z.boolean(),
  smallTalk: z.boolean().optional().describe('True when the query was small talk ("hello", "thanks"): a short reply citing nothing.'),
  sources: z.array(Citation),
  suggestions: z
    .array(z.object({ title: z.string(), recordId: z.string() }))
    .optional()
    .describe("Beside a refusal: titles of records that share the question's telling words, which may be asked about instead. Nothing is claimed by them."),
};
const SearchOutput = { results: z.array(z.object({ recordId: z.string(), sourceName: z.string(), title: z.string().nullable(), passage: z.string(), score: z.number() })) };

function cleanName(raw: string): string {
  return raw.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200) || 'pasted text';
}

/** A knowledge base as the tools and its resource (resources.ts) show it. */
export function knowledgeBaseView(knowledge: McpServices['knowledge'], kb: KnowledgeBase) {
  return {
    ragId: kb.ragId,
    botName: kb.botName,
    description: kb.description,
    greeting: kb.greeting,
    fallbackMessage: kb.fallbackMessage,
    synonyms: kb.synonyms,
    starterQuestions: kb.starterQuestions,
    recordCount: kb.recordCount,
    quota: knowledge.quotaOf(kb),
    createdAt: kb.createdAt,
    updatedAt: kb.updatedAt,
  };
}

export function registerKnowledgeTools(server: McpServer, caller: McpCaller, services: McpServices): void {
  const { knowledge, keys, queries } = services;
  const account = caller.accountId;
  const view = (kb: KnowledgeBase) => knowledgeBaseView(knowledge, kb);

  server.registerTool(
    'list_knowledge_bases',
    {
      title: 'List knowledge bases',
      description: "The account's knowledge bases with their ragId, record count and free record slots.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (extra) =>
      guarded(caller, 'kb:read', async () => {
        const list = await knowledge.list(account);
        return ok({ knowledgeBases: list.map(view), limit: knowledge.limits.maxKnowledgeBases });
      }, { tool: 'list_knowledge_bases', extra }),
  );

  server.registerTool(
    'create_knowledge_base',
    {
      title: 'Create a knowledge base',
      description: `Create a knowledge base (a bot) to load records into. The free plan allows ${knowledge.limits.maxKnowledgeBases} per account.`,
      inputSchema: {
        botName: z.string().min(1).max(80).regex(/\S/).regex(noControl).describe('Name the chat widget shows, 1–80 characters.'),
        description: z.string().max(500).regex(noControl).optional().describe('What the knowledge base is about, for you and the dashboard.'),
        greeting: z.string().max(300).regex(noControl).optional().describe("The widget's first message."),
        fallbackMessage: fallbackMessage.optional(),
        synonyms: synonyms.optional(),
        starterQuestions: starterQuestions.optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) => guarded(caller, 'kb:write', async (notices) => {
        const created = await knowledge.create(account, args);
        notices.log('info', 'knowledge base created', { ragId: created.ragId });
        return ok({ knowledgeBase: view(created) });
      }, { tool: 'create_knowledge_base', extra }),
  );

  server.registerTool(
    'get_knowledge_base',
    {
      title: 'Read a knowledge base',
      description: 'One knowledge base: its name, description, greeting, fallback message, synonyms, starter questions, record count and free record slots.',
      inputSchema: { ragId },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) => guarded(caller, 'kb:read', async () => ok({ knowledgeBase: view(await knowledge.get(account, args.ragId)) }), { tool: 'get_knowledge_base', extra }),
  );

  server.registerTool(
    'update_knowledge_base',
    {
      title: 'Update a knowledge base',
      description:
        'Change the bot name, description, greeting, fallback message, synonyms or starter questions of a knowledge base; fields left out stay as they are. ' +
        'null (or an empty string) clears description, greeting and fallbackMessage; null or [] removes the synonyms or the starter questions.',
      inputSchema: {
        ragId,
        botName: z.string().min(1).max(80).regex(/\S/).regex(noControl).optional().describe('Name the chat widget shows, 1–80 characters.'),
        description: z.string().max(500).regex(noControl).nullable().optional().describe('What the knowledge base is about, for you and the dashboard.'),
        greeting: z.string().max(300).regex(noControl).nullable().optional().describe("The widget's first message."),
        fallbackMessage: fallbackMessage.nullable().optional(),
        synonyms: synonyms.nullable().optional(),
        starterQuestions: starterQuestions.nullable().optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ ragId: id, ...fields }, extra) =>
      guarded(caller, 'kb:write', async () => {
        // Only the fields sent: an absent field must not overwrite the stored one with undefined.
        const patch = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<typeof fields>;
        if (Object.keys(patch).length === 0) return toolError('validation_failed: name at least one field to change.');
        return ok({ knowledgeBase: view(await knowledge.update(account, id, patch)) });
      }, { tool: 'update_knowledge_base', extra }),
  );

  server.registerTool(
    'delete_knowledge_base',
    {
      title: 'Delete a knowledge base',
      description: 'Delete a knowledge base with its records, sources and API keys. This frees a slot and cannot be undone.',
      inputSchema: { ragId },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(caller, 'kb:write', async (notices) => {
        await knowledge.remove(account, args.ragId);
        notices.log('info', 'knowledge base deleted', { ragId: args.ragId });
        return ok({ deleted: true, ragId: args.ragId });
      }, { tool: 'delete_knowledge_base', extra }),
  );

  server.registerTool(
    'add_records',
    {
      title: 'Add records',
      description:
        'Add content to a knowledge base as one source. text: paragraphs (Q:/A: pairs become Q&A); markdown: one record per heading section; ' +
        'json: an array of objects or an object holding one; jsonl: one object per line. Duplicates are skipped and use no quota; ' +
        'content that does not fit the free record slots is refused whole.',
      inputSchema: {
        ragId,
        name: z.string().min(1).max(200).describe('Name the source is listed and cited under, e.g. "Opening hours".'),
        content: z.string().min(1).describe('The content, as it would be in a file of the given format.'),
        format: z.enum(['text', 'markdown', 'json', 'jsonl']).default('text').describe('How content is written; see the tool description.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(caller, 'kb:write', async (notices) => {
        // extra.signal aborts when the HTTP response closes early (routes/mcp.ts closes the server):
        // the upload then leaves the account's ingestion queue or its reading is stopped.
        const upload = { name: cleanName(args.name), format: formats[args.format], bytes: new TextEncoder().encode(args.content) };
        const report = await knowledge.ingest(account, args.ragId, upload, extra.signal);
        const counts = { ragId: args.ragId, sourceId: report.source.sourceId, added: report.added, duplicate: report.duplicate, rejected: report.rejected };
        notices.log('info', 'records added', counts);
        if (report.rejected > 0) notices.log('warning', 'some records were rejected; see rejections in the result', counts);
        return ok({
          sourceId: report.source.sourceId,
          sourceName: report.source.sourceName,
          added: report.added,
          duplicate: report.duplicate,
          rejected: report.rejected,
          rejections: report.rejections.slice(0, 10),
          quota: report.quota,
        });
      }, { tool: 'add_records', extra }),
  );

  server.registerTool(
    'list_records',
    {
      title: 'List records',
      description: 'The records of a knowledge base, oldest first, a page at a time.',
      inputSchema: {
        ragId,
        limit: z.number().int().min(1).max(100).default(20).describe('Records per page.'),
        cursor: z.string().max(200).optional().describe('nextCursor of the previous page.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(caller, 'kb:read', async () => {
        const page = await knowledge.listRecords(account, args.ragId, { limit: args.limit, cursor: args.cursor });
        return ok({ records: page.items.map(({ ragId: _r, fingerprint: _f, ...record }) => record), nextCursor: page.nextCursor });
      }, { tool: 'list_records', extra }),
  );

  server.registerTool(
    'query_knowledge_base',
    {
      title: 'Ask a knowledge base',
      description:
        'Answer a question from the knowledge base only, with citations: [n] in the answer cites sources[n-1]. ' +
        'grounded is false (and the answer says so) when the records do not cover the question. Counts toward the knowledge base query limits.',
      inputSchema: { ragId, query },
      outputSchema: AnswerOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(caller, 'kb:read', async (notices) => {
        const admitted = await queries.admit(account, args.ragId, args.query);
        const result = await queries.answer(admitted, caller.requestId, extra.signal);
        if (!result) return toolError('cancelled: the request was cancelled before the answer was ready.');
        services.metrics?.queries.inc({ endpoint: 'mcp', cached: String(result.cached), grounded: String(result.grounded) });
        const outcome = result.grounded ? 'answered from the records' : result.smallTalk ? 'small talk, answered without the records' : 'the records do not answer this question';
        notices.log(result.grounded || result.smallTalk ? 'info' : 'notice', outcome, {
          ragId: args.ragId,
          cached: result.cached,
          sources: result.sources.length,
        });
        const citations = result.sources.map((s, i) => `[${i + 1}] ${s.title ?? s.sourceName}: ${s.passage}`).join('\n');
        const offered = result.suggestions?.map((s) => `- ${s.title}`).join('\n');
        return ok(result, citations ? `${result.answer}\n\nSources:\n${citations}` : offered ? `${result.answer}\n\nRelated records:\n${offered}` : result.answer);
      }, { tool: 'query_knowledge_base', extra }),
  );

  server.registerTool(
    'search_knowledge_base',
    {
      title: 'Search a knowledge base',
      description: 'The records that best match a query, ranked, without generating an answer. Counts toward the query limits.',
      inputSchema: { ragId, query, limit: z.number().int().min(1).max(50).default(10).describe('Most results to return.') },
      outputSchema: SearchOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(caller, 'kb:read', async (notices) => {
        const admitted = await queries.admit(account, args.ragId, args.query);
        const results = await queries.queries.search(admitted, args.limit);
        notices.log('info', 'search done', { ragId: args.ragId, results: results.length });
        return ok({ results });
      }, { tool: 'search_knowledge_base', extra }),
  );

  server.registerTool(
    'create_api_key',
    {
      title: 'Create a query API key',
      description:
        'Create a live key for POST /api/v1/query (header X-API-Key) and the chat widget. ' +
        'Browsers may use it only from allowedDomains (exact host, *.example.com, or localhost); calls without Origin (servers) always may. ' +
        'A secret key (default) is returned once; a publishable key (publishable: true, for a website widget, whose pages show it anyway) stays visible to the owner in the dashboard.',
      inputSchema: {
        ragId,
        name: z.string().max(80).regex(noControl).optional().describe('A label to tell keys apart, e.g. "shop widget".'),
        allowedDomains: z
          .array(z.string().min(1).max(253))
          .max(50)
          .default([])
          .describe('Hosts whose pages may use the key from a browser: example.com, *.example.com or localhost. Empty: no browser may.'),
        publishable: z.boolean().default(false).describe('true for a website widget key the owner can see again; false (default) for a secret key shown once.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      guarded(caller, 'kb:write', async (notices) => {
        const { key, secret } = await keys.create(account, args.ragId, { name: args.name, allowedDomains: args.allowedDomains, publishable: args.publishable });
        notices.log('info', 'API key created', { ragId: args.ragId, keyId: key.keyId, publishable: key.publishable });
        return ok({
          keyId: key.keyId,
          apiKey: secret,
          prefix: key.prefix,
          name: key.name,
          allowedDomains: key.allowedDomains,
          publishable: key.publishable,
          queryEndpoint: `${services.publicUrl}/api/v1/query`,
        });
      }, { tool: 'create_api_key', extra }),
  );
}
