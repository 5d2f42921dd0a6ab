import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlDatabase, createPostgresDatabase } from '../../query-worker/src/testing/test-databases.ts';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from '../rest/sqllab.helpers';
import { closeDialog, ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

const MASK_HINT = 'The password is shown masked; leave it masked to keep the stored one.';

/** A field of the dialog by its label; a required field's label ends with Mantine's asterisk. */
const field = (dialog: Locator, label: string) => dialog.getByLabel(new RegExp(`^${label}( \\*)?$`));

async function useScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((s) => localStorage.setItem('meridian-color-scheme', s), scheme);
  await page.reload();
  await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
}

// Superset's connect form in a real Chromium: engine tiles, the engine's fields, validate_parameters, Advanced,
// against the real PostgreSQL and MariaDB.
describe('connect a database through the form in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let pgDb: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let myDb: Awaited<ReturnType<typeof createMysqlDatabase>>;

  const stored = async (name: string) => {
    const res = await t.http.get('/api/v1/database/').query({ q: `(filters:!((col:database_name,opr:eq,value:'${name}')))` }).set(bearer(await t.token()));
    return res.body.result[0] as Record<string, any> | undefined;
  };
  const openConnect = async () => {
    await page.getByRole('button', { name: 'Database', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect a database' });
    await dialog.getByRole('list', { name: 'Engines' }).waitFor();
    return dialog;
  };

  beforeAll(async () => {
    ensureClientBuilt();
    [pgDb, myDb] = await Promise.all([createPostgresDatabase(), createMysqlDatabase()]);
    t = await startTestApp({ listen: true });
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-dbform-'));
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await login(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await pgDb?.drop();
    await myDb?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('offers the engine tiles first, in order, then PostgreSQL fields; a closed port is marked on Port; the right details connect', async () => {
    await page.goto(`${t.url}/databaseview/list/`);
    const dialog = await openConnect();
    await expect(dialog.getByRole('list', { name: 'Engines' }).getByRole('listitem').allTextContents()).resolves.toEqual([
      expect.stringContaining('PostgreSQL'),
      expect.stringContaining('MySQL / MariaDB'),
      expect.stringContaining('DuckDB'),
      expect.stringContaining('SQLite'),
    ]);
    await screenshot(page, 'databases-form-engines');

    await dialog.getByRole('listitem', { name: 'PostgreSQL' }).click();
    await expect(field(dialog, 'Display name').inputValue()).resolves.toBe('PostgreSQL');
    await expect(field(dialog, 'Port').inputValue()).resolves.toBe('5432');
    // Nothing but the defaults: the required fields are named before anything is sent.
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => dialog.getByText('Missing data for required field.').count()).toBe(3);

    await field(dialog, 'Display name').fill('Warehouse PG');
    await field(dialog, 'Host').fill('127.0.0.1');
    await field(dialog, 'Port').fill('1');
    await field(dialog, 'Database name').fill(pgDb.name);
    await field(dialog, 'Username').fill('postgres');
    await field(dialog, 'Password').fill('s3cret');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('Connection failed', { exact: true }).waitFor();
    await dialog.getByText('The port is closed.').first().waitFor();
    await screenshot(page, 'databases-form-port-closed');

    await field(dialog, 'Port').fill('5432');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('Connection looks good!').waitFor();
    await screenshot(page, 'databases-form-postgres');
    await dialog.getByRole('tab', { name: 'Advanced' }).click();
    for (const section of ['SQL Lab', 'Performance', 'Security', 'Other']) await dialog.getByRole('button', { name: new RegExp(`^${section}`) }).waitFor();
    await dialog.getByRole('switch', { name: 'Allow DML' }).check();
    await dialog.getByRole('button', { name: /^Security/ }).click();
    await dialog.getByRole('switch', { name: 'Impersonate logged in user' }).check();
    await screenshot(page, 'databases-form-advanced');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('Database Warehouse PG connected').waitFor();
    expect(await stored('Warehouse PG')).toMatchObject({
      backend: 'postgresql',
      sqlalchemy_uri: `postgresql://postgres:XXXXXXXXXX@127.0.0.1:5432/${pgDb.name}`,
      allow_dml: true,
      impersonate_user: true,
    });
  });

  it('connects MariaDB through the MySQL / MariaDB tile, after naming the missing username', async () => {
    const dialog = await openConnect();
    await dialog.getByRole('listitem', { name: 'MySQL / MariaDB' }).click();
    await field(dialog, 'Display name').fill('Shop MariaDB');
    await expect(field(dialog, 'Port').inputValue()).resolves.toBe('3306');
    await field(dialog, 'Host').fill('127.0.0.1');
    await field(dialog, 'Database name').fill(myDb.name);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await dialog.getByText('Missing data for required field.').waitFor();
    await field(dialog, 'Username').fill('root');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('Connection looks good!').waitFor();
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('Database Shop MariaDB connected').waitFor();
    expect(await stored('Shop MariaDB')).toMatchObject({ backend: 'mysql', sqlalchemy_uri: `mysql://root@127.0.0.1:3306/${myDb.name}` });
  });

  it('edits PostgreSQL through the form keeping the stored password, and shows no masked-password hint for a DuckDB file', async () => {
    await page.getByRole('button', { name: 'Edit Warehouse PG' }).click();
    let dialog = page.getByRole('dialog', { name: 'Edit database Warehouse PG' });
    await dialog.getByText(MASK_HINT).waitFor();
    await dialog.getByRole('button', { name: 'Connect this database using the dynamic form instead' }).click();
    await expect(field(dialog, 'Database name').inputValue()).resolves.toBe(pgDb.name);
    await dialog.getByText('Shown masked: leave it to keep the stored password.').waitFor();
    await field(dialog, 'Additional parameters').fill('application_name=meridian');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('Connection looks good!').waitFor();
    await screenshot(page, 'databases-form-edit-postgres');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes to Warehouse PG saved').waitFor();
    expect((await stored('Warehouse PG'))!.sqlalchemy_uri).toBe(`postgresql://postgres:XXXXXXXXXX@127.0.0.1:5432/${pgDb.name}?application_name=meridian`);

    dialog = await openConnect();
    await dialog.getByRole('listitem', { name: 'DuckDB' }).click();
    await field(dialog, 'Display name').fill('Local DuckDB');
    await field(dialog, 'Database file path').fill(join(dir, 'local.duckdb'));
    await expect(dialog.getByLabel(/^Host/).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('Database Local DuckDB connected').waitFor();
    await page.getByRole('button', { name: 'Edit Local DuckDB' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit database Local DuckDB' });
    await expect(field(dialog, 'SQLAlchemy URI').inputValue()).resolves.toBe(`duckdb:///${join(dir, 'local.duckdb')}`);
    await expect(dialog.getByText(MASK_HINT).count()).resolves.toBe(0);
    await screenshot(page, 'databases-form-edit-duckdb');
    await closeDialog(page);
  });

  it('looks right in the dark theme', async () => {
    await useScheme(page, 'dark');
    const dialog = await openConnect();
    await screenshot(page, 'databases-form-engines-dark');
    await dialog.getByRole('listitem', { name: 'PostgreSQL' }).click();
    await field(dialog, 'Host').waitFor();
    await screenshot(page, 'databases-form-postgres-dark');
    await dialog.getByRole('tab', { name: 'Advanced' }).click();
    await screenshot(page, 'databases-form-advanced-dark');
    await closeDialog(page);
    await useScheme(page, 'light');
  });
});
