/**
 * Configuration (product.md §2): defaults are the free plan, every bad value
 * stops start-up with one clear message naming the variable, and development
 * conveniences are on only for loopback origins or NODE_ENV=development.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig } from '../../src/config.js';
import { PROCESS_TEST_TIMEOUT_MS, runServiceToExit } from '../api/helpers.js';

describe('happy path', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      llm: undefined,
      smtpUrl: undefined,
      maxKnowledgeBases: 2,
      maxRecordsPerKb: 25,
      queryRatePerMinute: 10,
      queryQuotaPerDay: 100,
      playgroundQueriesPerMinute: 30,
      playgroundQueriesPerDay: 300,
      ipRatePerSecond: 30,
      uploadMaxBytes: 10 * 1024 * 1024,
      queryCacheTtlSeconds: 60,
      trustedIdJagIssuers: [],
      trustProxy: false,
      nodeEnv: undefined,
      logLevel: 'info',
      devMode: true,
      secureCookies: false,
    });
    expect(config.mailFrom).toBe('Groundwork <no-reply@localhost>');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://groundwork.example',
      DATA_DIR: '/var/lib/groundwork',
      DATABASE_URL: 'postgres://gw:secret@db:5432/gw',
      REDIS_URL: 'redis://cache:6379',
      LLM_BASE_URL: 'http://llm:8000/v1/',
      LLM_API_KEY: 'sk-test',
      LLM_MODEL: 'small-model',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      MAIL_FROM: 'Groundwork <hello@groundwork.example>',
      MAX_KNOWLEDGE_BASES: '5',
      MAX_RECORDS_PER_KB: '1000',
      QUERY_RATE_PER_MINUTE: '0',
      QUERY_QUOTA_PER_DAY: '0',
      PLAYGROUND_QUERIES_PER_MINUTE: '5',
      PLAYGROUND_QUERIES_PER_DAY: '0',
      IP_RATE_PER_SECOND: '0',
      UPLOAD_MAX_BYTES: '1000',
      QUERY_CACHE_TTL_SECONDS: '0',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'https://groundwork.example',
      dataDir: '/var/lib/groundwork',
      databaseUrl: 'postgres://gw:secret@db:5432/gw',
      redisUrl: 'redis://cache:6379',
      llm: { baseUrl: 'http://llm:8000/v1', apiKey: 'sk-test', model: 'small-model' },
      smtpUrl: 'smtps://user:pass@mail.example:465',
      mailFrom: 'Groundwork <hello@groundwork.example>',
      maxKnowledgeBases: 5,
      maxRecordsPerKb: 1000,
      queryRatePerMinute: 0,
      queryQuotaPerDay: 0,
      playgroundQueriesPerMinute: 5,
      playgroundQueriesPerDay: 0,
      ipRatePerSecond: 0,
      uploadMaxBytes: 1000,
      queryCacheTtlSeconds: 0,
      trustProxy: ['10.0.0.0/8', '192.168.1.1'],
      nodeEnv: 'production',
      logLevel: 'warn',
      devMode: false,
      secureCookies: true,
    });
  });

  it('treats blank values as unset and trims white space', () => {
    const config = loadConfig({ PORT: '  ', PUBLIC_URL: '', MAX_RECORDS_PER_KB: ' 30 ', DATABASE_URL: ' ' });
    expect(config).toMatchObject({ port: 3000, publicUrl: 'http://localhost:3000', maxRecordsPerKb: 30, databaseUrl: undefined });
  });

  it.each([
    ['off', false],
    ['false', false],
    ['true', true],
    ['2', 2],
    ['loopback', ['loopback']],
    ['127.0.0.1, ::1', ['127.0.0.1', '::1']],
  ])('TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    // PUBLIC_URL, NODE_ENV, devMode, secureCookies
    ['http://localhost:3000', undefined, true, false],
    ['http://127.0.0.1:8080', undefined, true, false],
    ['http://[::1]:3000', undefined, true, false],
    ['http://app.localhost', undefined, true, false],
    ['https://127.0.0.1:3000', undefined, true, true],
    ['http://localhost:3000', 'production', false, false],
    ['https://groundwork.example', undefined, false, true],
    ['http://groundwork.example', undefined, false, false],
    ['https://groundwork.example', 'development', true, true],
    ['https://groundwork.example', 'production', false, true],
    ['https://127.example.com', undefined, false, true],
    ['https://127.0.0.1.nip.example', undefined, false, true],
  ] as const)('PUBLIC_URL=%s NODE_ENV=%s → devMode %s, secure cookies %s', (publicUrl, nodeEnv, devMode, secureCookies) => {
    const env: Record<string, string> = { PUBLIC_URL: publicUrl };
    if (nodeEnv) env.NODE_ENV = nodeEnv;
    expect(loadConfig(env)).toMatchObject({ devMode, secureCookies });
  });

  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['app.localhost', true],
    ['127.example.com', false],
    ['127.0.0.1.example.com', false],
    ['localhost.example.com', false],
    ['example.com', false],
    ['10.0.0.1', false],
  ])('isLoopbackHost(%s) is %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('errors', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['PUBLIC_URL', 'groundwork.example'],
    ['PUBLIC_URL', 'https://groundwork.example/'],
    ['PUBLIC_URL', 'https://groundwork.example/app'],
    ['PUBLIC_URL', 'https://groundwork.example?x=1'],
    ['PUBLIC_URL', 'ftp://groundwork.example'],
    ['DATABASE_URL', 'mysql://db/gw'],
    ['DATABASE_URL', 'not a url'],
    ['REDIS_URL', 'http://cache:6379'],
    ['LLM_BASE_URL', 'ftp://llm'],
    ['SMTP_URL', 'http://mail.example'],
    ['MAIL_FROM', 'nobody'],
    ['LOG_LEVEL', 'verbose'],
    ['MAX_KNOWLEDGE_BASES', '0'],
    ['MAX_KNOWLEDGE_BASES', 'two'],
    ['MAX_RECORDS_PER_KB', '0'],
    ['MAX_RECORDS_PER_KB', '1e3'],
    ['QUERY_RATE_PER_MINUTE', '-5'],
    ['QUERY_QUOTA_PER_DAY', '100/day'],
    ['IP_RATE_PER_SECOND', '1.5'],
    ['UPLOAD_MAX_BYTES', '0'],
    ['UPLOAD_MAX_BYTES', '10MB'],
    ['UPLOAD_MAX_BYTES', String(2 * 1024 * 1024 * 1024)],
    ['QUERY_CACHE_TTL_SECONDS', 'sixty'],
    ['TRUST_PROXY', 'my-proxy.internal'],
    // Checked even when LLM_BASE_URL is unset: a bad value is a mistake whatever else is set.
    ['LLM_TIMEOUT_SECONDS', 'soon'],
    ['LLM_TIMEOUT_SECONDS', '601'],
    ['UPLOAD_QUEUE_PER_ACCOUNT', '17'],
    ['TOOL_TIME_LIMIT_MS', '600001'],
    ['SSE_HEARTBEAT_SECONDS', '0'],
    ['ID_JAG_MAX_LIFETIME_SECONDS', '29'],
    ['ANON_REGISTRATIONS_PER_MINUTE', '100001'],
    ['ANON_REGISTRATIONS_PER_HOUR', 'lots'],
    ['SECRET_KEY', 'too-short'],
    ['TRUSTED_ID_JAG_ISSUERS', '{"issuer":"https://idp.example"}'],
  ])('%s=%s stops start-up with a ConfigError naming the variable', (variable, value) => {
    let caught: unknown;
    try {
      loadConfig({ [variable]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
    // One line, for a person: no stack, no JSON.
    expect(error.message).not.toContain('\n');
  });

  it('does not echo a database password in its message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://gw:hunter2@db/gw' })).toThrow(ConfigError);
    try {
      loadConfig({ DATABASE_URL: 'mysql://gw:hunter2@db/gw' });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});

describe.concurrent('errors: the real process', () => {
  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://groundwork.example/' }],
  ])('exits non-zero before listening, printing one message naming %s', async (variable, env) => {
    const { code, stdout, stderr } = await runServiceToExit(env);
    expect(code).toBe(78);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^Invalid configuration: ${variable} `))]);
    expect(stdout).toBe('');
  }, PROCESS_TEST_TIMEOUT_MS);
});
