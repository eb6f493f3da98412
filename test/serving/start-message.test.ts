/** The service started as `npm start` would logs where the dashboard is (and the outbox in development), as JSON on stdout. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logLines, PROCESS_TEST_TIMEOUT_MS, type ServiceProcess, startServiceProcess } from '../api/helpers.js';

describe('start message', () => {
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await startServiceProcess();
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(() => service?.stop());

  it('logs one human line naming the dashboard and the development outbox', async () => {
    // "Groundwork is running" is logged by start(); the human line right after it by main().
    let lines = logLines(service.stdout());
    for (let i = 0; i < 500 && !lines.some((l) => String(l.msg).startsWith('Groundwork is running: open')); i++) {
      await new Promise((resolve) => setImmediate(resolve));
      lines = logLines(service.stdout());
    }
    const human = lines.filter((l) => String(l.msg).startsWith('Groundwork is running: open'));
    expect(human).toHaveLength(1);
    expect(human[0]?.msg).toBe(`Groundwork is running: open ${service.baseUrl}/dashboard (development: sign-in codes appear at ${service.baseUrl}/dev/outbox)`);
    expect(lines.some((l) => l.msg === 'Groundwork is running')).toBe(true);
  });
});
