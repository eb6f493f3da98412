/**
 * The query path (product.md §5): authorise the key and the caller's origin,
 * apply the per-knowledge-base limits, then answer from the cache or from
 * retrieval and an answerer, as a stream of events that the JSON endpoint
 * collects and the SSE endpoint forwards. No HTTP here.
 */
import { wordsNoRecordUses } from '../retrieval/unknown-words.js';
import type { AnswerCache } from '../../ports/answer-cache.js';
import { answerCacheKey } from './answer-cache-key.js';
import { askedQuestion } from './same-question.js';
import type { LimitDecision, RateLimiter } from '../../ports/rate-limiter.js';
import { queryRules } from '../../limits/rules.js';
import type { AskedQuestion, KnowledgeStore } from '../../ports/storage.js';
import { DomainError } from '../../errors.js';
import type { ApiKeyService } from '../keys/api-key-service.js';
import { type CallerOrigin, callerOrigin, hostAllowed } from '../keys/domains.js';
import type { ApiKey, KnowledgeBase } from '../model.js';
import { andThen, isPromise, type MaybePromise } from '../../maybe-promise.js';
import type { TermStats } from '../answering/plan-options.js';
import type { Retriever } from '../retrieval/port.js';
import { askedAfter, contextualQuery } from '../answering/follow-up.js';
import { smallTalk } from '../answering/small-talk.js';
import { type Suggestion, suggestionsFor } from '../answering/suggestions.js';
import type { Answerer, AnswerInput, Citation, RetrievedRecord, Turn } from './answerer.js';
import { checkedConversation } from './conversation.js';
import type { UsageRecorder } from './usage-recorder.js';
import type { KnowledgeBaseCopies, KnowledgeBaseCopy } from './knowledge-base-copies.js';
import type { AdmissionCheck, AdmissionResult } from '../../ports/admission.js';
import type { ClientLimit } from '../../limits/client-limit.js';

export interface QueryLimits {
  queryRatePerMinute: number;
  queryQuotaPerDay: number;
  queryCacheTtlSeconds: number;
  /** The service's own origin (PUBLIC_URL): widget requests from it, the dashboard's preview, are not a sighting on a site. */
  publicUrl?: string;
}

export interface QueryRequest {
  apiKey: string | undefined;
  ragId: string;
  query: string;
  /** Earlier turns of the visitor's chat, oldest first, as sent (checked by `admit`). */
  conversation?: unknown;
  origin: string | undefined;
  referer: string | undefined;
  /**
   * The request's whole-service limit, when the caller left it to the query (limits/client-limit.ts):
   * taken in the admission round trip with Redis, otherwise on its own before the key is checked.
   * Taken whatever the outcome; a refusal by it is the answer.
   */
  client?: ClientLimit | undefined;
}

/** A query that passed authorisation and limits. */
export interface AdmittedQuery {
  kb: KnowledgeBase;
  query: string;
  /** The validated earlier turns (empty for a first question); `query` stays the visitor's own text. */
  conversation: readonly Turn[];
  caller: CallerOrigin;
  limits: LimitDecision;
  /**
   * Whether the usage statistics (queries, cache hits, unanswered questions) count this query.
   * `false` for the owner's Playground questions, which are not visitors' (docs/playground.md).
   */
  recordUsage?: false;
  /**
   * Whether a refusal comes with the words of the question no record uses (`DoneEvent.unknownWords`).
   * `true` for the owner's Playground: the owner can then add a record or a synonym at once, as the
   * usage report's unanswered questions let them later. Never for visitors.
   */
  explainRefusal?: true;
  /** The answer cache's entry for `key`, read in the admission round trip (undefined: none). */
  prefetched?: { key: string; value: unknown };
}

export interface DoneEvent {
  type: 'done';
  answer: string;
  sources: Citation[];
  grounded: boolean;
  cached: boolean;
  fallback?: boolean;
  /** Present and true when the query was small talk ("hi", "thanks", "are you a bot?"), answered without the records. */
  smallTalk?: boolean;
  /** A refusal's words of the question that no record uses, as typed; only when `AdmittedQuery.explainRefusal` (the Playground). */
  unknownWords?: string[];
  /** Beside a refusal, records whose titles the visitor may ask about instead (answering/suggestions.ts); absent when none. */
  suggestions?: Suggestion[];
}

