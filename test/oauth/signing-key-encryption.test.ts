/**
 * The private signing keys are encrypted at rest (AES-256-GCM under a key
 * derived from SECRET_KEY, src/secrets.ts): the stored row holds a `v1:`
 * envelope and no private key material, tokens survive a restart, a key
 * stored in plain text by an older version is sealed on first load, and a
 * wrong secret stops start-up instead of replacing the key. On SQLite, and on
 * PostgreSQL (a schema of its own) when DATABASE_URL is set.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import type { Store } from '../../src/ports/storage.js';
import { SqliteStore } from '../../src/adapters/storage/sqlite/dialect.js';
import { newSigningKey } from '../../src/identity/oauth/signing-keys.js';
import { Sealer, secretKeyFileName } from '../../src/secrets.js';
import { postgres } from '../support/requirements.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { postJson } from './helpers.js';

const secretA = `secret-a-${randomBytes(24).toString('base64url')}`;
const secretB = `secret-b-${randomBytes(24).toString('base64url')}`;

interface RawRow {
  kid: string;
  purpose: string;
  /** The private_jwk column as text, exactly as stored. */
  stored: string;
}

interface Backend {
  name: string;
  /** Variables that point a server at this backend's data (the same on every start). */
  env: Record<string, string>;
  rows(): Promise<RawRow[]>;
  /** A store on the same data, opened directly (no server, no secret). */
  openStore(): Store;
}

async function anonymousToken(server: TestServer): Promise<string> {
  const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
  const claimed = await postJson(server.baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id });
  return claimed.body.access_token as string;
}

const kidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()).kid as string;
/**
 * The management API's status, on a fresh connection: servers here restart on the same port, and
 * fetch's pool could hand a request to a kept-alive socket of the server that just stopped.
 */
const managementApi = (server: TestServer, token: string) =>
  new Promise<{ status: number }>((resolve, reject) => {
    const request = http.get(`${server.baseUrl}/api/v1/knowledge-bases`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
    });
    request.on('error', reject);
  });

/** Starts a server expected to refuse to start; if it starts after all, it is stopped and the promise still resolves (failing the test). */
const refusedStart = (env: Record<string, string>) => startServer(env).then((server) => server.stop());

/** What a stored private key must never look like: a JWK with a private member, PEM, or the key's own `d`. */
function expectSealed(row: RawRow, privateD: string | undefined): void {
  const envelope = row.stored.startsWith('"') ? (JSON.parse(row.stored) as string) : row.stored;
  expect(envelope).toMatch(/^v1:[A-Za-z0-9_-]{40,}$/);
  expect(row.stored).not.toMatch(/"d"\s*:|PRIVATE KEY|"kty"/);
  if (privateD) expect(row.stored).not.toContain(privateD);
}

