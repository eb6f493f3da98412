/**
 * The HTTP API's wire shapes, written once (product.md §4, §5). The server validates and
 * serialises with these TypeBox schemas and `@fastify/swagger` turns the same objects into the
 * OpenAPI document (src/http/schemas.ts re-exports them for the routes); the SDK's types are their
 * `Static<>` types, declared beside each schema under the same name.
 *
 * It imports nothing but `typebox`, so browser code may depend on it. The SDK imports it with
 * `import type` only, which keeps TypeBox out of the widget's and the dashboard's bundles.
 * test/sdk/types.test.ts pins the SDK's exported types to these.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { starterQuestionLimits } from './starter-questions.js';

/** An RFC 9457 problem document: the body of every error response (`ApiError.body` in the SDK). */
export const Problem = Type.Object(
  {
    type: Type.String({ format: 'uri' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable snake_case error code; see /docs/errors.' }),
    requestId: Type.String(),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem document' },
);
export type Problem = Static<typeof Problem>;

/** The widget's look: accent colour as #rrggbb; `auto` follows the page's colour scheme. */
export const Theme = Type.Object(
  {
    accentColor: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
    colorScheme: Type.Optional(Type.Union([Type.Literal('light'), Type.Literal('dark'), Type.Literal('auto')])),
    position: Type.Optional(Type.Union([Type.Literal('bottom-right'), Type.Literal('bottom-left')])),
  },
  { additionalProperties: false },
);
export type Theme = Static<typeof Theme>;

// ---------------------------------------------------------------------------------------------
// Sign-in (/api/v1/auth/*)

const Email = Type.String({ minLength: 3, maxLength: 254, description: 'The address to sign in with' });

export const StartSignInBody = Type.Object({ email: Email }, { additionalProperties: false });
export type StartSignInBody = Static<typeof StartSignInBody>;

export const SignInStarted = Type.Object({ sent: Type.Boolean(), expiresInSeconds: Type.Integer() });
export type SignInStarted = Static<typeof SignInStarted>;

export const VerifySignInBody = Type.Object({ email: Email, code: Type.String({ minLength: 1, maxLength: 20 }) }, { additionalProperties: false });
export type VerifySignInBody = Static<typeof VerifySignInBody>;

export const Session = Type.Object({
  account: Type.Object({ accountId: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }),
  csrfToken: Type.String({ description: 'Echo in the X-CSRF-Token header on cookie-authenticated writes' }),
});
export type Session = Static<typeof Session>;

// ---------------------------------------------------------------------------------------------
// Knowledge bases (/api/v1/knowledge-bases[/{ragId}])

// No control characters in names people see; 1–80 characters after trimming (checked in the route).
const displayText = (maxLength: number) => Type.String({ maxLength, pattern: '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$' });

// The owner's refusal text. The limit is 500 characters after trimming, which the knowledge
// service checks (422 at /body/fallbackMessage); the schema only bounds what is sent, as for `query`.
const fallbackMessage = Type.Optional(
  Type.Union([displayText(2000), Type.Null()], {
    description:
      'What the bot answers when the records do not answer a question, e.g. "Ask us at help@shop.example": plain text, at most 500 characters after trimming. ' +
      "An empty string or null restores the default refusal, which follows the question's language.",
  }),
);

// The owner's synonyms. The knowledge service checks the members (422 at /body/synonyms/…: at most
// 50 characters after trimming, a letter or digit, two distinct members a group); the schema bounds
// the shape and what is sent.
export const SynonymGroups = Type.Array(Type.Array(Type.String({ maxLength: 200 }), { minItems: 2, maxItems: 10 }), {
  maxItems: 100,
  description:
    'Groups of words or phrases that mean the same to your visitors, e.g. [["postage", "delivery cost"], ["sign up", "register", "create an account"]]: a question that uses one member is matched with the records\' words for the others. ' +
    'At most 100 groups of 2–10 members, each at most 50 characters after trimming; members are trimmed, their spaces collapsed, and a repeated member (ignoring case) kept once.',
});
export type SynonymGroups = Static<typeof SynonymGroups>;
const synonymsInput = Type.Optional(Type.Union([SynonymGroups, Type.Null()], { description: 'null or [] removes them all.' }));

// The widget's starter questions. The knowledge service checks each (422 at /body/starterQuestions/…:
// at most 120 characters after trimming, a letter or digit); the schema bounds the shape and what is sent.
export const StarterQuestions = Type.Array(Type.String({ maxLength: 500 }), {
  maxItems: starterQuestionLimits.maxQuestions,
  description:
    'Questions the widget offers as buttons before the visitor types, in this order, e.g. ["What does delivery cost?", "How do I return an item?"]; a click asks it. ' +
    'At most 5, each at most 120 characters after trimming; trimmed, spaces collapsed, and a repeated question (ignoring case) kept once.',
});
const starterQuestionsInput = Type.Optional(Type.Union([StarterQuestions, Type.Null()], { description: 'null or [] removes them all.' }));

export const CreateKnowledgeBaseBody = Type.Object(
  {
    botName: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S', description: 'Name the widget shows; 1–80 characters.' }),
    description: Type.Optional(Type.Union([displayText(500), Type.Null()])),
    greeting: Type.Optional(Type.Union([displayText(300), Type.Null()])),
    fallbackMessage,
    synonyms: synonymsInput,
    starterQuestions: starterQuestionsInput,
    theme: Type.Optional(Theme),
  },
  { additionalProperties: false },
);
export type CreateKnowledgeBaseBody = Static<typeof CreateKnowledgeBaseBody>;

export const UpdateKnowledgeBaseBody = Type.Object(
  {
    botName: Type.Optional(Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' })),
    description: Type.Optional(Type.Union([displayText(500), Type.Null()])),
    greeting: Type.Optional(Type.Union([displayText(300), Type.Null()])),
    fallbackMessage,
    synonyms: synonymsInput,
    starterQuestions: starterQuestionsInput,
    theme: Type.Optional(Theme),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateKnowledgeBaseBody = Static<typeof UpdateKnowledgeBaseBody>;

export const Quota = Type.Object({
  limit: Type.Integer(),
  used: Type.Integer(),
  available: Type.Integer(),
});
export type Quota = Static<typeof Quota>;

export const KnowledgeBase = Type.Object(
  {
    ragId: Type.String(),
    botName: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    greeting: Type.Union([Type.String(), Type.Null()]),
    fallbackMessage: Type.Union([Type.String(), Type.Null()], { description: 'The answer text when the records do not answer; null = the default refusal in the question\'s language.' }),
    synonyms: SynonymGroups,
    starterQuestions: StarterQuestions,
    theme: Theme,
    contentVersion: Type.Integer(),
    recordCount: Type.Integer(),
    quota: Quota,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    widgetSeen: Type.Union(
      [Type.Object({ origin: Type.String({ description: 'The page origin, e.g. https://shop.example' }), at: Type.String({ format: 'date-time' }) }), Type.Null()],
      { description: "The first widget request from a site other than this service (the dashboard's preview does not count); null until one comes" },
    ),
  },
  { $id: 'KnowledgeBase' },
);
export type KnowledgeBase = Static<typeof KnowledgeBase>;

/** `GET /api/v1/knowledge-bases`: the account's knowledge bases and how many it may have. */
export const KnowledgeBaseList = Type.Object({ items: Type.Array(KnowledgeBase), limit: Type.Integer() });
export type KnowledgeBaseList = Static<typeof KnowledgeBaseList>;

// ---------------------------------------------------------------------------------------------
// Sources and records

export const Source = Type.Object(
  {
    sourceId: Type.String(),
    sourceName: Type.String(),
    format: Type.Union([
      Type.Literal('json'),
      Type.Literal('jsonl'),
      Type.Literal('txt'),
      Type.Literal('md'),
      Type.Literal('csv'),
      Type.Literal('pdf'),
      Type.Literal('html'),
    ]),
    byteSize: Type.Integer(),
    sha256: Type.String(),
    addedCount: Type.Integer(),
    duplicateCount: Type.Integer(),
    rejectedCount: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    url: Type.Optional(
      Type.Union([Type.String({ format: 'uri' }), Type.Null()], { description: 'The web page the source was imported from (POST …/sources/import); absent for uploads and pastes' }),
    ),
  },
  { $id: 'Source' },
);
export type Source = Static<typeof Source>;
export type SourceFormat = Source['format'];

export const KnowledgeRecord = Type.Object(
  {
    recordId: Type.String(),
    sourceId: Type.String(),
    kind: Type.Union([Type.Literal('qa'), Type.Literal('product'), Type.Literal('passage')]),
    title: Type.Union([Type.String(), Type.Null()]),
    text: Type.String(),
    fingerprint: Type.String({ description: 'SHA-256 (hex) of the normalised text' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Record' },
);
export type KnowledgeRecord = Static<typeof KnowledgeRecord>;

export const PasteBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Name the source is listed under, e.g. "Opening hours".' }),
    text: Type.String({ description: 'The content, as it would be in a file of the given format.' }),
    format: Type.Optional(Type.Union([Type.Literal('txt'), Type.Literal('md'), Type.Literal('json'), Type.Literal('jsonl')], { default: 'txt' })),
  },
  { additionalProperties: false },
);
export type PasteBody = Static<typeof PasteBody>;

export const UploadReport = Type.Object(
  {
    source: Source,
    added: Type.Integer(),
    duplicate: Type.Integer(),
    rejected: Type.Integer(),
    rejections: Type.Array(Type.Object({ at: Type.String(), reason: Type.String() })),
    items: Type.Array(
      Type.Object({
        kind: Type.String(),
        title: Type.Union([Type.String(), Type.Null()]),
        preview: Type.String(),
        fingerprint: Type.String(),
        status: Type.Union([Type.Literal('added'), Type.Literal('duplicate')]),
        recordId: Type.Optional(Type.String()),
      }),
    ),
    quota: Quota,
  },
  { $id: 'UploadReport' },
);
export type UploadReport = Static<typeof UploadReport>;

export const ImportBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'An https URL: one HTML page, or a sitemap (`<urlset>`, or a `<sitemapindex>` followed one level deep), e.g. https://shop.example/sitemap.xml',
    }),
  },
  { additionalProperties: false },
);
export type ImportBody = Static<typeof ImportBody>;

const ImportPageStatus = Type.Union([Type.Literal('added'), Type.Literal('updated'), Type.Literal('unchanged'), Type.Literal('skipped'), Type.Literal('failed')]);

export const ImportReport = Type.Object(
  {
    url: Type.String({ description: 'The URL imported, as vetted' }),
    kind: Type.Union([Type.Literal('page'), Type.Literal('sitemap')]),
    pages: Type.Array(
      Type.Object({
        url: Type.String(),
        status: ImportPageStatus,
        reason: Type.Optional(Type.String({ description: 'Why the page was skipped (robots.txt, time limit) or failed (HTTP status, content type, size, quota…)' })),
        code: Type.Optional(Type.String({ description: 'For a failure an upload would give too: its error code (quota_exceeded, no_extractable_text…)' })),
        sourceId: Type.Optional(Type.String()),
        title: Type.Optional(Type.String({ description: "The source's name: the page's title, else its URL" })),
        records: Type.Object({
          added: Type.Integer(),
          duplicate: Type.Integer({ description: 'Already stored by another source (no quota used)' }),
          removed: Type.Integer({ description: "Records of the page's previous version it no longer has" }),
          kept: Type.Integer({ description: 'Records of the previous version still present, unchanged (same ids)' }),
        }),
      }),
    ),
    totals: Type.Object({
      pages: Type.Integer(),
      added: Type.Integer(),
      updated: Type.Integer(),
      unchanged: Type.Integer(),
      skipped: Type.Integer(),
      failed: Type.Integer(),
      recordsAdded: Type.Integer(),
      recordsDuplicate: Type.Integer(),
      recordsRemoved: Type.Integer(),
    }),
    ignored: Type.Object(
      { otherHost: Type.Integer(), overLimit: Type.Integer() },
      { description: "Sitemap URLs not fetched: on another host than the sitemap's, or past IMPORT_MAX_PAGES" },
    ),
    notInSitemap: Type.Array(Type.Object({ sourceId: Type.String(), url: Type.String(), sourceName: Type.String() }), {
      description: "Sources imported earlier from the sitemap's host that it no longer lists: kept (delete them if they should go); at most 50",
    }),
    quota: Quota,
  },
  { $id: 'ImportReport' },
);
export type ImportReport = Static<typeof ImportReport>;

/** A page of a list: `Static<typeof pageOf(X)>` is `Page<Static<typeof X>>` (test/sdk/types.test.ts). */
export const pageOf = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the next page; null on the last page. */
  nextCursor: string | null;
}

// ---------------------------------------------------------------------------------------------
// Query keys (/api/v1/knowledge-bases/{ragId}/keys)

const Domains = Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
  maxItems: 50,
  description: 'Hosts allowed to call with this key from a browser: `shop.example.com`, `*.example.com` (subdomains), `localhost`.',
});

