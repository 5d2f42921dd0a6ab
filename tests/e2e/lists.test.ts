import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { closeDialog, ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

// The Databases, Saved queries, Query history and Charts lists in a real Chromium against the real server.
describe('list screens in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let dir: string;
  let warehouse: number;

  const auth = () => ({ Authorization: `Bearer ${token}` });
  const clientId = () => randomBytes(8).toString('base64url').slice(0, 11);
  const execute = (sql: string) => t.http.post('/api/v1/sqllab/execute/').set(auth()).send({ database_id: warehouse, sql, client_id: clientId(), queryLimit: 1000, schema: 'main' });
  const findDatabase = async (name: string) => {
    const res = await t.http.get('/api/v1/database/').query({ q: `(filters:!((col:database_name,opr:eq,value:'${name}')))` }).set(auth());
    return res.body.result[0] as Record<string, any> | undefined;
  };
  const rowOf = (table: string, text: string) => page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    token = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-lists-'));
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1366, height: 860 }, reducedMotion: 'reduce' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await login(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows an empty Databases list, then connects a DuckDB file through the modal after a successful connection test', async () => {
    await page.goto(`${t.url}/databaseview/list/`);
    await page.getByRole('heading', { name: 'Databases', level: 2 }).waitFor();
    await page.getByText('No databases yet').waitFor();
    await screenshot(page, 'lists-databases-empty');

    await page.getByRole('button', { name: 'Database', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect a database' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Connect with a SQLAlchemy URI instead' }).click();
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(dialog.getByText('Missing data for required field.').count()).resolves.toBe(2);

    await dialog.getByLabel('Display name').fill('Scratch DuckDB');
    await dialog.getByLabel('SQLAlchemy URI').fill('postgresql://postgres@127.0.0.1:1/test');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('Connection failed', { exact: true }).waitFor();
    await screenshot(page, 'lists-databases-test-failed');

    await dialog.getByLabel('SQLAlchemy URI').fill(`duckdb:///${join(dir, 'scratch.duckdb')}`);
    await expect(dialog.getByText('Connection failed', { exact: true }).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('Connection looks good!').waitFor();
    await screenshot(page, 'lists-databases-modal');

    await dialog.getByRole('tab', { name: 'Advanced' }).click();
    await dialog.getByRole('switch', { name: 'Allow DML' }).check();
    await dialog.getByRole('switch', { name: 'Disable SQL Lab data preview queries' }).check();
    await screenshot(page, 'lists-databases-modal-sqllab');
    await dialog.getByRole('button', { name: /^Other/ }).click();
    await expect(dialog.getByLabel('Extra', { exact: true }).inputValue()).resolves.toContain('"disable_data_preview": true');
    await screenshot(page, 'lists-databases-modal-other');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('Database Scratch DuckDB connected').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const capabilities = page.getByRole('list', { name: 'Capabilities of Scratch DuckDB' });
    await capabilities.getByText('DML', { exact: true }).waitFor();
    expect(await capabilities.getByRole('listitem').allTextContents()).toEqual(['SQL Lab', 'DML']);
    const stored = await findDatabase('Scratch DuckDB');
    expect(stored).toMatchObject({ backend: 'duckdb', expose_in_sqllab: true, allow_dml: true, allow_ctas: false, disable_data_preview: true });
  });

  it('edits a flag of a database and sees it in the list', async () => {
    await page.getByRole('button', { name: 'Edit Scratch DuckDB' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit database Scratch DuckDB' });
    await dialog.getByRole('tab', { name: 'Advanced' }).click();
    await expect(dialog.getByRole('switch', { name: 'Allow DML' }).isChecked()).resolves.toBe(true);
    await dialog.getByRole('switch', { name: 'Allow CREATE TABLE AS' }).check();
    await dialog.getByLabel('CTAS & CVAS schema').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes to Scratch DuckDB saved').waitFor();
    await page.getByRole('list', { name: 'Capabilities of Scratch DuckDB' }).getByText('CTAS', { exact: true }).waitFor();
    expect(await findDatabase('Scratch DuckDB')).toMatchObject({ allow_dml: true, allow_ctas: true });
  });

  it('connects PostgreSQL, shows its password masked when editing, tests the masked URI, then deletes it', async () => {
    await page.getByRole('button', { name: 'Database', exact: true }).click();
    let dialog = page.getByRole('dialog', { name: 'Connect a database' });
    await dialog.getByRole('button', { name: 'Connect with a SQLAlchemy URI instead' }).click();
    await dialog.getByLabel('Display name').fill('Local Postgres');
    await dialog.getByLabel('SQLAlchemy URI').fill('postgresql://postgres:s3cret@127.0.0.1:5432/test');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('Connection looks good!').waitFor();
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('Database Local Postgres connected').waitFor();
    await rowOf('Databases', 'Local Postgres').getByText('postgresql', { exact: true }).waitFor();
    await screenshot(page, 'lists-databases');

    await page.getByRole('button', { name: 'Edit Local Postgres' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit database Local Postgres' });
    await expect(dialog.getByLabel('SQLAlchemy URI').inputValue()).resolves.toBe('postgresql://postgres:XXXXXXXXXX@127.0.0.1:5432/test');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('Connection looks good!').waitFor();
    await screenshot(page, 'lists-databases-edit-masked');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByLabel('Search name', { exact: true }).fill('postgres');
    await rowOf('Databases', 'Scratch DuckDB').waitFor({ state: 'detached' });
    await page.getByLabel('Search name', { exact: true }).fill('');

    await page.getByRole('button', { name: 'Delete Local Postgres' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete database?' });
    await confirm.getByText('The database Local Postgres will be disconnected.', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted: Local Postgres').waitFor();
    await rowOf('Databases', 'Local Postgres').waitFor({ state: 'detached' });
    expect(await findDatabase('Local Postgres')).toBeUndefined();
    await rowOf('Databases', 'Scratch DuckDB').waitFor();
  });

  it('lists saved queries made over REST; searches, renames, copies the link, opens one in SQL Lab and bulk-deletes them', async () => {
    warehouse = (await findDatabase('Scratch DuckDB'))!.id;
    const save = (body: Record<string, unknown>) => t.http.post('/api/v1/saved_query/').set(auth()).send({ db_id: warehouse, schema: 'main', ...body });
    const first = await save({ label: 'Top regions', description: 'Revenue by region, best first', sql: 'SELECT region, SUM(amount) AS revenue\nFROM sales\nGROUP BY region\nORDER BY revenue DESC' });
    expect(first.status).toBe(201);
    expect((await save({ label: 'Daily orders', sql: 'SELECT order_date, COUNT(*) FROM orders GROUP BY 1' })).status).toBe(201);

    await page.goto(`${t.url}/savedqueryview/list/`);
    const table = page.getByRole('table', { name: 'Saved queries' });
    await table.getByRole('link', { name: 'Top regions' }).waitFor();
    await table.getByRole('link', { name: 'Daily orders' }).waitFor();
    await expect(rowOf('Saved queries', 'Top regions').textContent()).resolves.toContain('Scratch DuckDB');
    await screenshot(page, 'lists-saved-queries');

    await page.getByLabel('Search name, description or SQL', { exact: true }).fill('revenue');
    await table.getByRole('link', { name: 'Daily orders' }).waitFor({ state: 'detached' });
    await page.getByLabel('Search name, description or SQL', { exact: true }).fill('');
    await table.getByRole('link', { name: 'Daily orders' }).waitFor();

    await page.getByRole('button', { name: 'Copy link to Top regions' }).click();
    await page.getByText('Copied to clipboard!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${t.url}/sqllab/?savedQueryId=${first.body.id}`);

    await page.getByRole('button', { name: 'Edit Top regions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit saved query' });
    await dialog.getByLabel('Name').fill('Top regions by revenue');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await table.getByRole('link', { name: 'Top regions by revenue' }).waitFor();
    expect((await t.http.get(`/api/v1/saved_query/${first.body.id}`).set(auth())).body.result.label).toBe('Top regions by revenue');

    await table.getByRole('link', { name: 'Top regions by revenue' }).click();
    await page.waitForURL((url) => url.pathname === '/sqllab/');
    expect(page.url()).toContain('/sqllab/');

    await page.goto(`${t.url}/savedqueryview/list/`);
    await table.getByRole('link', { name: 'Daily orders' }).waitFor();
    await table.getByRole('checkbox', { name: 'Select all rows' }).check();
    const bulk = page.getByRole('toolbar', { name: 'Bulk actions' });
    await bulk.getByText('2 selected').waitFor();
    await bulk.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Are you sure you want to delete the 2 selected saved queries?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No saved queries yet').waitFor();
    await screenshot(page, 'lists-saved-queries-empty');
    expect((await t.http.get('/api/v1/saved_query/').set(auth())).body.count).toBe(0);
  });

  it('shows queries run over REST in Query history with their state badges, filters them and opens one in SQL Lab', async () => {
    const ok = await execute('SELECT 42 AS answer');
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('success');
    const failed = await execute('SELECT * FROM no_such_table');
    expect(failed.body.status ?? failed.body.errors?.[0]?.error_type).toBeDefined();

    await page.goto(`${t.url}/sqllab/history/`);
    const table = page.getByRole('table', { name: 'Query history' });
    const okRow = table.getByRole('row').filter({ hasText: 'SELECT 42 AS answer' });
    const badRow = table.getByRole('row').filter({ hasText: 'no_such_table' });
    await okRow.waitFor();
    await badRow.waitFor();
    await expect(okRow.locator('[data-display-style]').getAttribute('data-display-style')).resolves.toBe('success');
    await expect(badRow.locator('[data-display-style]').getAttribute('data-display-style')).resolves.toBe('danger');
    await expect(okRow.textContent()).resolves.toContain('Scratch DuckDB');
    await expect(okRow.textContent()).resolves.toContain('Admin User');
    await screenshot(page, 'lists-query-history');

    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Failed', exact: true }).click();
    await okRow.waitFor({ state: 'detached' });
    await badRow.waitFor();
    // Picking the selected option again clears the filter.
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Failed', exact: true }).click();
    await okRow.waitFor();

    await page.getByLabel('Search SQL', { exact: true }).fill('answer');
    await badRow.waitFor({ state: 'detached' });
    await okRow.waitFor();

    const okId = (await t.http.get('/api/v1/query/').query({ q: '(filters:!((col:status,opr:eq,value:success)))' }).set(auth())).body.ids[0];
    await okRow.getByRole('button', { name: `Open in SQL Lab: query ${okId}` }).click();
    await page.waitForURL((url) => url.pathname === '/sqllab/');
  });

  it('lists charts made over REST, stars and unstars one, filters favourites and bulk-deletes them', async () => {
    expect((await execute("CREATE TABLE sales AS SELECT * FROM (VALUES ('north', 10), ('south', 20)) v(region, amount)")).status).toBe(200);
    const dataset = await t.http.post('/api/v1/dataset/').set(auth()).send({ database: warehouse, schema: 'main', table_name: 'sales' });
    expect(dataset.status).toBe(201);
    const chart = (slice_name: string, viz_type: string) =>
      t.http.post('/api/v1/chart/').set(auth()).send({
        slice_name,
        viz_type,
        params: JSON.stringify({ viz_type, datasource: `${dataset.body.id}__table`, metrics: ['count'], groupby: ['region'] }),
        datasource_id: dataset.body.id,
        datasource_type: 'table',
      });
    const pie = await chart('Sales by region', 'pie');
    expect(pie.status).toBe(201);
    expect((await chart('Sales table', 'table')).status).toBe(201);
    const favorite = async (id: number) => (await t.http.get('/api/v1/chart/favorite_status/').query({ q: `!(${id})` }).set(auth())).body.result[0].value as boolean;

    await page.goto(`${t.url}/chart/list/`);
    const table = page.getByRole('table', { name: 'Charts' });
    await table.getByRole('link', { name: 'Sales by region' }).waitFor();
    await expect(rowOf('Charts', 'Sales by region').textContent()).resolves.toContain('Pie Chart');
    await expect(rowOf('Charts', 'Sales by region').textContent()).resolves.toContain('main.sales');
    expect(await table.getByRole('link', { name: 'Sales by region' }).getAttribute('href')).toBe(`/explore/?slice_id=${pie.body.id}`);

    await page.getByRole('button', { name: 'Add Sales by region to favorites' }).click();
    await page.getByRole('button', { name: 'Remove Sales by region from favorites' }).waitFor();
    await expect.poll(() => favorite(pie.body.id)).toBe(true);
    await screenshot(page, 'lists-charts');

    await page.getByRole('combobox', { name: 'Favorite' }).click();
    await page.getByRole('option', { name: 'Favorites', exact: true }).click();
    await table.getByRole('link', { name: 'Sales table' }).waitFor({ state: 'detached' });
    await table.getByRole('link', { name: 'Sales by region' }).waitFor();

    await page.getByRole('button', { name: 'Remove Sales by region from favorites' }).click();
    await page.getByRole('button', { name: 'Add Sales by region to favorites' }).waitFor();
    await expect.poll(() => favorite(pie.body.id)).toBe(false);
    await page.reload();
    await page.getByRole('button', { name: 'Add Sales by region to favorites' }).waitFor();
    await page.getByLabel('Search charts', { exact: true }).fill('region');
    await table.getByRole('link', { name: 'Sales table' }).waitFor({ state: 'detached' });
    await page.getByLabel('Search charts', { exact: true }).fill('');
    await table.getByRole('link', { name: 'Sales table' }).waitFor();
    await table.getByRole('link', { name: 'Sales by region' }).waitFor();

    // Tags (TAGGING_SYSTEM): a chart tagged over REST shows its tag, and the Tag filter keeps only it.
    expect((await t.http.post(`/api/v1/tag/chart/${pie.body.id}/`).set(auth()).send({ tags: ['regional'] })).status).toBe(201);
    await page.reload();
    await rowOf('Charts', 'Sales by region').getByText('regional', { exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Tag' }).click();
    await page.getByRole('option', { name: 'regional', exact: true }).click();
    await table.getByRole('link', { name: 'Sales table' }).waitFor({ state: 'detached' });
    await table.getByRole('link', { name: 'Sales by region' }).waitFor();
    await screenshot(page, 'lists-charts-tag-filter');
    await page.getByRole('combobox', { name: 'Tag' }).click();
    await page.getByRole('option', { name: 'regional', exact: true }).click();
    await table.getByRole('link', { name: 'Sales table' }).waitFor();

    await table.getByRole('checkbox', { name: 'Select all rows' }).check();
    await page.getByRole('toolbar', { name: 'Bulk actions' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Are you sure you want to delete the 2 selected charts?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted 2 charts').waitFor();
    await page.getByText('No charts yet').waitFor();
    await screenshot(page, 'lists-charts-empty');
    expect((await t.http.get('/api/v1/chart/').set(auth())).body.count).toBe(0);
  });

  it('renders the four lists in the dark theme', async () => {
    expect((await execute('SELECT region FROM sales')).status).toBe(200);
    await t.http.post('/api/v1/saved_query/').set(auth()).send({ db_id: warehouse, label: 'Regions', sql: 'SELECT DISTINCT region FROM sales' });
    await page.goto(`${t.url}/databaseview/list/`);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await rowOf('Databases', 'Scratch DuckDB').waitFor();
    await screenshot(page, 'lists-databases-dark');
    await page.getByRole('button', { name: 'Edit Scratch DuckDB' }).click();
    await page.getByRole('dialog').getByRole('tab', { name: 'Advanced' }).click();
    await screenshot(page, 'lists-databases-modal-dark');
    await closeDialog(page);
    await page.goto(`${t.url}/savedqueryview/list/`);
    await page.getByRole('link', { name: 'Regions', exact: true }).waitFor();
    await screenshot(page, 'lists-saved-queries-dark');
    await page.goto(`${t.url}/sqllab/history/`);
    await rowOf('Query history', 'SELECT region FROM sales').waitFor();
    await screenshot(page, 'lists-query-history-dark');
    await page.goto(`${t.url}/chart/list/`);
    await page.getByText('No charts yet').waitFor();
    await screenshot(page, 'lists-charts-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });
  // Superset's answers write naive UTC times ('2024-01-02T15:04:05'); a browser must not read them as its own zone's.
  it("shows a saved query's Modified time as the stored UTC instant in a browser west of UTC", async () => {
    const saved = await t.http.post('/api/v1/saved_query/').set(auth()).send({ db_id: warehouse, schema: 'main', label: 'Zoned', sql: 'SELECT 1' });
    expect(saved.status).toBe(201);
    await t.services.db.updateTable('saved_query').set({ changed_on: new Date('2024-01-02T15:04:05Z') }).where('id', '=', saved.body.id).execute();
    expect((await t.http.get(`/api/v1/saved_query/${saved.body.id}`).set(auth())).body.result.changed_on).toBe('2024-01-02T15:04:05');
    const zoned = await browser.newContext({ viewport: { width: 1366, height: 860 }, reducedMotion: 'reduce', timezoneId: 'America/New_York', locale: 'en-US' });
    try {
      const west = await zoned.newPage();
      west.setDefaultTimeout(20_000);
      await login(west, t.url);
      await west.goto(`${t.url}/savedqueryview/list/`);
      const row = west.getByRole('table', { name: 'Saved queries' }).getByRole('row').filter({ hasText: 'Zoned' });
      await row.getByText(/ago$/).hover();
      // 15:04 UTC is 10:04 AM in New York in January.
      await west.getByRole('tooltip').filter({ hasText: 'Jan 2, 2024, 10:04 AM' }).waitFor();
      await screenshot(west, 'lists-saved-queries-modified-new-york');
    } finally {
      await zoned.close();
      await t.http.delete(`/api/v1/saved_query/${saved.body.id}`).set(auth());
    }
  });
});