export type QueryEvent = { type: 'meta'; requestId: string; cached: boolean } | { type: 'sources'; sources: Citation[] } | { type: 'token'; text: string } | DoneEvent;

interface CachedAnswer {
  answer: string;
  sources: Citation[];
  grounded: boolean;
  suggestions?: Suggestion[];
}

/** Where an answer is cached and for how long; absent when the cache is off (QUERY_CACHE_TTL_SECONDS=0). */
interface CacheSlot {
  key: string;
  ttlMs: number;
}

/** A query the cache did not answer, with where its answer will be stored: pass it to `answer()`. */
export interface CacheMiss {
  type: 'miss';
  slot: CacheSlot | undefined;
}

export interface AnswerOptions {
  /** The result of `cachedAnswer()`: the cache was just asked and missed, so it is not asked again. */
  miss?: CacheMiss;
}

export interface SearchResult {
  recordId: string;
  sourceName: string;
  title: string | null;
  passage: string;
  score: number;
}

export const maxQueryChars = 4000;

/** The events of a cached answer: meta, sources, the whole answer as one token, done. */
export function cachedEvents(requestId: string, done: DoneEvent): QueryEvent[] {
  return [{ type: 'meta', requestId, cached: true }, { type: 'sources', sources: done.sources }, { type: 'token', text: done.answer }, done];
}

/** The first event of a fresh answer's stream, sent before any of its work. */
export function freshMeta(requestId: string): QueryEvent {
  return { type: 'meta', requestId, cached: false };
}

/**
 * The events after `meta` of a fresh answer known whole (an in-process answerer's, or small talk):
 * its sources, the answer as one `token` (none when it is empty), then `done` — what `answer()`
 * yields for it, without a generator step per event.
 */
export function eventsOfWholeAnswer(done: DoneEvent): QueryEvent[] {
  const sources: QueryEvent = { type: 'sources', sources: done.sources };
  return done.answer ? [sources, { type: 'token', text: done.answer }, done] : [sources, done];
}

/** The query text trimmed, or a validation error when it is empty or longer than `maxQueryChars`. */
export function checkedQuery(raw: string, location: string): string {
  const query = raw.trim();
  if (query.length === 0 || query.length > maxQueryChars) {
    throw new DomainError('validation_failed', `query must be 1 to ${maxQueryChars} characters after trimming.`, {
      errors: [{ location, message: `must be 1 to ${maxQueryChars} characters` }],
    });
  }
  return query;
}
/** How many records retrieval hands to the answerer. */
const retrievalDepth = 6;

export class QueryService {
  constructor(
    private readonly store: KnowledgeStore,
    private readonly keys: ApiKeyService,
    private readonly retriever: Retriever,
    private readonly answerer: Answerer,
    private readonly cache: AnswerCache,
    private readonly limiter: RateLimiter,
    private readonly usage: UsageRecorder,
    private readonly limits: QueryLimits,
    private readonly clock: () => number = Date.now,
    /** With Redis: knowledge-base copies confirmed by one admission round trip per query (issue 14). */
    private readonly copies?: KnowledgeBaseCopies,
  ) {
    this.ownOrigin = limits.publicUrl ? new URL(limits.publicUrl).origin : undefined;
  }

  /** The service's own origin (its dashboard preview), which is no widget sighting. */
  private readonly ownOrigin: string | undefined;

  /**
   * Checks, in order: the query text, the key (it must belong to this
   * knowledge base), the caller's origin against the key's whitelist, then
   * the limits. Everything refused here is an ordinary HTTP error, before any
   * stream starts. The admitted query itself when every check was answered from memory (a
   * single instance, src/maybe-promise.ts); a refusal is always a rejected promise.
   */
  admit(request: QueryRequest): MaybePromise<AdmittedQuery> {
    let admitted: MaybePromise<AdmittedQuery>;
    try {
      admitted = this.admitOnce(request);
    } catch (error) {
      return this.refused(request, error);
    }
    return isPromise(admitted) ? admitted.catch((error: unknown) => this.refused(request, error)) : admitted;
  }

