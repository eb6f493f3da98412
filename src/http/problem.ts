/**
 * RFC 9457 problem documents from the error catalogue. Everything that is not
 * an OAuth endpoint answers errors through here.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catalogue, type ErrorCode } from '../errors.js';

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  requestId: string;
  instance?: string;
  [extra: string]: unknown;
}

export function problemTypeUrl(publicUrl: string, code: ErrorCode): string {
  return `${publicUrl}/docs/errors/${code}`;
}

export function problem(publicUrl: string, request: FastifyRequest, code: ErrorCode, detail: string, extra: Record<string, unknown> = {}): ProblemDocument {
  const spec = catalogue[code];
  return {
    ...extra,
    type: problemTypeUrl(publicUrl, code),
    title: spec.title,
    status: spec.status,
    detail,
    code,
    requestId: request.id,
  };
}

export function sendProblem(
  reply: FastifyReply,
  publicUrl: string,
  code: ErrorCode,
  detail: string,
  extra: Record<string, unknown> = {},
): FastifyReply {
  const body = problem(publicUrl, reply.request, code, detail, extra);
  return reply.code(body.status).type('application/problem+json; charset=utf-8').send(body);
}
