import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, waitFor } from './sqllab.helpers';

const SUM = { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'SUM', label: 'SUM(num)' };

describe('/api/v1/chart/, explore, permalinks, form data and the examples', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let birthNames: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-chart-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 2000 });
    await ensureExampleDatasets(t.services);
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin));
    birthNames = list.body.ids[0];
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('examples data: births by gender add up to the total', async () => {
    const res = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({
      datasource: { id: birthNames, type: 'table' },
      queries: [{ columns: ['gender'], metrics: ['sum__num', 'count'], orderby: [['gender', true]] }, { metrics: ['sum__num', 'count'] }],
    });
    expect(res.status).toBe(200);
    const [byGender, all] = res.body.result;
    expect(byGender.colnames).toEqual(['gender', 'sum__num', 'count']);
    expect(byGender.data.map((d: any) => d.gender)).toEqual(['boy', 'girl']);
    const sum = byGender.data.reduce((acc: number, d: any) => acc + Number(d.sum__num), 0);
    expect(sum).toBe(Number(all.data[0].sum__num));
    expect(byGender.data.reduce((acc: number, d: any) => acc + Number(d.count), 0)).toBe(Number(all.data[0].count));
    const boys = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id: birthNames, type: 'table' }, queries: [{ metrics: ['sum__num_boys'] }] });
    expect(Number(boys.body.result[0].data[0].sum__num_boys)).toBe(Number(byGender.data[0].sum__num));
  });

  it('examples data: big ids keep every digit', async () => {
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:big_ids)))' }).set(bearer(admin));
    const res = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id: list.body.ids[0], type: 'table' }, queries: [{ columns: ['id'], orderby: [['id', true]], row_limit: 100 }] });
    expect(res.status).toBe(200);
    expect(res.text).toContain('9007199254740993');
    // Served again from the cache, with every digit still.
    const again = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id: list.body.ids[0], type: 'table' }, queries: [{ columns: ['id'], orderby: [['id', true]], row_limit: 100 }] });
    expect(again.body.result[0].is_cached).toBe(true);
    expect(again.text).toContain('9007199254740993');
  });

  it('saves, reads, lists, favourites and deletes a chart (spec 01 §3 chart save payload)', async () => {
    const params = JSON.stringify({ viz_type: 'table', datasource: `${birthNames}__table`, metrics: [SUM], groupby: ['gender'] });
    const queryContext = JSON.stringify({ datasource: { id: birthNames, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['sum__num'] }], result_format: 'json', result_type: 'full' });
    const created = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: 'Births by gender', viz_type: 'table', params, query_context: queryContext, datasource_id: birthNames, datasource_type: 'table', dashboards: [], owners: [] });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const got = await t.http.get(`/api/v1/chart/${id}`).set(bearer(admin));
    expect(got.body.result).toMatchObject({ id, slice_name: 'Births by gender', viz_type: 'table', params, owners: [{ id: 1 }], dashboards: [] });
    // q's columns narrow the answer, a dotted one inside its related objects, as Flask-AppBuilder's.
    expect((await t.http.get(`/api/v1/chart/${id}`).query({ q: '(columns:!(slice_name,owners.id,dashboards.id))' }).set(bearer(admin))).body.result).toEqual({ slice_name: 'Births by gender', owners: [{ id: 1 }], dashboards: [] });
    const data = await t.http.get(`/api/v1/chart/${id}/data/`).set(bearer(admin));
    expect(data.status).toBe(200);
    expect(data.body.result[0].colnames).toEqual(['gender', 'sum__num']);

    const list = await t.http.get('/api/v1/chart/').query({ q: "(filters:!((col:slice_name,opr:chart_all_text,value:gender),(col:owners,opr:rel_m_m,value:1)),order_column:changed_on_delta_humanized,order_direction:desc,page_size:200)" }).set(bearer(admin));
    expect(list.body.count).toBe(1);
    expect(list.body.result[0]).toMatchObject({ slice_name: 'Births by gender', datasource_name_text: 'main.birth_names', viz_type: 'table' });
    const none = await t.http.get('/api/v1/chart/').query({ q: '(filters:!((col:slice_name,opr:chart_all_text,value:zzz)))' }).set(bearer(admin));
    expect(none.body.count).toBe(0);

    expect((await t.http.get('/api/v1/chart/favorite_status/').query({ q: `!(${id})` }).set(bearer(admin))).body.result).toEqual([{ id, value: false }]);
    expect((await t.http.post(`/api/v1/chart/${id}/favorites/`).set(bearer(admin))).status).toBe(200);
    expect((await t.http.get('/api/v1/chart/favorite_status/').query({ q: `!(${id})` }).set(bearer(admin))).body.result[0].value).toBe(true);
    await t.http.delete(`/api/v1/chart/${id}/favorites/`).set(bearer(admin));
    expect((await t.http.get('/api/v1/chart/favorite_status/').query({ q: `!(${id})` }).set(bearer(admin))).body.result[0].value).toBe(false);

    const updated = await t.http.put(`/api/v1/chart/${id}`).set(bearer(admin)).send({ slice_name: 'Births by gender (v2)' });
    expect(updated.body.result.slice_name).toBe('Births by gender (v2)');
    const bad = await t.http.put(`/api/v1/chart/${id}`).set(bearer(admin)).send({ params: '{not json' });
    // Superset's schema validation: JSON text that does not parse is a 400 with the field map.
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual({ params: ['JSON not valid'] });
    // So is every other JSON-string field: query_context on a save, both on a create, and nothing is stored.
    const badContext = await t.http.put(`/api/v1/chart/${id}`).set(bearer(admin)).send({ slice_name: 'not saved', query_context: '{"datasource": ' });
    expect(badContext.status).toBe(400);
    expect(badContext.body.message).toEqual({ query_context: ['JSON not valid'] });
    expect((await t.http.get(`/api/v1/chart/${id}`).set(bearer(admin))).body.result.slice_name).toBe('Births by gender (v2)');
    const badCreate = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: 'x', viz_type: 'pie', datasource_id: 1, datasource_type: 'table', params: '[', query_context: 'nope' });
    expect(badCreate.status).toBe(400);
    expect(badCreate.body.message).toEqual({ params: ['JSON not valid'], query_context: ['JSON not valid'] });

    // related/created_by and related/owners: the people, by name, searchable.
    for (const column of ['created_by', 'owners', 'changed_by']) {
      const related = await t.http.get(`/api/v1/chart/related/${column}`).query({ q: '(filter:adm)' }).set(bearer(admin));
      expect(related.status, column).toBe(200);
      expect(related.body.result, column).toEqual([expect.objectContaining({ text: 'Admin User', value: expect.any(Number) })]);
      expect(related.body.count, column).toBe(1);
    }
    expect((await t.http.get('/api/v1/chart/related/created_by').query({ q: '(filter:nobody_by_that_name)' }).set(bearer(admin))).body).toMatchObject({ count: 0, result: [] });

    const gamma = await t.userWithRoles('gamma_c', ['Gamma']);
    // Gamma cannot read birth_names, so the chart is as absent as a missing one; Alpha reads it but does not own it.
    expect((await t.http.put(`/api/v1/chart/${id}`).set(bearer(gamma)).send({ slice_name: 'hijack' })).status).toBe(404);
    const alpha = await t.userWithRoles('alpha_c', ['Alpha']);
    const refused = await t.http.put(`/api/v1/chart/${id}`).set(bearer(alpha)).send({ slice_name: 'hijack' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Changing this chart is forbidden');
    expect((await t.http.delete(`/api/v1/chart/${id}`).set(bearer(admin))).status).toBe(200);
    expect((await t.http.get(`/api/v1/chart/${id}`).set(bearer(admin))).status).toBe(404);
  });

  it("a PUT of only a generated query context (Explore's, for whoever opens the chart) needs no ownership and is not a save", async () => {
    const created = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: 'No context yet', viz_type: 'table', datasource_id: birthNames, datasource_type: 'table', params: '{}' });
    const id = created.body.id as number;
    // Who saved it and when, as the list shows them.
    const row = async () => (await t.http.get('/api/v1/chart/').query({ q: "(filters:!((col:slice_name,opr:eq,value:'No context yet')))" }).set(bearer(admin))).body.result[0];
    const before = await row();
    expect(before.last_saved_at).toEqual(expect.any(String));
    expect((await t.http.get(`/api/v1/chart/${id}`).set(bearer(admin))).body.result.query_context).toBeNull();
    const alpha = await t.userWithRoles('alpha_qc', ['Alpha']);
    const context = JSON.stringify({ datasource: { id: birthNames, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['count'] }] });
    // Anything more than the context, or a context not marked as generated, is an edit: the owner's alone.
    expect((await t.http.put(`/api/v1/chart/${id}`).set(bearer(alpha)).send({ query_context: context, query_context_generation: true, slice_name: 'hijack' })).status).toBe(403);
    expect((await t.http.put(`/api/v1/chart/${id}`).set(bearer(alpha)).send({ query_context: context })).status).toBe(403);
    expect((await t.http.put(`/api/v1/chart/${id}`).set(bearer(alpha)).send({ query_context: '{', query_context_generation: true })).status).toBe(400);
    const put = await t.http.put(`/api/v1/chart/${id}`).set(bearer(alpha)).send({ query_context: context, query_context_generation: true });
    expect(put.status, put.text).toBe(200);
    expect((await t.http.get(`/api/v1/chart/${id}`).set(bearer(admin))).body.result.query_context).toBe(context);
    const after = await row();
    expect([after.slice_name, after.changed_by, after.last_saved_by, after.last_saved_at]).toEqual([before.slice_name, before.changed_by, before.last_saved_by, before.last_saved_at]);
    // Gamma may not read birth_names: the chart is as absent to it as a missing one.
    const gamma = await t.userWithRoles('gamma_qc', ['Gamma']);
    expect((await t.http.put(`/api/v1/chart/${id}`).set(bearer(gamma)).send({ query_context: context, query_context_generation: true })).status).toBe(404);
  });

  it('explore bootstrap, datasource metadata and the datasource key rule', async () => {
    const boot = await t.http.get('/api/v1/explore/').query({ datasource_id: birthNames, datasource_type: 'table' }).set(bearer(admin));
    expect(boot.status).toBe(200);
    expect(boot.body.result.dataset).toMatchObject({ id: birthNames, table_name: 'birth_names', main_dttm_col: 'ds' });
    expect(boot.body.result.form_data).toMatchObject({ datasource: `${birthNames}__table`, time_range: 'No filter' });
    const meta = await t.http.get('/superset/fetch_datasource_metadata').query({ datasourceKey: `${birthNames}__table` }).set(bearer(admin));
    expect(meta.status).toBe(200);
    expect(meta.body.metrics.map((m: any) => m.metric_name)).toContain('sum__num');
    const bad = await t.http.get('/superset/fetch_datasource_metadata').query({ datasourceKey: 'birth_names' }).set(bearer(admin));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Cannot parse invalid filter key');
  });

  it('permalinks and the form data cache', async () => {
    const formData = { datasource: `${birthNames}__table`, viz_type: 'table', metrics: ['sum__num'] };
    const link = await t.http.post('/api/v1/explore/permalink').set(bearer(admin)).send({ formData, urlParams: [['standalone', '1']] });
    expect(link.status).toBe(201);
    expect(link.body.url).toContain(`/superset/explore/p/${link.body.key}/`);
    const read = await t.http.get(`/api/v1/explore/permalink/${link.body.key}`).set(bearer(admin));
    expect(read.body).toMatchObject({ datasourceId: birthNames, datasourceType: 'table', state: { formData, urlParams: [['standalone', '1']] } });
    expect((await t.http.get('/api/v1/explore/permalink/nope').set(bearer(admin))).status).toBe(404);
    // Explore opens the link with its URL params as the form data's url_params (Superset's GetExploreCommand).
    const opened = await t.http.get('/api/v1/explore/').query({ permalink_key: link.body.key }).set(bearer(admin));
    expect(opened.body.result.form_data).toMatchObject({ viz_type: 'table', url_params: { standalone: '1' } });

    const key = (await t.http.post('/api/v1/explore/form_data').set(bearer(admin)).send({ datasource_id: birthNames, datasource_type: 'table', form_data: JSON.stringify(formData) })).body.key;
    expect(JSON.parse((await t.http.get(`/api/v1/explore/form_data/${key}`).set(bearer(admin))).body.form_data)).toEqual(formData);
    await t.http.put(`/api/v1/explore/form_data/${key}`).set(bearer(admin)).send({ datasource_id: birthNames, datasource_type: 'table', form_data: JSON.stringify({ ...formData, viz_type: 'pie' }) });
    expect(JSON.parse((await t.http.get(`/api/v1/explore/form_data/${key}`).set(bearer(admin))).body.form_data).viz_type).toBe('pie');
    // Form data that is not JSON is refused (it was kept, for the next open of the key to fail on), and the stored copy stays.
    for (const bad of [
      await t.http.post('/api/v1/explore/form_data').set(bearer(admin)).send({ datasource_id: birthNames, datasource_type: 'table', form_data: '{"viz_type": ' }),
      await t.http.put(`/api/v1/explore/form_data/${key}`).set(bearer(admin)).send({ datasource_id: birthNames, datasource_type: 'table', form_data: '' }),
    ]) {
      expect(bad.status).toBe(400);
      expect(bad.body.message).toEqual({ form_data: ['JSON not valid'] });
    }
    expect(JSON.parse((await t.http.get(`/api/v1/explore/form_data/${key}`).set(bearer(admin))).body.form_data).viz_type).toBe('pie');
    const other = await t.userWithRoles('alpha_fd', ['Alpha']);
    expect((await t.http.delete(`/api/v1/explore/form_data/${key}`).set(bearer(other))).status).toBe(403);
    expect((await t.http.delete(`/api/v1/explore/form_data/${key}`).set(bearer(admin))).status).toBe(200);
    expect((await t.http.get(`/api/v1/explore/form_data/${key}`).set(bearer(admin))).status).toBe(404);
  });

  it('samples page through the rows with a total count', async () => {
    const res = await t.http.post('/datasource/samples').query({ datasource_type: 'table', datasource_id: birthNames, per_page: 5, page: 2 }).set(bearer(admin)).send({ filters: [{ col: 'gender', op: '==', val: 'girl' }] });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ page: 2, per_page: 5, rowcount: 5 });
    expect(res.body.result.data.every((r: any) => r.gender === 'girl')).toBe(true);
    const all = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id: birthNames, type: 'table' }, queries: [{ metrics: ['count'], filters: [{ col: 'gender', op: '==', val: 'girl' }] }] });
    expect(res.body.result.total_count).toBe(Number(all.body.result[0].data[0].count));
  });

  it('the tRPC doors reach the same services', async () => {
    const { appRouter } = await import('../../server/src/trpc/app-router');
    const caller = appRouter.createCaller({ actor: await t.services.security.actorFor(1), services: t.services });
    expect((await caller.dataset.get({ id: birthNames })).table_name).toBe('birth_names');
    const answer = await caller.chart.data({ datasource: { id: birthNames, type: 'table' }, queries: [{ metrics: ['count'] }], result_format: 'json', result_type: 'full', force: false });
    expect(answer.status).toBe(200);
    const boot = await caller.explore.bootstrap({ datasource_id: birthNames, datasource_type: 'table' });
    expect(boot.result.dataset?.id).toBe(birthNames);
  });

  it('time_range endpoint', async () => {
    const res = await t.http.get('/api/v1/time_range/').query({ q: "'2020-01-01 : 2020-02-01'" }).set(bearer(admin));
    expect(res.body.result[0]).toEqual({ since: '2020-01-01T00:00:00', until: '2020-02-01T00:00:00', timeRange: '2020-01-01 : 2020-02-01', shift: null });
    const bad = await t.http.get('/api/v1/time_range/').query({ q: "'2020-01-01 : blursday'" }).set(bearer(admin));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Unexpected time range: Cannot parse time string [blursday]');
  });

  it('time_range moves each range by its shift, as get_since_until(time_range, time_shift=shift)', async () => {
    const q = "!((timeRange:'2020-01-01 : 2020-02-01'),(timeRange:'2020-01-01 : 2020-02-01',shift:'1 year ago'))";
    const res = await t.http.get('/api/v1/time_range/').query({ q }).set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([
      { since: '2020-01-01T00:00:00', until: '2020-02-01T00:00:00', timeRange: '2020-01-01 : 2020-02-01', shift: null },
      { since: '2019-01-01T00:00:00', until: '2019-02-01T00:00:00', timeRange: '2020-01-01 : 2020-02-01', shift: '1 year ago' },
    ]);
  });
});