export const ApiKey = Type.Object(
  {
    keyId: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    prefix: Type.String({ description: 'The start of the key, to tell keys apart' }),
    allowedDomains: Type.Array(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    publishable: Type.Boolean({
      description: 'A key for a website widget: public by nature (it is in the HTML of every embedding page; the whitelist protects it), so its full key is listed again',
    }),
    apiKey: Type.Optional(Type.String({ description: 'The full key: only on a live publishable key in the list, never on a secret key' })),
  },
  { $id: 'ApiKey' },
);
export type ApiKey = Static<typeof ApiKey>;

export const ApiKeyList = Type.Object({ items: Type.Array(ApiKey) });
export type ApiKeyList = Static<typeof ApiKeyList>;

export const CreateKeyBody = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.String({ maxLength: 80 }), Type.Null()])),
    allowedDomains: Domains,
    publishable: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'True for a key a website widget embeds (docs/widget-keys.md): kept encrypted so the owner can see it again in the list. False (default): a secret key, stored as a hash and shown only in this response.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateKeyBody = Static<typeof CreateKeyBody>;

export const CreatedKey = Type.Object({
  key: ApiKey,
  apiKey: Type.String({ description: 'The full key. A secret key is shown only in this response; a publishable key is listed again.' }),
});
export type CreatedKey = Static<typeof CreatedKey>;

