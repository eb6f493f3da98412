/**
 * Prepares a running Groundwork for the benchmark through its public API,
 * the way a customer would: sign in through the development outbox, create a
 * knowledge base, upload the FAQ, generate a query key. Reuses the sign-in
 * client of the test suite (test/support/server.ts).
 */
import { type Client, signedInClient } from '../test/support/server.js';
import { FAQ, type FaqEntry, faqJson } from './faq.js';

export interface PreparedKb {
  client: Client;
  ragId: string;
  apiKey: string;
  records: number;
}

export interface UploadResult {
  source: { sourceId: string };
  added: number;
  items: { recordId?: string; status: string }[];
}

function check<T>(response: { status: number; body: T }, expected: number, what: string): T {
  if (response.status !== expected) throw new Error(`${what} failed: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
  return response.body;
}

export async function createKnowledgeBase(client: Client, botName: string): Promise<string> {
  return check(await client.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName }), 201, 'creating a knowledge base').ragId;
}

export async function uploadFaq(client: Client, ragId: string, entries: readonly FaqEntry[], name = 'faq.json'): Promise<UploadResult> {
  return check(await client.upload<UploadResult>(ragId, name, faqJson(entries), 'application/json'), 201, 'uploading the FAQ');
}

export async function createKey(client: Client, ragId: string): Promise<string> {
  return check(await client.post<{ apiKey: string }>(`/api/v1/knowledge-bases/${ragId}/keys`, { name: 'bench', allowedDomains: [] }), 201, 'creating a key').apiKey;
}

/** A signed-in client with one knowledge base holding `entries` (the 25-entry FAQ by default) and a key for it. */
export async function prepareKnowledgeBase(baseUrl: string, entries: readonly FaqEntry[] = FAQ, client?: Client): Promise<PreparedKb> {
  const signedIn = client ?? (await signedInClient(baseUrl, `bench.${process.pid}.${Date.now()}@example.test`));
  const ragId = await createKnowledgeBase(signedIn, 'Bench Shop');
  const uploaded = await uploadFaq(signedIn, ragId, entries);
  if (uploaded.added !== entries.length) throw new Error(`the FAQ upload added ${uploaded.added} records, expected ${entries.length}`);
  const apiKey = await createKey(signedIn, ragId);
  return { client: signedIn, ragId, apiKey, records: uploaded.added };
}

export interface QueryAnswer {
  answer: string;
  sources: { recordId: string; sourceName: string; passage: string; score: number }[];
  grounded: boolean;
  cached: boolean;
  requestId: string;
}

/** One `POST /api/v1/query`, with its status and parsed body. */
export async function ask(baseUrl: string, kb: { ragId: string; apiKey: string }, query: string): Promise<{ status: number; body: QueryAnswer; bytes: number }> {
  const response = await fetch(`${baseUrl}/api/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': kb.apiKey },
    body: JSON.stringify({ ragId: kb.ragId, query }),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as QueryAnswer, bytes: Buffer.byteLength(text) };
}
