import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type MetadataKind, type TestApp } from '../helpers/app';

// ChartRestApi.post and .put answer `self.response(201|200, id=model.id, result=item)`: `item` is the request body as
// ChartPostSchema / ChartPutSchema loaded it, so a script reads back exactly the fields it sent.
describe.each<MetadataKind>(['pglite', 'postgres'])('chart create and update answers (%s)', (metadata) => {
  let t: TestApp;
  let dir: string;
  let headers: Record<string, string>;
  let dataset: number;

  beforeAll(async () => {
    t = await startTestApp({ metadata });
    dir = mkdtempSync(join(tmpdir(), 'meridian-chart-writes-'));
    const login = await t.http.post('/api/v1/security/login').send({ username: 'admin', password: 'admin', provider: 'db', refresh: true });
    const auth = { Authorization: `Bearer ${login.body.access_token}` };
    headers = { ...auth, 'X-CSRFToken': (await t.http.get('/api/v1/security/csrf_token/').set(auth)).body.result };
    const database = (await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 20 })).id;
    dataset = (await t.http.post('/api/v1/dataset/').set(headers).send({ database, schema: 'main', table_name: 'birth_names' })).body.id;
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers a POST and a PUT with the id and the body as loaded, and the chart is stored', async () => {
    const sent = { slice_name: 'Script chart', viz_type: 'pie', params: '{"metric": "count"}', datasource_id: dataset, datasource_type: 'table', description: null };
    const created = await t.http.post('/api/v1/chart/').set(headers).send(sent);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), result: sent });
    const id = created.body.id as number;

    const updated = await t.http.put(`/api/v1/chart/${id}`).set(headers).send({ slice_name: 'Script chart v2', cache_timeout: 60 });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({ id, result: { slice_name: 'Script chart v2', cache_timeout: 60 } });

    const stored = (await t.http.get(`/api/v1/chart/${id}`).set(headers)).body.result;
    expect(stored).toMatchObject({ slice_name: 'Script chart v2', cache_timeout: 60, viz_type: 'pie', params: '{"metric": "count"}', owners: [expect.objectContaining({ first_name: 'Admin' })] });
  });
});
