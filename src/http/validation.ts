/**
 * Request validation. JSON bodies are validated as sent — `{"botName": 5}` is
 * a 422, not the string "5" — while query strings, path parameters and
 * headers, which are always text on the wire, are coerced to the schema's
 * types. Defaults are filled in for both.
 */
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, strict: false, ...options });
  addFormats.default(ajv);
  return ajv;
}

export function validatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const bodies = makeAjv({ coerceTypes: false });
  const text = makeAjv({ coerceTypes: 'array' });
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : text).compile(schema as object) as ReturnType<FastifySchemaCompiler<FastifySchema>>;
}
