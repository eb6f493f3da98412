import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startScriptNodeFlags } from '../../bench/children.js';

describe("benchmark children: npm start's node flags", () => {
  it("reads the flags of package.json's start script, which keeps V8's memory reducer off (docs/decisions.md)", () => {
    const flags = startScriptNodeFlags();
    expect(flags).toContain('--no-memory-reducer');
    // Every flag is one this node accepts (an unknown one makes node exit with "bad option").
    expect(() => execFileSync(process.execPath, [...flags, '-e', '0'], { stdio: 'pipe' })).not.toThrow();
  });

  // Node starts four V8 helper threads whatever the CPUs; on one CPU they take it from the HTTP
  // thread during collections (docs/decisions.md, "V8's helper threads"). `--v8-pool-size=0` sizes
  // the pool from the CPUs the process may use. Linux: the threads are read from /proc.
  it.runIf(process.platform === 'linux')("sizes V8's helper threads to the CPUs: pinned to one, the start flags give fewer threads than Node's defaults", () => {
    const threads = (flags: string[]) =>
      Number(execFileSync('taskset', ['-c', '0', process.execPath, ...flags, '-e', "console.log(require('node:fs').readdirSync('/proc/self/task').length)"], { stdio: 'pipe' }).toString().trim());
    const withDefaults = threads([]);
    const withStartFlags = threads(startScriptNodeFlags());
    expect(withDefaults).toBeGreaterThan(0);
    expect(withStartFlags).toBeLessThan(withDefaults);
  });

  it('parses flags with and without values, and refuses a start script of another shape', () => {
    expect(startScriptNodeFlags('node dist/main.js')).toEqual([]);
    expect(startScriptNodeFlags('node --no-memory-reducer --max-semi-space-size=32 dist/main.js')).toEqual(['--no-memory-reducer', '--max-semi-space-size=32']);
    expect(() => startScriptNodeFlags('tsx src/main.ts')).toThrow(/start script/);
    expect(() => startScriptNodeFlags('node dist/main.js && echo done')).toThrow(/start script/);
  });
});
