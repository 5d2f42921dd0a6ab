import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipFiles } from '../../server/src/common/zip';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { ensureExampleDashboards } from '../../server/src/dashboard/example-dashboards';
import { startTestApp, type TestApp } from '../helpers/app';
import { SUPERSET_DASHBOARD_EXPORT, supersetDashboardZip } from '../helpers/superset-export';
import { bearer } from './sqllab.helpers';

const FIXTURE = SUPERSET_DASHBOARD_EXPORT;
const fixtureZip = supersetDashboardZip;

async function unzip(body: Buffer): Promise<Record<string, any>> {
  const zip = await JSZip.loadAsync(body);
  const out: Record<string, any> = {};
  for (const entry of Object.values(zip.files)) if (!entry.dir) out[entry.name.split('/').slice(1).join('/')] = parseYaml(await entry.async('string'));
  return out;
}

/** A zip with some of its text files changed. */
async function rezip(body: Buffer, change: (files: Record<string, string>) => void): Promise<Buffer> {
  const zip = await JSZip.loadAsync(body);
  const files: Record<string, string> = {};
  for (const entry of Object.values(zip.files)) if (!entry.dir) files[entry.name] = await entry.async('string');
  change(files);
  const out = new JSZip();
  for (const [name, text] of Object.entries(files)) out.file(name, text);
  return out.generateAsync({ type: 'nodebuffer' });
}

