import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';

// Records every scrypt run (the login KDF) while still running Node's real scrypt.
const kdf = vi.hoisted(() => ({ runs: [] as Array<{ N: number; salt: string }> }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  const scrypt = ((...args: Parameters<typeof real.scrypt>) => {
    const options = args[3] as { N: number };
    kdf.runs.push({ N: options.N, salt: Buffer.from(args[1] as Buffer).toString('base64url') });
    return (real.scrypt as (...a: unknown[]) => void)(...args);
  }) as typeof real.scrypt;
  return { ...real, default: { ...real, scrypt }, scrypt };
});

const { DUMMY_PASSWORD_HASH } = await import('../../server/src/security/password');
const DUMMY_SALT = DUMMY_PASSWORD_HASH.split('$')[4];

/** The KDF runs one login attempt caused. */
async function kdfRunsOf(t: TestApp, username: string, password: string) {
  const before = kdf.runs.length;
  const res = await t.http.post('/api/v1/security/login').set('X-Forwarded-For', `192.0.2.${before % 250}`).send({ username, password, provider: 'db' });
  return { status: res.status, message: res.body.message as string, runs: kdf.runs.slice(before) };
}

describe('login work does not reveal whether a username exists', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    await t.userWithRoles('timing_active', ['Gamma']);
    await t.userWithRoles('timing_inactive', ['Gamma']);
    const admin = await t.token();
    const user = await t.services.db.selectFrom('ab_user').select('id').where('username', '=', 'timing_inactive').executeTakeFirstOrThrow();
    const res = await t.http.put(`/api/v1/security/users/${user.id}`).set('Authorization', `Bearer ${admin}`).send({ active: false });
    expect(res.status).toBe(200);
  });
  afterAll(async () => t?.close());

  it('runs the KDF once with the same cost for a known user, an unknown user and an inactive user, answering the same 401', async () => {
    const known = await kdfRunsOf(t, 'timing_active', 'wrong');
    const unknown = await kdfRunsOf(t, 'timing_nobody', 'wrong');
    const inactive = await kdfRunsOf(t, 'timing_inactive', 'pw');
    for (const attempt of [known, unknown, inactive]) {
      expect(attempt.status).toBe(401);
      // Flask-AppBuilder's SecurityApi.login: response_401().
      expect(attempt.message).toBe('Not authorized');
      expect(attempt.runs).toHaveLength(1);
      expect(attempt.runs[0].N).toBe(known.runs[0].N);
    }
    // The unknown user's password was checked against the fixed dummy hash, the others against their own.
    expect(unknown.runs[0].salt).toBe(DUMMY_SALT);
    expect(known.runs[0].salt).not.toBe(DUMMY_SALT);
    expect(inactive.runs[0].salt).not.toBe(DUMMY_SALT);
  });

  it('still logs a known user in with the right password (one KDF run)', async () => {
    const ok = await kdfRunsOf(t, 'timing_active', 'pw');
    expect(ok.status).toBe(200);
    expect(ok.runs).toHaveLength(1);
  });
});
