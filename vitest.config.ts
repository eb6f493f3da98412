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
  },
});
