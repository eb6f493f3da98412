import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/sql-format/core.js';
import { meta } from '../../../src/tools/sql-format/meta.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('sql-format', () => {
  itRunsExamples(meta, run);

  it('indents with tabs and keeps keyword case when asked', () => {
    expect(run({ sql: 'Select a From t', indent: 'tab', keywordCase: 'preserve' }).result).toBe('Select\n\ta\nFrom\n\tt');
  });

  it('refuses unparseable SQL with a short message and its position', async () => {
    const error = await toolRefusal(() => run({ sql: 'select (a from t' }));
    expect(error.details).toMatchObject({ field: 'sql', line: 1, column: 17 });
    expect(error.message.length).toBeLessThan(200);
  });

  it('refuses empty SQL', async () => {
    expect((await toolRefusal(() => run({ sql: '  ' }))).details.field).toBe('sql');
  });

  it('answers 422 over the API with the position', async () => {
    await expectFirstExampleOverApi(meta);
    const error = await runnerRefusal('sql-format', { sql: 'select * from t where a = "' });
    expect(error.code).toBe('validation_failed');
    expect(error.extra).toMatchObject({ errors: [{ location: '/body/sql', line: 1, column: 27 }] });
    expect((await runnerRefusal('sql-format', { sql: 'select 1', dialect: 'oracle9' })).code).toBe('validation_failed');
  });
});
