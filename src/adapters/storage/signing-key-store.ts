/** Signing key pairs (see SigningKeyStore); private halves sealed at rest (see sealed-keys.ts). */
import { sql } from 'kysely';
import type { SigningKeyStore, StoredSigningKey } from '../../ports/storage.js';
import type { Sealer } from '../../secrets.js';
import { type Row, toSigningKey } from './rows.js';
import { isPlainPrivateJwk, openPrivateJwk, sealPrivateJwk } from './sealed-keys.js';
import type { Db, SqlContext } from './sql.js';

export class SqlSigningKeyStore implements SigningKeyStore {
  private sealer: Sealer | undefined;

  constructor(private readonly ctx: SqlContext) {}

  async encryptAtRest(sealer: Sealer): Promise<void> {
    this.sealer = sealer;
    await this.toKeys(this.ctx.db, (await this.ctx.db.selectFrom('signing_keys').selectAll().execute()) as Row[]);
  }

  async listSigningKeys(purpose: string): Promise<StoredSigningKey[]> {
    const rows = await this.ctx.db.selectFrom('signing_keys').selectAll().where('purpose', '=', purpose).orderBy('created_at', 'desc').orderBy('kid').execute();
    return this.toKeys(this.ctx.db, rows as Row[]);
  }

  /**
   * Opens each row's private half (text on SQLite; on PostgreSQL's jsonb a parsed object when plain,
   * a string when sealed), sealing in place any still in plain text. The update applies only while
   * the row is still plain, so two instances upgrading at once leave one sealed value.
   */
  private async toKeys(db: Db, rows: Row[]): Promise<StoredSigningKey[]> {
    const keys: StoredSigningKey[] = [];
    for (const row of rows) {
      const key = toSigningKey({ ...row, private_jwk: '{}' });
      key.privateJwk = openPrivateJwk(row.private_jwk, key, this.sealer);
      if (this.sealer && isPlainPrivateJwk(row.private_jwk)) {
        const sealed = sealPrivateJwk(key.privateJwk, key, this.sealer);
        const update = db.updateTable('signing_keys').where('kid', '=', key.kid);
        await (this.ctx.kind === 'postgres'
          ? update.set({ private_jwk: JSON.stringify(sealed) }).where(sql<boolean>`jsonb_typeof(private_jwk) = 'object'`)
          : update.set({ private_jwk: sealed }).where('private_jwk', '=', row.private_jwk as string)
        ).execute();
      }
      keys.push(key);
    }
    return keys;
  }

  /** The column value: sealed when a sealer is set; JSON text (a JSON string of the sealed value for jsonb). */
  private privateColumn(key: StoredSigningKey): string {
    const value = this.sealer ? sealPrivateJwk(key.privateJwk, key, this.sealer) : key.privateJwk;
    return typeof value === 'string' && this.ctx.kind === 'sqlite' ? value : JSON.stringify(value);
  }

  private async insert(tx: Db, key: StoredSigningKey): Promise<void> {
    await tx
      .insertInto('signing_keys')
      .values({
        kid: key.kid,
        purpose: key.purpose,
        alg: key.alg,
        public_jwk: JSON.stringify(key.publicJwk),
        private_jwk: this.privateColumn(key),
        created_at: key.createdAt,
        retired_at: null,
      })
      .execute();
  }

  async addSigningKeyIfNone(key: StoredSigningKey): Promise<StoredSigningKey> {
    return this.ctx.write(async (tx) => {
      // Two instances starting at once take turns here, so only one key is created.
      await this.ctx.advisoryLock(tx, `signing_keys:${key.purpose}`);
      const active = await tx
        .selectFrom('signing_keys')
        .selectAll()
        .where('purpose', '=', key.purpose)
        .where('retired_at', 'is', null)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (active) return (await this.toKeys(tx, [active as Row]))[0] as StoredSigningKey;
      await this.insert(tx, key);
      return { ...key, retiredAt: null };
    });
  }

  async rotateSigningKey(key: StoredSigningKey): Promise<void> {
    await this.ctx.write(async (tx) => {
      await this.ctx.advisoryLock(tx, `signing_keys:${key.purpose}`);
      await tx.updateTable('signing_keys').set({ retired_at: key.createdAt }).where('purpose', '=', key.purpose).where('retired_at', 'is', null).execute();
      await this.insert(tx, key);
    });
  }
}
