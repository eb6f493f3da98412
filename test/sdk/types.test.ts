/**
 * The API's types are written once (src/sdk/api-schemas.ts): the SDK's exported types are the
 * `Static<>` types of the schemas the server validates with and documents in OpenAPI, and the
 * domain types that differ from the wire only by internal fields differ by exactly those.
 *
 * These are compile-time checks: `tsc --noEmit -p tsconfig.json` (npm run typecheck, the first
 * step of npm test) fails when a type drifts; at run time `expectTypeOf` does nothing.
 */
import type { Static, TSchema } from 'typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type * as SuggestionsDomain from '../../src/knowledge/answering/suggestions.js';
import type * as AnsweringDomain from '../../src/knowledge/answering/types.js';
import type * as Domain from '../../src/knowledge/model.js';
import type { QueryEvent } from '../../src/knowledge/query/query-service.js';
import type * as Schemas from '../../src/sdk/api-schemas.js';
import type { pageOf } from '../../src/sdk/api-schemas.js';
import type * as Conversation from '../../src/sdk/conversation.js';
import type * as Management from '../../src/sdk/management.js';
import type { ManagementClient } from '../../src/sdk/management.js';
import type * as QueryClient from '../../src/sdk/query-client.js';
import type { fetchWidgetConfig, query, search, streamQuery } from '../../src/sdk/query-client.js';

/** The static type of the schema `Schemas[K]`. */
type S<K extends keyof typeof Schemas> = (typeof Schemas)[K] extends infer Schema extends TSchema ? Static<Schema> : never;
type Client = InstanceType<typeof ManagementClient>;

