import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from './sqllab.helpers';

// Issue 10: a save made from an older copy of a dataset must not delete what it never saw.
describe('PUT /api/v1/dataset/{pk} with last_modified_time', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let duck: number;
  let id: number;

  const get = async () => {
    const res = await t.http.get(`/api/v1/dataset/${id}`).set(bearer(admin));
    expect(res.status).toBe(200);
    return res.body.result;
  };
  const put = (body: Record<string, unknown>) => t.http.put(`/api/v1/dataset/${id}`).set(bearer(admin)).send(body);
  const keep = (ds: any) => ({
    columns: ds.columns.map((c: any) => ({ id: c.id, column_name: c.column_name, expression: c.expression, type: c.type })),
    metrics: ds.metrics.map((m: any) => ({ id: m.id, metric_name: m.metric_name, expression: m.expression })),
  });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-ds-stale-'));
    duck = await registerDatabase(t, admin, { database_name: 'duck', sqlalchemy_uri: `duckdb:///${join(dir, 'a.duckdb')}`, allow_dml: true });
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({
      database_id: duck,
      client_id: clientId(),
      sql: "CREATE TABLE sales (ts TIMESTAMP, region VARCHAR, amount INTEGER); INSERT INTO sales VALUES ('2024-01-01', 'north', 10)",
    });
    expect(res.status, res.text).toBe(200);
    id = (await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, schema: 'main', table_name: 'sales' })).body.id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the copy its time in seconds with milliseconds, the same instant as changed_on', async () => {
    const ds = await get();
    expect(typeof ds.last_modified_time).toBe('number');
    expect(Math.round(ds.last_modified_time * 1000)).toBe(Date.parse(ds.changed_on));
  });

  it('refuses a save from a copy older than the stored one with 409 and writes nothing', async () => {
    const opened = await get();
    // Another save adds a metric and a calculated column (within the same second, as two quick saves are).
    const first = await put({
      last_modified_time: opened.last_modified_time,
      columns: [...keep(opened).columns, { column_name: 'doubled', expression: 'amount * 2' }],
      metrics: [...keep(opened).metrics, { metric_name: 'total', expression: 'SUM(amount)' }],
    });
    expect(first.status, first.text).toBe(200);
    const stored = await get();
    expect(stored.last_modified_time).toBeGreaterThan(opened.last_modified_time);

    // The older copy, with only its description changed, would drop them.
    const stale = await put({ last_modified_time: opened.last_modified_time, description: 'from the old copy', ...keep(opened) });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ message: 'This dataset was changed by another save since it was opened. Reload it to get the latest version, then make your changes again.' });
    const after = await get();
    // What is stored, without the humanized times the answer derives from the clock when it is read ('now' became
    // 'a second ago' between the two reads on a loaded machine).
    const asStored = (ds: Record<string, unknown>) => Object.fromEntries(Object.entries(ds).filter(([key]) => !key.endsWith('_humanized')));
    expect(asStored(after)).toEqual(asStored(stored));
    expect(after.metrics.map((m: any) => m.metric_name)).toContain('total');
    expect(after.columns.map((c: any) => c.column_name)).toContain('doubled');
  });

  it('accepts a save from the stored copy, and the next one from the copy that save returned', async () => {
    const fresh = await get();
    const saved = await put({ last_modified_time: fresh.last_modified_time, description: 'first', ...keep(fresh) });
    expect(saved.status, saved.text).toBe(200);
    // Straight away, from the answer of the save: a fresh copy is never refused, however quick.
    const again = await put({ last_modified_time: saved.body.result.last_modified_time, description: 'second', ...keep(saved.body.result) });
    expect(again.status, again.text).toBe(200);
    expect((await get()).description).toBe('second');
    // The copy the first save answered with is now older than the stored one.
    const late = await put({ last_modified_time: saved.body.result.last_modified_time, description: 'late' });
    expect(late.status).toBe(409);
    expect((await get()).description).toBe('second');
  });

  it('lets only one of two saves from the same copy through when they race', async () => {
    const opened = await get();
    const answers = await Promise.all(
      ['one', 'two'].map((name) =>
        put({ last_modified_time: opened.last_modified_time, ...keep(opened), metrics: [...keep(opened).metrics, { metric_name: `race_${name}`, expression: 'MAX(amount)' }], columns: [...keep(opened).columns, { column_name: `calc_${name}`, expression: 'amount + 1' }] }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const names = (await get()).metrics.map((m: any) => m.metric_name).filter((n: string) => n.startsWith('race_'));
    expect(names).toHaveLength(1);
  });

  it('does not check a PUT without last_modified_time, as scripts send', async () => {
    const res = await put({ description: 'from a script' });
    expect(res.status, res.text).toBe(200);
    expect((await get()).description).toBe('from a script');
    const withNull = await put({ description: 'null time', last_modified_time: null });
    expect(withNull.status, withNull.text).toBe(200);
  });

  it('refuses a stale copy through the tRPC door too', async () => {
    const opened = await get();
    await put({ description: 'moved on' });
    const res = await t.http
      .post('/trpc/dataset.update')
      .set(bearer(admin))
      .send({ id, changes: { description: 'stale', last_modified_time: opened.last_modified_time } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/^This dataset was changed by another save/);
    expect((await get()).description).toBe('moved on');
  });

  it('gives a new calculated column the type of its expression, or none when the database cannot tell', async () => {
    const ds = await get();
    const res = await put({
      columns: [
        ...keep(ds).columns.filter((c: any) => c.column_name !== 'doubled'),
        { column_name: 'region_upper', expression: 'UPPER(region)' },
        { column_name: 'half', expression: 'amount / 2.0' },
        { column_name: 'typed_by_hand', expression: 'amount', type: 'MONEY' },
        { column_name: 'mystery', expression: 'no_such_column + 1' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const types = Object.fromEntries(res.body.result.columns.map((c: any) => [c.column_name, c.type]));
    expect(types.region_upper).toBe('VARCHAR');
    expect(types.half).toMatch(/DECIMAL|DOUBLE/);
    expect(types.typed_by_hand).toBe('MONEY');
    // The database refuses the expression: the column is saved, its type left empty.
    expect(types.mystery).toBeNull();
    expect(types.doubled).toBeUndefined();
  });
});
