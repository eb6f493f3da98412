import { describe, expect, it } from 'vitest';
import { runTool } from '../../../src/tools/runner.js';
import { run } from '../../../src/tools/language-detect/core.js';
import { meta } from '../../../src/tools/language-detect/meta.js';
import { exampleCases, exampleInput, expectExampleOutput } from '../support.js';
import { apiRefusal } from '../support.js';

describe('language-detect examples', () => {
  it.each(exampleCases(meta))('%s', (_title, example) => {
    expectExampleOutput(example, run(exampleInput(meta, example)));
  });
});

describe('language-detect', () => {
  it.each([
    ['fra', 'French', 'Le renard brun rapide saute par-dessus le chien paresseux pendant que le fermier regarde depuis la véranda.'],
    ['deu', 'German', 'Der schnelle braune Fuchs springt über den faulen Hund, während der Bauer von der Veranda aus zuschaut.'],
    ['rus', 'Russian', 'Быстрая коричневая лиса прыгает через ленивую собаку, пока фермер смотрит с крыльца.'],
  ])('recognises %s', (code, name, text) => {
    expect(run({ text })).toMatchObject({ language: code, name });
  });

  it('answers und for punctuation, digits and emoji, however long', () => {
    expect(run({ text: '1234567890 !!! ??? 🙂🙂🙂 ---- 42' })).toMatchObject({ language: 'und', candidates: [] });
    expect(run({ text: '' })).toMatchObject({ language: 'und' });
  });

  it('flags short texts as unreliable and lists the number of candidates asked for', () => {
    const output = run({ text: 'Bonjour tout le monde', candidates: 2 });
    expect(output.candidates).toHaveLength(2);
    expect(output.message).toMatch(/Short texts/);
  });

  it('runs through the API with defaults and refuses bad options', async () => {
    const output = (await runTool('language-detect', { text: meta.examples[0]?.input.text })) as { candidates: unknown[] };
    expect(output.candidates).toHaveLength(5);
    expect((await apiRefusal('language-detect', { text: 'x', candidates: 0 })).code).toBe('validation_failed');
    expect((await apiRefusal('language-detect', { text: 5 })).code).toBe('validation_failed');
  });
});
