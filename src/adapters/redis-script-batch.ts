/**
 * Calls of one Lua function that are made in the same turn of the event loop leave as one script
 * call (issue 14). Under load, the queries read in one poll of the event loop each make a call;
 * one EVALSHA for all of them costs the instance one command, one socket write, one reply, one
 * breaker timer and one promise to settle, and costs Redis one script invocation, where each call
 * alone cost all of that. ioredis's auto-pipelining does not do this: it shares a socket write but
 * still sends one command per call, and it flushes on `process.nextTick`, after the I/O callback
 * that made the call, so over HTTP (one callback per request) it seldom holds more than one.
 *
 * The calls' arguments travel as one JSON argument, decoded by Redis's cjson: ioredis serialises
 * every argument of a command on its own (its length, its bytes), and for a query's two dozen short
 * strings that cost more of the instance's CPU than the rest of the round trip together. Keys stay
 * declared in KEYS, as Redis asks of scripts.
 *
 * The Lua function is `entry(k, A, nk)`: its keys are KEYS[k + 1 .. k + nk], its arguments the table
 * A (strings, as the call gave them); it returns a table, the call's reply. The batch script runs the
 * entries in order of their calls, each as it would run alone (Redis runs the whole script without
 * interleaving other commands, so each entry is still atomic), and replies with the table of their
 * replies. ARGV[1] is the JSON array of the entries, each [its key count, [its arguments…]].
 *
 * A batch holds at most `maxEntries` calls, so one script never holds Redis for long; more calls in
 * the same turn leave as several scripts in the same turn. A failed script fails every call in it.
 */
export const BATCH_LUA = `
local entries = cjson.decode(ARGV[1])
local out, k = {}, 0
for i = 1, #entries do
  local nk = entries[i][1]
  out[i] = entry(k, entries[i][2], nk)
  k = k + nk
end
return out
`;

/** Sends one batch: the script's key count, then its keys and arguments (ioredis's defineCommand layout). */
export type SendBatch = (numKeys: string, ...keysAndArgs: string[]) => Promise<unknown>;

interface Call {
  keys: readonly string[];
  args: readonly string[];
  resolve: (reply: unknown[]) => void;
  reject: (err: unknown) => void;
}

export class ScriptBatch {
  private queue: Call[] = [];
  private scheduled = false;

  constructor(
    private readonly send: SendBatch,
    private readonly maxEntries = 64,
  ) {}

  /** The entry's reply (a table), once its batch has run. */
  call(keys: readonly string[], args: readonly string[]): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ keys, args, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    for (let from = 0; from < queue.length; from += this.maxEntries) void this.run(queue.slice(from, from + this.maxEntries));
  };

  private async run(calls: readonly Call[]): Promise<void> {
    const keys: string[] = [];
    const entries: [number, readonly string[]][] = [];
    for (const call of calls) {
      for (const key of call.keys) keys.push(key);
      entries.push([call.keys.length, call.args]);
    }
    let replies: unknown;
    try {
      replies = await this.send(String(keys.length), ...keys, JSON.stringify(entries));
    } catch (err) {
      for (const call of calls) call.reject(err);
      return;
    }
    if (!Array.isArray(replies) || replies.length !== calls.length) {
      const err = new Error(`batch script replied with ${Array.isArray(replies) ? replies.length : typeof replies} for ${calls.length} calls`);
      for (const call of calls) call.reject(err);
      return;
    }
    calls.forEach((call, i) => call.resolve(replies[i] as unknown[]));
  }
}