const binary = (res: any, cb: (e: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

// Superset's ImportExport v1 bundles: export and import of dashboards, charts and datasets, with overwrite and passwords.
describe('export/ and import/ (dashboard, chart, dataset, database, assets)', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;

  const importZip = (url: string, zip: Buffer, fields: Record<string, string> = {}, token = admin) => {
    let req = t.http.post(url).set(bearer(token)).attach('formData', zip, 'export.zip');
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-assets-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    await ensureExampleDashboards(t.services);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports a dashboard with its charts, datasets and database, linked by uuid', async () => {
    const id = (await t.http.get('/api/v1/dashboard/births').set(bearer(admin))).body.id;
    const res = await t.http.get('/api/v1/dashboard/export/').query({ q: `!(${id})` }).set(bearer(admin)).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=dashboard_export_\d{8}T\d{6}\.zip$/);
    const files = await unzip(res.body);
    expect(files['metadata.yaml']).toMatchObject({ version: '1.0.0', type: 'Dashboard' });
    const dashboard = Object.entries(files).find(([p]) => p.startsWith('dashboards/'))![1];
    expect(dashboard).toMatchObject({ dashboard_title: 'USA Births Names', slug: 'births', published: true, version: '1.0.0' });
    const charts = Object.entries(files).filter(([p]) => p.startsWith('charts/')).map(([, c]) => c);
    const inLayout = Object.values<any>(dashboard.position).filter((c) => c?.type === 'CHART');
    expect(charts.map((c) => c.uuid).sort()).toEqual(inLayout.map((c) => c.meta.uuid).sort());
    const dataset = Object.entries(files).find(([p]) => p.startsWith('datasets/examples/birth_names'))![1];
    expect(new Set(charts.map((c) => c.dataset_uuid))).toEqual(new Set([dataset.uuid]));
    expect(files['databases/examples.yaml'].uuid).toBe(dataset.database_uuid);
    expect(typeof charts[0].params).toBe('object');
  });

  it('imports a dashboard written in Superset’s export layout: charts on the existing dataset, layout and filters remapped', async () => {
    const res = await importZip('/api/v1/dashboard/import/', fixtureZip());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ message: 'OK' });
    const dash = (await t.http.get('/api/v1/dashboard/imported-births').set(bearer(admin))).body.result;
    const birthNames = (await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin))).body;
    expect(birthNames.count).toBe(1); // matched by name: the examples' dataset, not a second one
    const charts = (await t.http.get('/api/v1/dashboard/imported-births/charts').set(bearer(admin))).body.result;
    expect(charts.map((c: any) => c.slice_name).sort()).toEqual(['Births by state', 'Genders']);
    const byName = Object.fromEntries(charts.map((c: any) => [c.slice_name, c]));
    const position = JSON.parse(dash.position_json);
    expect(position['CHART-explore-41-1'].meta.chartId).toBe(byName.Genders.id);
    expect(position['CHART-explore-42-1'].meta.chartId).toBe(byName['Births by state'].id);
    const metadata = JSON.parse(dash.json_metadata);
    expect(metadata.timed_refresh_immune_slices).toEqual([byName['Births by state'].id]);
    expect(metadata.native_filter_configuration[0].targets).toEqual([{ column: { name: 'gender' }, datasetId: birthNames.ids[0] }]);
    expect(metadata.native_filter_configuration[0].chartsInScope).toEqual([byName.Genders.id]);
    const pie = (await t.http.get(`/api/v1/chart/${byName.Genders.id}`).set(bearer(admin))).body.result;
    expect(pie.datasource_id).toBe(birthNames.ids[0]);
    expect(JSON.parse(pie.params).datasource).toBe(`${birthNames.ids[0]}__table`);
    // The imported charts' queries run on the examples.
    for (const c of charts) {
      const warm = await t.http.put('/api/v1/chart/warm_up_cache').set(bearer(admin)).send({ chart_id: c.id });
      expect(warm.body.result[0]).toMatchObject({ viz_status: 'success' });
    }
  });

  it('refuses to replace an existing dashboard without overwrite, and replaces it with overwrite', async () => {
    const again = await importZip('/api/v1/dashboard/import/', fixtureZip());
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({ message: 'Error importing dashboard', error_type: 'GENERIC_COMMAND_ERROR' });
    expect(again.body.errors[0].extra['dashboards/Imported_births_11.yaml']).toBe('Dashboard already exists and `overwrite=true` was not passed');

    const renamed = readFileSync(join(FIXTURE, 'dashboards/Imported_births_11.yaml'), 'utf8').replace('dashboard_title: Imported births', 'dashboard_title: Imported births (v2)');
    const over = await importZip('/api/v1/dashboard/import/', fixtureZip({ 'dashboards/Imported_births_11.yaml': renamed }), { overwrite: 'true' });
    expect(over.status, JSON.stringify(over.body)).toBe(200);
    expect((await t.http.get('/api/v1/dashboard/imported-births').set(bearer(admin))).body.result.dashboard_title).toBe('Imported births (v2)');
    expect((await t.http.get('/api/v1/dashboard/').query({ q: '(filters:!((col:dashboard_title,opr:ct,value:Imported)))' }).set(bearer(admin))).body.count).toBe(1);
  });

  it('asks for the password of a new database whose URI is masked, and stores it encrypted', async () => {
    const masked = readFileSync(join(FIXTURE, 'databases/examples.yaml'), 'utf8')
      .replace('database_name: examples', 'database_name: warehouse')
      .replace('duckdb:///examples.duckdb', 'postgresql://meridian:XXXXXXXXXX@127.0.0.1:5432/test')
      .replace('a2dc77af-e654-49bb-b321-40f6b559a1ee', 'b3ed88b0-f765-4acc-c432-51a7c660b2ff');
    const dataset = readFileSync(join(FIXTURE, 'datasets/examples/birth_names.yaml'), 'utf8')
      .replace('database_uuid: a2dc77af-e654-49bb-b321-40f6b559a1ee', 'database_uuid: b3ed88b0-f765-4acc-c432-51a7c660b2ff')
      .replace('uuid: 14f48794-ebfa-4f60-a26a-582c49132f1b', 'uuid: 25a59805-fc0b-4071-b37b-693d5a243f2c')
      .replace('schema: main', 'schema: public');
    const files = { 'metadata.yaml': 'version: 1.0.0\ntype: SqlaTable\ntimestamp: 2024-05-02T09:14:21+00:00\n', 'databases/warehouse.yaml': masked, 'datasets/warehouse/birth_names.yaml': dataset };
    const zip = zipFiles(Object.fromEntries(Object.entries(files).map(([p, v]) => [`dataset_export_1/${p}`, v])));
    const refused = await importZip('/api/v1/dataset/import/', zip);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].extra['databases/warehouse.yaml']).toEqual({ _schema: ['Must provide a password for the database'] });
    expect((await t.http.get('/api/v1/database/').query({ q: '(filters:!((col:database_name,opr:eq,value:warehouse)))' }).set(bearer(admin))).body.count).toBe(0);

    const ok = await importZip('/api/v1/dataset/import/', zip, { passwords: JSON.stringify({ 'databases/warehouse.yaml': 's3cret' }) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const stored = await t.services.db.selectFrom('dbs').select(['sqlalchemy_uri', 'password_encrypted']).where('database_name', '=', 'warehouse').executeTakeFirstOrThrow();
    expect(stored.sqlalchemy_uri).toBe('postgresql://meridian:XXXXXXXXXX@127.0.0.1:5432/test');
    expect(stored.password_encrypted).toBeTruthy();
    expect(stored.password_encrypted).not.toContain('s3cret');
  });

  it('exports a chart, and imports it back after it is deleted, under the same uuid', async () => {
    const pie = (await t.http.get('/api/v1/chart/').query({ q: '(filters:!((col:slice_name,opr:eq,value:Genders)))' }).set(bearer(admin))).body.result[0];
    const exported = await t.http.get('/api/v1/chart/export/').query({ q: `!(${pie.id})` }).set(bearer(admin)).buffer(true).parse(binary);
    expect(exported.status).toBe(200);
    const files = await unzip(exported.body);
    expect(files['metadata.yaml'].type).toBe('Slice');
    expect(Object.keys(files).filter((p) => p.startsWith('charts/'))).toHaveLength(1);
    expect((await t.http.delete(`/api/v1/chart/${pie.id}`).set(bearer(admin))).status).toBe(200);
    const back = await importZip('/api/v1/chart/import/', exported.body);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const again = (await t.http.get('/api/v1/chart/').query({ q: '(filters:!((col:slice_name,opr:eq,value:Genders)))' }).set(bearer(admin))).body.result;
    expect(again.map((c: any) => c.uuid)).toEqual([pie.uuid]);
  });

  it('answers bad bundles with clear errors and writes nothing', async () => {
    const before = (await t.http.get('/api/v1/dashboard/').set(bearer(admin))).body.count;
    const notZip = await importZip('/api/v1/dashboard/import/', Buffer.from('not a zip'));
    expect(notZip.status).toBe(400);
    expect(JSON.stringify(notZip.body)).toContain('Not a ZIP file');
    const wrongType = await importZip('/api/v1/chart/import/', fixtureZip());
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors[0].extra['metadata.yaml']).toEqual({ type: ['Must be equal to Slice.'] });
    const broken = await importZip('/api/v1/dashboard/import/', fixtureZip({ 'charts/Genders_41.yaml': 'slice_name: Genders\nuuid: nope\n', 'dashboards/Imported_births_11.yaml': null }));
    expect(broken.status).toBe(422);
    expect(broken.body.errors[0].extra['charts/Genders_41.yaml']).toEqual({ uuid: ['Not a valid UUID.'] });
    expect((await t.http.post('/api/v1/dashboard/import/').set(bearer(admin)).send({})).status).toBe(400);
    expect((await t.http.get('/api/v1/dashboard/').set(bearer(admin))).body.count).toBe(before);
    const gamma = await t.userWithRoles('gamma_import', ['Gamma']);
    const denied = await importZip('/api/v1/dataset/import/', fixtureZip(), {}, gamma);
    expect(denied.status).toBe(403);
  });

  it('exports databases (password masked) with their datasets, and saved queries with their database', async () => {
    const db = (await t.http.get('/api/v1/database/').query({ q: '(filters:!((col:database_name,opr:eq,value:examples)))' }).set(bearer(admin))).body.result[0];
    const res = await t.http.get('/api/v1/database/export/').query({ q: `!(${db.id})` }).set(bearer(admin)).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    const files = await unzip(res.body);
    expect(files['metadata.yaml'].type).toBe('Database');
    expect(files['databases/examples.yaml']).toMatchObject({ database_name: 'examples', expose_in_sqllab: true, version: '1.0.0' });
    const datasets = Object.entries(files).filter(([p]) => p.startsWith('datasets/examples/')).map(([, d]) => d);
    expect(datasets.map((d) => d.table_name)).toContain('birth_names');
    expect(new Set(datasets.map((d) => d.database_uuid))).toEqual(new Set([files['databases/examples.yaml'].uuid]));

    const saved = await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ db_id: db.id, label: 'Top names', sql: 'SELECT name FROM birth_names LIMIT 5', schema: 'main' });
    expect(saved.status).toBe(201);
    const q = await t.http.get('/api/v1/saved_query/export/').query({ q: `!(${saved.body.id})` }).set(bearer(admin)).buffer(true).parse(binary);
    expect(q.status).toBe(200);
    const qFiles = await unzip(q.body);
    expect(qFiles['metadata.yaml'].type).toBe('SavedQuery');
    const query = Object.entries(qFiles).find(([p]) => p.startsWith('queries/examples/'))![1];
    expect(query).toMatchObject({ label: 'Top names', sql: 'SELECT name FROM birth_names LIMIT 5', schema: 'main', database_uuid: qFiles['databases/examples.yaml'].uuid });
    expect((await t.http.get('/api/v1/saved_query/export/').query({ q: '!(999999)' }).set(bearer(admin))).status).toBe(404);

    // Imported back: refused while it exists without overwrite, replaced with it, created again once deleted.
    const again = await importZip('/api/v1/saved_query/import/', q.body);
    expect(again.status).toBe(422);
    expect(JSON.stringify(again.body)).toContain('Saved query already exists and `overwrite=true` was not passed');
    await t.http.put(`/api/v1/saved_query/${saved.body.id}`).set(bearer(admin)).send({ label: 'Renamed' });
    expect((await importZip('/api/v1/saved_query/import/', q.body, { overwrite: 'true' })).body).toEqual({ message: 'OK' });
    expect((await t.http.get(`/api/v1/saved_query/${saved.body.id}`).set(bearer(admin))).body.result.label).toBe('Top names');
    await t.http.delete(`/api/v1/saved_query/${saved.body.id}`).set(bearer(admin));
    expect((await importZip('/api/v1/saved_query/import/', q.body)).status).toBe(200);
    const back = (await t.http.get('/api/v1/saved_query/').query({ q: "(filters:!((col:label,opr:eq,value:'Top names')))" }).set(bearer(admin))).body;
    expect(back.count).toBe(1);
    expect(back.result[0]).toMatchObject({ sql: 'SELECT name FROM birth_names LIMIT 5', schema: 'main', database: { id: db.id } });
    const broken = await importZip('/api/v1/saved_query/import/', await rezip(q.body, (files) => {
      for (const path of Object.keys(files)) if (path.includes('/queries/')) files[path] = files[path]!.replace(/^sql:.*$/m, '');
    }));
    expect(broken.status).toBe(422);
    expect(JSON.stringify(broken.body)).toContain('Missing data for required field.');
  });

  it('exports and imports the whole instance', async () => {
    const res = await t.http.get('/api/v1/assets/export/').set(bearer(admin)).buffer(true).parse(binary);
    expect(res.status, res.body.toString()).toBe(200);
    const files = await unzip(res.body);
    expect(files['metadata.yaml'].type).toBe('assets');
    expect(Object.keys(files).filter((p) => p.startsWith('dashboards/')).length).toBeGreaterThanOrEqual(3);
    const back = await t.http.post('/api/v1/assets/import/').set(bearer(admin)).attach('bundle', res.body, 'assets.zip').field('overwrite', 'true');
    expect(back.status, JSON.stringify(back.body)).toBe(200);
  });
});
