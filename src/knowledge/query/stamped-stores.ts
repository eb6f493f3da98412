/**
 * The knowledge and key stores as the services use them when knowledge-base copies are kept
 * (knowledge-base-copies.ts): every write that changes what a query reads of a knowledge base (its
 * row, keys, records, widget sighting) marks it changed once it has committed, so the copies on
 * every instance go stale. Wrapped at the store, not in each service, so no write path is missed;
 * every other method passes through untouched.
 */
import type { KeyStore, KnowledgeStore } from '../../ports/storage.js';

/** The writes, with the position of their `ragId` argument. */
const knowledgeWrites: Partial<Record<keyof KnowledgeStore, number>> = {
  updateKnowledgeBase: 1,
  deleteKnowledgeBase: 1,
  noteWidgetSeen: 0,
  commitSource: 1,
  commitPageSource: 1,
  deleteSource: 1,
  deleteRecord: 1,
};
const keyWrites: Partial<Record<keyof KeyStore, number>> = { createApiKey: 1, updateApiKey: 1, revokeApiKey: 1 };

function stamped<T extends object>(store: T, writes: Partial<Record<keyof T, number>>, changed: (ragId: string) => Promise<void>): T {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const at = writes[property as keyof T];
      if (at === undefined) return (value as (...args: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          // Also after a failure: whether the write committed is not known here, and a needless change costs one row read.
          await changed(String(args[at]));
        }
      };
    },
  });
}

export function stampedKnowledgeStore(store: KnowledgeStore, changed: (ragId: string) => Promise<void>): KnowledgeStore {
  return stamped(store, knowledgeWrites, changed);
}

export function stampedKeyStore(store: KeyStore, changed: (ragId: string) => Promise<void>): KeyStore {
  return stamped(store, keyWrites, changed);
}
