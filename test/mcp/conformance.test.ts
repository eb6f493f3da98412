/**
 * `@modelcontextprotocol/conformance` server scenarios against /api/mcp: 0.1.13 (the devDependency,
 * the newest that runs on Node 20) by default; 0.1.16 with
 * `MCP_CONFORMANCE_NODE=<node ≥ 22> MCP_CONFORMANCE_CLI=<…/conformance/dist/index.js>`
 * (docs/agent-surfaces.md, "Conformance"). The suite cannot send a token, so it talks to a
 * loopback proxy that adds one (test/mcp/proxy.ts); nothing in production code is relaxed for it.
 * Each scenario gets its own agent account, so one scenario's `logging/setLevel` (remembered per
 * account) cannot change how another's calls are answered. Every scenario runs; the outcome of each
 * is pinned below with the reason, so a change either way shows up.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { registerAgent } from './helpers.js';
import { type AuthProxy, startAuthProxy } from './proxy.js';

const run = promisify(execFile);
const cli = process.env.MCP_CONFORMANCE_CLI ?? path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js');
const nodeBinary = process.env.MCP_CONFORMANCE_NODE ?? process.execPath;
const version = (JSON.parse(fs.readFileSync(path.join(path.dirname(cli), '..', 'package.json'), 'utf8')) as { version: string }).version;

type Outcome = 'pass' | 'warning' | 'fail';
const notApplicable = {
  fixtures: "calls the suite's fixture tools (test_image_content, test_tool_with_progress, test_tool_with_logging, …), which a real server does not have",
  fixturePrompts: "gets the suite's fixture prompts (test_simple_prompt, …): -32602 unknown prompt, as MCP prompts require",
  fixtureResources: "reads the suite's fixture URIs (test://static-text, test://template/123/data, …): -32002 resource not found, as MCP resources require",
  serverRequests: 'needs the server to send requests to the client (sampling, elicitation) — a stateless server answering each POST never does',
  subscribe: 'resources/subscribe needs a stream to send updates on later; a stateless server has none, so the capability is not declared (-32601)',
};

/** scenario → [outcome, why]. "pass" for tools-call-simple-text/-error is vacuous: an unknown tool's error result satisfies those checks. */
const expectations: Record<string, [Outcome, string]> = {
  'server-initialize': ['pass', 'initialize handshake'],
  ping: ['pass', 'ping'],
  'tools-list': ['pass', 'every tool has a name, description and input schema'],
  'dns-rebinding-protection': ['pass', 'a foreign Host/Origin gets 403; a loopback one is served'],
  'logging-set-level': ['pass', 'logging/setLevel answers {} (the level is kept for the account)'],
  'resources-list': ['pass', "the account's knowledge bases and records, each with uri and name"],
  'prompts-list': ['pass', 'ask_knowledge_base'],
  'tools-call-simple-text': ['pass', 'vacuous: test_simple_text does not exist; the error result is text content'],
  'tools-call-error': ['pass', 'vacuous: test_error_handling does not exist; the result has isError: true'],
  'server-sse-polling': ['warning', 'stateless by design: no session id; a call without progressToken or log level is answered with JSON'],
  'server-sse-multiple-streams': ['warning', 'stateless by design: no session id'],
  'completion-complete': ['fail', "completes the suite's fixture prompt test_prompt_with_arguments: -32602 unknown prompt, as MCP completion requires"],
  'tools-call-image': ['fail', notApplicable.fixtures],
  'tools-call-audio': ['fail', notApplicable.fixtures],
  'tools-call-embedded-resource': ['fail', notApplicable.fixtures],
  'tools-call-mixed-content': ['fail', notApplicable.fixtures],
  'tools-call-with-progress': ['fail', notApplicable.fixtures],
  'tools-call-with-logging': ['fail', notApplicable.fixtures],
  'json-schema-2020-12': ['fail', notApplicable.fixtures],
  'tools-call-sampling': ['fail', notApplicable.serverRequests],
  'tools-call-elicitation': ['fail', notApplicable.serverRequests],
  'elicitation-sep1034-defaults': ['fail', notApplicable.serverRequests],
  'elicitation-sep1330-enums': ['fail', notApplicable.serverRequests],
  'resources-read-text': ['fail', notApplicable.fixtureResources],
  'resources-read-binary': ['fail', notApplicable.fixtureResources],
  'resources-templates-read': ['fail', notApplicable.fixtureResources],
  'resources-subscribe': ['fail', notApplicable.subscribe],
  'resources-unsubscribe': ['fail', notApplicable.subscribe],
  'prompts-get-simple': ['fail', notApplicable.fixturePrompts],
  'prompts-get-with-args': ['fail', notApplicable.fixturePrompts],
  'prompts-get-embedded-resource': ['fail', notApplicable.fixturePrompts],
  'prompts-get-with-image': ['fail', notApplicable.fixturePrompts],
};

let server: TestServer;
const proxies: AuthProxy[] = [];
let outDir: string;

beforeAll(async () => {
  server = await startServer();
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-mcp-conformance-'));
});
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await server?.stop();
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

async function scenarios(): Promise<string[]> {
  const { stdout } = await run(nodeBinary, [cli, 'list', '--server']);
  // 0.1.16 adds the spec versions: "  - ping [2025-06-18,2025-11-25]".
  return [...stdout.matchAll(/^\s+- (\S+)(?: \[[^\]]*\])?$/gm)].map((m) => m[1] as string);
}

async function outcomeOf(scenario: string): Promise<{ outcome: Outcome; failures: string[] }> {
  const proxy = await startAuthProxy(server.baseUrl, (await registerAgent(server)).accessToken);
  proxies.push(proxy);
  // Exit status 1 only says that some check failed; the checks file says which.
  await run(nodeBinary, [cli, 'server', '--url', `${proxy.url}/api/mcp`, '--scenario', scenario, '-o', outDir], { timeout: 60_000 }).catch(() => undefined);
  const dir = fs.readdirSync(outDir).find((d) => d.startsWith(`server-${scenario}-`));
  if (!dir) return { outcome: 'fail', failures: ['no results written'] };
  const checks = JSON.parse(fs.readFileSync(path.join(outDir, dir, 'checks.json'), 'utf8')) as { status: string; errorMessage?: string }[];
  const failures = checks.filter((c) => c.status === 'FAILURE').map((c) => c.errorMessage ?? '');
  return { outcome: failures.length ? 'fail' : checks.some((c) => c.status === 'WARNING') ? 'warning' : 'pass', failures };
}

it('runs every server scenario with the expected outcome', { timeout: 180_000 }, async () => {
  const names = await scenarios();
  expect(names.sort()).toEqual(Object.keys(expectations).sort());
  const results: Record<string, { outcome: Outcome; failures: string[] }> = {};
  const queue = [...names];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let name = queue.shift(); name; name = queue.shift()) results[name] = await outcomeOf(name);
    }),
  );
  const table = names.map((name) => `${(results[name]?.outcome ?? '?').padEnd(7)} ${name}${results[name]?.failures.length ? ` — ${results[name]?.failures[0]?.slice(0, 90)}` : ''}`);
  console.log(`MCP conformance ${version} server scenarios:\n${table.join('\n')}`);
  for (const name of names) expect({ name, outcome: results[name]?.outcome }).toEqual({ name, outcome: expectations[name]?.[0] });
});
