import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous for a busy 2-core CI host (docs/decisions.md, "Tests"): a loaded full run put tests
    // that take 2–3 s alone at 7–10 s. A test that takes longer still says so itself.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Two test files at a time: most suites wait on sockets, child processes and browsers, so a
    // second worker roughly halves the wall time on a 2-core machine (Vitest's default is cores − 1).
    maxWorkers: 2,
    // One module graph per worker: each file no longer loads the service's modules afresh (about
    // 3 s a file). Nothing in test/ mocks modules or stubs globals (a lint rule), and the one failure
    // this setting once showed was a real bug that depended on V8's string representation
    // (docs/decisions.md, "Tests").
    isolate: false,
  },
});