  /** Whatever refused the query, it counts against the client's limit, and that limit's refusal comes first. */
  private async refused(request: QueryRequest, error: unknown): Promise<never> {
    await request.client?.take(this.clock());
    throw error;
  }

  /** True when `admit` takes a ClientLimit in its shared round trip rather than on its own. */
  get takesClientLimitWithAdmission(): boolean {
    return this.copies !== undefined;
  }

  private admitOnce(request: QueryRequest): MaybePromise<AdmittedQuery> {
    const query = checkedQuery(request.query, '/body/query');
    const conversation = checkedConversation(request.conversation, '/body/conversation');
    if (this.copies || request.client) return this.admitWithClient(request, query, conversation);
    return this.admitChecked(request, query, conversation, this.limiter);
  }

  /** The key, the origin and the knowledge base's limits (taken from `limiter`). */
  private admitChecked(request: QueryRequest, query: string, conversation: readonly Turn[], limiter: RateLimiter): MaybePromise<AdmittedQuery> {
    return andThen(this.authorise(request), ({ kb, caller }) =>
      andThen(this.consumeLimits(kb.ragId, limiter), (limits): AdmittedQuery => ({ kb, query, conversation, caller, limits })),
    );
  }

  /** `admitOnce` with Redis (this instance's copies) or a client limit left to the query. */
  private async admitWithClient(request: QueryRequest, query: string, conversation: readonly Turn[]): Promise<AdmittedQuery> {
    let inProcess: RateLimiter | undefined;
    if (this.copies) {
      const admitted = await this.admitWithCopies(this.copies, request, query, conversation);
      if (admitted !== undefined && admitted !== 'unavailable') return admitted;
      // A failed round trip may still have run in Redis (its reply late, not lost): its limits are
      // taken in process, as during an outage, or this query would count twice there.
      if (admitted === 'unavailable') inProcess = this.copies.inProcessLimiter;
    }
    await request.client?.take(this.clock(), inProcess);
    return this.admitChecked(request, query, conversation, inProcess ?? this.limiter);
  }

  /**
   * `admit` with this instance's copy of the knowledge base (issue 14): the key and the caller's
   * origin are checked against the copy, then one admission round trip takes the client's limit,
   * confirms the copy is current, takes the knowledge base's limits and reads the cached answer.
   * Without a copy, or with a stale one, the row is read again under the stamp the check returned
   * and the checks run again (a change racing the query may cost one more turn). A refusal is given
   * only once the check has confirmed the copy it was judged on. `'unavailable'` when Redis did not
   * answer in time: `admit` then reads the store and takes the limits in process (the failed call
   * may have taken them in Redis already). Undefined when the copy stayed stale for three turns:
   * `admit` then reads the store and takes the limits as usual.
   */
  private async admitWithCopies(copies: KnowledgeBaseCopies, request: QueryRequest, query: string, conversation: readonly Turn[]): Promise<AdmittedQuery | 'unavailable' | undefined> {
    const { ragId } = request;
    let copy = copies.get(ragId);
    for (let turn = 0; turn < 3; turn++) {
      const outcome = copy
        ? await this.admitOnCopy(copies, copy, request, query, conversation)
        : await this.check(copies, request.client, { ragId, stamp: undefined, rules: [], now: this.clock() });
      if (outcome.kind === 'admitted') return outcome.admitted;
      if (outcome.kind !== 'stale') return 'unavailable';
      const fresh = await this.store.findKnowledgeBase(ragId);
      if (!fresh) {
        // Gone: the key check refuses it as it refuses any key of no knowledge base.
        copies.delete(ragId);
        await this.authoriseAgainst(undefined, request);
        return undefined;
      }
      copies.set(ragId, fresh, outcome.stamp);
      copy = { kb: fresh, stamp: outcome.stamp };
    }
    return undefined;
  }

  /**
   * One admission round trip, carrying the client's limit until it is taken; its decision settles
   * the limit (throwing the refusal when it refused).
   */
  private async check(copies: KnowledgeBaseCopies, client: ClientLimit | undefined, check: AdmissionCheck): Promise<AdmissionResult> {
    const pending = client !== undefined && !client.taken;
    // Object.assign, not a leading spread that adds a key (docs/decisions.md, "Per-request objects and V8's young generation").
    const result = await copies.admission.check(pending ? Object.assign({}, check, { clientRules: client.rules }) : check);
    if (pending && result.kind !== 'unavailable' && result.client) client.settle(result.client);
    return result;
  }

