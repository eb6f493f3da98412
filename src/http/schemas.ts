/**
 * The schemas routes use. The wire shapes (request and response bodies) are written once in
 * src/sdk/api-schemas.ts, which the SDK derives its types from and which has no server
 * dependencies; this module re-exports them beside what only the server needs: path and
 * pagination parameters, the shared error responses and the security requirement.
 */
import { Type } from 'typebox';

export * from '../sdk/api-schemas.js';

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

/** Standard error responses for the OpenAPI document. */
export const errorResponses = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, Type.Ref('Problem')]));

/** Management endpoints accept the dashboard session or a bearer credential. */
export const accountSecurity: Record<string, string[]>[] = [{ session: [] }, { bearer: [] }];
