/**
 * Agent skills served under `/.well-known/agent-skills/` (Agent Skills
 * Discovery v0.2.0, standards.md §5). Each skill is a real SKILL.md file
 * beside this module, read once at start-up; the index gives its `digest` as
 * `sha256:` + hex of the exact bytes served. The files are read from the
 * source tree (`src/agents/skills/<name>/SKILL.md`), which the build does not copy.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Skill {
  name: string;
  description: string;
  bytes: Buffer;
  digest: string;
}

export const skillNames = ['kb-query', 'kb-manage'] as const;

// src/agents/skills/index.ts and dist/agents/skills/index.js are both three levels below the repository root.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function frontMatter(text: string, key: string): string {
  const block = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
  const line = block.split('\n').find((l) => l.startsWith(`${key}:`));
  if (!line) throw new Error(`SKILL.md front matter lacks ${key}`);
  return line.slice(key.length + 1).trim();
}

export function loadSkills(): Skill[] {
  return skillNames.map((name) => {
    const bytes = fs.readFileSync(path.join(root, 'src', 'agents', 'skills', name, 'SKILL.md'));
    const text = bytes.toString('utf8');
    if (frontMatter(text, 'name') !== name) throw new Error(`SKILL.md of ${name} names another skill`);
    return { name, description: frontMatter(text, 'description'), bytes, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
  });
}