export const UpdateKeyBody = Type.Object(
  { name: Type.Optional(Type.Union([Type.String({ maxLength: 80 }), Type.Null()])), allowedDomains: Type.Optional(Domains) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateKeyBody = Static<typeof UpdateKeyBody>;

// ---------------------------------------------------------------------------------------------
// Usage (/api/v1/knowledge-bases/{ragId}/usage)

const askedAfter = Type.Optional(
  Type.String({
    description:
      'For a follow-up ("And how long does that take?"), the earlier questions of the chat it leaned on, as the visitor asked them (joined; at most 500 characters): ' +
      'read the question in their light. The same words asked after something else are another entry. Absent for a question asked on its own.',
  }),
);

const feedbackCounts = {
  helpful: Type.Integer({ description: 'Answers visitors marked helpful (`POST /api/v1/feedback`).' }),
  unhelpful: Type.Integer({ description: 'Answers visitors marked not helpful.' }),
};

export const UsageReport = Type.Object({
  days: Type.Array(Type.Object({ day: Type.String(), queries: Type.Integer(), cacheHits: Type.Integer(), unanswered: Type.Integer(), ...feedbackCounts })),
  totals: Type.Object({ queries: Type.Integer(), cacheHits: Type.Integer(), unanswered: Type.Integer(), ...feedbackCounts }),
  unanswered: Type.Array(
    Type.Object({
      question: Type.String(),
      askedAfter,
      count: Type.Integer(),
      lastAskedAt: Type.String(),
      unknownWords: Type.Array(Type.String(), {
        description:
          "Words of the question, as the visitor typed them, that no record uses in any form (nor through the knowledge base's synonyms), leaving out the language's commonest words: what to add as a record or a synonym.",
      }),
      answeredNow: Type.Optional(
        Type.Boolean({
          description:
            'Whether the records answer it now, asked again (on its own, or a follow-up after its `askedAfter`) when the report was read: true once a record or synonym added since answers it, so it can be dismissed. Absent when a model answers (it is not asked again).',
        }),
      ),
    }),
  ),
  feedback: Type.Array(
    Type.Object({
      question: Type.String({ description: 'The question, in the latest wording a visitor gave feedback on.' }),
      askedAfter,
      helpful: Type.Integer(),
      unhelpful: Type.Integer(),
      lastAt: Type.String({ description: 'When the latest feedback on it came (ISO 8601).' }),
      records: Type.Array(Type.Object({ recordId: Type.String(), title: Type.Union([Type.String(), Type.Null()]), sourceName: Type.String() }), {
        description: 'The records the answer cited, as the latest feedback named them; records since deleted are left out.',
      }),
    }),
    {
      description:
        'The questions whose answers visitors marked not helpful (at least once), the most often first, at most 50: the answers to improve with a better record, a synonym or a starter question. Dismiss one with DELETE …/usage/feedback.',
    },
  ),
  limits: Type.Object({ queriesPerMinute: Type.Integer(), queriesPerDay: Type.Integer() }),
});
export type UsageReport = Static<typeof UsageReport>;

// ---------------------------------------------------------------------------------------------
// The query API (/api/v1/query, /search, /query/stream, /widget/config), authenticated by X-API-Key

/** One earlier turn of the visitor's chat; QueryService checks the trimmed length (checkedConversation). */
export const Turn = Type.Object(
  {
    role: Type.Enum(['user', 'assistant']),
    content: Type.String({ maxLength: 10_000, description: '1 to 2,000 characters after trimming' }),
  },
  { additionalProperties: false },
);
export type Turn = Static<typeof Turn>;

export const QueryBody = Type.Object(
  {
    ragId: Type.String({ minLength: 1, maxLength: 64 }),
    query: Type.String({ maxLength: 20_000, description: '1 to 4,000 characters after trimming' }),
    conversation: Type.Optional(
      Type.Array(Turn, {
        maxItems: 10,
        description:
          'Optional. The earlier turns of this chat, oldest first (at most 10: send the most recent), so that a follow-up such as ' +
          '"And how much is that?" is understood in context. Send the assistant turns as the answers came back: a follow-up about a product ' +
          '("and in the microwave?") is taken to be about the product the last answer named. The server keeps no conversation state. `query` is the new question; ' +
          'do not repeat it here. Invalid turns → 422 `validation_failed` with the location, e.g. `/body/conversation/3/content`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type QueryBody = Static<typeof QueryBody>;

/** `POST /api/v1/feedback`: a visitor's word on an answer (docs/widget.md, "Feedback"). */
export const FeedbackBody = Type.Object(
  {
    ragId: Type.String({ minLength: 1, maxLength: 64 }),
    query: Type.String({ maxLength: 20_000, description: 'The question the answer was to, as asked: 1 to 4,000 characters after trimming' }),
    conversation: Type.Optional(
      Type.Array(Turn, {
        maxItems: 10,
        description:
          "Optional. The chat's turns before that question, as the query sent them: feedback on a follow-up (\"And how much is that?\") is then listed " +
          'for the owner with the questions it leaned on. Checked as a query\'s (422 with the location, e.g. `/body/conversation/3/content`); nothing of it is kept but those questions.',
      }),
    ),
    helpful: Type.Boolean({ description: 'true: the answer helped; false: it did not' }),
    sources: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        maxItems: 10,
        description: "The answer's `sources[].recordId`, in order, so the owner sees which records gave it.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type FeedbackBody = Static<typeof FeedbackBody>;

/**
 * The owner's question in the dashboard's Playground (`POST /api/v1/knowledge-bases/{ragId}/playground/query[/stream]`):
 * the body of `/api/v1/query` without `ragId`, which the path names.
 */
export const PlaygroundQueryBody = Type.Object(
  { query: QueryBody.properties.query, conversation: QueryBody.properties.conversation },
  { additionalProperties: false },
);
export type PlaygroundQueryBody = Static<typeof PlaygroundQueryBody>;

export const SearchBody = Type.Object(
  {
    ragId: Type.String({ minLength: 1, maxLength: 64 }),
    query: Type.String({ maxLength: 20_000 }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
  },
  { additionalProperties: false },
);
export type SearchBody = Static<typeof SearchBody>;

const DisplayTitle = Type.Union([Type.String(), Type.Null()], {
  description: "The record's title, for showing people: the FAQ question, the product name or the section heading; null when the record has none (show sourceName then)",
});

export const Citation = Type.Object({
  sourceName: Type.String(),
  title: DisplayTitle,
  recordId: Type.String(),
  passage: Type.String({ description: 'The text of the record (or the sentences) the answer used' }),
  score: Type.Number(),
});
export type Citation = Static<typeof Citation>;

export const Suggestion = Type.Object({
  title: Type.String({ description: "The record's title as a visitor reads it (a help centre's section heading without the path above it)" }),
  recordId: Type.String(),
});
export type Suggestion = Static<typeof Suggestion>;

/** The fields of an answer before its request id (the id stays last: src/http/routes/query.ts serializes a cached answer up to it). */
const answerFields = {
  answer: Type.String({ description: 'Plain text; [n] cites sources[n-1]' }),
  sources: Type.Array(Citation),
  grounded: Type.Boolean({ description: 'False when the records do not answer the question' }),
  cached: Type.Boolean(),
  fallback: Type.Optional(Type.Boolean({ description: "Present and true when the built-in extractive answer replaced the language model's (the model failed, timed out, or cited no passage)" })),
  smallTalk: Type.Optional(
    Type.Boolean({ description: 'Present and true when the query was small talk (a greeting, thanks, "ok", "are you a bot?"): a short reply in its language, citing nothing, with grounded false' }),
  ),
  suggestions: Type.Optional(
    Type.Array(Suggestion, {
      maxItems: 3,
      description:
        "Present beside a refusal (grounded false) when records share the question's telling words: their titles, best first, for the visitor to ask about instead (the widget shows them as questions to ask). " +
        'Nothing is claimed by them: asking one is an ordinary question, best sent without the earlier turns (a title is a whole question, not a follow-up to the refused one). Absent when no record is near the question.',
    }),
  ),
};

export const Answer = Type.Object({ ...answerFields, requestId: Type.String() });
export type Answer = Static<typeof Answer>;

/** The answer the owner's Playground gets: a visitor's, and beside a refusal the words that explain it. */
export const PlaygroundAnswer = Type.Object({
  ...answerFields,
  unknownWords: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "Present when the answer is a refusal (grounded false, not small talk): the words of the question, as typed, that no record uses in any form (nor through the knowledge base's synonyms), leaving out the language's commonest words; possibly none. " +
        "What to add as a record or a synonym, as the usage report's `unanswered[].unknownWords` (only the owner's Playground gets them, never a visitor).",
    }),
  ),
  requestId: Type.String(),
});
export type PlaygroundAnswer = Static<typeof PlaygroundAnswer>;

export const SearchHit = Type.Object({ recordId: Type.String(), sourceName: Type.String(), title: DisplayTitle, passage: Type.String(), score: Type.Number() });
export type SearchHit = Static<typeof SearchHit>;

export const SearchResults = Type.Object({ results: Type.Array(SearchHit), requestId: Type.String() });
export type SearchResults = Static<typeof SearchResults>;

export const WidgetConfig = Type.Object({
  botName: Type.String(),
  greeting: Type.Union([Type.String(), Type.Null()]),
  starterQuestions: Type.Array(Type.String(), { description: "The owner's starter questions, shown as buttons until the visitor asks something; empty when none" }),
  fallbackMessage: Type.Union([Type.String(), Type.Null()], {
    description: "The owner's message for what the records do not answer (e.g. a contact); the widget also shows it to a visitor who says an answer did not help. Null when none",
  }),
  theme: Theme,
  allowed: Type.Literal(true),
});
export type WidgetConfig = Static<typeof WidgetConfig>;

// ---------------------------------------------------------------------------------------------
// Connected agents (/api/v1/account/connected-agents[/…]): the signed-in person's view (docs/agents.md)

const Timestamp = Type.String({ format: 'date-time' });
const ClientName = Type.Union([Type.String(), Type.Null()], { description: "The client's registered client_name; null when it gave none" });

export const ConnectedGrant = Type.Object({
  grantId: Type.String(),
  kind: Type.Union([Type.Literal('authorization_code'), Type.Literal('claim'), Type.Literal('client_credentials'), Type.Literal('jwt_bearer')], {
    description: 'How it was granted: your consent, an agent claim, a client acting for the account, or an ID-JAG',
  }),
  scope: Type.String({ description: 'Space-separated scopes, e.g. "kb:read kb:write"' }),
  resources: Type.Array(Type.String(), { description: 'The APIs its tokens are for (RFC 8707)' }),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()], { description: 'Last presented credential or refresh, to within a minute; null if never used' }),
  credentials: Type.Array(Type.Union([Type.Literal('refresh_token'), Type.Literal('account_key')]), {
    description: 'Long-lived credentials it holds besides short access tokens',
  }),
});
export type ConnectedGrant = Static<typeof ConnectedGrant>;

export const ConnectedClient = Type.Object({
  clientId: Type.String(),
  clientName: ClientName,
  kind: Type.String({ description: 'How the client came to be known: `agent` (registered with an identity_type), `dcr` (RFC 7591 registration), or a client ID metadata document' }),
  registeredAt: Timestamp,
  grants: Type.Array(ConnectedGrant),
});
export type ConnectedClient = Static<typeof ConnectedClient>;

export const ConnectedAccountKey = Type.Object({
  keyId: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key (the key itself is never shown again)' }),
  clientId: Type.String(),
  clientName: ClientName,
  grantId: Type.String(),
  scope: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
  adoptedAgent: Type.Boolean({ description: 'Held by an anonymous agent you adopted' }),
});
export type ConnectedAccountKey = Static<typeof ConnectedAccountKey>;

export const AdoptedAgent = Type.Object({
  clientId: Type.String(),
  clientName: ClientName,
  access: Type.Union([Type.Literal('own'), Type.Literal('account')], {
    description: '`own`: it reaches only the knowledge bases it made; `account`: your whole account',
  }),
  adoptedAt: Timestamp,
  registeredAt: Timestamp,
  grants: Type.Array(ConnectedGrant, { description: 'Its live grants; empty once revoked' }),
});
export type AdoptedAgent = Static<typeof AdoptedAgent>;

export const ConnectedAgents = Type.Object({
  clients: Type.Array(ConnectedClient, { description: 'OAuth clients holding live grants for your account' }),
  accountKeys: Type.Array(ConnectedAccountKey, { description: 'Live account API keys (gw_acct_…) of your grants and of adopted agents' }),
  adoptedAgents: Type.Array(AdoptedAgent, { description: 'Anonymous agents you took ownership of on the claim page' }),
});
export type ConnectedAgents = Static<typeof ConnectedAgents>;
