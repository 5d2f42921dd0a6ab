import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from './sqllab.helpers';

describe('datasets after their database changes', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let duck: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-dsc-'));
    duck = await registerDatabase(t, admin, { database_name: 'before_rename', sqlalchemy_uri: `duckdb:///${join(dir, 'a.duckdb')}`, allow_dml: true });
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: duck, sql: 'CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)', client_id: clientId() });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the new database name at once after a rename, though dataset reads are cached', async () => {
    const created = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, schema: 'main', table_name: 't' });
    expect(created.status).toBe(201);
    const first = await t.http.get(`/api/v1/dataset/${created.body.id}`).set(bearer(admin));
    expect(first.body.result.database.database_name).toBe('before_rename');
    const renamed = await t.http.put(`/api/v1/database/${duck}`).set(bearer(admin)).send({ database_name: 'after_rename' });
    expect(renamed.status).toBe(200);
    const second = await t.http.get(`/api/v1/dataset/${created.body.id}`).set(bearer(admin));
    expect(second.body.result.database.database_name).toBe('after_rename');
  });
});
