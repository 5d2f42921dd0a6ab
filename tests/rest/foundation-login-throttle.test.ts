import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { MemoryLoginThrottle } from '../../server/src/security/login-throttle';
import { startTestApp, type TestApp } from '../helpers/app';

const login = (t: TestApp, username: string, password: string, from?: string) => {
  const req = t.http.post('/api/v1/security/login');
  return (from ? req.set('X-Forwarded-For', from) : req).send({ username, password, provider: 'db' });
};

describe('login throttle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    for (const name of ['thr_a', 'thr_b', 'thr_c']) await t.userWithRoles(name, ['Gamma']);
  });
  afterAll(async () => t?.close());

  it('refuses a user after repeated bad passwords with 429 in Superset envelope, while another user from the same address logs in', async () => {
    const from = '203.0.113.1';
    for (let i = 0; i < 3; i++) expect((await login(t, 'thr_a', 'wrong', from)).status).toBe(401);
    const refused = await login(t, 'thr_a', 'pw', from);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: expect.stringMatching(/^Too many failed login attempts\. Try again in \d+ s\.$/) });
    const other = await login(t, 'thr_b', 'pw', from);
    expect(other.status).toBe(200);
    expect(other.body.access_token).toEqual(expect.any(String));
  });

  it('counts addresses apart when TRUST_PROXY is set: the same user logs in from another client address', async () => {
    for (let i = 0; i < 3; i++) expect((await login(t, 'thr_c', 'wrong', '203.0.113.2')).status).toBe(401);
    expect((await login(t, 'thr_c', 'pw', '203.0.113.2')).status).toBe(429);
    expect((await login(t, 'thr_c', 'pw', '203.0.113.3')).status).toBe(200);
  });

  it('slows down one address guessing many accounts, and no other address', async () => {
    const from = '203.0.113.4';
    for (let i = 0; i < 30; i++) expect((await login(t, `nobody_${i}`, 'wrong', from)).status).toBe(401);
    expect((await login(t, 'thr_b', 'pw', from)).status).toBe(429);
    expect((await login(t, 'thr_b', 'pw', '203.0.113.5')).status).toBe(200);
  });
});

describe('MemoryLoginThrottle', () => {
  it('waits longer after each failure past the free ones, and forgets after a quiet while', async () => {
    let now = 1_000_000;
    const throttle = new MemoryLoginThrottle({ freeFailures: 2, firstDelayMs: 1_000, maxDelayMs: 4_000, forgetAfterMs: 60_000 }, () => now);
    await throttle.fail('k');
    await throttle.fail('k');
    expect(await throttle.waitFor('k')).toBe(1_000);
    await throttle.fail('k');
    expect(await throttle.waitFor('k')).toBe(2_000);
    await throttle.fail('k');
    await throttle.fail('k');
    expect(await throttle.waitFor('k')).toBe(4_000);
    now += 3_000;
    expect(await throttle.waitFor('k')).toBe(1_000);
    expect(await throttle.waitFor('other')).toBe(0);
    now += 60_000;
    expect(await throttle.waitFor('k')).toBe(0);
    await throttle.fail('k');
    expect(await throttle.waitFor('k')).toBe(0);
    await throttle.fail('k');
    await throttle.succeed('k');
    expect(await throttle.waitFor('k')).toBe(0);
  });
});

// Database 12 of the project's Redis is this file's own; its keys are removed afterwards.
const REDIS_URL = 'redis://127.0.0.1:6379/12';

describe('login throttle shared through Redis (REDIS_URL)', () => {
  let a: TestApp;
  let b: TestApp;
  const username = `thr_shared_${Date.now().toString(36)}`;
  const removeKeys = async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys('meridian:login-throttle:*');
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  };
  beforeAll(async () => {
    await removeKeys();
    // Two web processes behind one load balancer: separate apps, one Redis.
    [a, b] = await Promise.all([1, 2].map(() => startTestApp({ env: { TRUST_PROXY: 'true', REDIS_URL } })));
    for (const t of [a, b]) await t.userWithRoles(username, ['Gamma']);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await removeKeys();
  });

  it('failures on one process make another answer 429 for that (address, user), and not for another address', async () => {
    const from = '198.51.100.7';
    for (let i = 0; i < 3; i++) expect((await login(a, username, 'wrong', from)).status).toBe(401);
    const refused = await login(b, username, 'pw', from);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many failed login attempts\. Try again in \d+ s\.$/);
    expect((await login(b, username, 'pw', '198.51.100.8')).status).toBe(200);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys('meridian:login-throttle:user:*');
    redis.disconnect();
    expect(keys).toContain(`meridian:login-throttle:user:${from}\n${username}`);
  });
});
