/**
 * What start-up loads: the agent protocols' SDKs (MCP with zod, A2A) wait for their first
 * request, and the PostgreSQL, Redis and SMTP drivers for the settings that use them
 * (docs/decisions.md, "Start-up"). Checked on the compiled service with a module hook that
 * reports every package loaded while the composition and the app are imported.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledService } from '../support/compiled-service.js';

const hook = `export async function load(url, context, next) {
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(url);
  if (m) process.stderr.write('PACKAGE ' + m[1] + '\\n');
  return next(url, context);
}`;

function packagesLoaded(dir: string, script: string): Set<string> {
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 120_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return new Set(result.stderr.split('\n').flatMap((line) => (line.startsWith('PACKAGE ') ? [line.slice(8)] : [])));
}

describe('start-up', () => {
  it('loads neither the agent SDKs nor the drivers of backends that are not configured', { timeout: 150_000 }, async () => {
    const dir = await compiledService();
    const url = (file: string) => JSON.stringify(`file://${path.join(dir, file)}`);
    const loaded = packagesLoaded(dir, `await import(${url('compose.js')}); await import(${url('http/app.js')});`);
    // The hook sees the app's own packages, so an empty list would not pass for a clean start.
    expect(loaded).toContain('fastify');
    for (const name of ['@modelcontextprotocol/sdk', '@a2a-js/sdk', 'zod', 'pg', 'ioredis', 'nodemailer']) expect(loaded, name).not.toContain(name);
    // Loaded on demand, they are there.
    const onDemand = packagesLoaded(dir, `await import(${url('agents/mcp/server.js')}); await import(${url('agents/a2a/rpc.js')}); await import(${url('compose-redis.js')});`);
    for (const name of ['@modelcontextprotocol/sdk', '@a2a-js/sdk', 'zod', 'ioredis']) expect(onDemand, name).toContain(name);
  });
});