  /** The checks against one copy, then the admission round trip; a refusal only once the copy is confirmed. */
  private async admitOnCopy(
    copies: KnowledgeBaseCopies,
    copy: KnowledgeBaseCopy,
    request: QueryRequest,
    query: string,
    conversation: readonly Turn[],
  ): Promise<{ kind: 'admitted'; admitted: AdmittedQuery } | AdmissionResult> {
    const { kb, stamp } = copy;
    let caller: CallerOrigin;
    try {
      ({ caller } = await this.authoriseAgainst(kb, request));
    } catch (error) {
      // Judged on the copy: this check takes nothing of the knowledge base's and says whether the copy was current.
      const result = await this.check(copies, request.client, { ragId: kb.ragId, stamp, rules: [], now: this.clock() });
      if (result.kind === 'checked') throw error;
      return result;
    }
    const slot = this.cacheSlot({ kb, query, conversation });
    const result = await this.check(copies, request.client, { ragId: kb.ragId, stamp, rules: queryRules(this.limits, kb.ragId), cacheKey: slot?.key, now: this.clock() });
    if (result.kind !== 'checked') return result;
    const limits = this.allowedOrRefused(result.decision);
    return { kind: 'admitted', admitted: { kb, query, conversation, caller, limits, ...(slot ? { prefetched: { key: slot.key, value: result.cached } } : {}) } };
  }

  /**
   * Takes one query from the knowledge base's minute window and daily quota,
   * or refuses with `rate_limited` naming the limit. A cached answer counts as
   * a query too (product.md §5); agents share the limits with the widget.
   */
  consumeLimits(ragId: string, limiter: RateLimiter = this.limiter): MaybePromise<LimitDecision> {
    return andThen(limiter.consume(queryRules(this.limits, ragId), this.clock()), (decision) => this.allowedOrRefused(decision));
  }

  /** The decision when it allows the query; otherwise `rate_limited` naming the limit. */
  private allowedOrRefused(decision: LimitDecision): LimitDecision {
    if (decision.allowed) return decision;
    const refused = decision.refused;
    throw new DomainError(
      'rate_limited',
      refused?.name === 'day'
        ? `This knowledge base has used its ${refused.limit} queries for today (UTC). Try again after midnight UTC.`
        : `This knowledge base allows ${refused?.limit ?? 0} queries per minute. Try again in ${Math.ceil(decision.retryAfterMs / 1000)} s.`,
      { limit: refused?.name, retryAfterMs: decision.retryAfterMs },
      { rateLimit: decision },
    );
  }

  /**
   * The key and whitelist checks of `admit`, without the query or the limits:
   * the widget's settings endpoint is refused exactly where queries would be.
   */
  authorise(request: Omit<QueryRequest, 'query' | 'conversation'>): MaybePromise<{ kb: KnowledgeBase; caller: CallerOrigin }> {
    return andThen(this.store.findKnowledgeBase(request.ragId), (kb) => this.authoriseAgainst(kb, request));
  }

  /** `authorise` with the knowledge base as read (from the store, or this instance's copy). */
  private authoriseAgainst(kb: KnowledgeBase | undefined, request: Omit<QueryRequest, 'query' | 'conversation'>): MaybePromise<{ kb: KnowledgeBase; caller: CallerOrigin }> {
    return andThen(this.keys.verify(request.apiKey, kb), (key) => this.judgeOrigin(kb as KnowledgeBase, key, request));
  }

