/**
 * The utilities registry: every tool's metadata is well-formed, every
 * example runs to its stated output (table-driven from meta.examples, as new
 * tools will be), and bad input is refused with the catalogue's codes and a
 * location — never an exception of the tool's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { jsonErrorAt } from '../../src/json-scan.js';
import { findTool, toolCatalogue, toolEntries } from '../../src/tools/registry.js';
import { runTool } from '../../src/tools/runner.js';
import { apiRefusal } from './support.js';
import { generate as uuid } from '../../src/tools/uuid/core.js';

const examples = toolEntries.flatMap(({ meta }) => meta.examples.map((example) => [meta.id, example.title, example] as const));

describe('catalogue', () => {
  it('has at least 45 tools in four groups, with unique URL-safe ids', () => {
    expect(toolCatalogue.length).toBeGreaterThanOrEqual(45);
    expect(new Set(toolCatalogue.map((m) => m.id)).size).toBe(toolCatalogue.length);
    expect(new Set(toolCatalogue.map((m) => m.group))).toEqual(new Set(['developer', 'pdf', 'image', 'ai']));
    for (const meta of toolCatalogue) {
      expect(meta.id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      expect(findTool(meta.id)?.meta).toBe(meta);
    }
  });

  it('lists every tool folder (the web pages find tools by folder, the server by the group lists)', () => {
    const root = fileURLToPath(new URL('../../src/tools/', import.meta.url));
    const folders = fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, 'meta.ts')));
    expect(folders.sort()).toEqual(toolCatalogue.map((m) => m.id).sort());
    for (const meta of toolCatalogue) {
      // The page runs browser.ts or core.ts; the server runs server.ts or core.ts.
      expect(fs.existsSync(path.join(root, meta.id, meta.browser === 'browser' ? 'browser.ts' : 'core.ts')), meta.id).toBe(true);
      if (meta.api) expect(fs.existsSync(path.join(root, meta.id, meta.server === 'server' ? 'server.ts' : 'core.ts')), meta.id).toBe(true);
    }
  });

  it('never offers the regular-expression tester on the server', () => {
    expect(findTool('regex-tester')?.meta.api).toBe(false);
  });

  it.each(toolCatalogue.map((m) => [m.id, m] as const))('%s: metadata is complete and its schema compiles', (_id, meta) => {
    expect(meta.name).toBeTruthy();
    expect(meta.description.length).toBeGreaterThan(20);
    expect(meta.keywords.length).toBeGreaterThan(0);
    expect(['developer', 'pdf', 'image', 'ai']).toContain(meta.group);
    expect(meta.limits.maxInputBytes).toBeGreaterThan(0);
    expect(meta.examples.length).toBeGreaterThan(0);
    expect(meta.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    // Data only: it survives JSON unchanged (the browser UI and the catalogue endpoint ship it as is).
    expect(JSON.parse(JSON.stringify(meta))).toEqual(meta);
    const validate = new Ajv({ strict: false }).compile(meta.inputSchema);
    for (const example of meta.examples) expect(validate(structuredClone(example.input)), example.title).toBe(true);
  });
});

describe('examples', () => {
  it.each(examples.filter(([id]) => findTool(id)?.meta.api))('%s: %s (server)', async (id, _title, example) => {
    const output = await runTool(id, example.input);
    if (example.output !== undefined) expect(output).toEqual(example.output);
    if (example.outputMatches !== undefined) expect(output).toMatchObject(example.outputMatches);
    expect(output).toBeTypeOf('object');
  });
});

describe('bad input', () => {
  it.each([
    ['json-format', { text: '{"a": 1,}' }, 'invalid_json', { line: 1, column: 9 }],
    ['json-format', { text: '{\n  "a": [1, 2\n}' }, 'invalid_json', { line: 3, column: 1 }],
    ['json-format', { text: "{'a': 1}" }, 'invalid_json', { line: 1, column: 2 }],
    ['json-format', { text: '' }, 'invalid_json', { line: 1, column: 1 }],
    ['json-format', { text: '{}', mode: 'shout' }, 'validation_failed', {}],
    ['json-format', { text: '{}', indent: 3 }, 'validation_failed', {}],
    ['base64', { mode: 'decode', text: 'SGVsbG8$' }, 'validation_failed', {}],
    ['base64', { mode: 'decode', text: 'SGVsb' }, 'validation_failed', {}],
    ['base64', { mode: 'decode', text: 'SG=Vs' }, 'validation_failed', {}],
    ['base64', { mode: 'decode', text: '/w==' }, 'validation_failed', {}],
    ['base64', { mode: 'encode' }, 'validation_failed', {}],
    ['base64', { mode: 'encode', text: 5 }, 'validation_failed', {}],
    ['hash', { text: 'x', algorithm: 'md5' }, 'validation_failed', {}],
    ['uuid', { count: 0 }, 'validation_failed', {}],
    ['uuid', { count: 101 }, 'validation_failed', {}],
    ['uuid', { count: '5' }, 'validation_failed', {}],
    ['uuid', { version: 'v1' }, 'validation_failed', {}],
    ['url-encode', { mode: 'decode', text: 'abc%E0%A4%A' }, 'validation_failed', {}],
    ['url-encode', { mode: 'decode', text: '100%' }, 'validation_failed', {}],
    ['url-encode', { mode: 'encode', text: 'lone \ud800' }, 'validation_failed', {}],
    ['word-count', { text: 'x', wordsPerMinute: 1 }, 'validation_failed', {}],
    ['word-count', { text: 'x', extra: true }, 'validation_failed', {}],
  ])('%s refuses %j with %s', async (id, input, code, where) => {
    const error = await apiRefusal(id, input);
    expect(error.code).toBe(code);
    expect(error.status).toBe(422);
    if (code === 'invalid_json') expect(error.extra).toMatchObject({ location: '/body/text', ...where });
    else expect((error.extra.errors as { location: string }[])[0]?.location).toMatch(/^\/body/);
  });

  it('names unknown tools 404 and inputs over the limit 413', async () => {
    expect((await apiRefusal('nope', {})).status).toBe(404);
    const big = await apiRefusal('uuid', { version: 'v4', count: 1, padding: 'x'.repeat(2000) });
    expect(big).toMatchObject({ code: 'payload_too_large', extra: { limitBytes: 1000 } });
  });

  it('reports the position of a broken percent-escape and of a bad Base64 character', async () => {
    const url = await apiRefusal('url-encode', { mode: 'decode', text: 'ok%20fine%ZZ' });
    expect((url.extra.errors as { column: number }[])[0]?.column).toBe(10);
    const b64 = await apiRefusal('base64', { mode: 'decode', text: 'SGVs\nbG8*' });
    expect((b64.extra.errors as { line: number; column: number }[])[0]).toMatchObject({ line: 2, column: 4 });
  });
});

describe('word-count on long texts', () => {
  it('counts 300 kB exactly (segmented in pieces, since Intl.Segmenter is quadratic on long strings)', async () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(300_000 / 45);
    const output = (await runTool('word-count', { text })) as { words: number; sentences: number; characters: number };
    const repeats = Math.floor(300_000 / 45);
    expect(output).toMatchObject({ words: repeats * 9, sentences: repeats, characters: text.length });
  });
});

describe('tool behaviour', () => {
  it('does not mutate the caller’s input when filling defaults', async () => {
    const input = { text: '{}' };
    await runTool('json-format', input);
    expect(input).toEqual({ text: '{}' });
  });

  it('makes version 4 UUIDs and strictly ascending version 7 UUIDs', async () => {
    const v4 = (await runTool('uuid', { count: 100 })) as { uuids: string[] };
    expect(new Set(v4.uuids).size).toBe(100);
    for (const id of v4.uuids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    const v7 = uuid({ version: 'v7', count: 100 }, now).uuids;
    for (const id of v7) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...v7].sort()).toEqual(v7);
    expect(new Set(v7).size).toBe(100);
    expect(Number.parseInt(v7[0]?.replace(/-/g, '').slice(0, 12) ?? '', 16)).toBe(now);
  });

  it('finds where JSON goes wrong, and nothing in valid JSON', () => {
    expect(jsonErrorAt('{"a": [1, {"b": null}], "c": "\\u00e9"}')).toBeUndefined();
    expect(jsonErrorAt('[1, 2,]')).toEqual({ offset: 6, message: 'Trailing comma before "]"' });
    expect(jsonErrorAt('{"a": 01}')?.message).toMatch(/expected "," or "}"/);
    expect(jsonErrorAt('"line\nbreak"')?.message).toMatch(/^Line break inside a string/);
    expect(jsonErrorAt('[1] [2]')).toMatchObject({ offset: 4 });
    expect(jsonErrorAt("{'a': 1}")?.message).toMatch(/double quotes/);
    // Deep nesting costs a loop, not the stack: the error is where the text ends.
    expect(jsonErrorAt('['.repeat(100_000))).toEqual({ offset: 100_000, message: 'Unexpected end of input' });
  });

  it('counts words in scripts without spaces, and graphemes as characters', async () => {
    const output = (await runTool('word-count', { text: '我喜欢读书。你呢？' })) as { words: number; sentences: number; characters: number };
    expect(output.words).toBeGreaterThan(2);
    expect(output.sentences).toBe(2);
    expect(output.characters).toBe(9);
  });
});
