/**
 * An in-process service (compose(), no HTTP) on a temporary SQLite file, with one knowledge base of
 * a one-record shop FAQ and a key for it: the query path's own tests call its services directly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import { newId } from '../../src/ids.js';

export interface InProcessShop {
  composition: Awaited<ReturnType<typeof compose>>;
  ragId: string;
  /** The knowledge base's key, in plain text. */
  secret: string;
  close(): Promise<void>;
}

const faq = JSON.stringify([{ question: 'How long does delivery take?', answer: 'Standard delivery takes 2 to 4 working days.' }]);

/** `name` names the temporary directory and the owner's email; `env` adds to (or overrides) the settings. */
export async function inProcessShop(name: string, env: Record<string, string | undefined> = {}): Promise<InProcessShop> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gw-${name}-`));
  const config = loadConfig({
    DATA_DIR: dir,
    PORT: '3999',
    PUBLIC_URL: 'http://127.0.0.1:3999',
    LOG_LEVEL: 'silent',
    QUERY_RATE_PER_MINUTE: '1000',
    QUERY_QUOTA_PER_DAY: '100000',
    QUERY_CACHE_TTL_SECONDS: '60',
    ...env,
  });
  const composition = await compose(config, pino({ level: 'silent' }));
  const { deps, store } = composition;
  const account = await store.accounts.accountForEmail(`${name}.${process.pid}@example.test`, newId('acc'));
  const ragId = (await deps.knowledge.create(account.accountId, { botName: 'Shop' })).ragId;
  await deps.knowledge.ingest(account.accountId, ragId, { name: 'faq.json', format: 'json', bytes: Buffer.from(faq) });
  const secret = (await deps.keys.create(account.accountId, ragId, { allowedDomains: ['shop.example'] })).secret;
  return {
    composition,
    ragId,
    secret,
    async close() {
      await composition.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
