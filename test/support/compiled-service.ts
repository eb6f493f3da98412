/**
 * The service as plain JavaScript, for tests that run it as a child process. `npm start` runs
 * JavaScript (dist/); a child on `node --import tsx src/main.ts` spends most of its start-up in
 * tsx's loader thread (about 4–5 s here against 2–3 s), and the crash test alone starts sixteen.
 *
 * esbuild (the transformer tsx itself uses) turns every server module of src/ into a tree laid
 * out as dist/ is: one directory below the repository, so the paths the code finds beside itself
 * (`../../../dist/web/`, `../../../lexicon/`) resolve as they do from dist/ and src/. The tree's
 * name carries a hash of the sources: a test run builds it once, any worker that finds it reuses
 * it, and concurrent builders each write a private copy and rename it into place.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const srcDir = path.join(repoRoot, 'src');
const PREFIX = '.test-service-';
/** Trees of other sources older than this are removed (a run that still uses one has long started its children). */
const STALE_MS = 60 * 60 * 1000;

/** The server's modules, as tsconfig.build.json has them: no browser code, no tests. */
function serverSources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(srcDir, full).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (rel !== 'web') walk(full);
      } else if (
        entry.name.endsWith('.ts') &&
        !entry.name.endsWith('.d.ts') &&
        !entry.name.endsWith('.test.ts') &&
        !/^tools\/[^/]+\/browser\.ts$/.test(rel) &&
        !/^tools\/shared\/[^/]+-canvas\.ts$/.test(rel)
      ) {
        files.push(full);
      }
    }
  };
  walk(srcDir);
  return files.sort();
}

let built: Promise<string> | undefined;

/** The directory of the compiled service (its entry is `main.js` there), built on first use. */
export function compiledService(): Promise<string> {
  built ??= compile();
  return built;
}

async function compile(): Promise<string> {
  const files = serverSources();
  const hash = createHash('sha256');
  for (const file of files) hash.update(path.relative(srcDir, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  const target = path.join(repoRoot, `${PREFIX}${hash.digest('hex').slice(0, 16)}`);
  if (fs.existsSync(path.join(target, 'main.js'))) return target;

  const scratch = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await build({ entryPoints: files, outdir: scratch, outbase: srcDir, format: 'esm', platform: 'node', target: 'node20', bundle: false, logLevel: 'silent' });
    try {
      fs.renameSync(scratch, target);
    } catch (error) {
      // Another worker renamed an identical tree into place first.
      if (!fs.existsSync(path.join(target, 'main.js'))) throw error;
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  removeStaleTrees(target);
  return target;
}

function removeStaleTrees(keep: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(repoRoot)) {
    if (!name.startsWith(PREFIX)) continue;
    const full = path.join(repoRoot, name);
    if (full === keep) continue;
    try {
      if (now - fs.statSync(full).mtimeMs > STALE_MS) fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}
