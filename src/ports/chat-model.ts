/**
 * The language-model port: what the LLM answerer needs from a chat model — one streamed
 * completion of a list of messages. Implemented by the OpenAI-compatible client in
 * src/adapters/llm/chat-completions.ts; tests can pass any object of this shape.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatModel {
  /** Yields the content deltas of one streamed completion; the signal ends the request. */
  stream(messages: ChatMessage[], signal: AbortSignal, params?: { temperature?: number; maxTokens?: number }): AsyncIterable<string>;
}
