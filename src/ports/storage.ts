/**
 * The storage port: everything the domain needs from a database, and nothing
 * of SQL. The domain owns it (adapters import it, never the other way round);
 * one implementation over Kysely (src/adapters/storage) serves SQLite and
 * PostgreSQL and passes one contract suite (test/storage/contract.ts). Rules that must hold under concurrency —
 * the knowledge-base limit, the record quota, keys per knowledge base,
 * sign-in code budgets and guess counts, deduplication — are decided
 * inside the store's transaction, so they are exact on every backend.
 *
 * `ownerId` in the knowledge, key and usage stores is the acting account. A
 * knowledge base belongs to it when the account owns it, or — for an agent
 * account a person adopted with access only to what the agent makes
 * (`adoptAgentAccount(…, 'own')`) — when that agent account created it: such
 * an account owns nothing itself, creates into the person's account, and
 * reaches no other knowledge base of it (not found, as any foreign one).
 */
import type { MaybePromise } from '../maybe-promise.js';
import type { Sealer } from '../secrets.js';
import type { AdoptedAgentRow, ConnectedGrantRow } from '../identity/connected-agents/model.js';
import type { Account, Session, SignInCode } from '../identity/model.js';
import type {
  AccountKey,
  AgentAccess,
  AgentRegistration,
  AuthorizationCode,
  Claim,
  Grant,
  OAuthClient,
  RefreshToken,
  RotateOutcome,
} from '../identity/oauth/model.js';
import type { SourceFormat } from '../knowledge/extraction/types.js';
import type {
  ApiKey,
  CandidateRecord,
  DailyUsage,
  KnowledgeBase,
  KnowledgeRecord,
  Page,
  Source,
  SourcedRecord,
  UnansweredQuestion,
  WidgetTheme,
  WidgetSighting,
} from '../knowledge/model.js';
import type { SynonymGroups } from '../knowledge/synonyms.js';

export interface NewKnowledgeBase {
  ragId: string;
  ownerId: string;
  botName: string;
  description: string | null;
  greeting: string | null;
  /** Absent or null: none (the default refusal). */
  fallbackMessage?: string | null;
  /** Absent or empty: none. */
  synonyms?: SynonymGroups;
  /** Absent or empty: none. */
  starterQuestions?: string[];
  theme: WidgetTheme;
}

export type KnowledgeBasePatch = Partial<Pick<KnowledgeBase, 'botName' | 'description' | 'greeting' | 'fallbackMessage' | 'synonyms' | 'starterQuestions' | 'theme'>>;

export type CreateKnowledgeBaseResult =
  | { kind: 'created'; knowledgeBase: KnowledgeBase }
  | { kind: 'limit_reached'; active: number };

export interface NewSource {
  sourceId: string;
  sourceName: string;
  format: SourceFormat;
  byteSize: number;
  sha256: string;
  rejectedCount: number;
}

export type CommitSourceResult =
  | {
      kind: 'committed';
      source: Source;
      /** Fingerprints (in upload order) that were already in the knowledge base or earlier in this upload. */
      duplicateFingerprints: string[];
      knowledgeBase: KnowledgeBase;
    }
  | { kind: 'quota_exceeded'; needed: number; available: number }
  | { kind: 'not_found' };

/** A web page to store as a source (import from a URL): one source per URL and knowledge base. */
export interface NewPageSource extends NewSource {
  /** The page's URL, as the identity of its source on re-import. */
  url: string;
  /** `sha256` is of the page's extracted content: equal → the page is left alone. */
}

export type CommitPageResult =
  | {
      /** `added`: no source had this URL; `updated`: its records were replaced; `unchanged`: same content SHA-256, nothing written. */
      kind: 'added' | 'updated' | 'unchanged';
      source: Source;
      /** Records stored by this commit. */
      added: number;
      /** Records of the page's previous version that it no longer has, deleted by this commit. */
      removed: number;
      /** Records of the previous version the new one still has (same fingerprint): kept as they were, ids included. */
      kept: number;
      /** Fingerprints (in page order) already stored by another source or earlier in the page. */
      duplicateFingerprints: string[];
      knowledgeBase: KnowledgeBase;
    }
  | { kind: 'quota_exceeded'; needed: number; available: number }
  | { kind: 'not_found' };

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

