import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/json-convert/core.js';
import { meta } from '../../../src/tools/json-convert/meta.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('json-convert', () => {
  itRunsExamples(meta, run);

  it('round-trips YAML and TOML', () => {
    const data = { name: 'x', list: [1, 2], nested: { on: true } };
    const yaml = run({ text: JSON.stringify(data), from: 'json', to: 'yaml' }).result;
    expect(JSON.parse(run({ text: yaml, from: 'yaml', to: 'json' }).result)).toEqual(data);
    const toml = run({ text: JSON.stringify(data), from: 'json', to: 'toml' }).result;
    expect(JSON.parse(run({ text: toml, from: 'toml', to: 'json' }).result)).toEqual(data);
  });

  it('keeps CSV cells as text when csvTypes is false', () => {
    expect(JSON.parse(run({ text: 'zip\n01234', from: 'csv', to: 'json', csvTypes: false }).result)).toEqual([{ zip: '01234' }]);
  });

  it.each([
    ['invalid JSON', { text: '{"a": 1,}', from: 'json', to: 'yaml' }, { kind: 'invalid_json', line: 1, column: 9 }],
    ['invalid YAML', { text: 'a: [1, 2\nb: 3', from: 'yaml', to: 'json' }, { field: 'text' }],
    ['invalid TOML', { text: 'a = 1\nb = ', from: 'toml', to: 'json' }, { field: 'text', line: 2 }],
    ['ragged CSV', { text: 'a,b\n1,2\n"unterminated', from: 'csv', to: 'json' }, { field: 'text' }],
    ['CSV of an object', { text: '{"a": 1}', from: 'json', to: 'csv' }, { field: 'to' }],
    ['CSV of nested records', { text: '[{"a": {"b": 1}}]', from: 'json', to: 'csv' }, { field: 'to' }],
    ['TOML of an array', { text: '[1, 2]', from: 'json', to: 'toml' }, { field: 'to' }],
    ['TOML of null', { text: '{"a": null}', from: 'json', to: 'toml' }, { field: 'to' }],
    ['empty input', { text: '  ', from: 'json', to: 'yaml' }, { field: 'text' }],
  ] as const)('refuses %s', async (_name, input, details) => {
    const error = await toolRefusal(() => run(input));
    expect(error.details).toMatchObject(details);
  });

  it('refuses a YAML alias bomb instead of expanding it', async () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(',')}]`)].join('\n');
    const error = await toolRefusal(() => run({ text: bomb, from: 'yaml', to: 'json' }));
    expect(error.details.kind).toBe('too_large');
  });

  it('runs over the API and answers 422 with the location of invalid JSON', async () => {
    await expectFirstExampleOverApi(meta);
    const error = await runnerRefusal('json-convert', { text: '[1,,2]', from: 'json', to: 'csv' });
    expect(error.code).toBe('invalid_json');
    expect((await runnerRefusal('json-convert', { text: 'a', from: 'xml', to: 'json' })).code).toBe('validation_failed');
  });
});
