import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/jwt-decode/core.js';
import { meta } from '../../../src/tools/jwt-decode/meta.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

const secret = new TextEncoder().encode('s3cret-s3cret-s3cret-s3cret-s3cret!');

describe('jwt-decode', () => {
  itRunsExamples(meta, run);

  it('shows times and expiry, and verifies HS512 even when expired', async () => {
    const token = await new SignJWT({ role: 'admin' }).setProtectedHeader({ alg: 'HS512' }).setIssuedAt(1_000_000_000).setNotBefore(1_000_000_000).setExpirationTime(1_000_003_600).sign(secret);
    const decoded = await run({ token: `Bearer ${token}` });
    expect(decoded).toMatchObject({ status: 'decoded, not verified', verified: false, expired: true, times: { exp: '2001-09-09T02:46:40.000Z', iat: '2001-09-09T01:46:40.000Z', nbf: '2001-09-09T01:46:40.000Z' } });
    const verified = await run({ token, secret: 's3cret-s3cret-s3cret-s3cret-s3cret!' });
    expect(verified).toMatchObject({ verified: true, status: 'verified: the HS512 signature matches the secret', expired: true });
  });

  it('says a future expiry is not expired', async () => {
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(4_102_444_800).sign(secret);
    expect((await run({ token })).expired).toBe(false);
  });

  it.each([
    ['two parts', 'abc.def', 'token'],
    ['a non-JSON payload', 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln', 'token'],
    ['garbage', '....', 'token'],
    ['empty', '', 'token'],
  ])('refuses %s', async (_name, token, field) => {
    expect((await toolRefusal(() => run({ token }))).details.field).toBe(field);
  });

  it('refuses to verify a non-HMAC token with a secret', async () => {
    const none = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.';
    expect((await run({ token: none })).header).toEqual({ alg: 'none' });
    expect((await toolRefusal(() => run({ token: none, secret: 'x' }))).details.field).toBe('secret');
  });

  it('runs over the API', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('jwt-decode', { token: 'nope' })).code).toBe('validation_failed');
  });
});