export interface KnowledgeStore {
  /**
   * Creates for `input.ownerId`, or — when that is an agent account adopted with 'own' access — for
   * the adopting account, marked as the agent's; the limit counts the owning account's knowledge bases.
   */
  createKnowledgeBase(input: NewKnowledgeBase, maxActive: number): Promise<CreateKnowledgeBaseResult>;
  /** The knowledge bases the account reaches (see the note on `ownerId` above), oldest first. */
  listKnowledgeBases(ownerId: string): Promise<KnowledgeBase[]>;
  /** The knowledge base if it exists and belongs to `ownerId`. */
  getKnowledgeBase(ownerId: string, ragId: string): Promise<KnowledgeBase | undefined>;
  /**
   * The knowledge base whoever owns it (for query keys and caches), as of the last write: every
   * query reads it. The result may be shared with other callers (and frozen): never modify it.
   * The value itself when it is in memory (SQLite's row cache), a promise when it is read (src/maybe-promise.ts).
   */
  findKnowledgeBase(ragId: string): MaybePromise<KnowledgeBase | undefined>;
  updateKnowledgeBase(ownerId: string, ragId: string, patch: KnowledgeBasePatch): Promise<KnowledgeBase | undefined>;
  /** Deletes the knowledge base with its sources and records. False when it is not the owner's. */
  deleteKnowledgeBase(ownerId: string, ragId: string): Promise<boolean>;
  /**
   * Writes the first widget sighting of the knowledge base, once: true when this call wrote it,
   * false when one was already stored (or the knowledge base is gone). Concurrent first requests
   * write one sighting between them.
   */
  noteWidgetSeen(ragId: string, sighting: WidgetSighting): Promise<boolean>;

  /**
   * One transaction: dedupes the candidates against the knowledge base and
   * against each other by fingerprint, refuses the whole upload when the new
   * records exceed `maxRecords - recordCount`, otherwise stores the source and
   * its new records and bumps the content version.
   */
  commitSource(ownerId: string, ragId: string, source: NewSource, candidates: CandidateRecord[], maxRecords: number): Promise<CommitSourceResult>;
  /**
   * One transaction, for a page imported from a URL: when no source of the knowledge base has
   * `page.url`, as `commitSource` (with the URL stored); when one has it with the same `sha256`,
   * nothing is written (`unchanged`); otherwise its records are replaced by the candidates by
   * fingerprint — records still present kept (same ids), the others deleted, new ones added (deduped
   * against the rest of the knowledge base) — and its name, size and counts updated. The quota counts
   * the records freed by the replacement; a page that does not fit changes nothing.
   */
  commitPageSource(ownerId: string, ragId: string, page: NewPageSource, candidates: CandidateRecord[], maxRecords: number): Promise<CommitPageResult>;
  listSources(ownerId: string, ragId: string, page: PageRequest): Promise<Page<Source> | undefined>;
  /** Removes the source and its records; false when either is not found for this owner. */
  deleteSource(ownerId: string, ragId: string, sourceId: string): Promise<boolean>;

  listRecords(ownerId: string, ragId: string, page: PageRequest & { sourceId?: string | undefined }): Promise<Page<KnowledgeRecord> | undefined>;
  deleteRecord(ownerId: string, ragId: string, recordId: string): Promise<boolean>;
  /** Every record of a knowledge base with its source name, regardless of owner (for building the retrieval index). */
  allRecords(ragId: string): Promise<SourcedRecord[]>;
  /**
   * Every record (in upload order) with the content version they are the records of, read as one
   * snapshot; undefined when the knowledge base is gone.
   */
  recordSnapshot(ragId: string): Promise<RecordSnapshot | undefined>;
  /**
   * What changed in the knowledge base's records after content version `since`, up to the current
   * version, read as one snapshot: the records written since (upload order) and the ids removed
   * since. Undefined when the history does not reach back to `since` (removals are kept for recent
   * versions only, none from before the store kept them) or the knowledge base is gone: then
   * only `recordSnapshot` tells.
   */
  recordChanges(ragId: string, since: number): Promise<RecordChanges | undefined>;
  /**
   * The stored form of the knowledge base's retrieval index (opaque bytes, see
   * src/knowledge/retrieval/index-snapshot.ts) with the content version it was built at;
   * undefined when none is stored. Large (~27 MB at 100,000 records): read in bounded pieces with
   * other work let run between them, never in one long synchronous step (issue 14), and never a
   * mix of two snapshots when one replaces another meanwhile.
   */
  readIndexSnapshot(ragId: string): Promise<IndexSnapshot | undefined>;
  /**
   * Stores the index's stored form, replacing the knowledge base's one unless that is of a newer
   * version. False when it was not stored: a newer one is, or the knowledge base is gone (its
   * snapshot goes with it). Written in bounded pieces too, the stored one replaced at once.
   */
  writeIndexSnapshot(ragId: string, snapshot: IndexSnapshot): Promise<boolean>;
}

