import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureClientBuilt } from './browser';

/**
 * An uncached chart query runs once however many identical requests come while it runs, and Explore's page for a
 * saved chart starts the chart's stored query as the page is sent, so the page's own request finds it under way or
 * cached. Against the embedded examples (DuckDB) through the real query pool; runs are counted at the pool's door.
 */
describe('chart data: one run for identical requests, and started with the Explore page', () => {
  let t: TestApp;
  let auth: { Authorization: string };
  let cookie: string[];
  let datasetId: number;
  let runs: ReturnType<typeof vi.spyOn>;
  /** The SQL of each run of the pool on birth_names. */
  const births = () => runs.mock.calls.map((call: unknown[]) => (call[0] as { sql: string }).sql).filter((sql: string) => sql.includes('birth_names'));
  /** Runs of the pool on birth_names whose SQL mentions `marker`. */
  const runsOf = (marker: string) => births().filter((sql: string) => sql.includes(marker)).length;
  const context = (marker: string, extra: Record<string, unknown> = {}) => ({
    datasource: { id: datasetId, type: 'table' },
    queries: [{ columns: ['gender'], metrics: [{ expressionType: 'SQL', sqlExpression: `COUNT(*) + 0 * LENGTH('${marker}')`, label: marker }], orderby: [[marker, false]], row_limit: 10 }],
    result_type: 'full',
    result_format: 'json',
    ...extra,
  });
  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
    return check();
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp();
    await ensureTestExamples(t.services, { salesRows: 50 });
    await ensureExampleDatasets(t.services);
    auth = { Authorization: `Bearer ${await t.token()}` };
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(auth);
    datasetId = list.body.ids[0];
    cookie = (await t.http.post('/login/').send({ username: 'admin', password: 'admin' })).headers['set-cookie'] as unknown as string[];
    runs = vi.spyOn(t.services.queryRuntime, 'runAndRead');
  }, 120_000);
  afterAll(async () => {
    runs?.mockRestore();
    await t?.close();
  });

  it('identical requests sent together run the query once and get the same rows; a forced one runs it again', async () => {
    const body = context('together');
    const answers = await Promise.all([1, 2, 3].map(() => t.http.post('/api/v1/chart/data').set(auth).send(body)));
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(runsOf('together')).toBe(1);
    expect(answers[1]!.body.result[0].data).toEqual(answers[0]!.body.result[0].data);
    expect(answers[0]!.body.result[0].data.length).toBeGreaterThan(0);
    expect((await t.http.post('/api/v1/chart/data').set(auth).send(body)).body.result[0].is_cached).toBe(true);
    expect(runsOf('together')).toBe(1);
    await t.http.post('/api/v1/chart/data').set(auth).send({ ...body, force: true });
    expect(runsOf('together')).toBe(2);
  });

  it("Explore's page for a saved chart starts its stored query; the page's own request then runs nothing more", async () => {
    const saved = async (marker: string, withContext: boolean) => {
      const res = await t.http.post('/api/v1/chart/').set(auth).send({
        slice_name: marker, viz_type: 'table', datasource_id: datasetId, datasource_type: 'table', params: JSON.stringify({ viz_type: 'table' }),
        ...(withContext ? { query_context: JSON.stringify(context(marker)) } : {}),
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const opened = await saved('opened', true);
    expect((await t.http.get(`/explore/?slice_id=${opened}`).set('Cookie', cookie)).status).toBe(200);
    expect(await waitFor(() => runsOf('opened') === 1)).toBe(true);
    // The page's request, as the client builds it from the chart: the same query, answered without a second run.
    const answer = await t.http.post('/api/v1/chart/data').set('Cookie', cookie).set('X-CSRFToken', (await t.http.get('/api/v1/security/csrf_token/').set('Cookie', cookie)).body.result).send(context('opened', { form_data: { slice_id: opened } }));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.result[0].data.length).toBeGreaterThan(0);
    expect(runsOf('opened')).toBe(1);

    // Not when the address forces a fresh answer (the page's request would not use it), nor for a chart with no
    // stored query context (what the page asks for is not known), nor for a visitor who is not signed in.
    const forced = await saved('forced', true);
    const bare = await saved('bare', false);
    await t.http.get(`/explore/?slice_id=${forced}&force=1`).set('Cookie', cookie);
    await t.http.get(`/explore/?slice_id=${bare}`).set('Cookie', cookie);
    const anonymous = await saved('anonymous', true);
    await t.http.get(`/explore/?slice_id=${anonymous}`);
    await new Promise((r) => setTimeout(r, 500));
    expect([runsOf('forced'), runsOf('anonymous')]).toEqual([0, 0]);
    expect(births().length).toBe(runsOf('together') + runsOf('opened'));
  });
});
