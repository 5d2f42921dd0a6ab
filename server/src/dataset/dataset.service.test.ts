import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openMetadataDb, type MetadataDb } from '../db/database';
import { createLogger } from '../logger';
import type { Actor } from '../security/actor';
import { ensureAdmin } from '../security/admin';
import { createServices, type Services } from '../services';
import { DatasetRepository } from './dataset.repository';
import { DatasetService } from './dataset.service';

/** The dataset records DatasetService reuses for a few seconds never outlive a write through the service. */
describe('DatasetService record cache', () => {
  let dir: string;
  let db: MetadataDb;
  let services: Services;
  let admin: Actor;
  let duck: number;
  let reads = 0;
  let datasets: DatasetService;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'meridian-ds-cache-'));
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dir, SECRET_KEY: 'test-secret', DATABASE_URL: '' });
    db = await openMetadataDb({ dataDir: ':memory:' });
    await migrateToLatest(db);
    await ensureAdmin(db, { password: 'admin' });
    services = createServices({ config, db, logger: createLogger('silent') });
    admin = (await services.security.actorFor(1))!;
    duck = (await services.databases.create(admin, { database_name: 'duck', sqlalchemy_uri: `duckdb:///${join(dir, 'a.duckdb')}` })).id;
    // A long time-to-live, so only invalidation (never expiry) can make a read fresh in these tests.
    const repo = new DatasetRepository(db);
    const counting = Object.create(repo) as DatasetRepository;
    counting.get = (id: number) => {
      reads++;
      return repo.get(id);
    };
    datasets = new DatasetService({ datasets: counting, databases: services.databases, security: services.security, runtime: services.queryRuntime }, 60_000);
  });
  afterAll(async () => {
    await services?.queryRuntime.close();
    await services?.cache.close();
    await services?.asyncEvents.close();
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reuses a read record, as a copy each caller may change', async () => {
    const { id } = await datasets.create(admin, { database: duck, table_name: 'reused', sql: 'SELECT 1 AS a' });
    const before = reads;
    const first = await datasets.getAccessible(admin, id);
    first.columns.push({ ...first.columns[0], column_name: 'changed_by_caller' });
    first.table_name = 'changed_by_caller';
    const second = await datasets.getAccessible(admin, id);
    expect(reads - before).toBe(1);
    expect(second).not.toBe(first);
    expect(second.table_name).toBe('reused');
    expect(second.columns.map((c) => c.column_name)).toEqual(['a']);
  });

  it('never serves a stale dataset after an update, a column or metric edit, a refresh, a duplicate or a delete', async () => {
    const { id } = await datasets.create(admin, { database: duck, table_name: 'edited', sql: 'SELECT 1 AS a' });
    const cached = await datasets.getAccessible(admin, id);
    expect((await datasets.getAccessible(admin, id)).description).toBeNull();

    await datasets.update(admin, id, { description: 'new words', sql: 'SELECT 1 AS a, 2 AS b' });
    let now = await datasets.getAccessible(admin, id);
    expect(now.description).toBe('new words');
    expect(now.sql).toBe('SELECT 1 AS a, 2 AS b');

    await datasets.update(admin, id, {
      columns: [{ id: cached.columns[0].id, column_name: 'a', verbose_name: 'Alpha' }],
      metrics: [...cached.metrics.map((m) => ({ id: m.id, metric_name: m.metric_name, expression: m.expression })), { metric_name: 'sum_a', expression: 'SUM(a)' }],
    });
    now = await datasets.getAccessible(admin, id);
    expect(now.columns.map((c) => [c.column_name, c.verbose_name])).toEqual([['a', 'Alpha']]);
    expect(now.metrics.map((m) => m.metric_name)).toEqual(['count', 'sum_a']);

    await datasets.refresh(admin, id);
    now = await datasets.getAccessible(admin, id);
    expect(now.columns.map((c) => c.column_name)).toEqual(['a', 'b']);

    const copy = await datasets.duplicate(admin, { base_model_id: id, table_name: 'edited_copy' });
    expect((await datasets.getAccessible(admin, copy.id)).table_name).toBe('edited_copy');
    await datasets.delete(admin, copy.id);
    await expect(datasets.getAccessible(admin, copy.id)).rejects.toMatchObject({ status: 404 });

    await datasets.bulkDelete(admin, [id]);
    await expect(datasets.getAccessible(admin, id)).rejects.toMatchObject({ status: 404 });
  });

  it('does not keep a read that a write overtook', async () => {
    const { id } = await datasets.create(admin, { database: duck, table_name: 'raced', sql: 'SELECT 1 AS a' });
    // A read in flight while the update commits may answer with the old record, but must not be remembered.
    const inFlight = datasets.getAccessible(admin, id);
    await datasets.update(admin, id, { description: 'after' });
    await inFlight;
    expect((await datasets.getAccessible(admin, id)).description).toBe('after');
  });
});
