/**
 * A streaming client for OpenAI-compatible `/chat/completions` servers (OpenAI,
 * Ollama's /v1, vLLM, llama.cpp's llama-server). Chunks arrive as SSE
 * `data: {"choices":[{"delta":{"content":"…"}}]}` and the stream ends with
 * `data: [DONE]`. The caller's AbortSignal ends the request (client gone, timeout).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ChatMessage, ChatModel } from '../../ports/chat-model.js';

export type { ChatMessage } from '../../ports/chat-model.js';

export interface ChatCompletionsOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
}

export class ChatCompletionsError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ChatCompletionsError';
  }
}

export class ChatCompletionsClient implements ChatModel {
  constructor(private readonly options: ChatCompletionsOptions) {}

  /** Yields the content deltas of one streamed completion. */
  async *stream(messages: ChatMessage[], signal: AbortSignal, params: { temperature?: number; maxTokens?: number } = {}): AsyncGenerator<string> {
    const response = await fetch(`${this.options.baseUrl}/chat/completions`, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: this.options.model,
        messages,
        stream: true,
        temperature: params.temperature ?? 0,
        max_tokens: params.maxTokens ?? 600,
      }),
    });
    if (!response.ok || !response.body) {
      // The body may echo our prompt or key; keep only the status.
      await response.body?.cancel().catch(() => undefined);
      throw new ChatCompletionsError(`the model server answered ${response.status}`, response.status);
    }
    const pending: string[] = [];
    let finished = false;
    let failure: Error | undefined;
    const parser = createParser({
      onEvent(event: EventSourceMessage) {
        if (event.data === '[DONE]') {
          finished = true;
          return;
        }
        try {
          const chunk = JSON.parse(event.data) as { choices?: { delta?: { content?: string | null } }[]; error?: { message?: string } };
          if (chunk.error) failure = new ChatCompletionsError('the model server reported an error mid-stream');
          const content = chunk.choices?.[0]?.delta?.content;
          if (content) pending.push(content);
        } catch {
          failure = new ChatCompletionsError('the model server sent a chunk that is not JSON');
        }
      },
    });
    const decoder = new TextDecoder();
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(bytes, { stream: true }));
      while (pending.length) yield pending.shift() as string;
      if (failure) throw failure;
      if (finished) return;
    }
    if (!finished) throw new ChatCompletionsError('the model stream ended without [DONE]');
  }
}
