import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { datasetPermName } from '../../server/src/dataset/dataset.repository';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { RLS_MESSAGES } from '../../server/src/rls/rls.service';
import { SEEDED_ROLES } from '../../server/src/security/permission-matrix';
import { SecurityRepository } from '../../server/src/security/security.repository';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { startWebhookSink } from '../helpers/report-sinks';
import { bearer, registerDatabase } from './sqllab.helpers';

/**
 * Issue 16, row-level security: /api/v1/rowlevelsecurity/ as Superset's RLSRestApi, and its rules applied to the
 * chart data, samples and filter values of the users they name — on the embedded default (PGlite + DuckDB
 * examples) and on the real PostgreSQL (metadata and data).
 */
describe.each([
  { label: 'embedded default (PGlite + DuckDB)', postgres: false },
  { label: 'PostgreSQL', postgres: true },
])('row-level security on the $label', ({ postgres }) => {
  let t: TestApp;
  let admin: string;
  let analyst: string;
  let dataset: number;
  let roles: Record<string, number>;
  let dir: string;
  const cleanups: Array<() => Promise<void>> = [];

  const api = (token = admin) => ({
    get: (path: string) => t.http.get(path).set(bearer(token)),
    post: (path: string, body: object) => t.http.post(path).set(bearer(token)).send(body),
    put: (path: string, body: object) => t.http.put(path).set(bearer(token)).send(body),
    delete: (path: string) => t.http.delete(path).set(bearer(token)),
  });
  /** Rows per gender and state, as one user sees them. */
  const counts = async (token: string, filters: object[] = []) => {
    const res = await api(token).post('/api/v1/chart/data', {
      datasource: { id: dataset, type: 'table' },
      queries: [{ columns: ['gender', 'state'], metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 'n' }], filters, orderby: [['gender', true]], row_limit: 10_000 }],
      result_format: 'json', result_type: 'full',
    });
    expect(res.status, res.text).toBe(200);
    return (res.body.result[0].data as Array<{ gender: string; state: string; n: number }>).map((r) => `${r.gender}/${r.state}:${Number(r.n)}`).sort();
  };
  const rule = async (body: object) => {
    const res = await api().post('/api/v1/rowlevelsecurity/', body);
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'meridian-rls-'));
    if (postgres) {
      const [store, data] = await Promise.all([createPgDatabase(), createPgDatabase()]);
      cleanups.push(store.drop, data.drop);
      const client = new pg.Client({ connectionString: data.url });
      await client.connect();
      await client.query(`CREATE TABLE birth_names (gender text, state text, num int);
        INSERT INTO birth_names VALUES ('girl', 'CA', 10), ('girl', 'NY', 20), ('boy', 'CA', 30), ('boy', 'TX', 40), ('boy', 'NY', 50), ('girl', 'TX', 60)`);
      await client.end();
      t = await startTestApp({ metadataUrl: store.url });
      admin = await t.token();
      const database = await registerDatabase(t, admin, { database_name: 'rls data', sqlalchemy_uri: data.url });
      dataset = (await api().post('/api/v1/dataset/', { database, schema: 'public', table_name: 'birth_names' })).body.id;
    } else {
      t = await startTestApp();
      admin = await t.token();
      await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 50 });
      await ensureExampleDatasets(t.services);
      dataset = (await api().get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' })).body.ids[0];
    }
    const record = (await api().get(`/api/v1/dataset/${dataset}`)).body.result;
    await new SecurityRepository(t.services.db).seedRoles({ RlsAnalyst: [...SEEDED_ROLES.Gamma, ['datasource_access', datasetPermName(record.database.database_name, record.table_name, dataset)]] });
    analyst = await t.userWithRoles('rls_analyst', ['RlsAnalyst']);
    const related = (await api().get('/api/v1/rowlevelsecurity/related/roles').query({ q: '(page_size:100)' })).body.result as Array<{ value: number; text: string }>;
    roles = Object.fromEntries(related.map((r) => [r.text, r.value]));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    for (const drop of cleanups) await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates, reads, lists, updates and bulk-deletes rules with Superset shapes; bad input gets field errors; only admins reach them', async () => {
    const id = await rule({ name: 'North only', filter_type: 'Regular', tables: [dataset], roles: [roles.RlsAnalyst], clause: "state = 'CA'", group_key: 'region', description: 'West coast' });
    const got = (await api().get(`/api/v1/rowlevelsecurity/${id}`)).body;
    expect(got).toMatchObject({ id, result: { name: 'North only', filter_type: 'Regular', clause: "state = 'CA'", group_key: 'region', description: 'West coast', roles: [{ id: roles.RlsAnalyst, name: 'RlsAnalyst' }] } });
    expect(got.result.tables).toMatchObject([{ id: dataset, table_name: 'birth_names' }]);
    expect(got.result.tables[0]).toHaveProperty('schema');
    const list = (await api().get('/api/v1/rowlevelsecurity/').query({ q: `(filters:!((col:tables,opr:rel_m_m,value:${dataset})))` })).body;
    expect(list.count).toBe(1);
    expect(list.result[0]).toMatchObject({ id, name: 'North only', tables: [{ id: dataset, table_name: 'birth_names' }], roles: [{ id: roles.RlsAnalyst, name: 'RlsAnalyst' }], changed_by: { first_name: expect.any(String) } });
    expect(list.result[0].changed_on_delta_humanized).toBeTruthy();
    expect((await api().get('/api/v1/rowlevelsecurity/_info').query({ q: '(keys:!(permissions))' })).body.permissions).toEqual(['can_read', 'can_write']);
    expect((await api().get('/api/v1/rowlevelsecurity/related/tables').query({ q: '(filter:birth)' })).body.result).toContainEqual({ value: dataset, text: 'birth_names', extra: {} });

    // Bad input: Superset's messages, and the stored rule stays as it was.
    const cases: Array<[object, number, unknown]> = [
      [{ name: 'North only', filter_type: 'Regular', tables: [dataset], roles: [], clause: '1 = 1' }, 422, { name: [RLS_MESSAGES.nameExists] }],
      [{ name: 'Ghost role', filter_type: 'Regular', tables: [dataset], roles: [999_999], clause: '1 = 1' }, 422, { roles: [RLS_MESSAGES.rolesNotFound] }],
      [{ name: 'Ghost table', filter_type: 'Base', tables: [999_999], roles: [], clause: '1 = 1' }, 422, { tables: [RLS_MESSAGES.tablesNotFound] }],
    ];
    for (const [body, status, message] of cases) {
      const res = await api().post('/api/v1/rowlevelsecurity/', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toEqual(message);
    }
    for (const body of [{ name: 'No tables', filter_type: 'Regular', tables: [], roles: [], clause: '1 = 1' }, { name: 'Odd type', filter_type: 'Sideways', tables: [dataset], roles: [], clause: '1 = 1' }, { name: 'No clause', filter_type: 'Base', tables: [dataset], roles: [] }]) {
      const res = await api().post('/api/v1/rowlevelsecurity/', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBeTruthy();
    }
    expect((await api().put(`/api/v1/rowlevelsecurity/${id}`, { roles: [424_242] })).status).toBe(422);
    expect((await api().get(`/api/v1/rowlevelsecurity/${id}`)).body.result.roles).toEqual([{ id: roles.RlsAnalyst, name: 'RlsAnalyst' }]);
    expect((await api().put(`/api/v1/rowlevelsecurity/${id}`, { clause: "state = 'NY'", group_key: null })).status).toBe(200);
    expect((await api().get(`/api/v1/rowlevelsecurity/${id}`)).body.result).toMatchObject({ clause: "state = 'NY'", group_key: null, name: 'North only' });

    // Admins only, through both doors.
    expect((await api(analyst).get('/api/v1/rowlevelsecurity/')).status).toBe(403);
    expect((await api(analyst).post('/api/v1/rowlevelsecurity/', { name: 'Mine', filter_type: 'Base', tables: [dataset], roles: [], clause: '1 = 0' })).status).toBe(403);
    const { appRouter } = await import('../../server/src/trpc/app-router');
    const analystActor = await t.services.security.actorFor((await t.services.db.selectFrom('ab_user').select('id').where('username', '=', 'rls_analyst').executeTakeFirstOrThrow()).id);
    await expect(appRouter.createCaller({ actor: analystActor, services: t.services }).rls.list({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await appRouter.createCaller({ actor: await t.services.security.actorFor(1), services: t.services }).rls.get({ id })).name).toBe('North only');

    const other = await rule({ name: 'Other', filter_type: 'Base', tables: [dataset], roles: [], clause: '1 = 1' });
    expect((await api().delete('/api/v1/rowlevelsecurity/').query({ q: `!(${id},${other})` })).body).toEqual({ message: 'Deleted 2 rules' });
    expect((await api().delete('/api/v1/rowlevelsecurity/').query({ q: `!(${id})` })).status).toBe(404);
  });

  it('a Regular rule filters the users of its roles, rules of one group key are ORed, and nobody gets another rule set\'s cached rows', async () => {
    const everything = await counts(admin);
    expect(await counts(analyst)).toEqual(everything);
    const california = await counts(admin, [{ col: 'state', op: '==', val: 'CA' }]);
    const texas = await counts(admin, [{ col: 'state', op: '==', val: 'TX' }]);
    expect(california.length).toBeGreaterThan(0);

    const ca = await rule({ name: 'California', filter_type: 'Regular', tables: [dataset], roles: [roles.RlsAnalyst], clause: "state = 'CA'", group_key: 'state' });
    // The same query, asked again: the analyst's answer is not the cached one of before the rule.
    expect(await counts(analyst)).toEqual(california);
    expect(await counts(admin)).toEqual(everything);

    const tx = await rule({ name: 'Texas', filter_type: 'Regular', tables: [dataset], roles: [roles.RlsAnalyst], clause: "state = 'TX'", group_key: 'state' });
    expect(await counts(analyst)).toEqual([...california, ...texas].sort());
    // Without the shared key the two clauses are ANDed: no row is in both states.
    await api().put(`/api/v1/rowlevelsecurity/${tx}`, { group_key: null });
    expect(await counts(analyst)).toEqual([]);
    await api().delete('/api/v1/rowlevelsecurity/').query({ q: `!(${ca},${tx})` });
    expect(await counts(analyst)).toEqual(everything);
  });

  it('a Base rule filters everyone but its roles, in chart data, samples, filter values and reports', async () => {
    const girls = await counts(admin, [{ col: 'gender', op: '==', val: 'girl' }]);
    const everything = await counts(admin);
    const base = await rule({ name: 'Girls unless admin', filter_type: 'Base', tables: [dataset], roles: [roles.Admin], clause: "gender = 'girl'" });
    expect(await counts(analyst)).toEqual(girls);
    expect(await counts(admin)).toEqual(everything);

    const samples = await api(analyst).post('/datasource/samples?datasource_type=table&datasource_id=' + dataset + '&per_page=1000&force=true', {});
    expect(samples.status, samples.text).toBe(200);
    expect(samples.body.result.data.length).toBeGreaterThan(0);
    expect(new Set((samples.body.result.data as Array<{ gender: string }>).map((r) => r.gender))).toEqual(new Set(['girl']));
    expect(samples.body.result.query).toContain("gender = 'girl'");

    const values = await api(analyst).get(`/api/v1/datasource/table/${dataset}/column/gender/values/`);
    expect(values.status, values.text).toBe(200);
    expect(values.body.result).toEqual(['girl']);
    expect((await api().get(`/api/v1/datasource/table/${dataset}/column/gender/values/`)).body.result).toEqual(['boy', 'girl']);

    // A report runs as its owner, under the owner's rules.
    const hooks = await startWebhookSink();
    try {
      const params = { viz_type: 'table', groupby: ['gender'], metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 'n' }], row_limit: 100 };
      const chart = (await api(analyst).post('/api/v1/chart/', { slice_name: 'Genders', viz_type: 'table', datasource_id: dataset, datasource_type: 'table', params: JSON.stringify(params) })).body.id;
      const report = await api(analyst).post('/api/v1/report/', { type: 'Report', name: 'Genders', crontab: '0 8 * * *', chart, report_format: 'TEXT', recipients: [{ type: 'Webhook', recipient_config_json: { target: `${hooks.url}/rls` } }] });
      expect(report.status, report.text).toBe(201);
      expect(await t.services.reportExecutor.execute(report.body.id, new Date())).toBe('Success');
      const table = hooks.posts[0].body.blocks[1].text.text as string;
      expect(table).toContain('girl');
      expect(table).not.toContain('boy');
    } finally {
      await hooks.close();
    }
    await api().delete(`/api/v1/rowlevelsecurity/${base}`);
  });
});