export interface IndexSnapshot {
  version: number;
  data: Uint8Array;
}

export interface RecordSnapshot {
  version: number;
  records: SourcedRecord[];
}

export interface RecordChanges {
  /** The version the changes lead to. */
  version: number;
  added: SourcedRecord[];
  removedIds: string[];
}

export interface AccountStore {
  /** The account for a verified e-mail, created on first use. */
  accountForEmail(email: string, newAccountId: string): Promise<Account>;
  getAccount(accountId: string): Promise<Account | undefined>;

  /**
   * Stores a new code unless the address already had `maxCodes` codes issued
   * since `since`, deciding in one transaction (so parallel requests cannot
   * overshoot). Earlier codes stay valid: a new request never kills a pending
   * one. False when the per-address budget is spent (nothing stored).
   */
  putSignInCode(code: SignInCode, budget: { since: string; maxCodes: number }): Promise<boolean>;
  /** Codes issued to this e-mail since `since` (for the per-address send limit). */
  countSignInCodesSince(email: string, since: string): Promise<number>;
  /**
   * Counts one guess by `requester` against every live code of the address
   * (not used, not expired at `now`) that still has attempts left, both in
   * total (`perCode`) and for this requester (`perRequester`), in one
   * transaction; returns those codes: the only ones the guess may be compared
   * with. The attempt is counted before the comparison, so no more than
   * `perCode` guesses are ever evaluated against a code, however many arrive at once.
   */
  reserveSignInGuess(email: string, requester: string, now: string, limits: SignInGuessLimits): Promise<SignInCode[]>;
  /** Marks the code used, and every other pending code of its address; false if it was already used (a racing second redemption). */
  consumeSignInCode(codeId: string): Promise<boolean>;
  /**
   * Takes one unit of a per-requester fixed-window counter (one conditional
   * upsert): true and counted when fewer than `limit` were taken in the window
   * starting at `windowStart`, false (and not counted) otherwise.
   */
  takeSignInAllowance(key: string, windowStart: string, limit: number): Promise<boolean>;
  /** Gives back a unit taken in that window (e.g. a verify that succeeded does not count as a failure). */
  returnSignInAllowance(key: string, windowStart: string): Promise<void>;

  putSession(session: Session): Promise<void>;
  getSession(tokenHash: string, now: string): Promise<Session | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Housekeeping: removes expired sessions and codes. */
  purgeExpired(now: string): Promise<void>;
}

export interface SignInGuessLimits {
  /** Guesses evaluated against one code, from everyone. */
  perCode: number;
  /** Guesses evaluated against one code from one requester. */
  perRequester: number;
}

export interface NewApiKey {
  keyId: string;
  name: string | null;
  prefix: string;
  /** SHA-256 (hex) of the whole key. */
  keyHash: string;
  allowedDomains: string[];
  /**
   * The whole key of a publishable (widget) key, which the store keeps sealed with the sealer given
   * to `encryptAtRest` so its owner can see it again; absent for a secret key.
   */
  publishableKey?: string | undefined;
}

export type ApiKeyPatch = Partial<Pick<ApiKey, 'name' | 'allowedDomains'>>;

/** A key found by its hash, with the version of its knowledge base's key set at the time of reading. */
export interface KeyLookup {
  key: ApiKey;
  keysVersion: number;
}

export type CreateApiKeyResult = { kind: 'created'; key: ApiKey } | { kind: 'limit_reached'; active: number } | { kind: 'not_found' };

