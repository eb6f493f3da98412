import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';

describe('first run', () => {
  let server: TestServer;
  let client: Client;
  beforeAll(async () => {
    server = await startServer();
    client = await signedInClient(server.baseUrl);
  });
  afterAll(() => server?.stop());

  it('signs in, creates a knowledge base, uploads a file and lists its records', async () => {
    const created = await client.post('/api/v1/knowledge-bases', { botName: 'Support bot' });
    expect(created.status).toBe(201);
    const ragId = created.body.ragId as string;
    const uploaded = await client.upload(ragId, 'faq.md', '# Shipping\n\nQ: How long does delivery take?\nA: Three to five working days.\n', 'text/markdown');
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ added: 1, duplicate: 0, rejected: 0, quota: { limit: 25, used: 1, available: 24 } });
    const records = await client.get(`/api/v1/knowledge-bases/${ragId}/records`);
    expect(records.status).toBe(200);
    expect((records.body.items as unknown[]).length).toBe(1);
  });
});
