/**
 * The one storage implementation: the port's stores over Kysely, for SQLite
 * (sqlite/dialect.ts, the embedded default) and PostgreSQL (postgres/dialect.ts,
 * for several instances). What differs between the two is said in sql.ts
 * (concurrency) and migrations.ts (DDL); everything else is written once.
 */
import { sql } from 'kysely';
import type { AccountStore, ConnectedAgentStore, KeyStore, KnowledgeStore, OAuthStore, SigningKeyStore, Store, UsageStore } from '../../ports/storage.js';
import { SqlAccountStore } from './account-store.js';
import { SqlConnectedAgentStore } from './connected-agent-store.js';
import { SqlKeyStore } from './key-store.js';
import { SqlKnowledgeStore } from './knowledge-store.js';
import { migrate } from './migrator.js';
import { SqlOAuthStore } from './oauth-store.js';
import { SqlSigningKeyStore } from './signing-key-store.js';
import type { SqlContext } from './sql.js';
import { SqlUsageStore } from './usage-store.js';

export abstract class SqlStore implements Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly knowledge: KnowledgeStore;
  readonly accounts: AccountStore;
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  readonly signingKeys: SigningKeyStore;
  readonly oauth: OAuthStore;
  readonly connectedAgents: ConnectedAgentStore;

  protected constructor(
    protected readonly ctx: SqlContext,
    /** The PostgreSQL schema holding the tables, if not the default. */
    private readonly schema?: string,
  ) {
    this.kind = ctx.kind;
    this.knowledge = new SqlKnowledgeStore(ctx);
    this.accounts = new SqlAccountStore(ctx);
    this.keys = new SqlKeyStore(ctx);
    this.usage = new SqlUsageStore(ctx);
    this.signingKeys = new SqlSigningKeyStore(ctx);
    this.oauth = new SqlOAuthStore(ctx);
    this.connectedAgents = new SqlConnectedAgentStore(ctx);
  }

  async migrate(): Promise<void> {
    await migrate(this.ctx.db, this.ctx.kind, this.schema);
  }

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.ctx.db);
  }

  /**
   * Closes the driver's connection or pool directly (not Kysely's destroy()), so a query that
   * arrives after close fails with the driver's own error, which store-outage.ts recognises as an
   * unavailable database (503) during shutdown.
   */
  abstract close(): Promise<void>;
}
