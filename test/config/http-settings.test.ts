/**
 * The connection settings (issue 11): HTTP timeouts, the per-IP connection
 * cap and the metrics token — their defaults and the messages for bad values.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { trustedPeer } from '../../src/http/plugins/trusted-peer.js';

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('defaults', () => {
  it('cuts slow headers at 10 s and slow requests at 60 s, keeps idle connections 72 s, caps 64 connections per address', () => {
    const config = loadConfig({});
    expect(config.httpTimeouts).toEqual({ headersMs: 10_000, requestMs: 60_000, keepAliveMs: 72_000 });
    expect(config.ipMaxConnections).toBe(64);
    expect(config.metricsToken).toBeUndefined();
  });

  it('reads every variable', () => {
    const config = loadConfig({
      HTTP_HEADERS_TIMEOUT_SECONDS: '5',
      HTTP_REQUEST_TIMEOUT_SECONDS: '30',
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '10',
      IP_MAX_CONNECTIONS: '0',
      METRICS_TOKEN: 'abcdefghijklmnopqrstuvwxyz',
    });
    expect(config.httpTimeouts).toEqual({ headersMs: 5000, requestMs: 30_000, keepAliveMs: 10_000 });
    expect(config.ipMaxConnections).toBe(0);
    expect(config.metricsToken).toBe('abcdefghijklmnopqrstuvwxyz');
  });
});

describe('bad values stop start-up naming the variable', () => {
  it.each([
    [{ HTTP_HEADERS_TIMEOUT_SECONDS: '0' }, 'HTTP_HEADERS_TIMEOUT_SECONDS'],
    [{ HTTP_REQUEST_TIMEOUT_SECONDS: 'soon' }, 'HTTP_REQUEST_TIMEOUT_SECONDS'],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '-1' }, 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS'],
    [{ HTTP_HEADERS_TIMEOUT_SECONDS: '30', HTTP_REQUEST_TIMEOUT_SECONDS: '20' }, 'HTTP_HEADERS_TIMEOUT_SECONDS'],
    [{ IP_MAX_CONNECTIONS: 'many' }, 'IP_MAX_CONNECTIONS'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'has a space in it, sadly' }, 'METRICS_TOKEN'],
  ])('%o', (env, variable) => {
    const error = refusal(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
  });
});

describe('which peers count as the trusted proxy (exempt from the connection cap)', () => {
  it('follows TRUST_PROXY: off trusts none, true and hop counts trust the peer, lists trust their ranges', () => {
    expect(trustedPeer(false)('127.0.0.1')).toBe(false);
    expect(trustedPeer(true)('203.0.113.9')).toBe(true);
    expect(trustedPeer(1)('203.0.113.9')).toBe(true);
    const list = trustedPeer(['loopback', '10.1.0.0/16', '2001:db8::5']);
    expect(list('127.0.0.1')).toBe(true);
    expect(list('::1')).toBe(true);
    expect(list('10.1.200.3')).toBe(true);
    expect(list('10.2.0.1')).toBe(false);
    expect(list('2001:db8::5')).toBe(true);
    expect(list('203.0.113.9')).toBe(false);
  });
});