  /** The caller's origin against the key's whitelist; `kb` is the key's (verify() refused any other). */
  private judgeOrigin(kb: KnowledgeBase, key: ApiKey, request: Omit<QueryRequest, 'query' | 'conversation'>): MaybePromise<{ kb: KnowledgeBase; caller: CallerOrigin }> {
    const caller = callerOrigin(request.origin, request.referer);
    if (caller.kind === 'invalid' || (caller.kind === 'browser' && !hostAllowed(caller.host, key.allowedDomains))) {
      const shown = caller.kind === 'browser' ? caller.host : 'this page';
      throw new DomainError('origin_not_allowed', `Requests from ${shown} are not allowed for this key. Add the domain to the key's whitelist.`, {
        origin: caller.kind === 'browser' ? caller.origin : null,
      });
    }
    const admitted = { kb, caller };
    return caller.kind === 'browser' ? andThen(this.noteWidgetSeen(kb, caller.origin), () => admitted) : admitted;
  }

  /**
   * The first allowed browser request from a site other than the service itself confirms the
   * guided first run's last step ("live on shop.example"). Written once per knowledge base: later
   * requests see `widgetSeen` on the row every query reads, so they write nothing. A failed write
   * never fails the request; the next one tries again.
   */
  private noteWidgetSeen(kb: KnowledgeBase, origin: string): MaybePromise<void> {
    if (kb.widgetSeen || origin === this.ownOrigin) return;
    return this.store.noteWidgetSeen(kb.ragId, { origin, at: new Date(this.clock()).toISOString() }).then(
      () => undefined,
      () => undefined,
    );
  }


  /** Ranked records without answer generation. */
  async search(admitted: AdmittedQuery, limit: number): Promise<SearchResult[]> {
    const { retrieved } = await this.retrieve(admitted.kb, admitted.query, undefined, limit);
    this.recordUsage(admitted, false, retrieved.length > 0);
    return retrieved.map((r) => ({ recordId: r.recordId, sourceName: r.sourceName, title: r.title, passage: r.text, score: r.score }));
  }

  /**
   * For each of `questions`, the words of it no record of the knowledge base uses
   * (`wordsNoRecordUses`), as its records and the owner's synonyms are now; empty lists when the
   * knowledge base is gone. The owner's usage report shows them beside its unanswered questions.
   */
  async unknownWords(ragId: string, questions: readonly string[]): Promise<string[][]> {
    const kb = questions.length > 0 ? await this.store.findKnowledgeBase(ragId) : undefined;
    if (kb === undefined) return questions.map(() => []);
    // The statistics alone (k = 0 ranks nothing): one read of the index for all the questions.
    const { stats } = await this.retriever.search(kb, questions[0] as string, 0);
    return questions.map((question) => wordsNoRecordUses(question, stats.expand(question)));
  }

  /**
   * For each of `questions` (asked on its own, as a visitor's first question, or a follow-up after
   * the questions it was asked after), whether the records answer it now: the owner's usage report
   * marks the unanswered questions a record has since answered. Only the built-in answerer is asked (it answers in process and costs what a new
   * question costs, ~0.1–0.3 ms): with a model, whose answer would cost a call, each is undefined;
   * so is each when the knowledge base is gone. Nothing is recorded or cached.
   */
  async answeredNow(ragId: string, questions: readonly AskedQuestion[]): Promise<(boolean | undefined)[]> {
    const complete = this.answerer.complete?.bind(this.answerer);
    const kb = complete && questions.length > 0 ? await this.store.findKnowledgeBase(ragId) : undefined;
    if (!complete || kb === undefined) return questions.map(() => undefined);
    const answered: boolean[] = [];
    for (const { question: query, askedAfter: after } of questions) {
      const conversation: Turn[] = after === undefined ? [] : [{ role: 'user', content: after }];
      const { input } = await this.answerInput({ kb, query, conversation });
      answered.push(smallTalkDone(input) === undefined && complete(input).grounded);
    }
    return answered;
  }

  /**
   * The cached answer to this query, recorded as a (cached) query, or a miss to pass to
   * `answer()`. The JSON endpoint asks this first: a hit needs no event stream and nothing to cancel.
   */
  cachedAnswer(admitted: AdmittedQuery): MaybePromise<DoneEvent | CacheMiss> {
    const slot = this.cacheSlot(admitted);
    if (!slot) return { type: 'miss', slot };
    const prefetched = admitted.prefetched;
    const hit = prefetched?.key === slot.key ? (prefetched.value as CachedAnswer | undefined) : this.cache.get<CachedAnswer>(slot.key);
    return andThen(hit, (value): MaybePromise<DoneEvent | CacheMiss> => {
      if (!value) return { type: 'miss', slot };
      this.recordUsage(admitted, true, value.grounded);
      const done: DoneEvent = { type: 'done', answer: value.answer, sources: value.sources, grounded: value.grounded, cached: true, ...(value.suggestions ? { suggestions: value.suggestions } : {}) };
      if (!this.explains(admitted, done)) return done;
      // A cached refusal in the Playground: the index's statistics alone (k = 0 ranks nothing) give its words.
      return this.retriever.search(admitted.kb, admitted.query, 0).then(({ stats }) => this.explained(admitted, done, stats));
    });
  }

