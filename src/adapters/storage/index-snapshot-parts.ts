/**
 * Index snapshots (see `KnowledgeStore.readIndexSnapshot`) stored in parts of at most `PART_BYTES`,
 * each read or written by a statement of its own, with other work let run between them (issue 14,
 * head of line; docs/indexing.md "Session 10"). As one value, a 100,000-record snapshot (~27 MB)
 * held the HTTP thread ~20–40 ms when read (better-sqlite3 reads synchronously; node-postgres
 * decodes a bytea at once) and ~100 ms when written; SQLite has no partial read of a value
 * (`substr` reads all of it), hence rows.
 *
 * Consistency without a long transaction (on SQLite one would hold the only connection, and so
 * every other query, while it lasts): every write makes a new `generation` and writes its parts
 * first, then points the knowledge base's row (`index_snapshots`) at them in one short
 * transaction, which also decides whether it replaces the stored one (not an older version),
 * and only then removes the parts of other generations. A reader reads the row, then that
 * generation's parts; a part gone meanwhile (a newer snapshot replaced it) makes it start again
 * with the new row, so it never mixes two snapshots. Parts left behind by a write that stopped
 * half-way are removed by the next write of that knowledge base. (Two instances writing the same
 * knowledge base's snapshot at once may take each other's parts; a reader then finds one missing
 * and the index is built from the records, which writes a whole snapshot again.)
 */
import { randomUUID } from 'node:crypto';
import type { IndexSnapshot } from '../../ports/storage.js';
import { type Db, now, type SqlContext } from './sql.js';
import { nextTurn } from '../../time-slices.js';

/** Bytes per part: ~1 ms to read on SQLite, a few to decode on PostgreSQL. */
export const PART_BYTES = 1 << 20;
/** Times a read starts again when a newer snapshot replaced the one it was reading. */
const READ_ATTEMPTS = 3;

export async function readIndexSnapshot(db: Db, ragId: string): Promise<IndexSnapshot | undefined> {
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    const head = await db.selectFrom('index_snapshots').select(['content_version', 'generation', 'parts', 'byte_length']).where('rag_id', '=', ragId).executeTakeFirst();
    if (!head) return undefined;
    const length = Number(head.byte_length);
    const parts = Number(head.parts);
    const data = new Uint8Array(length);
    let at = 0;
    let part = 0;
    for (; part < parts; part++) {
      if (part > 0) await nextTurn();
      const row = await db
        .selectFrom('index_snapshot_parts')
        .select('data')
        .where('rag_id', '=', ragId)
        .where('generation', '=', head.generation)
        .where('part', '=', part)
        .executeTakeFirst();
      if (!row || at + row.data.length > length) break;
      data.set(row.data, at);
      at += row.data.length;
    }
    if (part === parts && at === length) return { version: Number(head.content_version), data };
    // Replaced while it was read (its parts went with it): read the one that replaced it.
  }
  return undefined;
}

export async function writeIndexSnapshot(ctx: SqlContext, ragId: string, snapshot: IndexSnapshot): Promise<boolean> {
  const { db } = ctx;
  // Refused early, before writing any part, when a newer one is stored or the knowledge base is gone.
  const stored = await db.selectFrom('index_snapshots').select('content_version').where('rag_id', '=', ragId).executeTakeFirst();
  if ((stored && Number(stored.content_version) > snapshot.version) || !(await knowledgeBaseExists(db, ragId))) return false;

  // A view, not a copy: both drivers bind Buffers as blobs (bytea).
  const bytes = Buffer.from(snapshot.data.buffer, snapshot.data.byteOffset, snapshot.data.byteLength);
  const generation = randomUUID();
  const parts = Math.ceil(bytes.length / PART_BYTES);
  let replaced = false;
  try {
    for (let part = 0; part < parts; part++) {
      if (part > 0) await nextTurn();
      const data = bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES);
      await ctx.write((tx) => tx.insertInto('index_snapshot_parts').values({ rag_id: ragId, generation, part, data }).execute());
    }
    replaced = await ctx.write(async (tx) => {
      if (!(await knowledgeBaseExists(tx, ragId))) return false;
      const at = now();
      const head = { content_version: snapshot.version, generation, parts, byte_length: bytes.length, created_at: at };
      const result = await tx
        .insertInto('index_snapshots')
        .values({ rag_id: ragId, ...head })
        // Replaced by one of the same version too: it may come from newer code (see index-snapshot.ts).
        .onConflict((oc) => oc.column('rag_id').doUpdateSet(head).where('index_snapshots.content_version', '<=', snapshot.version))
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    });
  } catch (error) {
    // The knowledge base went meanwhile (its parts with it), or the store failed: nothing replaced.
    await dropParts(ctx, ragId, (g) => g === generation).catch(() => undefined);
    if (!(await knowledgeBaseExists(db, ragId))) return false;
    throw error;
  }
  // The replaced snapshot's parts (and any a stopped write left), or this one's when it was refused.
  await dropParts(ctx, ragId, (g) => (replaced ? g !== generation : g === generation));
  return replaced;
}

async function knowledgeBaseExists(db: Db, ragId: string): Promise<boolean> {
  return (await db.selectFrom('knowledge_bases').select('rag_id').where('rag_id', '=', ragId).executeTakeFirst()) !== undefined;
}

/** Deletes the knowledge base's parts of the generations `which` selects, one part per statement. */
async function dropParts(ctx: SqlContext, ragId: string, which: (generation: string) => boolean): Promise<void> {
  const keys = await ctx.db.selectFrom('index_snapshot_parts').select(['generation', 'part']).where('rag_id', '=', ragId).execute();
  for (const { generation, part } of keys) {
    if (!which(generation)) continue;
    await nextTurn();
    await ctx.write((tx) => tx.deleteFrom('index_snapshot_parts').where('rag_id', '=', ragId).where('generation', '=', generation).where('part', '=', part).execute());
  }
}
