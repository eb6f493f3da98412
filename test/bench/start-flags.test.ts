import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startScriptNodeFlags } from '../../bench/children.js';

describe("benchmark children: npm start's node flags", () => {
  it("reads the flags of package.json's start script: V8's memory reducer off, the heap's growth fixed (docs/decisions.md)", () => {
    const flags = startScriptNodeFlags();
    expect(flags).toContain('--no-memory-reducer');
    expect(flags).toContain('--heap-growing-percent=100');
    // Every flag is one this node accepts (an unknown one makes node exit with "bad option").
    expect(() => execFileSync(process.execPath, [...flags, '-e', '0'], { stdio: 'pipe' })).not.toThrow();
  });

  it('parses flags with and without values, and refuses a start script of another shape', () => {
    expect(startScriptNodeFlags('node dist/main.js')).toEqual([]);
    expect(startScriptNodeFlags('node --no-memory-reducer --max-semi-space-size=32 dist/main.js')).toEqual(['--no-memory-reducer', '--max-semi-space-size=32']);
    expect(() => startScriptNodeFlags('tsx src/main.ts')).toThrow(/start script/);
    expect(() => startScriptNodeFlags('node dist/main.js && echo done')).toThrow(/start script/);
  });
});
