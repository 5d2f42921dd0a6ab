import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// Issue 14's rules across the API: a JSON-string field that does not parse is a 400 with the field map; a bad
// rison q, an unknown order_column, an out-of-range page_size or a bad filter operator is a 400, never a 500.
describe('rules across /api/v1', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let dataset: number;
  let database: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-rules-'));
    database = (await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 20 })).id;
    await ensureExampleDatasets(t.services);
    dataset = (await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin))).body.ids[0];
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers a JSON-string field that does not parse with a 400 naming the field', async () => {
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['post', '/api/v1/chart/', { slice_name: 'x', datasource_id: dataset, datasource_type: 'table', params: '{nope' }, 'params'],
      ['post', '/api/v1/chart/', { slice_name: 'x', datasource_id: dataset, datasource_type: 'table', query_context: '{nope' }, 'query_context'],
      ['post', '/api/v1/dashboard/', { dashboard_title: 'x', json_metadata: '{nope' }, 'json_metadata'],
      ['post', '/api/v1/dashboard/', { dashboard_title: 'x', position_json: '{nope' }, 'position_json'],
      ['put', `/api/v1/database/${database}`, { extra: '{nope' }, 'extra'],
      ['put', `/api/v1/dataset/${dataset}`, { template_params: '{nope' }, 'template_params'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await (t.http as any)[method](path).set(bearer(admin)).send(body);
      expect(res.status, `${path} ${field}`).toBe(400);
      expect(Object.keys(res.body.message), `${path} ${field}`).toContain(field);
    }
  });

  it('answers a bad list query with a 400 in the error envelope', async () => {
    for (const resource of ['chart', 'dashboard', 'dataset', 'database', 'saved_query', 'query', 'annotation_layer', 'css_template', 'tag', 'security/users', 'security/roles', 'log']) {
      // (A page size over the maximum is cut to it, as Flask-AppBuilder cuts it: superset-list-args.test.ts.)
      for (const q of ['(filters:!((col:', '(order_column:no_such_column)', '(page_size:x)', '(filters:!((col:id,opr:no_such_operator,value:1)))']) {
        const res = await t.http.get(`/api/v1/${resource}/`).query({ q }).set(bearer(admin));
        expect(res.status, `${resource} ${q}`).toBe(400);
        expect(res.body, `${resource} ${q}`).toHaveProperty('message');
      }
    }
  });
});
