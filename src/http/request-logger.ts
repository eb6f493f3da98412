/**
 * Each request's logger, made only when the request writes a line its level lets through.
 *
 * Fastify gives every request a child of the app's logger (bound to its request id). Making a
 * pino child copies its bindings into a new serialised prefix and sets up its level methods: a few
 * microseconds per request, paid even when nothing is logged — and at the production level (`warn`
 * and above) almost no request logs anything. This logger stands in for that child: a call below
 * the level returns at once; the first call that writes makes the real child, with the same bindings
 * and options Fastify would have used, and every call after it goes to that child. The lines are
 * the same as before, byte for byte.
 */
import type { FastifyBaseLogger } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type Level, type LevelWithSilent } from 'pino';

const levelValues = pino.levels.values as Record<string, number>;

/** Whether `level` is written by a logger set to `threshold` (pino's standard levels; `silent` writes nothing). */
export function levelWrites(level: Level, threshold: string): boolean {
  const at = levelValues[threshold];
  // An unknown threshold (a custom level) cannot be judged here: let the real logger decide.
  if (at === undefined) return threshold !== 'silent';
  return (levelValues[level] as number) >= at;
}

type LogMethod = (...args: unknown[]) => void;

export class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The real child, made on first need. */
  private get child_(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): LevelWithSilent | string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: LevelWithSilent | string) {
    this.child_.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.child_.child(bindings, options);
  }

  private log(level: Level, args: unknown[]): void {
    if (!levelWrites(level, this.level)) return;
    (this.child_[level] as LogMethod)(...args);
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}
}

/** Fastify's `childLoggerFactory`: a `RequestLogger` in place of each request's pino child. */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}
