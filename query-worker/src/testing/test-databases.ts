import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { QueryPool } from '../pool.ts';
import type { QueryEvent, ResultsBackendOptions, RunResult, RunSuccess, TaskFailure } from '../types.ts';

/** Connection details of the services on the project's machines (DESIGN.md). */
export const PG_ADMIN_URI = process.env.TEST_PG_URI ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const MYSQL_ADMIN_URI = process.env.TEST_MYSQL_URI ?? 'mysql://root@127.0.0.1:3306/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

export function randomName(prefix = 'meridian_test_'): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

/** A throwaway PostgreSQL database; fails loudly when the server is unreachable. */
export async function createPostgresDatabase(): Promise<{ uri: string; name: string; admin: pg.Client; drop: () => Promise<void> }> {
  const name = randomName();
  const admin = new pg.Client({ connectionString: PG_ADMIN_URI });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const uri = PG_ADMIN_URI.replace(/\/[^/]*$/, `/${name}`);
  return {
    uri,
    name,
    admin,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A throwaway MariaDB/MySQL database; fails loudly when the server is unreachable. */
export async function createMysqlDatabase(): Promise<{ uri: string; name: string; admin: mysql.Connection; drop: () => Promise<void> }> {
  const name = randomName();
  const admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', uri: MYSQL_ADMIN_URI.replace(/^mysql:/, 'mysql:') });
  await admin.query(`CREATE DATABASE ${name}`);
  const uri = MYSQL_ADMIN_URI.replace(/\/[^/]*$/, `/${name}`);
  return {
    uri,
    name,
    admin,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}

/** A temp directory removed by `remove()`. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'meridian-qw-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A small pool writing results to a temp directory. */
export function testPool(overrides: Partial<ResultsBackendOptions> = {}, maxThreads = 2, maxQueue?: number): { pool: QueryPool; results: ResultsBackendOptions; cleanup: () => Promise<void> } {
  const tmp = tempDir();
  const results: ResultsBackendOptions = { dir: path.join(tmp.dir, 'results'), maxBytes: 512 * 1024 * 1024, ttlSeconds: 3600, ...overrides };
  const pool = new QueryPool({ results, maxThreads, maxQueue });
  return {
    pool,
    results,
    cleanup: async () => {
      await pool.close();
      tmp.remove();
    },
  };
}

/** Resolves with the first `cancelId` event of a run (the query is on the database by then). */
export function cancelIdWatcher(): { onEvent: (event: QueryEvent) => void; cancelId: Promise<string> } {
  let resolve!: (id: string) => void;
  const cancelId = new Promise<string>((r) => {
    resolve = r;
  });
  return { onEvent: (event) => event.type === 'cancelId' && resolve(event.cancelId), cancelId };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The success of a run, or a thrown error naming the failure (tests read rows only from successes). */
export function ok(result: RunResult): RunSuccess {
  if (!result.ok) throw new Error(`query failed: ${result.errorType} ${result.message}`);
  return result;
}

/** The failure of a task, or a thrown error when it succeeded. */
export function failed(result: { ok: boolean }): TaskFailure {
  if (result.ok) throw new Error('expected a failure');
  return result as TaskFailure;
}
