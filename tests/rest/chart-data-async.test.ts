import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, waitFor } from './sqllab.helpers';

/** Asynchronous chart data (GLOBAL_ASYNC_QUERIES): a job's result belongs to its user, and a failing query reports its errors. */
describe('asynchronous chart data jobs: owner and errors', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let birthNames: number;

  const eventOf = (token: string, jobId: string) =>
    waitFor('async event', async () => {
      const res = await t.http.get('/api/v1/async_event/').set(bearer(token));
      return (res.body.result as any[]).find((e) => e.job_id === jobId);
    });

  beforeAll(async () => {
    t = await startTestApp({ env: { FEATURE_GLOBAL_ASYNC_QUERIES: 'true' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-async-owner-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 200 });
    await ensureExampleDatasets(t.services);
    birthNames = (await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin))).body.ids[0];
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves a job's result to the user who ran it, and to nobody else who holds the key", async () => {
    const job = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id: birthNames, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['count'], orderby: [['gender', true]] }] });
    expect(job.status).toBe(202);
    const event = await eventOf(admin, job.body.job_id);
    expect(event.status).toBe('done');

    // Alpha reads every dataset and holds can_read on Chart, but the job is not its own.
    const alpha = await t.userWithRoles('alpha_async', ['Alpha']);
    const stolen = await t.http.get(event.result_url).set(bearer(alpha));
    expect(stolen.status).toBe(410);
    expect(stolen.body.errors[0].message).toBe('Cached data not found');
    expect(stolen.text).not.toContain('boy');
    const missing = await t.http.get('/api/v1/chart/data/0123456789abcdef').set(bearer(alpha));
    expect(missing.body).toEqual(stolen.body);
    // Nor does the job's event reach another user's channel.
    expect(((await t.http.get('/api/v1/async_event/').set(bearer(alpha))).body.result as any[]).some((e) => e.job_id === job.body.job_id)).toBe(false);

    const own = await t.http.get(event.result_url).set(bearer(admin));
    expect(own.status).toBe(200);
    expect(own.body.result[0].colnames).toEqual(['gender', 'count']);
    expect(own.body.result[0].data.map((r: any) => r.gender)).toEqual(['boy', 'girl']);
  });

  it('a failing query gives an event with status error and the errors, and no result url', async () => {
    const job = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({
      datasource: { id: birthNames, type: 'table' },
      queries: [{ metrics: [{ expressionType: 'SQL', sqlExpression: 'SUM(no_such_column)', label: 'broken' }] }],
    });
    expect(job.status).toBe(202);
    const event = await eventOf(admin, job.body.job_id);
    expect(event).toMatchObject({ status: 'error', job_id: job.body.job_id, channel_id: job.body.channel_id, result_url: null, user_id: 1 });
    expect(event.errors.length).toBeGreaterThan(0);
    expect(event.errors[0]).toMatchObject({ level: 'error', error_type: expect.any(String) });
    expect(event.errors[0].message).toContain('no_such_column');
  });
});
