import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type TestApp } from '../helpers/app';

// Issue 14: a script written the way Superset's users write them (Node's fetch, a bearer token, the CSRF
// token sent back, rison in `q`, multipart for files) runs unchanged against Meridian.
describe('a Superset-style script with fetch', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    dir = mkdtempSync(join(tmpdir(), 'meridian-script-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 50 });
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('logs in, lists databases, creates, exports and re-imports a dataset, uploads a CSV, runs SQL and reads the log', async () => {
    const base = `${t.url}/api/v1`;
    // --- the script, as written against Superset ---
    const login = await fetch(`${base}/security/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin', provider: 'db', refresh: true }) });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const auth = { Authorization: `Bearer ${access_token}` };
    const csrf = (await (await fetch(`${base}/security/csrf_token/`, { headers: auth })).json()) as { result: string };
    expect(csrf.result).toEqual(expect.any(String));
    const headers = { ...auth, 'X-CSRFToken': csrf.result, Referer: t.url };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, { method, headers: { ...headers, ...(body instanceof FormData ? {} : { 'Content-Type': 'application/json' }) }, body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body) });
      const type = res.headers.get('content-type') ?? '';
      return { status: res.status, json: type.includes('json') ? ((await res.json()) as any) : null, bytes: type.includes('json') ? null : Buffer.from(await res.arrayBuffer()) };
    };
    const q = (rison: string) => `?q=${encodeURIComponent(rison)}`;

    const databases = await call('GET', `/database/${q('(filters:!((col:database_name,opr:ct,value:exam)),columns:!(id,database_name))')}`);
    expect(databases.status).toBe(200);
    const examples = databases.json.result.find((d: { database_name: string }) => d.database_name === 'examples');
    expect(examples).toBeDefined();

    const created = await call('POST', '/dataset/', { database: examples.id, schema: 'main', table_name: 'birth_names' });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const datasetId = created.json.id as number;

    const exported = await call('GET', `/dataset/export/${q(`!(${datasetId})`)}`);
    expect(exported.status).toBe(200);
    expect(exported.bytes!.subarray(0, 2).toString()).toBe('PK');
    expect((await call('DELETE', `/dataset/${datasetId}`)).json).toEqual({ message: 'OK' });
    const bundle = new FormData();
    bundle.append('formData', new Blob([exported.bytes!], { type: 'application/zip' }), 'dataset_export.zip');
    bundle.append('overwrite', 'true');
    const imported = await call('POST', '/dataset/import/', bundle);
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    const back = await call('GET', `/dataset/${q('(filters:!((col:table_name,opr:eq,value:birth_names)))')}`);
    expect(back.json.count).toBe(1);

    const uploads = await call('POST', '/database/', { database_name: 'uploads', sqlalchemy_uri: `duckdb:///${join(dir, 'uploads.duckdb')}`, allow_file_upload: true });
    expect(uploads.status, JSON.stringify(uploads.json)).toBe(201);
    const csv = new FormData();
    csv.append('file', new Blob(['city,visits\nOslo,3\nBergen,5\n'], { type: 'text/csv' }), 'visits.csv');
    csv.append('type', 'csv');
    csv.append('table_name', 'visits');
    csv.append('already_exists', 'replace');
    const uploaded = await call('POST', `/database/${uploads.json.id}/upload/`, csv);
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(201);

    const ran = await call('POST', '/sqllab/execute/', { database_id: uploads.json.id, sql: 'SELECT sum(visits) AS total FROM visits', runAsync: false, client_id: 'script00001' });
    expect(ran.status, JSON.stringify(ran.json)).toBe(200);
    expect(ran.json.data).toEqual([{ total: 8 }]);

    let log: { action: string }[] = [];
    for (let i = 0; i < 50 && !log.some((e) => e.action.includes('upload')); i++) {
      log = (await call('GET', `/log/${q('(order_column:dttm,order_direction:desc,page_size:50)')}`)).json.result;
      await new Promise((r) => setTimeout(r, 50));
    }
    const actions = log.map((e) => e.action);
    expect(actions).toContain('POST /api/v1/database/:pk/upload/');
    expect(actions).toContain('POST /api/v1/dataset/');
    expect(actions).toContain('DELETE /api/v1/dataset/:pk');
    expect(actions).toContain('POST /api/v1/dataset/import/');
  });
});
