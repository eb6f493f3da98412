/**
 * Request and response schemas shared by validation, serialisation and the
 * OpenAPI document. Types are derived from them with `Static`, never written twice.
 */
import { type Static, Type } from 'typebox';

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

export const Theme = Type.Object(
  {
    accentColor: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
    colorScheme: Type.Optional(Type.Union([Type.Literal('light'), Type.Literal('dark'), Type.Literal('auto')])),
    position: Type.Optional(Type.Union([Type.Literal('bottom-right'), Type.Literal('bottom-left')])),
  },
  { additionalProperties: false },
);

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

export const CreateKnowledgeBaseBody = Type.Object(
  {
    botName: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S', description: 'Name the widget shows; 1–80 characters.' }),
    description: Type.Optional(Type.Union([displayText(500), Type.Null()])),
    greeting: Type.Optional(Type.Union([displayText(300), Type.Null()])),
    fallbackMessage,
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

export const KnowledgeBase = Type.Object(
  {
    ragId: Type.String(),
    botName: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    greeting: Type.Union([Type.String(), Type.Null()]),
    fallbackMessage: Type.Union([Type.String(), Type.Null()], { description: 'The answer text when the records do not answer; null = the default refusal in the question\'s language.' }),
    theme: Theme,
    contentVersion: Type.Integer(),
    recordCount: Type.Integer(),
    quota: Quota,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'KnowledgeBase' },
);

export const Source = Type.Object(
  {
    sourceId: Type.String(),
    sourceName: Type.String(),
    format: Type.Union([Type.Literal('json'), Type.Literal('jsonl'), Type.Literal('txt'), Type.Literal('md')]),
    byteSize: Type.Integer(),
    sha256: Type.String(),
    addedCount: Type.Integer(),
    duplicateCount: Type.Integer(),
    rejectedCount: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Source' },
);

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

/** Page size when `limit` is not given (validation fills it in; optional so that OpenAPI does not call it required). */
export const defaultPageSize = 50;

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: defaultPageSize })),
    cursor: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const RecordsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: defaultPageSize })),
    cursor: Type.Optional(Type.String({ maxLength: 64 })),
    sourceId: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const RagIdParams = Type.Object({ ragId: Type.String({ maxLength: 64 }) });
export const SourceParams = Type.Object({ ragId: Type.String({ maxLength: 64 }), sourceId: Type.String({ maxLength: 64 }) });
export const RecordParams = Type.Object({ ragId: Type.String({ maxLength: 64 }), recordId: Type.String({ maxLength: 64 }) });

export const pageOf = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ items: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()]) });

/** Standard error responses for the OpenAPI document. */
export const errorResponses = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, Type.Ref('Problem')]));

/** Management endpoints accept the dashboard session or a bearer credential. */
export const accountSecurity: Record<string, string[]>[] = [{ session: [] }, { bearer: [] }];
