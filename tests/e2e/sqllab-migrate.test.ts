import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { ensureTestExamples } from '../helpers/examples';
import { migrateToLatest, openMetadataDb } from '../../server/src/db/database';
import { createLogger } from '../../server/src/logger';
import { ensureAdmin } from '../../server/src/security/admin';
import { createServices } from '../../server/src/services';
import { bearer } from '../rest/sqllab.helpers';
import { ensureClientBuilt, launchBrowser, screenshot } from './browser';
import { editorValue, signIn, typeSql } from './sqllab.page';

// Spec 01 §4 "migrate from local storage": tabs written while SQLLAB_BACKEND_PERSISTENCE was off live in the
// browser's local storage; once the flag is on, the next visit creates them on the server. Two runs of the app on
// the same data directory (PGlite metadata on disk) and the same port, so the browser keeps its local storage.

interface RunningApp {
  url: string;
  http: ReturnType<typeof request>;
  token: () => Promise<string>;
  close: () => Promise<void>;
}

async function startApp(dataDir: string, port: number, backendPersistence: boolean): Promise<RunningApp> {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, SECRET_KEY: 'test-secret', DATABASE_URL: '', FEATURE_SQLLAB_BACKEND_PERSISTENCE: String(backendPersistence) });
  const db = await openMetadataDb({ databaseUrl: '', dataDir });
  await migrateToLatest(db);
  await ensureAdmin(db, { password: 'admin' });
  const services = await createServices({ config, db, logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent') });
  await ensureTestExamples(services);
  const app = await buildApp(services);
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const http = request(app.server);
  return {
    url,
    http,
    token: async () => {
      const res = await http.post('/api/v1/security/login').send({ username: 'admin', password: 'admin', provider: 'db', refresh: true });
      if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
      return res.body.access_token as string;
    },
    close: async () => {
      await app.close();
      await db.destroy();
    },
  };
}

const tabNames = (page: Page) => page.getByTestId('sqllab-tab').allTextContents();

async function serverTabs(app: RunningApp): Promise<{ label: string; sql: string }[]> {
  const token = await app.token();
  type Bootstrap = { tab_state_ids: { id: number; label: string }[] };
  const body = (await app.http.get('/api/v1/sqllab/').set(bearer(token))).body as Bootstrap & { result?: Bootstrap };
  const ids = (body.result ?? body).tab_state_ids ?? [];
  const tabs: { label: string; sql: string }[] = [];
  for (const entry of ids) {
    const tab = (await app.http.get(`/tabstateview/${entry.id}`).set(bearer(token))).body as { label: string; sql: string };
    tabs.push({ label: tab.label, sql: tab.sql });
  }
  return tabs.sort((a, b) => a.label.localeCompare(b.label));
}

describe('SQL Lab tabs move from local storage to the server when backend persistence is turned on', () => {
  let dir: string;
  let app: RunningApp | undefined;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    ensureClientBuilt();
    dir = mkdtempSync(join(tmpdir(), 'meridian-sqllab-migrate-'));
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates the two local tabs on the server with their SQL, shows them, and does not duplicate them after a reload', { timeout: 240_000 }, async () => {
    // 1. The flag off: two tabs kept in this browser only.
    app = await startApp(dir, 0, false);
    const port = Number(new URL(app.url).port);
    await signIn(context, app.url);
    const page = await context.newPage();
    await page.goto(`${app.url}/sqllab/`);
    await expect.poll(() => tabNames(page)).toEqual(['Untitled Query 1']);
    await expect.poll(() => page.getByTestId('schema-select').inputValue(), { timeout: 30_000 }).toBe('main');
    await typeSql(page, 'SELECT 1 AS first_tab');
    await page.getByTestId('new-tab').click();
    await expect.poll(() => tabNames(page)).toEqual(['Untitled Query 1', 'Untitled Query 2']);
    await typeSql(page, 'SELECT 2 AS second_tab');
    await expect(serverTabs(app)).resolves.toEqual([]);
    // Both are in the browser's local storage (saved after a 5000 ms debounce).
    await expect.poll(() => page.evaluate(() => Object.values(localStorage).join('\n')), { timeout: 20_000 }).toContain('SELECT 2 AS second_tab');
    await page.goto('about:blank');
    await app.close();
    app = undefined;

    // 2. The same data directory and address with the flag on.
    app = await startApp(dir, port, true);
    await signIn(context, app.url);
    await page.goto(`${app.url}/sqllab/`);
    await expect.poll(() => tabNames(page), { timeout: 30_000 }).toEqual(['Untitled Query 1', 'Untitled Query 2']);
    await expect.poll(() => serverTabs(app!), { timeout: 30_000, interval: 500 }).toEqual([
      { label: 'Untitled Query 1', sql: 'SELECT 1 AS first_tab' },
      { label: 'Untitled Query 2', sql: 'SELECT 2 AS second_tab' },
    ]);
    await screenshot(page, 'sqllab-migrate-1-migrated');

    // 3. A reload reads them from the server: still two tabs, each with its SQL.
    await page.reload();
    await expect.poll(() => tabNames(page), { timeout: 30_000 }).toEqual(['Untitled Query 1', 'Untitled Query 2']);
    await page.getByTestId('sqllab-tab').filter({ hasText: 'Untitled Query 1' }).click();
    await expect.poll(() => editorValue(page), { timeout: 30_000 }).toBe('SELECT 1 AS first_tab');
    await expect(serverTabs(app)).resolves.toHaveLength(2);
  });
});