describe('asynchronous chart data (GLOBAL_ASYNC_QUERIES)', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { FEATURE_GLOBAL_ASYNC_QUERIES: 'true' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-async-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 2000 });
    await ensureExampleDatasets(t.services);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 202 with a job, publishes the event, serves the result; a cached query answers at once', async () => {
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin));
    const body = { datasource: { id: list.body.ids[0], type: 'table' }, queries: [{ columns: ['gender'], metrics: ['sum__num'] }] };
    const job = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(body);
    expect(job.status).toBe(202);
    expect(job.body).toMatchObject({ status: 'pending', errors: [], result_url: null, user_id: 1 });
    const event = await waitFor('async event', async () => {
      const res = await t.http.get('/api/v1/async_event/').set(bearer(admin));
      return (res.body.result as any[]).find((e) => e.job_id === job.body.job_id);
    });
    expect(event).toMatchObject({ status: 'done', channel_id: job.body.channel_id });
    const later = await t.http.get('/api/v1/async_event/').query({ last_id: event.id }).set(bearer(admin));
    expect(later.body.result).toEqual([]);
    const result = await t.http.get(event.result_url).set(bearer(admin));
    expect(result.status).toBe(200);
    expect(result.body.result[0].colnames).toEqual(['gender', 'sum__num']);
    const cached = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(body);
    expect(cached.status).toBe(200);
    expect(cached.body.result[0].is_cached).toBe(true);
  });
});

