/**
 * Suites that need a real outside service (PostgreSQL, Redis, Chromium) run
 * when it is configured. When it is not, a local run reports the suite as
 * skipped with the reason; under CI=true a missing service is a failure,
 * because CI is expected to run everything.
 */
import { describe, it } from 'vitest';

export interface Requirement {
  available: boolean;
  reason: string;
  /**
   * The default time a test of the suite may take, when longer than the config's 60 s. A browser
   * test's every step waits on Chromium, which a busy 2-core machine slows several times over
   * (docs/decisions.md, "Tests"). A test that is known to take longer still says so itself.
   */
  testTimeoutMs?: number;
}

export function describeIf(requirement: Requirement, name: string, body: () => void): void {
  if (requirement.available) {
    if (requirement.testTimeoutMs === undefined) describe(name, body);
    else describe(name, { timeout: requirement.testTimeoutMs }, body);
    return;
  }
  describe(name, () => {
    it(`needs ${requirement.reason}`, (ctx) => {
      if (process.env.CI === 'true') throw new Error(`${name}: ${requirement.reason} is required when CI=true`);
      ctx.skip(`skipped: ${requirement.reason} is not available`);
    });
  });
}

export const postgres: Requirement = {
  available: Boolean(process.env.DATABASE_URL),
  reason: 'PostgreSQL (set DATABASE_URL=postgres://…)',
};

export const redis: Requirement = {
  available: Boolean(process.env.REDIS_URL),
  reason: 'Redis (set REDIS_URL=redis://…)',
};

/** Debian's Chromium, driven by playwright-core (never a downloaded browser). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromium: Requirement = {
  available: (await import('node:fs')).existsSync(chromiumPath),
  reason: `Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`,
  testTimeoutMs: 90_000,
};