describe('the management SDK', () => {
  it("exports the schemas' static types", () => {
    expectTypeOf<Management.Problem>().toEqualTypeOf<S<'Problem'>>();
    expectTypeOf<Management.Theme>().toEqualTypeOf<S<'Theme'>>();
    expectTypeOf<Management.Quota>().toEqualTypeOf<S<'Quota'>>();
    expectTypeOf<Management.Session>().toEqualTypeOf<S<'Session'>>();
    expectTypeOf<Management.SignInStarted>().toEqualTypeOf<S<'SignInStarted'>>();
    expectTypeOf<Management.KnowledgeBase>().toEqualTypeOf<S<'KnowledgeBase'>>();
    expectTypeOf<Management.KnowledgeBaseList>().toEqualTypeOf<S<'KnowledgeBaseList'>>();
    expectTypeOf<Management.CreateKnowledgeBaseBody>().toEqualTypeOf<S<'CreateKnowledgeBaseBody'>>();
    expectTypeOf<Management.UpdateKnowledgeBaseBody>().toEqualTypeOf<S<'UpdateKnowledgeBaseBody'>>();
    expectTypeOf<Management.Source>().toEqualTypeOf<S<'Source'>>();
    expectTypeOf<Management.SourceFormat>().toEqualTypeOf<S<'Source'>['format']>();
    expectTypeOf<Management.KnowledgeRecord>().toEqualTypeOf<S<'KnowledgeRecord'>>();
    expectTypeOf<Management.PasteBody>().toEqualTypeOf<S<'PasteBody'>>();
    expectTypeOf<Management.UploadReport>().toEqualTypeOf<S<'UploadReport'>>();
    expectTypeOf<Management.ApiKey>().toEqualTypeOf<S<'ApiKey'>>();
    expectTypeOf<Management.ApiKeyList>().toEqualTypeOf<S<'ApiKeyList'>>();
    expectTypeOf<Management.CreateKeyBody>().toEqualTypeOf<S<'CreateKeyBody'>>();
    expectTypeOf<Management.CreatedKey>().toEqualTypeOf<S<'CreatedKey'>>();
    expectTypeOf<Management.UpdateKeyBody>().toEqualTypeOf<S<'UpdateKeyBody'>>();
    expectTypeOf<Management.UsageReport>().toEqualTypeOf<S<'UsageReport'>>();
    expectTypeOf<Management.PlaygroundQueryBody>().toEqualTypeOf<S<'PlaygroundQueryBody'>>();
    expectTypeOf<Management.PlaygroundQueryBody>().toEqualTypeOf<Omit<S<'QueryBody'>, 'ragId'>>();
  });

  it("pages are the static type of the schemas' pages", () => {
    expectTypeOf<Management.Page<Management.Source>>().toEqualTypeOf<Static<ReturnType<typeof pageOf<(typeof Schemas)['Source']>>>>();
    expectTypeOf<Management.Page<Management.KnowledgeRecord>>().toEqualTypeOf<Static<ReturnType<typeof pageOf<(typeof Schemas)['KnowledgeRecord']>>>>();
  });

  it("sends the request schemas' types and resolves to the response schemas' types", () => {
    expectTypeOf<Client['startSignIn']>().returns.resolves.toEqualTypeOf<S<'SignInStarted'>>();
    expectTypeOf<Client['verifySignIn']>().returns.resolves.toEqualTypeOf<S<'Session'>>();
    expectTypeOf<Client['session']>().returns.resolves.toEqualTypeOf<S<'Session'>>();
    expectTypeOf<Client['listKnowledgeBases']>().returns.resolves.toEqualTypeOf<S<'KnowledgeBaseList'>>();
    expectTypeOf<Client['createKnowledgeBase']>().parameter(0).toEqualTypeOf<S<'CreateKnowledgeBaseBody'>>();
    expectTypeOf<Client['createKnowledgeBase']>().returns.resolves.toEqualTypeOf<S<'KnowledgeBase'>>();
    expectTypeOf<Client['getKnowledgeBase']>().returns.resolves.toEqualTypeOf<S<'KnowledgeBase'>>();
    expectTypeOf<Client['updateKnowledgeBase']>().parameter(1).toEqualTypeOf<S<'UpdateKnowledgeBaseBody'>>();
    expectTypeOf<Client['updateKnowledgeBase']>().returns.resolves.toEqualTypeOf<S<'KnowledgeBase'>>();
    expectTypeOf<Client['listSources']>().returns.resolves.toEqualTypeOf<Management.Page<S<'Source'>>>();
    expectTypeOf<Client['paste']>().parameter(1).toEqualTypeOf<S<'PasteBody'>>();
    expectTypeOf<Client['paste']>().returns.resolves.toEqualTypeOf<S<'UploadReport'>>();
    expectTypeOf<Client['upload']>().returns.resolves.toEqualTypeOf<S<'UploadReport'>>();
    expectTypeOf<Client['listRecords']>().returns.resolves.toEqualTypeOf<Management.Page<S<'KnowledgeRecord'>>>();
    expectTypeOf<Client['allRecords']>().returns.resolves.toEqualTypeOf<S<'KnowledgeRecord'>[]>();
    expectTypeOf<Client['listKeys']>().returns.resolves.toEqualTypeOf<S<'ApiKeyList'>>();
    expectTypeOf<Client['createKey']>().parameter(1).toEqualTypeOf<S<'CreateKeyBody'>>();
    expectTypeOf<Client['createKey']>().returns.resolves.toEqualTypeOf<S<'CreatedKey'>>();
    expectTypeOf<Client['updateKey']>().parameter(2).toEqualTypeOf<S<'UpdateKeyBody'>>();
    expectTypeOf<Client['updateKey']>().returns.resolves.toEqualTypeOf<S<'ApiKey'>>();
    expectTypeOf<Client['usage']>().returns.resolves.toEqualTypeOf<S<'UsageReport'>>();
    expectTypeOf<Client['playgroundQuery']>().parameter(1).toEqualTypeOf<S<'PlaygroundQueryBody'>>();
    expectTypeOf<Client['playgroundQuery']>().returns.resolves.toEqualTypeOf<S<'PlaygroundAnswer'>>();
    // The Playground's answer is a visitor's plus the words beside a refusal.
    expectTypeOf<Omit<S<'PlaygroundAnswer'>, 'unknownWords'>>().toEqualTypeOf<S<'Answer'>>();
    expectTypeOf<Client['streamPlaygroundQuery']>().parameter(1).toEqualTypeOf<S<'PlaygroundQueryBody'>>();
    // The Playground streams the events of /api/v1/query/stream, its `done` being its JSON answer without the request id.
    expectTypeOf<Client['streamPlaygroundQuery']>().returns.toEqualTypeOf<AsyncGenerator<Management.PlaygroundStreamEvent>>();
    type PlaygroundDone = Extract<Management.PlaygroundStreamEvent, { type: 'done' }>;
    expectTypeOf<Omit<PlaygroundDone, 'type' | 'id'>>().toEqualTypeOf<Omit<S<'PlaygroundAnswer'>, 'requestId'>>();
    expectTypeOf<Exclude<Management.PlaygroundStreamEvent, { type: 'done' }>>().toEqualTypeOf<Exclude<QueryClient.StreamEvent, { type: 'done' }>>();
  });
});

