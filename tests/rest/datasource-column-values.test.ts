import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

describe('GET /api/v1/datasource/{type}/{id}/column/{column}/values/', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let birthNames: number;
  const values = (column: string, id = birthNames, token = admin) => t.http.get(`/api/v1/datasource/table/${id}/column/${column}/values/`).set(bearer(token));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-values-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 200 });
    await ensureExampleDatasets(t.services);
    birthNames = (await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin))).body.ids[0];
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the distinct values of a column, sorted, for filter pickers', async () => {
    const res = await values('gender');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ result: ['boy', 'girl'] });
  });

  it('answers 404 for a column the dataset does not have, or a dataset the user cannot read', async () => {
    expect((await values('no_such_column')).status).toBe(404);
    expect((await values('gender', 999999)).status).toBe(404);
    const gamma = await t.userWithRoles('values-gamma', ['Gamma']);
    expect((await values('gender', birthNames, gamma)).status).toBe(404);
  });
});
