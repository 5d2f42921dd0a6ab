import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app';
import { loadConfig, ROOT_DIR } from '../../server/src/config';
import { openMetadataDb } from '../../server/src/db/database';
import { createLogger } from '../../server/src/logger';
import { hashPassword } from '../../server/src/security/password';
import { createServices } from '../../server/src/services';

describe('loadConfig', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'meridian-config-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('generates SECRET_KEY into DATA_DIR/secret_key (owner-only) and reuses it on the next load', () => {
    const dataDir = join(tempDir(), 'nested');
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = join(dataDir, 'secret_key');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(first.secretKey);
    expect(first.secretKey.length).toBeGreaterThanOrEqual(40);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir }).secretKey).toBe(first.secretKey);
    // Another data dir gets its own key; an explicit SECRET_KEY wins over the file.
    expect(loadConfig({ DATA_DIR: tempDir() }).secretKey).not.toBe(first.secretKey);
    expect(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'given' }).secretKey).toBe('given');
  });

  it('refuses to start in production without SECRET_KEY, with a message that says what to set, and writes no key', () => {
    const dataDir = tempDir();
    expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' })).toThrow(/SECRET_KEY must be set when NODE_ENV=production/);
    expect(existsSync(join(dataDir, 'secret_key'))).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', SECRET_KEY: 'k' }).env).toBe('production');
  });

  it('reads SHUTDOWN_GRACE_SECONDS and TRUST_PROXY with their defaults', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir })).toMatchObject({ shutdownGraceSeconds: 25, trustProxy: false });
    expect(loadConfig({ DATA_DIR: dataDir, SHUTDOWN_GRACE_SECONDS: '5', TRUST_PROXY: 'true' })).toMatchObject({ shutdownGraceSeconds: 5, trustProxy: true });
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    expect(() => loadConfig({ DATA_DIR: dataDir, SHUTDOWN_GRACE_SECONDS: 'soon' })).toThrow(/whole number/);
  });
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `pnpm cli <args>` as a child process with its own DATA_DIR (PGlite metadata store). */
function cli(dataDir: string, ...args: string[]): Promise<CliRun> {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development', LOG_LEVEL: 'silent' };
  return new Promise((resolve) => {
    execFile(join(ROOT_DIR, 'node_modules/.bin/tsx'), [join(ROOT_DIR, 'scripts/cli.ts'), ...args], { env, cwd: ROOT_DIR }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

// Each run starts tsx and opens PGlite (seconds on a shared 2-core machine): generous time limits.
describe('CLI (pnpm cli) as a child process', { timeout: 240_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Opens the CLI's metadata store in this process (PGlite allows one process at a time). */
  async function withApp<T>(use: (app: Awaited<ReturnType<typeof buildApp>>, services: ReturnType<typeof createServices>) => Promise<T>): Promise<T> {
    const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test' });
    const db = await openMetadataDb({ dataDir });
    const services = createServices({ config, db, logger: createLogger('silent') });
    const app = await buildApp(services, { serveClient: false });
    try {
      return await use(app, services);
    } finally {
      await app.close();
      await db.destroy();
    }
  }
  const login = (app: Awaited<ReturnType<typeof buildApp>>, username: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/v1/security/login', payload: { username, password, provider: 'db' } });

  it('migrates, and a second migrate changes nothing', async () => {
    const first = await cli(dataDir, 'migrate');
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toMatch(/^Applied: 0001_create_users_and_roles, /);
    const second = await cli(dataDir, 'migrate');
    expect(second).toMatchObject({ code: 0, stdout: 'Already up to date.\n' });
  });

  it('creates an admin, gives an existing user the Admin role, and resets a password that then logs in', async () => {
    const created = await cli(dataDir, 'create-admin', '--username', 'boss', '--password', 'first-pw');
    expect(created).toMatchObject({ code: 0, stdout: 'Created admin user boss.\n' });

    // An existing Gamma user, made in this process while no CLI holds the store.
    await withApp(async (_app, { db }) => {
      const { id } = await db.insertInto('ab_user').values({ first_name: 'An', last_name: 'Alyst', username: 'analyst', email: 'analyst@example.com', password: await hashPassword('analyst-pw') }).returning('id').executeTakeFirstOrThrow();
      const gamma = await db.selectFrom('ab_role').select('id').where('name', '=', 'Gamma').executeTakeFirstOrThrow();
      await db.insertInto('ab_user_role').values({ user_id: id, role_id: gamma.id }).execute();
    });
    const promoted = await cli(dataDir, 'create-admin', '--username', 'analyst');
    expect(promoted).toMatchObject({ code: 0, stdout: 'User analyst already exists; gave it the Admin role (password unchanged).\n' });

    const unknown = await cli(dataDir, 'reset-password', '--username', 'ghost', '--password', 'x');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('No user ghost.');
    const usage = await cli(dataDir, 'reset-password', '--username', 'boss');
    expect(usage.code).not.toBe(0);
    const reset = await cli(dataDir, 'reset-password', '--username', 'boss', '--password', 'second-pw');
    expect(reset).toMatchObject({ code: 0, stdout: 'Password changed.\n' });

    await withApp(async (app) => {
      expect((await login(app, 'boss', 'first-pw')).statusCode).toBe(401);
      const ok = await login(app, 'boss', 'second-pw');
      expect(ok.statusCode).toBe(200);
      const analyst = await login(app, 'analyst', 'analyst-pw');
      expect(analyst.statusCode).toBe(200);
      const roles = await app.inject({ method: 'GET', url: '/api/v1/me/roles/', headers: { authorization: `Bearer ${analyst.json().access_token}` } });
      expect(Object.keys(roles.json().result.roles).sort()).toEqual(['Admin', 'Gamma']);
    });
  });
});
