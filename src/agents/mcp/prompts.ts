/**
 * The MCP prompt `ask_knowledge_base` and argument completion (`completion/complete`): the caller's
 * knowledge-base ids for a `ragId` argument (of the prompt and of both resource templates) and a
 * knowledge base's record ids for `recordId`. Completion lists only what the account reaches and
 * only with `kb:read`; without it the list is empty. Unknown prompts and templates are -32602
 * (MCP completion, Error Handling).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CompleteRequestSchema,
  type CompleteResult,
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  McpError,
  type Prompt,
} from '@modelcontextprotocol/sdk/types.js';
import { isDomainError } from '../../errors.js';
import { maxQueryChars } from '../../knowledge/query/query-service.js';
import type { McpCaller, McpServices } from './context.js';
import { kbUriTemplate, recordUriTemplate } from './resources.js';

export const askPrompt: Prompt = {
  name: 'ask_knowledge_base',
  title: 'Ask a knowledge base',
  description: 'Answer a question from one knowledge base only, with citations, through query_knowledge_base.',
  arguments: [
    { name: 'ragId', description: 'The knowledge base id (completion lists yours).', required: true },
    { name: 'question', description: `The question, 1 to ${maxQueryChars.toLocaleString('en')} characters.`, required: true },
  ],
};

const maxValues = 100;

export function registerPrompts(server: McpServer, caller: McpCaller, services: McpServices): void {
  const { knowledge } = services;
  const account = caller.accountId;
  const low = server.server;
  low.registerCapabilities({ prompts: {}, completions: {} });

  low.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [askPrompt] }));

  low.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    if (request.params.name !== askPrompt.name) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name.slice(0, 64)}`);
    const ragId = request.params.arguments?.ragId?.trim() ?? '';
    const question = request.params.arguments?.question?.trim() ?? '';
    if (!ragId) throw new McpError(ErrorCode.InvalidParams, 'Missing required argument: ragId');
    if (!question || question.length > maxQueryChars) throw new McpError(ErrorCode.InvalidParams, `question must be 1 to ${maxQueryChars} characters.`);
    let name = ragId;
    if (caller.scopes.has('kb:read')) {
      try {
        name = `"${(await knowledge.get(account, ragId)).botName}" (${ragId})`;
      } catch (error) {
        if (isDomainError(error) && error.code === 'not_found') throw new McpError(ErrorCode.InvalidParams, `Unknown knowledge base: ${ragId.slice(0, 64)}`);
        throw error;
      }
    }
    return {
      description: `Ask the knowledge base ${ragId}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Answer my question from the Groundwork knowledge base ${name} only. ` +
              `Call the tool query_knowledge_base with ragId "${ragId}" and the question, then reply with its answer and keep the [n] citations with their sources. ` +
              `If the answer is not grounded, say that the knowledge base does not cover it rather than guessing.\n\nQuestion: ${question}`,
          },
        },
      ],
    };
  });

  low.setRequestHandler(CompleteRequestSchema, async (request): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params;
    if (ref.type === 'ref/prompt' && ref.name !== askPrompt.name) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${ref.name.slice(0, 64)}`);
    if (ref.type === 'ref/resource' && ref.uri !== kbUriTemplate && ref.uri !== recordUriTemplate) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${ref.uri.slice(0, 200)}`);
    }
    if (!caller.scopes.has('kb:read')) return completion([]);
    const prefix = argument.value.toLowerCase();
    if (argument.name === 'ragId') {
      const kbs = await knowledge.list(account);
      return completion(kbs.map((kb) => kb.ragId).filter((id) => id.toLowerCase().startsWith(prefix)));
    }
    const ragId = context?.arguments?.ragId;
    if (argument.name === 'recordId' && ref.type === 'ref/resource' && ref.uri === recordUriTemplate && ragId) {
      const page = await knowledge.listRecords(account, ragId, { limit: maxValues }).catch((error: unknown) => {
        if (isDomainError(error) && error.code === 'not_found') return { items: [] };
        throw error;
      });
      return completion(page.items.map((record) => record.recordId).filter((id) => id.toLowerCase().startsWith(prefix)));
    }
    return completion([]);
  });
}

function completion(values: string[]): CompleteResult {
  return { completion: { values: values.slice(0, maxValues), total: values.length, hasMore: values.length > maxValues } };
}