describe('the query SDK', () => {
  it("exports the schemas' static types", () => {
    expectTypeOf<QueryClient.Turn>().toEqualTypeOf<S<'Turn'>>();
    expectTypeOf<Conversation.Turn>().toEqualTypeOf<S<'Turn'>>();
    expectTypeOf<QueryClient.Citation>().toEqualTypeOf<S<'Citation'>>();
    expectTypeOf<QueryClient.Suggestion>().toEqualTypeOf<S<'Suggestion'>>();
    expectTypeOf<QueryClient.Answer>().toEqualTypeOf<S<'Answer'>>();
    expectTypeOf<QueryClient.SearchHit>().toEqualTypeOf<S<'SearchHit'>>();
    expectTypeOf<QueryClient.WidgetTheme>().toEqualTypeOf<S<'Theme'>>();
    expectTypeOf<QueryClient.WidgetConfig>().toEqualTypeOf<S<'WidgetConfig'>>();
  });

  it("resolves to the response schemas' types", () => {
    expectTypeOf<typeof query>().returns.resolves.toEqualTypeOf<S<'Answer'>>();
    expectTypeOf<typeof search>().returns.resolves.toEqualTypeOf<S<'SearchResults'>['results']>();
    expectTypeOf<typeof fetchWidgetConfig>().returns.resolves.toEqualTypeOf<S<'WidgetConfig'>>();
    expectTypeOf<QueryClient.QueryOptions['conversation']>().toEqualTypeOf<readonly S<'Turn'>[] | undefined>();
  });

  it("streams the server's events, each with its id; `done` is the answer without the request id", () => {
    type Event = QueryClient.StreamEvent;
    type WithoutId<E> = E extends unknown ? Omit<E, 'id'> : never;
    // The query service's events; `error` is written by the stream route (src/http/routes/query-stream.ts).
    // Their `done` may carry the Playground's `unknownWords`, which only the owner's stream sends.
    type Served = Exclude<Management.PlaygroundStreamEvent, { type: 'error' }>;
    expectTypeOf<WithoutId<Served>>().toEqualTypeOf<WithoutId<QueryEvent>>();
    expectTypeOf<Omit<Extract<Event, { type: 'done' }>, 'type' | 'id'>>().toEqualTypeOf<Omit<S<'Answer'>, 'requestId'>>();
    expectTypeOf<typeof streamQuery>().returns.toEqualTypeOf<AsyncGenerator<Event>>();
  });
});

describe('the domain types', () => {
  it('are the wire types where they are the same shape', () => {
    expectTypeOf<Domain.WidgetTheme>().toEqualTypeOf<S<'Theme'>>();
    expectTypeOf<Domain.DailyUsage>().toEqualTypeOf<S<'UsageReport'>['days'][number]>();

    expectTypeOf<Domain.Page<Domain.Source>>().toEqualTypeOf<Management.Page<Domain.Source>>();
    expectTypeOf<AnsweringDomain.Citation>().toEqualTypeOf<S<'Citation'>>();
    expectTypeOf<SuggestionsDomain.Suggestion>().toEqualTypeOf<S<'Suggestion'>>();
    expectTypeOf<AnsweringDomain.Turn>().toEqualTypeOf<S<'Turn'>>();
  });

  it('differ from the wire types only by the fields their comments name', () => {
    expectTypeOf<Omit<Domain.KnowledgeBase, 'ownerId' | 'keysVersion'>>().toEqualTypeOf<Omit<S<'KnowledgeBase'>, 'quota'>>();
    expectTypeOf<Domain.UnansweredQuestion>().toEqualTypeOf<Omit<S<'UsageReport'>['unanswered'][number], 'unknownWords'>>();
    expectTypeOf<Omit<Domain.Source, 'ragId'>>().toEqualTypeOf<S<'Source'>>();
    expectTypeOf<Omit<Domain.KnowledgeRecord, 'ragId'>>().toEqualTypeOf<S<'KnowledgeRecord'>>();
    expectTypeOf<Omit<Domain.ApiKey, 'ragId'>>().toEqualTypeOf<S<'ApiKey'>>();
  });
});
