import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'sql-format',
  group: 'developer',
  name: 'SQL formatter',
  description: 'Pretty-print SQL for a chosen dialect (PostgreSQL, MySQL, SQLite, T-SQL, BigQuery and more) with upper-, lower- or unchanged keyword case.',
  keywords: ['sql', 'format', 'beautify', 'pretty', 'query', 'postgresql', 'mysql', 'sqlite'],
  api: true,
  limits: { maxInputBytes: 500_000 },
  inputSchema: {
    type: 'object',
    properties: {
      sql: { type: 'string', description: 'The SQL text (one or more statements).' },
      dialect: {
        type: 'string',
        enum: ['sql', 'bigquery', 'clickhouse', 'db2', 'db2i', 'duckdb', 'hive', 'mariadb', 'mysql', 'n1ql', 'plsql', 'postgresql', 'redshift', 'singlestoredb', 'snowflake', 'spark', 'sqlite', 'tidb', 'transactsql', 'trino'],
        default: 'sql',
        description: 'SQL dialect; "sql" is standard SQL.',
      },
      keywordCase: { type: 'string', enum: ['preserve', 'upper', 'lower'], default: 'upper', description: 'Case of keywords such as SELECT.' },
      indent: { enum: [2, 4, 'tab'], default: 2, description: 'Indentation: 2 or 4 spaces, or "tab".' },
    },
    required: ['sql'],
    additionalProperties: false,
  },
  examples: [
    { title: 'Select with a filter', input: { sql: 'select a, b from t where a = 1 and b in (1,2)' }, output: { result: 'SELECT\n  a,\n  b\nFROM\n  t\nWHERE\n  a = 1\n  AND b IN (1, 2)' } },
    {
      title: 'PostgreSQL, lower case, 4 spaces',
      input: { sql: 'SELECT id, data->>\'name\' FROM users LIMIT 5', dialect: 'postgresql', keywordCase: 'lower', indent: 4 },
      output: { result: 'select\n    id,\n    data ->> \'name\'\nfrom\n    users\nlimit\n    5' },
    },
  ],
};