describe('async events over the WebSocket', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { FEATURE_GLOBAL_ASYNC_QUERIES: 'true' }, listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-ws-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 2000 });
    await ensureExampleDatasets(t.services);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('pushes the job event to a socket connected with last_id, and refuses anonymous sockets', async () => {
    const { WebSocket } = createRequire(new URL('../../server/package.json', import.meta.url))('ws');
    const wsUrl = t.url.replace('http', 'ws');
    const refused = await new Promise<string>((done) => {
      const anon = new WebSocket(`${wsUrl}/ws`);
      anon.on('error', (e: Error) => done(e.message));
      anon.on('open', () => done('open'));
    });
    expect(refused).toContain('401');
    const before = await t.http.get('/api/v1/async_event/').set(bearer(admin));
    const lastId = (before.body.result as any[]).at(-1)?.id ?? '';
    const socket = new WebSocket(`${wsUrl}/ws?last_id=${lastId}`, { headers: { Authorization: `Bearer ${admin}` } });
    const received: any[] = [];
    socket.on('message', (data: Buffer) => received.push(JSON.parse(data.toString())));
    await new Promise((done) => socket.on('open', done));
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin));
    const job = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id: list.body.ids[0], type: 'table' }, queries: [{ metrics: ['count'] }] });
    expect(job.status).toBe(202);
    const event = await waitFor('socket event', async () => received.find((e) => e.job_id === job.body.job_id));
    expect(event).toMatchObject({ status: 'done', result_url: expect.stringMatching(/^\/api\/v1\/chart\/data\//) });
    socket.close();
  });
});
