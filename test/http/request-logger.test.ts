/**
 * Each request's logger (src/http/request-logger.ts): below its level a call writes nothing and
 * makes no pino child; at or above it, the line is the one the pino child Fastify used to make
 * would have written, and later calls, children and level changes go to that child.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/http/app.js';
import { levelWrites, RequestLogger } from '../../src/http/request-logger.js';

function capture(level: string): { logger: pino.Logger; lines: Record<string, unknown>[]; children: () => number } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(loggerOptions(level) as pino.LoggerOptions, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  let made = 0;
  const child = logger.child;
  // Counts the children made, without changing what they are (a child inherits this method: `this` is whoever is asked).
  Object.defineProperty(logger, 'child', {
    value: function (this: pino.Logger, ...args: Parameters<pino.Logger['child']>) {
      made++;
      return child.apply(this, args);
    },
  });
  return { logger, lines, children: () => made };
}

/** A line without the fields that differ between two writes (time). */
function stable(line: Record<string, unknown> | undefined): Record<string, unknown> {
  const { time: _time, ...rest } = line ?? {};
  return rest;
}

describe('RequestLogger', () => {
  it('writes nothing and makes no child below its level', () => {
    const { logger, lines, children } = capture('warn');
    const log = new RequestLogger(logger, { reqId: 'req_1' }, {});
    log.info({ req: { id: 'req_1' } }, 'incoming request');
    log.debug('detail');
    log.trace('more detail');
    expect(lines).toEqual([]);
    expect(children()).toBe(0);
    expect(log.level).toBe('warn');
  });

  it('writes the line a pino child with the same bindings writes', () => {
    const { logger, lines } = capture('info');
    const log = new RequestLogger(logger, { reqId: 'req_2' }, {});
    log.info({ res: { statusCode: 200 }, responseTime: 1.5 }, 'request completed');
    logger.child({ reqId: 'req_2' }, {}).info({ res: { statusCode: 200 }, responseTime: 1.5 }, 'request completed');
    expect(lines).toHaveLength(2);
    expect(stable(lines[0])).toEqual(stable(lines[1]));
    expect(lines[0]).toMatchObject({ level: 30, reqId: 'req_2', msg: 'request completed', res: { statusCode: 200 } });
  });

  it('makes its child once, and children and level changes go through it', () => {
    const { logger, lines, children } = capture('info');
    const log = new RequestLogger(logger, { reqId: 'req_3' }, {});
    log.warn('first');
    log.error(new Error('boom'), 'second');
    expect(children()).toBe(1);
    log.child({ bot: { agent: 'https://bot.example' } }).info('bot verified');
    expect(lines.map((line) => [line.msg, line.reqId])).toEqual([
      ['first', 'req_3'],
      ['second', 'req_3'],
      ['bot verified', 'req_3'],
    ]);
    expect(lines[2]).toMatchObject({ bot: { agent: 'https://bot.example' } });
    log.level = 'error';
    log.warn('now below the level');
    expect(lines).toHaveLength(3);
    expect(log.level).toBe('error');
  });

  it('keeps a level given for the route over the parent level', () => {
    const { logger, lines } = capture('info');
    const quiet = new RequestLogger(logger, { reqId: 'req_4' }, { level: 'error' });
    quiet.info('not written');
    quiet.warn('not written either');
    quiet.error('written');
    expect(lines.map((line) => line.msg)).toEqual(['written']);
  });

  it('redacts credentials as the app logger does', () => {
    const { logger, lines } = capture('info');
    new RequestLogger(logger, { reqId: 'req_5' }, {}).info({ req: { id: 'req_5', method: 'GET', url: '/x?code=secret', headers: { authorization: 'Bearer t' } } }, 'incoming request');
    expect(JSON.stringify(lines)).not.toContain('secret');
    expect(lines[0]).toMatchObject({ req: { path: '/x' } });
  });
});

describe('levelWrites', () => {
  it('follows pino level order, and silent writes nothing', () => {
    expect(levelWrites('info', 'info')).toBe(true);
    expect(levelWrites('info', 'warn')).toBe(false);
    expect(levelWrites('fatal', 'error')).toBe(true);
    expect(levelWrites('trace', 'debug')).toBe(false);
    expect(levelWrites('fatal', 'silent')).toBe(false);
  });
});
