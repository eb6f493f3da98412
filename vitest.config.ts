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
    // Each test file in a fresh process (Vitest's default). One module graph per worker
    // (`isolate: false`) took the suite from ~1,000 s to ~760 s, but one of its two full runs failed
    // a hostile-input test that passes alone: not kept until that is understood (docs/decisions.md, "Tests").
  },
});
