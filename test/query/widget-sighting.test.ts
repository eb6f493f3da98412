/**
 * The guided first run's last step (issue 13, item 3): the first allowed widget request from a site
 * other than the service itself is remembered on the knowledge base (`widgetSeen`), once. The
 * dashboard's preview (the service's own origin), server-to-server calls and refused origins are no
 * sighting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type Client, type TestServer } from '../support/server.js';
import { ask, faqKnowledgeBase } from './helpers.js';

let server: TestServer;
let owner: Client;

beforeAll(async () => {
  server = await startServer();
  owner = await signedInClient(server.baseUrl);
});
afterAll(() => server?.stop());

async function widgetSeen(ragId: string): Promise<unknown> {
  const kb = await owner.get<{ widgetSeen: unknown }>(`/api/v1/knowledge-bases/${ragId}`);
  expect(kb.status).toBe(200);
  return kb.body.widgetSeen;
}

function widgetConfig(ragId: string, apiKey: string, origin: string) {
  return fetch(`${server.baseUrl}/api/v1/widget/config?ragId=${ragId}&key=${encodeURIComponent(apiKey)}`, { headers: { origin } });
}

describe('where the widget was first seen', () => {
  it('is null until a widget on another site is allowed, then names that site once', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(owner, ['127.0.0.1', 'shop.example', '*.shop.example']);
    expect(await widgetSeen(ragId)).toBeNull();

    // The dashboard's preview runs on the service's own origin: not a site.
    expect((await widgetConfig(ragId, apiKey, server.baseUrl)).status).toBe(200);
    // A server-to-server query carries no origin.
    expect((await ask(server.baseUrl, apiKey, ragId, 'How long do I have to return a bike?')).status).toBe(200);
    // A page the key does not allow is refused, and is no sighting.
    expect((await widgetConfig(ragId, apiKey, 'https://elsewhere.example')).status).toBe(403);
    expect(await widgetSeen(ragId)).toBeNull();

    // The widget loads on the owner's shop.
    expect((await widgetConfig(ragId, apiKey, 'https://shop.example')).status).toBe(200);
    const seen = (await widgetSeen(ragId)) as { origin: string; at: string };
    expect(seen.origin).toBe('https://shop.example');
    expect(Number.isNaN(Date.parse(seen.at))).toBe(false);

    // Later requests from other allowed sites (a query here) keep the first sighting.
    expect((await ask(server.baseUrl, apiKey, ragId, 'Do you sell gift cards?', { origin: 'https://blog.shop.example' })).status).toBe(200);
    expect(await widgetSeen(ragId)).toEqual(seen);
  });

  it('is seen from a query too, when the first request from the site is a question', async () => {
    const { ragId, apiKey } = await faqKnowledgeBase(owner, ['shop.example']);
    expect((await ask(server.baseUrl, apiKey, ragId, 'Do you sell gift cards?', { origin: 'https://shop.example' })).status).toBe(200);
    expect(await widgetSeen(ragId)).toMatchObject({ origin: 'https://shop.example' });
  });
});