export interface KeyStore {
  /**
   * Adds a key unless the knowledge base already has `maxKeys`, decided in one
   * transaction with the knowledge base's row locked (exact under concurrency).
   * `not_found` when the knowledge base is not the owner's.
   */
  createApiKey(ownerId: string, ragId: string, key: NewApiKey, maxKeys: number): Promise<CreateApiKeyResult>;
  /**
   * The knowledge base's live keys, oldest first. A publishable key carries its full key as
   * `apiKey` when its sealed copy opens with the sealer in use (a changed SECRET_KEY: it is listed
   * without). Secret keys never carry it.
   */
  listApiKeys(ownerId: string, ragId: string): Promise<ApiKey[] | undefined>;
  /** Changes the key and bumps the knowledge base's keys version (so caches re-check it). */
  updateApiKey(ownerId: string, ragId: string, keyId: string, patch: ApiKeyPatch): Promise<ApiKey | undefined>;
  /** Deletes the key and bumps the keys version; false when not found for this owner. */
  revokeApiKey(ownerId: string, ragId: string, keyId: string): Promise<boolean>;
  findApiKeyByHash(keyHash: string): Promise<KeyLookup | undefined>;
  /** Whether any key lists one of these whitelist patterns (CORS preflights carry no key, only an Origin). */
  anyKeyAllows(patterns: string[]): Promise<boolean>;
  /**
   * From now on publishable keys are sealed with `sealer` (AES-256-GCM under SECRET_KEY, bound to
   * the key's id) and opened with it when listed. Without it, creating a publishable key throws.
   */
  encryptAtRest(sealer: Sealer): void;
}

/** Counts added to one knowledge base's usage for one UTC day (usage is written in batches). */
export interface UsageDelta {
  ragId: string;
  day: string;
  queries: number;
  cacheHits: number;
  unanswered: number;
  /** Questions the knowledge base could not answer, as asked (trimmed, at most 500 characters each). */
  unansweredQuestions: AskedQuestion[];
  /** Visitors' feedback on answers that day: how many said helpful, how many not (absent: none). */
  helpful?: number;
  unhelpful?: number;
  /** The feedback by question (absent: none); its time is the delta's `at`. */
  feedback?: FeedbackDelta[];
  /** ISO time of the latest query or feedback in the batch. */
  at: string;
}

/**
 * A visitor's question as the owner's lists keep it. A follow-up ("And how long does that take?")
 * also keeps the earlier questions it leaned on, so the owner can read it, and is another question
 * than the same words asked after something else (`questionInContext`).
 */
export interface AskedQuestion {
  /** As asked (trimmed, at most 500 characters). */
  question: string;
  /** For a follow-up, the earlier questions it leaned on, joined (at most 500 characters). */
  askedAfter?: string;
}

/** Feedback on the answers to one question within a batch: the latest wording and cited records, and the counts. */
export interface FeedbackDelta extends AskedQuestion {
  /** The records the answer cited, as the latest feedback named them (not checked against the records). */
  recordIds: string[];
  helpful: number;
  unhelpful: number;
}

/** A question visitors gave feedback on, as stored, its records resolved to those the knowledge base still holds. */
export interface StoredFeedback {
  question: string;
  /** For a follow-up, the earlier questions it leaned on. */
  askedAfter?: string;
  helpful: number;
  unhelpful: number;
  lastAt: string;
  records: { recordId: string; title: string | null; sourceName: string }[];
}

export interface UsageReport {
  days: DailyUsage[];
  unanswered: UnansweredQuestion[];
  /** The questions whose answers visitors found unhelpful, the most often first. */
  feedback: StoredFeedback[];
}

export interface UsageStore {
  /** Adds the deltas in one transaction; deltas for knowledge bases deleted meanwhile are dropped. */
  recordUsage(deltas: UsageDelta[]): Promise<void>;
  /**
   * The last `days` days that have usage (oldest first), the most frequent unanswered questions and
   * the questions with the most unhelpful feedback (at most `listLimit` of each).
   */
  usage(ownerId: string, ragId: string, sinceDay: string, listLimit: number): Promise<UsageReport | undefined>;
  /** Removes an unanswered question once a record answers it (or the owner dismisses it); a follow-up is named with what it was asked after. */
  dismissUnanswered(ownerId: string, ragId: string, asked: AskedQuestion): Promise<boolean>;
  /** Removes the feedback on a question (the owner has dealt with it); false when there is none. */
  dismissFeedback(ownerId: string, ragId: string, asked: AskedQuestion): Promise<boolean>;
}