function suite(backend: () => Backend) {
  describe(backend().name, () => {
    // Every start uses the same port: the issuer (and so each token's iss and aud) is the origin.
    let port: string;
    beforeAll(async () => {
      port = String(await freePort());
    });
    /** Runs `work` against a server started on this backend's data, and always stops it. */
    const withServer = async (env: Record<string, string>, work: (server: TestServer) => Promise<void>) => {
      const server = await startServer({ ...backend().env, PORT: port, ...env });
      try {
        await work(server);
      } finally {
        await server.stop();
      }
    };

    let tokenBefore: string;

    it('stores every private signing key as a v1 envelope, with no JWK or PEM private material', async () => {
      await withServer({ SECRET_KEY: secretA }, async (server) => {
        tokenBefore = await anonymousToken(server);
        // The server itself still sees the real key (it signs with it).
        const [active] = await server.store.signingKeys.listSigningKeys('oauth');
        expect(active?.privateJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', d: expect.any(String) });
        const rows = await backend().rows();
        expect(rows.some((r) => r.purpose === 'oauth' && r.kid === active?.kid)).toBe(true);
        for (const row of rows) expectSealed(row, row.kid === active?.kid ? (active.privateJwk.d as string) : undefined);
      });
    });

    it('verifies a token signed before a restart, and keeps signing with the same key', async () => {
      await withServer({ SECRET_KEY: secretA }, async (server) => {
        expect((await managementApi(server, tokenBefore)).status).toBe(200);
        expect(kidOf(await anonymousToken(server))).toBe(kidOf(tokenBefore));
      });
    });

    it('refuses to start with another SECRET_KEY, saying so, and leaves the stored key alone', async () => {
      const before = await backend().rows();
      await expect(refusedStart({ ...backend().env, PORT: port, SECRET_KEY: secretB })).rejects.toThrow(/SECRET_KEY does not decrypt the stored \S+ signing key/);
      expect(await backend().rows()).toEqual(before);
      // The right secret still works afterwards: nothing was rotated.
      await withServer({ SECRET_KEY: secretA }, async (server) => {
        expect((await managementApi(server, tokenBefore)).status).toBe(200);
      });
    });

    it('seals a key stored in plain text by an older version on first load, without replacing it', async () => {
      // Make the data look like an older version's: the active oauth key's private half in plain JSON.
      const legacy = await newSigningKey(new Date().toISOString());
      const store = backend().openStore();
      try {
        await store.signingKeys.rotateSigningKey(legacy);
      } finally {
        await store.close();
      }
      const plain = (await backend().rows()).find((r) => r.kid === legacy.kid);
      expect(JSON.parse(plain?.stored as string)).toMatchObject({ d: legacy.privateJwk.d });

      await withServer({ SECRET_KEY: secretA }, async (server) => {
        const upgraded = (await backend().rows()).find((r) => r.kid === legacy.kid) as RawRow;
        expectSealed(upgraded, legacy.privateJwk.d as string);
        // The same key signs: tokens from before and after the upgrade verify.
        const token = await anonymousToken(server);
        expect(kidOf(token)).toBe(legacy.kid);
        expect((await managementApi(server, token)).status).toBe(200);
        expect((await managementApi(server, tokenBefore)).status).toBe(200);
      });
    });

    // One SQLite database serves one process (data-dir lock), so only PostgreSQL has instances
    // racing here; the case does not exist for SQLite (a skipped case fails CI).
    const racing = backend().name === 'PostgreSQL' ? it : (_name: string, _fn: () => Promise<void>) => undefined;
    racing('upgrades a plain row once when two instances load it at once', async () => {
      const legacy = await newSigningKey(new Date().toISOString());
      const [a, b] = [backend().openStore(), backend().openStore()];
      try {
        await a.signingKeys.rotateSigningKey(legacy);
        const sealer = new Sealer(secretA);
        await Promise.all([a.signingKeys.encryptAtRest(sealer), b.signingKeys.encryptAtRest(sealer)]);
        const [fromA, fromB] = await Promise.all([a.signingKeys.listSigningKeys('oauth'), b.signingKeys.listSigningKeys('oauth')]);
        expect(fromA[0]?.privateJwk).toEqual(legacy.privateJwk);
        expect(fromB[0]?.privateJwk).toEqual(legacy.privateJwk);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
      expectSealed((await backend().rows()).find((r) => r.kid === legacy.kid) as RawRow, legacy.privateJwk.d as string);
    });
  });
}

const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-sealed-'));
afterAll(() => fs.rmSync(sqliteDir, { recursive: true, force: true }));
suite(() => ({
  name: 'SQLite',
  env: { DATA_DIR: sqliteDir },
  async rows() {
    const db = new Database(path.join(sqliteDir, 'groundwork.db'), { readonly: true });
    try {
      return db.prepare('SELECT kid, purpose, private_jwk AS stored FROM signing_keys ORDER BY kid').all() as RawRow[];
    } finally {
      db.close();
    }
  },
  openStore: () => new SqliteStore(path.join(sqliteDir, 'groundwork.db')),
}));

describe('the secret itself', () => {
  it('without SECRET_KEY outside production, generates one in DATA_DIR (mode 0600) and reuses it after a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-secret-'));
    const PORT = String(await freePort());
    try {
      let server = await startServer({ DATA_DIR: dataDir, PORT, SECRET_KEY: '' });
      let token: string;
      try {
        token = await anonymousToken(server);
      } finally {
        await server.stop();
      }
      const file = path.join(dataDir, secretKeyFileName);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const secret = fs.readFileSync(file, 'utf8');
      expect(secret.length).toBeGreaterThanOrEqual(32);
      server = await startServer({ DATA_DIR: dataDir, PORT, SECRET_KEY: '' });
      try {
        expect((await managementApi(server, token)).status).toBe(200);
        expect(fs.readFileSync(file, 'utf8')).toBe(secret);
      } finally {
        await server.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('with NODE_ENV=production, refuses to start without SECRET_KEY', async () => {
    await expect(refusedStart({ NODE_ENV: 'production', SECRET_KEY: '' })).rejects.toThrow(/SECRET_KEY is required when NODE_ENV=production/);
  });

  it('refuses a SECRET_KEY shorter than 32 characters', async () => {
    await expect(refusedStart({ SECRET_KEY: 'short' })).rejects.toThrow(/SECRET_KEY must be at least 32 characters/);
  });
});

const databaseUrl = process.env.DATABASE_URL;
if (postgres.available && databaseUrl) {
  // A schema of its own, named in the connection string's startup options.
  const schema = `gw_sealed_${randomBytes(6).toString('hex')}`;
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  beforeAll(() => admin((c) => c.query(`CREATE SCHEMA "${schema}"`)));
  afterAll(() => admin((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)));
  suite(() => ({
    name: 'PostgreSQL',
    env: { DATABASE_URL: url.toString() },
    rows: () =>
      admin(async (c) => (await c.query<RawRow>('SELECT kid, purpose, private_jwk::text AS stored FROM signing_keys ORDER BY kid')).rows),
    openStore: () => new PostgresStore({ connectionString: url.toString(), max: 2 }),
  }));
}
