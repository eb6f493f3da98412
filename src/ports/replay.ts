/**
 * The replay store: remembers one-time values (Web Bot Auth signature nonces)
 * until they expire, so a second use is refused. In process by default;
 * shared through Redis (`SET NX PX`) when REDIS_URL is set, so a nonce used on
 * one instance is refused on every other.
 */
export interface ReplayStore {
  /**
   * Records `key` for `ttlMs`. True when it was new; false when it is already
   * recorded and not yet expired (a replay).
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}
