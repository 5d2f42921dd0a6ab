import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { migrateToLatest, openMetadataDb } from '../../server/src/db/database';
import { createLogger } from '../../server/src/logger';
import { ensureAdmin } from '../../server/src/security/admin';
import { createServices, type Services } from '../../server/src/services';
import { metadataTemplate } from './metadata-template';
import { createPgDatabase } from './pg';

export type MetadataKind = 'pglite' | 'postgres';

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  services: Services;
  /** supertest against the running server. */
  http: ReturnType<typeof request>;
  /** Base URL when started with `listen: true`. */
  url: string;
  /** A bearer token for a user (admin/admin by default). */
  token: (username?: string, password?: string) => Promise<string>;
  /** Creates a user with the named roles and returns its bearer token. */
  userWithRoles: (username: string, roles: string[]) => Promise<string>;
  close: () => Promise<void>;
}

/**
 * Starts the real app for a test: metadata store on in-memory PGlite (default) or on a throwaway
 * PostgreSQL database, migrations run, roles and admin seeded. Data files go to a temp dir.
 */
export async function startTestApp(opts: { metadata?: MetadataKind; metadataUrl?: string; env?: Record<string, string>; listen?: boolean; logLines?: string[] } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-test-'));
  // `metadataUrl`: share an existing PostgreSQL metadata store with another app (left in place on close).
  const pgDb = opts.metadataUrl ? null : opts.metadata === 'postgres' ? await createPgDatabase() : null;
  const databaseUrl = opts.metadataUrl ?? pgDb?.url ?? '';
  // A queue of its own: test files run side by side on one Redis, and must not take each other's jobs.
  const jobQueue = `meridian-test-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, SECRET_KEY: 'test-secret', DATABASE_URL: databaseUrl, JOB_QUEUE: jobQueue, ...opts.env });
  // `logLines`: every log line (at debug and above) is kept there, for tests of what is logged.
  const logger = opts.logLines
    ? createLogger('debug', { write: (line: string) => void opts.logLines!.push(line) })
    : createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const db = config.databaseUrl
    ? await openMetadataDb({ databaseUrl: config.databaseUrl, dataDir })
    : await openMetadataDb({ dataDir: ':memory:', from: await metadataTemplate() });
  await migrateToLatest(db);
  await ensureAdmin(db, { password: 'admin' });
  const services = await createServices({ config, db, logger });
  const app = await buildApp(services);
  let url = '';
  if (opts.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  } else {
    await app.ready();
  }
  const http = request(app.server);

  const token = async (username = 'admin', password = 'admin') => {
    const res = await http.post('/api/v1/security/login').send({ username, password, provider: 'db', refresh: true });
    if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${res.text}`);
    return res.body.access_token as string;
  };

  const userWithRoles = async (username: string, roles: string[]) => {
    const admin = await token();
    const roleRows = await db.selectFrom('ab_role').select(['id', 'name']).where('name', 'in', roles).execute();
    const res = await http
      .post('/api/v1/security/users/')
      .set('Authorization', `Bearer ${admin}`)
      .send({ first_name: username, last_name: 'Test', username, email: `${username}@example.com`, password: 'pw', roles: roleRows.map((r) => r.id) });
    if (res.status !== 201) throw new Error(`create user failed: ${res.status} ${res.text}`);
    return token(username, 'pw');
  };

  return {
    app,
    services,
    http,
    url,
    token,
    userWithRoles,
    close: async () => {
      await app.close();
      await db.destroy();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
