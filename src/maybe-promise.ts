/**
 * A value now, or a promise of it later.
 *
 * The reads on a query's way in — the knowledge base's row, the key, the rate limits, the cached
 * answer — are answered from memory on a single instance (SQLite's row cache, the key cache, the
 * in-process limiter and answer cache), and from the network only with PostgreSQL or Redis. A
 * promise for a value already here still costs microtask turns to settle it and to resume whoever
 * awaits it: in a saturated server, eight awaits of an async function that returned at once added
 * ~4 µs to a request, and a cached query went through about as many (docs/indexing.md, "Session
 * 39"). The ports on that path return the value itself when they have it. A caller that `await`s
 * is unchanged; the query path chains with `andThen`, which stays synchronous while every step does.
 *
 * A step that fails now throws; one that fails later rejects. Code that must not throw
 * synchronously (an event handler, say) awaits the value inside an async function instead.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** `next(value)`: now when the value is here, otherwise once it settles. */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isPromise(value) ? value.then(next) : next(value);
}
