/**
 * A `Map` keyed by words, split into `SHARDS` maps by a cheap hash of the word, for maps that grow
 * to 100,000 words and more while other requests wait (the PostgreSQL retriever's vocabulary, built
 * in time slices). A `Map` doubles its table when it fills and moves every entry at once: at 65,536
 * entries that took 2–3 ms, at 131,072 entries 10–14 ms, however short the build's slices
 * (session 29, docs/indexing.md). Split, each part grows in steps 1/SHARDS that size.
 *
 * The calls a `Map<string, V>` answers that the vocabulary uses; `keys()` lists the words shard by
 * shard (in the order they were added within a shard), which its users sort.
 */
const SHARDS = 64;

/** A hash of a few of the word's code units and its length: cheap, and spread enough for 64 shards. */
const shardOf = (word: string): number => {
  const n = word.length;
  return (n === 0 ? 0 : Math.imul(word.charCodeAt(n - 1), 31) + Math.imul(word.charCodeAt(n >> 1), 7) + n) & (SHARDS - 1);
};

export class ShardedMap<V> {
  private readonly shards: Map<string, V>[] = Array.from({ length: SHARDS }, () => new Map<string, V>());
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(word: string): V | undefined {
    return (this.shards[shardOf(word)] as Map<string, V>).get(word);
  }

  has(word: string): boolean {
    return (this.shards[shardOf(word)] as Map<string, V>).has(word);
  }

  set(word: string, value: V): this {
    const shard = this.shards[shardOf(word)] as Map<string, V>;
    const before = shard.size;
    shard.set(word, value);
    this.count += shard.size - before;
    return this;
  }

  delete(word: string): boolean {
    const deleted = (this.shards[shardOf(word)] as Map<string, V>).delete(word);
    if (deleted) this.count--;
    return deleted;
  }

  *keys(): IterableIterator<string> {
    for (const shard of this.shards) yield* shard.keys();
  }
}
