import { request } from 'node:http';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { bearer, clientId, queryState, registerDatabase, waitFor } from './sqllab.helpers';

/** A login POST on its own connection; resolves with status and body. */
function login(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/security/login`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ username: 'admin', password: 'admin', provider: 'db' }));
  });
}

describe('graceful shutdown', () => {
  it('finishes a request already in flight when the server closes, then stops listening', async () => {
    const t = await startTestApp({ listen: true });
    let received!: () => void;
    const arrived = new Promise<void>((r) => (received = r));
    t.app.server.once('request', () => received());
    // A login runs a slow password KDF, so it is still in flight when close() is called.
    const inFlight = login(t.url);
    await arrived;
    const closing = t.app.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).access_token).toEqual(expect.any(String));
    await closing;
    expect(t.app.server.listening).toBe(false);
    await t.close().catch(() => undefined);
  });
});

describe('shutdown grace period', () => {
  it('stops queries still running after SHUTDOWN_GRACE_SECONDS, records them stopped and cancels them on the database', async () => {
    const target = await createPgDatabase();
    // SQLLAB_ASYNC_TIME_LIMIT is 6 hours: without the grace period, close() would wait for pg_sleep(3600).
    const t = await startTestApp({ env: { SHUTDOWN_GRACE_SECONDS: '1' } });
    try {
      const admin = await t.token();
      const db = await registerDatabase(t, admin, { database_name: 'shutdown_pg', sqlalchemy_uri: target.url, allow_run_async: true });
      const slow = clientId();
      const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, sql: 'SELECT pg_sleep(3600)', client_id: slow, runAsync: true });
      expect(res.status).toBe(202);
      await waitFor('the slow query to run', async () => (await queryState(t, admin, slow))?.state === 'running');

      await t.app.close();

      const row = await t.services.db.selectFrom('query').select(['status', 'error_message']).where('client_id', '=', slow).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'stopped', error_message: expect.stringMatching(/stopped/) });
      const c = new pg.Client({ connectionString: target.url });
      await c.connect();
      const sleeping = await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep(3600)%' AND state = 'active'`);
      await c.end();
      expect(sleeping.rows[0].n).toBe(0);
    } finally {
      await t.close().catch(() => undefined);
      await target.drop();
    }
  });
});
