#!/usr/bin/env node
// `npm start` (prestart): run `npm run build` only when the build's inputs changed since the last
// successful build. The inputs — src/**, the Vite configs, tsconfig*.json, package.json and
// package-lock.json — are hashed (paths and contents) and compared with the stamp the last
// successful build wrote (dist/.build-stamp); a missing output also counts as stale.
//
//   node scripts/build-if-stale.mjs                 build when stale, then write the stamp
//   node scripts/build-if-stale.mjs --write-stamp   only write the stamp (`postbuild` does this)
//   node scripts/build-if-stale.mjs --check         exit 0 when fresh, 1 when stale; builds nothing
//
// Tests point it elsewhere: --root <dir>, --stamp <file>, --command "<shell command>",
// --inputs a,b,c (relative to root), --outputs x,y (relative to root).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const defaults = {
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
  inputs: ['src', 'vite.config.ts', 'vite.widget.config.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'],
  outputs: ['dist/main.js', 'dist/web/dashboard.html', 'dist/widget/widget.js'],
  stamp: 'dist/.build-stamp',
  command: 'npm run build',
};

function parseArgs(argv) {
  const options = { ...defaults, mode: 'build' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--write-stamp') options.mode = 'stamp';
    else if (arg === '--check') options.mode = 'check';
    else if (arg === '--root') options.root = path.resolve(value());
    else if (arg === '--stamp') options.stamp = value();
    else if (arg === '--command') options.command = value();
    else if (arg === '--inputs') options.inputs = value().split(',').filter(Boolean);
    else if (arg === '--outputs') options.outputs = value().split(',').filter(Boolean);
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

/** Every file under `entry` (or `entry` itself), sorted, relative to `root`; missing entries are skipped. */
function listFiles(root, entry, files) {
  const full = path.join(root, entry);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return;
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) listFiles(root, path.join(entry, name), files);
  } else if (stat.isFile()) {
    files.push(entry);
  }
}

/** sha256 over every input's path and contents: a checkout, an edit or a deleted file all change it. */
export function inputsHash(root, inputs) {
  const files = [];
  for (const entry of inputs) listFiles(root, entry, files);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function writeStamp(file, hash) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${hash}\n`);
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const stampFile = path.resolve(options.root, options.stamp);
  const hash = inputsHash(options.root, options.inputs);
  if (options.mode === 'stamp') {
    writeStamp(stampFile, hash);
    return 0;
  }
  const missing = options.outputs.filter((output) => !fs.existsSync(path.join(options.root, output)));
  const stale = missing.length > 0 || readStamp(stampFile) !== hash;
  if (options.mode === 'check') return stale ? 1 : 0;
  if (!stale) {
    process.stdout.write('build-if-stale: the build is up to date; not rebuilding\n');
    return 0;
  }
  process.stdout.write(`build-if-stale: ${missing.length > 0 ? `missing ${missing.join(', ')}` : 'sources changed since the last build'}; running ${options.command}\n`);
  const result = spawnSync(options.command, { cwd: options.root, stdio: 'inherit', shell: true });
  if (result.status !== 0) return result.status ?? 1;
  // The hash taken before the build: an edit made while it ran makes the next start rebuild.
  writeStamp(stampFile, hash);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (error) {
    process.stderr.write(`build-if-stale: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