/** A signing key pair kept in the store, so every instance signs with the same keys and they survive restarts. */
export interface StoredSigningKey {
  /** RFC 7638 thumbprint of the public key. */
  kid: string;
  /** What the key signs: `oauth` (access tokens) or `web-bot-auth` (our signed directory and requests). */
  purpose: string;
  alg: string;
  publicJwk: Record<string, unknown>;
  privateJwk: Record<string, unknown>;
  createdAt: string;
  /** Set when the key no longer signs; it still verifies until it is removed. */
  retiredAt: string | null;
}

export interface SigningKeyStore {
  /** Keys of a purpose, newest first, retired ones included. */
  listSigningKeys(purpose: string): Promise<StoredSigningKey[]>;
  /**
   * Inserts the key unless an active key of that purpose exists already (two
   * instances starting at once must end up with one key). Returns the active key.
   */
  addSigningKeyIfNone(key: StoredSigningKey): Promise<StoredSigningKey>;
  /** Adds a new active key and retires the previous active ones (rotation). */
  rotateSigningKey(key: StoredSigningKey): Promise<void>;
  /**
   * From now on private halves are stored sealed with `sealer` (see sealed-keys.ts) and opened
   * when listed. Opens every stored key at once, so a wrong SECRET_KEY fails start-up with
   * SigningKeySecretError, and seals any key still in plain text. Called once at start-up.
   */
  encryptAtRest(sealer: Sealer): Promise<void>;
}

/** What an issued grant carries: a refresh token, an account API key, or neither (access token only). */
export interface GrantCredential {
  refresh?: RefreshToken | undefined;
  accountKey?: AccountKey | undefined;
}

/**
 * OAuth clients, agent claims, authorization codes, grants, refresh tokens,
 * account keys, external identities and the ID-JAG `jti` replay record. The
 * single-use rules (claims, codes, refresh-token rotation, jti) are decided by
 * one conditional write each, so they hold across instances.
 */
export interface OAuthStore {
  createClient(client: OAuthClient): Promise<void>;
  getClient(clientId: string): Promise<OAuthClient | undefined>;
  /**
   * Stores a client known from its metadata document (kind `cimd`, its id the document URL), so
   * its codes and grants have a client row: inserted the first time, its metadata replaced after
   * (created_at kept). Never overwrites a client of another kind.
   */
  saveDocumentClient(client: OAuthClient): Promise<void>;
  /**
   * One transaction: the agent's new account (if any), its client and its claim. With `mailBudget`
   * (verified_email claims, each sends a mail) nothing is stored and the answer is false when the
   * claim's address already has `max` verified_email claims made since `since`; decided under a
   * per-address lock, so parallel registrations cannot overshoot.
   */
  registerAgent(registration: AgentRegistration, mailBudget?: { since: string; max: number }): Promise<boolean>;
  /** The account bound to an external identity (issuer, subject), created with no e-mail on first use. */
  accountForExternalIdentity(issuer: string, subject: string, newAccountId: string, now: string): Promise<string>;

  findClaim(claimHash: string): Promise<Claim | undefined>;
  findClaimByCode(codeHash: string): Promise<Claim | undefined>;
  /**
   * Takes one confirmation-code attempt of a pending verified_email claim (not confirmed, not
   * expired at `now`, fewer than `maxAttempts` taken), in one conditional write: true when taken.
   * Taken before the code is compared, so no more than `maxAttempts` guesses are ever evaluated,
   * however many arrive at once; at `maxAttempts` the claim is locked.
   */
  reserveClaimAttempt(claimHash: string, maxAttempts: number, now: string): Promise<boolean>;
  /** Confirms a pending verified_email claim and binds its client to the account; false if not pending or expired. */
  confirmClaim(claimHash: string, accountId: string, now: string): Promise<boolean>;
  /**
   * Marks the claim redeemed and stores the grant and its credential, in one
   * transaction; false when the claim is already redeemed, expired or unconfirmed.
   */
  redeemClaim(claimHash: string, now: string, grant: Grant, credential: GrantCredential): Promise<boolean>;
  /**
   * A person takes ownership of an anonymous agent's account; its knowledge bases move to
   * `intoAccountId`. `account`: the agent's clients, grants and codes move too, so the agent acts as
   * the person's whole account. `own`: they stay with the agent account, which is marked adopted
   * into the person's: its knowledge bases are marked as made by it, and it reaches only those and
   * the ones it makes later. False when the claim is not anonymous, already adopted or the account
   * has an e-mail (the caller decides how long claim_uri stays usable for this).
   */
  adoptAgentAccount(claimHash: string, intoAccountId: string, now: string, access: AgentAccess): Promise<boolean>;

