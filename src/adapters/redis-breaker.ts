/**
 * A circuit breaker around the shared Redis connection, used by the limiter,
 * the answer cache and the replay store (issue 11 item 7). Without it, every
 * command during an outage waits for ioredis's reconnect attempts and command
 * timeout (1.3–2.5 s per query); with it, the adapters fall back to their
 * in-process halves within milliseconds.
 *
 * - closed: commands run, each raced against `timeoutMs`. `failureThreshold`
 *   consecutive failures — or the connection closing — open the breaker.
 * - open: `run` rejects at once with `RedisUnavailableError` (no command is
 *   sent, nothing queues). After `openMs` (doubling up to `maxOpenMs` while
 *   probes keep failing), or as soon as ioredis reports `ready`, a probe runs.
 * - half-open: one PING; if it answers, every recovery hook runs (e.g. the
 *   limiter pushes the counts it kept in process, so nobody gets a fresh
 *   allowance from an emptied Redis), then the breaker closes. Commands keep
 *   failing fast until then. A failed probe or hook opens it again.
 *
 * `status()` is cheap and synchronous, for /readyz and metrics.
 */
import type { Redis } from 'ioredis';

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerStatus {
  state: BreakerState;
  /** When the breaker entered this state (ms since the epoch). */
  since: number;
  /** Consecutive failures counted while closed. */
  failures: number;
  /** How many times it has opened since start. */
  opened: number;
  lastError?: string | undefined;
}

export interface RedisBreakerOptions {
  /** Deadline per command (ms); default 150. A local Redis answers in well under 1 ms. */
  timeoutMs?: number;
  /** Consecutive failures that open the breaker; default 3. */
  failureThreshold?: number;
  /** First wait before a probe (ms); default 500. */
  openMs?: number;
  /** Longest wait between probes (ms); default 5000. */
  maxOpenMs?: number;
  /** Deadline for all recovery hooks together (ms); default 5000. */
  recoveryTimeoutMs?: number;
  now?: () => number;
  onStateChange?: (status: BreakerStatus, previous: BreakerState) => void;
}

/** Thrown by `run` while the breaker is not closed, and when a command misses its deadline. */
export class RedisUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisUnavailableError';
  }
}

export type RecoveryHook = () => Promise<void>;

export class RedisBreaker {
  private state: BreakerState = 'closed';
  private since: number;
  private failures = 0;
  private opened = 0;
  private lastError: string | undefined;
  private waitMs: number;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;
  private readonly hooks: RecoveryHook[] = [];
  private readonly timeoutMs: number;
  private readonly failureThreshold: number;
  private readonly openMs: number;
  private readonly maxOpenMs: number;
  private readonly recoveryTimeoutMs: number;
  private readonly now: () => number;
  private readonly onClose = () => {
    // quit() by the owner at shutdown is not an outage.
    if (this.client.status !== 'end') this.trip('connection closed');
  };
  private readonly onReady = () => {
    if (this.state === 'open') this.probeSoon(0);
  };

  constructor(
    private readonly client: Redis,
    private readonly options: RedisBreakerOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 150;
    this.failureThreshold = options.failureThreshold ?? 3;
    this.openMs = options.openMs ?? 500;
    this.maxOpenMs = options.maxOpenMs ?? 5000;
    this.recoveryTimeoutMs = options.recoveryTimeoutMs ?? 5000;
    this.now = options.now ?? Date.now;
    this.since = this.now();
    this.waitMs = this.openMs;
    client.on('close', this.onClose);
    client.on('ready', this.onReady);
  }

  status(): BreakerStatus {
    return { state: this.state, since: this.since, failures: this.failures, opened: this.opened, lastError: this.lastError };
  }

  /** Whether commands are sent at all (closed). */
  get available(): boolean {
    return this.state === 'closed';
  }

  /** Run before the breaker closes again after an outage; a hook that throws keeps it open. */
  onRecover(hook: RecoveryHook): void {
    this.hooks.push(hook);
  }

  /** Runs a Redis command through the breaker: at once refused while open, otherwise bounded by the deadline. */
  async run<T>(command: () => Promise<T>): Promise<T> {
    if (this.state !== 'closed') throw new RedisUnavailableError(`redis unavailable (breaker ${this.state})`);
    try {
      const result = await this.deadline(command());
      this.failures = 0;
      return result;
    } catch (err) {
      this.failure(err);
      throw err;
    }
  }

  /** Stops listening and probing (the connection itself belongs to the caller). */
  close(): void {
    this.closed = true;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.client.off('close', this.onClose);
    this.client.off('ready', this.onReady);
  }

  private failure(err: unknown): void {
    this.lastError = (err as Error)?.message ?? String(err);
    if (this.state !== 'closed') return;
    this.failures++;
    if (this.failures >= this.failureThreshold) this.trip(this.lastError);
  }

  private trip(reason: string): void {
    // While half-open the probe itself decides.
    if (this.closed || this.state !== 'closed') return;
    this.lastError = reason;
    this.waitMs = this.openMs;
    this.opened++;
    this.transition('open');
    this.probeSoon(this.waitMs);
  }

  private transition(next: BreakerState): void {
    const previous = this.state;
    this.state = next;
    this.since = this.now();
    if (next === 'closed') this.failures = 0;
    this.options.onStateChange?.(this.status(), previous);
  }

  private probeSoon(delayMs: number): void {
    if (this.closed) return;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => void this.probe(), delayMs);
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    if (this.closed || this.state !== 'open' || this.probing) return;
    this.probing = true;
    this.transition('half-open');
    try {
      if (this.client.status !== 'ready') throw new Error(`redis connection is ${this.client.status}`);
      await this.deadline(this.client.ping());
      await this.deadline(
        (async () => {
          for (const hook of this.hooks) await hook();
        })(),
        this.recoveryTimeoutMs,
      );
      if (this.closed) return;
      this.waitMs = this.openMs;
      this.transition('closed');
    } catch (err) {
      this.lastError = (err as Error)?.message ?? String(err);
      if (this.closed) return;
      this.waitMs = Math.min(this.maxOpenMs, this.waitMs * 2);
      this.transition('open');
      this.probeSoon(this.waitMs);
    } finally {
      this.probing = false;
    }
  }

  private deadline<R>(command: Promise<R>, ms = this.timeoutMs): Promise<R> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisUnavailableError(`redis: no reply within ${ms} ms`)), ms);
      timer.unref();
    });
    // A command that fails after losing the race must not become an unhandled rejection.
    command.catch(() => {});
    return Promise.race([command, late]).finally(() => clearTimeout(timer));
  }
}
