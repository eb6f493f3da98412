import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../../src/tools/runner.js';
import { run } from '../../../src/tools/token-counter/core.js';
import { meta } from '../../../src/tools/token-counter/meta.js';
import { modelEncodings } from '../../../src/tools/token-counter/models.js';
import { exampleCases, exampleInput, expectExampleOutput, toolRefusal } from '../support.js';
import { apiRefusal } from '../support.js';

describe('token-counter examples', () => {
  it.each(exampleCases(meta))('%s', async (_title, example) => {
    expectExampleOutput(example, await run(exampleInput(meta, example)));
  });
});

describe('token-counter', () => {
  it('offers exactly the models it maps, each to the encoding gpt-tokenizer knows (o200k_base when unlisted)', () => {
    expect((meta.inputSchema.properties as { model: { enum: string[] } }).model.enum).toEqual(Object.keys(modelEncodings));
    for (const [model, encoding] of Object.entries(modelEncodings)) {
      expect([model, (modelToEncodingMap as Record<string, string>)[model] ?? 'o200k_base']).toEqual([model, encoding]);
    }
  });

  it('counts special-token markers as ordinary text instead of failing', async () => {
    const output = await run({ text: 'a <|endoftext|> b' });
    expect(output.tokens).toBeGreaterThan(3);
    expect(output.tokens).toBe(encodeO200k('a <|endoftext|> b', { disallowedSpecial: new Set() }).length);
  });

  it('differs between encodings where their vocabularies differ', async () => {
    const text = 'Ünïcödé façade — 東京 🚀 and some code: const x = () => 42;';
    const o200k = await run({ text, encoding: 'o200k_base' });
    const r50k = await run({ text, encoding: 'r50k_base' });
    expect(o200k.tokens).toBeLessThan(r50k.tokens);
  });

  it('lists at most 200 tokens, whose texts join back to the start of the text', async () => {
    const text = 'word '.repeat(500);
    const output = await run({ text, showTokens: true });
    expect(output.tokens).toBeGreaterThan(400);
    expect(output.tokenList).toHaveLength(200);
    expect(output.tokenList?.map((t) => t.text).join('')).toBe(text.slice(0, 4 + 199 * 5));
  });

  it('counts characters as graphemes, and tokens by bytes', async () => {
    const output = await run({ text: '👋🏽 e\u0301' });
    expect(output.characters).toBe(3);
    expect(output.tokens).toBeGreaterThan(3);
  });

  it('counts an empty text as zero', async () => {
    expect(await run({ text: '' })).toMatchObject({ tokens: 0, characters: 0, words: 0 });
  });

  it('refuses a model and an encoding that disagree', async () => {
    const error = await toolRefusal(() => run({ text: 'x', model: 'gpt-4', encoding: 'o200k_base' }));
    expect(error.details.field).toBe('encoding');
    expect(error.message).toMatch(/gpt-4 uses cl100k_base/);
  });

  it('runs through the API and refuses unknown models and encodings there', async () => {
    expect(await runTool('token-counter', { text: 'Hello, world!', model: 'gpt-3.5-turbo' })).toMatchObject({ tokens: 4, encoding: 'cl100k_base' });
    expect((await apiRefusal('token-counter', { text: 'x', model: 'claude-3' })).code).toBe('validation_failed');
    expect((await apiRefusal('token-counter', { text: 'x', encoding: 'gpt2' })).code).toBe('validation_failed');
    expect((await apiRefusal('token-counter', {})).code).toBe('validation_failed');
    expect((await apiRefusal('token-counter', { text: 'x'.repeat(1_000_001) })).code).toBe('payload_too_large');
  });
});
