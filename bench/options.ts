/**
 * The benchmark's command line (`npm run bench -- <flags>`), with environment fallbacks:
 *
 *   --scale quick|full       short windows and a small scale table, or the whole thing (BENCH_SCALE;
 *                            BENCH_QUICK=1 means quick). Default: full.
 *   --only a,b               only these scenarios (BENCH_ONLY): http, streams, stores, scale, ingest, outage,
 *                            breakdown, extraction, limiter.
 *   --reps N                 repetitions of every interleaved comparison (BENCH_REPS; default 3).
 *   --records 25,1000        the scale table's knowledge-base sizes (default by --scale).
 *   --kbs 1000,10000         the scale table's knowledge-base counts (default by --scale).
 *   --startup-timeout S      base start-up timeout of a server in seconds (BENCH_STARTUP_TIMEOUT_SECONDS;
 *                            default 30); servers holding more data get more (see children.ts).
 */
export const SCENARIOS = ['http', 'streams', 'stores', 'scale', 'ingest', 'outage', 'breakdown', 'extraction', 'limiter'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface BenchOptions {
  scale: 'quick' | 'full';
  only: Scenario[];
  reps: number;
  records: number[];
  knowledgeBases: number[];
  startupTimeoutSec: number;
}

function list(raw: string, what: string): number[] {
  const values = raw.split(',').map((s) => Number(s.trim().replace(/_/g, '')));
  if (values.some((v) => !Number.isInteger(v) || v < 1)) throw new Error(`${what}: expected positive integers separated by commas, got "${raw}"`);
  return values;
}

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}" (flags: --scale, --only, --reps, --records, --kbs, --startup-timeout)`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    flags.set(name, value);
  }
  for (const name of flags.keys()) {
    if (!['scale', 'only', 'reps', 'records', 'kbs', 'startup-timeout'].includes(name)) throw new Error(`unknown flag --${name}`);
  }
  const scaleRaw = flags.get('scale') ?? env.BENCH_SCALE ?? (env.BENCH_QUICK === '1' ? 'quick' : 'full');
  if (scaleRaw !== 'quick' && scaleRaw !== 'full') throw new Error(`--scale: expected quick or full, got "${scaleRaw}"`);
  const onlyRaw = flags.get('only') ?? env.BENCH_ONLY;
  const only = onlyRaw ? onlyRaw.split(',').map((s) => s.trim()) : [...SCENARIOS];
  for (const s of only) if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`--only: unknown scenario "${s}" (one of ${SCENARIOS.join(', ')})`);
  const reps = Number(flags.get('reps') ?? env.BENCH_REPS ?? 3);
  if (!Number.isInteger(reps) || reps < 1 || reps > 20) throw new Error(`--reps: expected 1–20, got ${reps}`);
  const startupTimeoutSec = Number(flags.get('startup-timeout') ?? env.BENCH_STARTUP_TIMEOUT_SECONDS ?? 30);
  if (!Number.isFinite(startupTimeoutSec) || startupTimeoutSec <= 0) throw new Error(`--startup-timeout: expected seconds > 0, got ${startupTimeoutSec}`);
  const quick = scaleRaw === 'quick';
  return {
    scale: scaleRaw,
    only: only as Scenario[],
    reps,
    records: flags.has('records') ? list(flags.get('records') as string, '--records') : quick ? [25, 1000, 10_000] : [25, 1000, 10_000, 100_000],
    knowledgeBases: flags.has('kbs') ? list(flags.get('kbs') as string, '--kbs') : quick ? [100] : [1000, 10_000],
    startupTimeoutSec,
  };
}
