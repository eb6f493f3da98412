/**
 * The usage tool of the MCP server: an agent that keeps a knowledge base sees what visitors asked
 * that its records did not answer, and the words of each that no record uses, so it can add a
 * record (`add_records`) or a synonym (`update_knowledge_base`) as the owner would on the Usage tab;
 * and the questions whose answers visitors marked not helpful, with the records those answers cited.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { askedQuestion } from '../../knowledge/query/same-question.js';
import { guarded, type McpCaller, type McpServices, ok } from './context.js';

const counts = { queries: z.number(), cacheHits: z.number(), unanswered: z.number(), helpful: z.number(), unhelpful: z.number() };

const UsageOutput = {
  days: z
    .array(z.object({ day: z.string(), ...counts }))
    .describe("UTC days with usage, oldest first; helpful and unhelpful count visitors' feedback on answers (the widget's \"Was this helpful?\")."),
  totals: z.object(counts),
  unanswered: z
    .array(
      z.object({
        question: z.string(),
        askedAfter: z.string().optional().describe('For a follow-up ("And how long does that take?"), the earlier questions of the chat it leaned on: read the question in their light.'),
        count: z.number(),
        lastAskedAt: z.string(),
        unknownWords: z.array(z.string()).describe('Words of the question no record uses: add a record that answers it, or a synonym linking such a word to the records\' own.'),
        answeredNow: z.boolean().optional().describe('True when the records answer it now (asked again as the report was read): a record or synonym added since did it.'),
      }),
    )
    .describe('Visitors\' questions the records did not answer, most asked first (at most 50).'),
  feedback: z
    .array(
      z.object({
        question: z.string(),
        askedAfter: z.string().optional().describe('For a follow-up ("And how long does that take?"), the earlier questions of the chat it leaned on: read the question in their light.'),
        helpful: z.number(),
        unhelpful: z.number(),
        lastAt: z.string(),
        records: z.array(z.object({ recordId: z.string(), title: z.string().nullable(), sourceName: z.string() })).describe('The records the answer cited.'),
      }),
    )
    .describe('Questions whose answers visitors marked not helpful, the most often first (at most 50): improve or add the record that should answer them.'),
  limits: z.object({ queriesPerMinute: z.number(), queriesPerDay: z.number() }),
};

export function registerUsageTools(server: McpServer, caller: McpCaller, services: McpServices): void {
  server.registerTool(
    'get_usage',
    {
      title: 'Read a knowledge base\'s usage',
      description:
        'Queries, cache hits, unanswered questions and visitors\' feedback per UTC day for the last `days` days, the visitors\' questions the records did not answer, ' +
        'each with the words of it that no record uses, and the questions whose answers visitors marked not helpful, with the records cited. ' +
        'Owner questions (the Playground, query_knowledge_base) are not counted.',
      inputSchema: {
        ragId: z.string().min(1).max(64).describe('The knowledge base id (ragId), as list_knowledge_bases shows it.'),
        days: z.number().int().min(1).max(365).default(30).describe('How many UTC days back, today included.'),
      },
      outputSchema: UsageOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) => guarded(caller, 'kb:read', async () => ok(await services.usage.report(caller.accountId, args.ragId, args.days)), { tool: 'get_usage', extra }),
  );

  server.registerTool(
    'dismiss_usage_question',
    {
      title: 'Take a question off the usage report',
      description:
        "Take a question off get_usage's `unanswered` list (once a record answers it: `answeredNow` says so) or its `feedback` list (once its answer is improved), " +
        'as the owner does on the dashboard\'s Usage tab. The day counts stay. Any wording of the same question (case, spaces, end punctuation) matches.',
      inputSchema: {
        ragId: z.string().min(1).max(64).describe('The knowledge base id (ragId), as list_knowledge_bases shows it.'),
        list: z.enum(['unanswered', 'feedback']).describe('Which list of get_usage the question is on.'),
        question: z.string().min(1).max(500).describe('The question as get_usage lists it.'),
        askedAfter: z.string().min(1).max(500).optional().describe("The entry's `askedAfter`, when get_usage lists one (a follow-up is named with it)."),
      },
      outputSchema: { dismissed: z.literal(true), list: z.enum(['unanswered', 'feedback']), question: z.string(), askedAfter: z.string().optional() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      guarded(
        caller,
        'kb:write',
        async () => {
          const dismiss = args.list === 'unanswered' ? services.usage.dismiss : services.usage.dismissFeedback;
          const asked = askedQuestion(args.question, args.askedAfter);
          await dismiss.call(services.usage, caller.accountId, args.ragId, asked);
          return ok({ dismissed: true, list: args.list, ...asked });
        },
        { tool: 'dismiss_usage_question', extra },
      ),
  );
}