  /**
   * The whole answer to a query the cache missed (the JSON endpoint). An in-process answerer
   * answers at once; otherwise the events are collected, and `signal()` (asked for only then)
   * stops the work when the client leaves: the result is then undefined.
   */
  async answerWhole(admitted: AdmittedQuery, miss: CacheMiss, requestId: string, signal: () => AbortSignal): Promise<DoneEvent | undefined> {
    if (this.answerer.complete) {
      const { input, searched } = await this.answerInput(admitted);
      const done = smallTalkDone(input) ?? withSuggestions(completeDone(this.answerer.complete(input)), input, searched);
      await this.settle(admitted, miss.slot, done);
      return this.explained(admitted, done, input.stats);
    }
    const aborted = signal();
    let done: DoneEvent | undefined;
    for await (const event of this.answer(admitted, requestId, aborted, { miss })) {
      if (event.type === 'done') done = event;
    }
    if (!done && !aborted.aborted) throw new Error('the answerer ended without an answer');
    return done;
  }

  /**
   * Whether a fresh answer is made whole in this process (the built-in answerer): a stream then
   * asks `answerWhole` and sends `eventsOfWholeAnswer`, the same events `answer()` would yield.
   */
  get answersWhole(): boolean {
    return this.answerer.complete !== undefined;
  }

  /** The answer as events: meta at once, sources after retrieval, tokens, done. */
  async *answer(admitted: AdmittedQuery, requestId: string, signal: AbortSignal, options: AnswerOptions = {}): AsyncGenerator<QueryEvent> {
    const cached = options.miss ?? (await this.cachedAnswer(admitted));
    if (cached.type === 'done') {
      yield* cachedEvents(requestId, cached);
      return;
    }
    yield freshMeta(requestId);

    const { input, searched } = await this.answerInput(admitted);
    const talk = smallTalkDone(input);
    if (talk) {
      yield* eventsOfWholeAnswer(talk);
      await this.settle(admitted, cached.slot, talk);
      return;
    }
    for await (const event of this.answerer.answer(Object.assign({}, input, { signal }))) {
      if (signal.aborted) return;
      if (event.type === 'done') {
        const done = withSuggestions(
          { type: 'done', answer: event.answer, sources: event.sources, grounded: event.grounded, cached: false, ...(event.fallback ? { fallback: true } : {}) },
          input,
          searched,
        );
        yield this.explained(admitted, done, input.stats);
        await this.settle(admitted, cached.slot, done);
        return;
      }
      yield event;
    }
  }

  /**
   * What the answerer is given: the visitor's own question, the records retrieved for it in the
   * context of the earlier turns, those turns, and the knowledge base's own fallback message; and
   * the text that was searched (the question in its context), which a refusal's suggestions follow.
   */
  private async answerInput(admitted: Pick<AdmittedQuery, 'kb' | 'query' | 'conversation'>): Promise<{ input: Omit<AnswerInput, 'signal'>; searched: string }> {
    const { kb, query, conversation } = admitted;
    const { retrieved, stats, searched } = await this.retrieve(kb, query, conversation, retrievalDepth);
    return { input: { query, botName: kb.botName, retrieved, stats, conversation, fallbackMessage: kb.fallbackMessage ?? null }, searched };
  }

