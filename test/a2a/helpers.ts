/** Shared by the A2A tests: a filled knowledge base, SDK requests, and the answer inside a task. */
import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import { type Agent, connectMcp, faq, structured } from '../mcp/helpers.js';
import type { TestServer } from '../support/server.js';

/** A knowledge base of `who`'s holding the FAQ (tests/mcp/helpers.ts), and `products` (a JSON catalogue) when given. */
export async function knowledgeBase(server: TestServer, who: Agent, name: string, products?: unknown[]): Promise<string> {
  const mcp = await connectMcp(server, who.accessToken);
  try {
    const id = structured<{ knowledgeBase: { ragId: string } }>(await mcp.callTool({ name: 'create_knowledge_base', arguments: { botName: name } })).knowledgeBase.ragId;
    structured(await mcp.callTool({ name: 'add_records', arguments: { ragId: id, name: 'FAQ', content: faq } }));
    if (products) structured(await mcp.callTool({ name: 'add_records', arguments: { ragId: id, name: 'products.json', format: 'json', content: JSON.stringify(products) } }));
    return id;
  } finally {
    await mcp.close();
  }
}

export function request(parts: Part[], metadata?: Record<string, unknown>): SendMessageRequest {
  const message: Message = { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata, extensions: [], referenceTaskIds: [] };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

export const answerOf = (task: Task) => {
  const parts = task.artifacts.find((a) => a.artifactId === 'answer')?.parts ?? [];
  const text = parts.find((p) => p.content?.$case === 'text')?.content?.value as string;
  const data = parts.find((p) => p.content?.$case === 'data')?.content?.value as { answer: string; grounded: boolean; sources: { sourceName: string }[] };
  return { text, data };
};

