import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at a time: most suites wait on sockets, child processes and browsers, so a
    // second worker roughly halves the wall time on a 2-core machine (Vitest's default is cores − 1).
    maxWorkers: 2,
    // Each worker process runs its test files one after another in one module graph, instead of a
    // fresh process per file: importing the service (its word lists, place names, schemas) once per
    // worker rather than 244 times took the suite from ~1,000 s to ~750 s on a 2-core host
    // (docs/decisions.md, "Tests"). Test files therefore leave no global state behind: no
    // `vi.mock`, no process.env or global changes, timers restored, servers and children closed.
    isolate: false,
  },
});
