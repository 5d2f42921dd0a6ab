import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryRepository } from '../../server/src/query/query.repository';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from './sqllab.helpers';

const ROWS = 120_000;

/** Result rows are streamed from the stored pages straight to the socket, two pages in memory per answer. */
describe('SQL Lab results streamed page by page', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ listen: true, env: { SQL_MAX_ROW: String(ROWS), DISPLAY_MAX_ROW: '1000' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-stream-'));
    const duck = await registerDatabase(t, admin, { database_name: 'duck', sqlalchemy_uri: `duckdb:///${join(dir, 'a.duckdb')}` });
    const res = await t.http
      .post('/api/v1/sqllab/execute/')
      .set(bearer(admin))
      .send({ database_id: duck, sql: `SELECT range AS i, repeat('x', 40) AS s FROM range(${ROWS}) ORDER BY 1`, client_id: clientId(), queryLimit: ROWS });
    expect(res.status).toBe(200);
    expect(res.body.query.rows).toBe(ROWS);
    key = res.body.query.resultsKey;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const results = (offset: number, rows: number) => t.http.get(`/api/v1/sqllab/results/?q=(key:'${key}',offset:${offset},rows:${rows})`).set(bearer(admin));

  it('sends every row of a many-page slice in order, with the usual headers', async () => {
    const res = await results(0, ROWS);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['server-timing']).toMatch(/^app;dur=/);
    const ids = (res.body.data as { i: number }[]).map((row) => row.i);
    expect(ids).toHaveLength(ROWS);
    expect(ids.every((id, n) => id === n)).toBe(true);
    expect(res.body).toMatchObject({ status: 'success', offset: 0 });
    expect(res.body.displayLimitReached).toBeUndefined();
  });

  it('serves concurrent slices correctly and keeps serving after a client leaves half way', async () => {
    // A reader that hangs up after its first bytes: its buffers go back to the pool while others read.
    await new Promise<void>((resolve, reject) => {
      const req = get(`${t.url}/api/v1/sqllab/results/?q=(key:'${key}',offset:0,rows:${ROWS})`, { headers: bearer(admin) }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    });
    const slices = [
      [5_000, 50_000],
      [60_000, 60_000],
      [119_990, 100],
    ] as const;
    const answers = await Promise.all(slices.map(([offset, rows]) => results(offset, rows)));
    answers.forEach((res, n) => {
      const [offset, rows] = slices[n];
      const ids = (res.body.data as { i: number }[]).map((row) => row.i);
      expect(ids).toHaveLength(Math.min(rows, ROWS - offset));
      expect(ids.every((id, k) => id === offset + k)).toBe(true);
      expect(res.body.displayLimitReached).toBe(offset + rows < ROWS ? true : undefined);
    });
    expect((await t.http.get('/health')).text).toBe('OK');
  });

  it('looks a finished query up once while a client pages through its result, and checks access on every page', async () => {
    const lookups = vi.spyOn(QueryRepository.prototype, 'getByResultsKey');
    try {
      const before = lookups.mock.calls.length;
      for (const offset of [0, 1000, 2000]) expect((await results(offset, 1000)).status).toBe(200);
      expect(lookups.mock.calls.length - before).toBeLessThanOrEqual(1);
      const outsider = await t.userWithRoles('stream_outsider', ['sql_lab']);
      const denied = await t.http.get(`/api/v1/sqllab/results/?q=(key:'${key}',offset:0,rows:10)`).set(bearer(outsider));
      expect(denied.status).toBe(403);
      expect(denied.body.errors[0].error_type).toBe('QUERY_SECURITY_ACCESS_ERROR');
    } finally {
      lookups.mockRestore();
    }
  });
});
