import { describe, expect, it } from 'vitest';
import { findTool } from '../../../src/tools/registry.js';
import { runTool } from '../../../src/tools/runner.js';
import { run } from '../../../src/tools/text-to-speech/core.js';
import { meta } from '../../../src/tools/text-to-speech/meta.js';
import { toolRefusal } from '../support.js';
import { apiRefusal } from '../support.js';

// Speaking needs a browser with voices (headless Chromium has none): only the server side is tested here.
describe('text-to-speech', () => {
  it('is a browser-only tool that runs on the page’s main thread', () => {
    expect(meta).toMatchObject({ api: false, browser: 'browser', runsIn: 'page' });
    expect(findTool('text-to-speech')?.meta).toBe(meta);
  });

  it('checks the text, then explains it runs only in the browser', async () => {
    expect((await toolRefusal(() => run({ text: '   ' }))).details.field).toBe('text');
    expect((await toolRefusal(() => run({ text: 'x'.repeat(20_001) }))).details.field).toBe('text');
    expect((await toolRefusal(() => run({ text: 'Hello' }))).message).toMatch(/only in the browser/);
  });

  it('has no API endpoint', async () => {
    const error = await apiRefusal('text-to-speech', { text: 'Hello' });
    expect(error.status).toBe(404);
    await expect(runTool('text-to-speech', {})).rejects.toMatchObject({ status: 404 });
  });
});