  /**
   * A fresh answer is recorded as a query and cached. A fallback answer is not cached (the model may
   * be back for the next asker), nor is small talk: its reply names the bot, which the owner can
   * rename without a new content version (so without a new cache key).
   */
  private async settle(admitted: AdmittedQuery, slot: CacheSlot | undefined, done: DoneEvent): Promise<void> {
    this.recordUsage(admitted, false, done.grounded, done.smallTalk);
    if (slot && !done.fallback && !done.smallTalk) {
      const value: CachedAnswer = { answer: done.answer, sources: done.sources, grounded: done.grounded, ...(done.suggestions ? { suggestions: done.suggestions } : {}) };
      await this.cache.set(slot.key, value, slot.ttlMs);
    }
  }

  /** Whether `done` is a refusal whose unknown words were asked for (`AdmittedQuery.explainRefusal`). */
  private explains(admitted: AdmittedQuery, done: DoneEvent): boolean {
    return admitted.explainRefusal === true && !done.grounded && !done.smallTalk;
  }

  /** `done` with its unknown words when `explains` says so (and the index's statistics are there to find them). */
  private explained(admitted: AdmittedQuery, done: DoneEvent, stats: TermStats | undefined): DoneEvent {
    if (!stats || !this.explains(admitted, done)) return done;
    return { ...done, unknownWords: wordsNoRecordUses(admitted.query, stats.expand(admitted.query)) };
  }

  /** One query in the usage statistics, unless it is not a visitor's (`recordUsage: false`). */
  private recordUsage(admitted: AdmittedQuery, cached: boolean, grounded: boolean, smallTalk?: boolean): void {
    if (admitted.recordUsage === false) return;
    // A refused follow-up is listed for the owner with the questions it leaned on ("And how long does that take?" alone says nothing).
    const after = grounded || smallTalk ? undefined : askedAfter(admitted.query, admitted.conversation);
    this.usage.record({
      ragId: admitted.kb.ragId,
      at: this.clock(),
      cached,
      grounded,
      ...askedQuestion(admitted.query, after),
      ...(smallTalk ? { smallTalk } : {}),
    });
  }

  private cacheSlot(admitted: Pick<AdmittedQuery, 'kb' | 'query' | 'conversation'>): CacheSlot | undefined {
    const ttlMs = this.limits.queryCacheTtlSeconds * 1000;
    if (!(ttlMs > 0)) return undefined;
    const { kb, query, conversation } = admitted;
    return { key: answerCacheKey(kb.ragId, kb.contentVersion, query, this.answerer.mode, { conversation, fallbackMessage: kb.fallbackMessage, synonyms: kb.synonyms }), ttlMs };
  }

  /** The records that answer `query`; a follow-up is searched in the context of its conversation. */
  private async retrieve(
    kb: KnowledgeBase,
    query: string,
    conversation: readonly Turn[] | undefined,
    limit: number,
  ): Promise<{ retrieved: RetrievedRecord[]; stats: TermStats; searched: string }> {
    const searched = contextualQuery(query, conversation);
    const { hits, stats } = await this.retriever.search(kb, searched, limit);
    return { retrieved: hits, stats, searched };
  }
}

function completeDone(result: { answer: string; sources: Citation[]; grounded: boolean }): DoneEvent {
  return { type: 'done', answer: result.answer, sources: result.sources, grounded: result.grounded, cached: false };
}

/**
 * A refusal with the records the visitor may ask about instead, when there are any: those
 * retrieved for the question as searched that share its telling words (answering/suggestions.ts).
 * Work done for refusals only: an analysis of the few retrieved records.
 */
function withSuggestions(done: DoneEvent, input: Omit<AnswerInput, 'signal'>, searched: string): DoneEvent {
  if (done.grounded || !input.stats || input.retrieved.length === 0) return done;
  const suggestions = suggestionsFor(input.stats.expand(searched), input.retrieved);
  return suggestions.length > 0 ? { ...done, suggestions } : done;
}

/**
 * The reply to small talk ("hi", "thanks", "are you a bot?"), for either answerer: the records
 * have nothing to say to it, and a model is not asked (answering/small-talk.ts).
 */
function smallTalkDone(input: Omit<AnswerInput, 'signal'>): DoneEvent | undefined {
  const talk = smallTalk(input.query, { botName: input.botName, conversation: input.conversation, language: input.stats?.language });
  return talk ? { type: 'done', answer: talk.reply, sources: [], grounded: false, cached: false, smallTalk: true } : undefined;
}
