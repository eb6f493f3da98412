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
}

export function describeIf(requirement: Requirement, name: string, body: () => void): void {
  if (requirement.available) {
    describe(name, body);
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
};