  putAuthorizationCode(code: AuthorizationCode): Promise<void>;
  findAuthorizationCode(codeHash: string): Promise<AuthorizationCode | undefined>;
  /** Marks the code used and stores the grant issued from it, in one transaction; false when it was used meanwhile. */
  redeemAuthorizationCode(codeHash: string, now: string, grant: Grant, credential: GrantCredential): Promise<boolean>;

  createGrant(grant: Grant, credential: GrantCredential): Promise<void>;
  getGrant(grantId: string): Promise<Grant | undefined>;
  revokeGrant(grantId: string, now: string): Promise<void>;
  findRefreshToken(tokenHash: string): Promise<RefreshToken | undefined>;
  /**
   * Exchanges a live refresh token for `chain[0]` (same grant), under a lock on the token's row.
   * `chain` is the presented token's line of successors (callers derive each from the one before,
   * so a repeat names the same ones). A token already exchanged revokes its whole grant (`reused`)
   * — unless it was exchanged after `graceSince` and its grant is live: then the chain is followed
   * to the first successor not yet exchanged (expired or missing ends it), nothing changes and the
   * answer is `rotated` again, `repeated`, with that successor's index. An expired, unknown or
   * revoked token is `invalid`. Without `graceSince` there is no grace.
   */
  rotateRefreshToken(tokenHash: string, chain: readonly RefreshToken[], now: string, graceSince?: string): Promise<RotateOutcome>;
  findAccountKey(keyHash: string): Promise<AccountKey | undefined>;

  /** Records an assertion's (issuer, jti) until `expiresAt`; false when it is already recorded and not expired. */
  useJti(issuer: string, jti: string, expiresAt: string, now: string): Promise<boolean>;
  /** Housekeeping: expired codes, claims, refresh tokens and jti records. */
  purgeExpired(now: string): Promise<void>;
}

/**
 * The person's view of the agents connected to their account, and revocation (issue 15, item 7).
 * "The person's grants" are those of `accountId` and of agent accounts adopted into it with 'own'
 * access (`accounts.adopted_into`): every method is confined to them, so another account's ids
 * answer exactly as unknown ones do. Each revocation is one transaction; since every credential is
 * checked against its grant in the store on use (access tokens by `sid`), it holds at once on
 * every instance.
 */
export interface ConnectedAgentStore {
  /**
   * The person's live grants, oldest first: not revoked, and holding an account key, a refresh
   * token neither exchanged nor expired at `now`, or created after `accessSince` (its access
   * tokens may still be valid).
   */
  listConnectedGrants(accountId: string, now: string, accessSince: string): Promise<ConnectedGrantRow[]>;
  /** The anonymous agents adopted into the account (either access), oldest adoption first. */
  listAdoptedAgents(accountId: string): Promise<AdoptedAgentRow[]>;
  /**
   * Disconnects a client from the account, in one transaction: revokes every grant it holds for
   * the account, spends its unused authorization codes for it, and unbinds the client if it acts
   * for the account (so client_credentials cannot mint a new grant). False when none of that applied.
   */
  revokeClient(accountId: string, clientId: string, now: string): Promise<boolean>;
  /** Revokes one of the person's grants; false when it is not theirs or already revoked. */
  revokeConnectedGrant(accountId: string, grantId: string, now: string): Promise<boolean>;
  /** Revokes the grant of one of the person's account keys; false when it is not theirs or already revoked. */
  revokeAccountKey(accountId: string, keyId: string, now: string): Promise<boolean>;
  /**
   * Revokes every grant of an anonymous agent adopted into the account, in one statement; false
   * when the client is not such an agent (true, changing nothing, when it holds none any more).
   */
  revokeAdoptedAgent(accountId: string, clientId: string, now: string): Promise<boolean>;
  /**
   * Records a use of the grant at `at` unless one is recorded at or after `staleBefore` (one
   * conditional UPDATE, so instances racing write once between them).
   */
  noteGrantUsed(grantId: string, at: string, staleBefore: string): Promise<void>;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly signingKeys: SigningKeyStore;
  readonly oauth: OAuthStore;
  readonly connectedAgents: ConnectedAgentStore;
  readonly knowledge: KnowledgeStore;
  readonly accounts: AccountStore;
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  /** Runs the pending migrations; called once at start-up. */
  migrate(): Promise<void>;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
