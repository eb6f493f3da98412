/** The retrieval contract on the in-memory BM25F registry, over SQLite (the default deployment). */
import { describe } from 'vitest';
import { SqliteStore } from '../../src/adapters/storage/sqlite/dialect.js';
import { IndexRegistry } from '../../src/knowledge/query/index-registry.js';
import { retrieverContract } from './contract.js';

describe('in-memory retriever contract (SQLite)', () => {
  retrieverContract(async () => {
    const store = new SqliteStore(':memory:');
    await store.migrate();
    const retriever = new IndexRegistry(store.knowledge);
    return {
      store,
      retriever,
      async close() {
        await retriever.close();
        await store.close();
      },
    };
  });
});
