/**
 * Which knowledge base and which question an A2A message means. The
 * knowledge base is named, in this order of precedence, by:
 *   1. a data part holding `{"ragId": "kb_…"}` (it may also hold `query`),
 *   2. `ragId` in the message's metadata or the request's metadata,
 *   3. a first text line `ragId: kb_…` (removed from the question).
 * The question is the data part's `query` (or `question`) if present, else
 * the text parts joined by newlines.
 */
import type { Message, Part, SendMessageRequest } from '@a2a-js/sdk';

export type ParsedQuestion = { ok: true; ragId: string; question: string } | { ok: false; reason: string };

const ragIdLine = /^\s*rag[-_ ]?id\s*[:=]\s*(\S+)\s*$/i;
const ragIdShape = /^[A-Za-z0-9_-]{1,64}$/;

function dataOf(part: Part): Record<string, unknown> | undefined {
  const content = part.content;
  if (content?.$case !== 'data') return undefined;
  const value: unknown = content.value;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function textOf(part: Part): string | undefined {
  return part.content?.$case === 'text' ? part.content.value : undefined;
}

const stringField = (record: Record<string, unknown> | undefined, ...names: string[]) => {
  for (const name of names) {
    const value = record?.[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
};

export function parseQuestion(request: SendMessageRequest, message: Message): ParsedQuestion {
  const data = message.parts.map(dataOf).find((d) => d !== undefined && ('ragId' in d || 'query' in d || 'question' in d));
  const texts = message.parts.map(textOf).filter((t): t is string => t !== undefined);

  let ragId = stringField(data, 'ragId') ?? stringField(message.metadata, 'ragId') ?? stringField(request.metadata, 'ragId');
  const firstText = texts[0];
  if (firstText !== undefined) {
    const [firstLine = '', ...rest] = firstText.split('\n');
    const match = ragIdLine.exec(firstLine);
    if (match?.[1]) {
      ragId ??= match[1];
      texts[0] = rest.join('\n');
    }
  }
  if (!ragId) {
    return {
      ok: false,
      reason: 'Name the knowledge base: add a data part {"ragId": "kb_…"}, metadata "ragId", or start the text with a line "ragId: kb_…".',
    };
  }
  if (!ragIdShape.test(ragId)) return { ok: false, reason: `"${ragId.slice(0, 80)}" is not a knowledge base id.` };
  const question = stringField(data, 'query', 'question') ?? texts.join('\n').trim();
  if (!question) return { ok: false, reason: 'The message has no question: send it as a text part.' };
  return { ok: true, ragId, question };
}
