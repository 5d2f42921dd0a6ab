import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from '../rest/sqllab.helpers';
import { ensureClientBuilt, screenshot } from './browser';
import { afterFailedTest, editorValue, openSqlLabBrowser, runAndWait, setLimit, typeSql } from './sqllab.page';

// SQL Lab screen details in a real Chromium: the lazily paged table picker of a schema with 350 tables, keyboard
// shortcuts and their help, CREATE TABLE/VIEW AS from a query, a database without data preview, the limit notices,
// resizing a results column, copying a cell and a row, and the offline indicator.

async function pickDatabase(page: Page, name: string): Promise<void> {
  await page.getByTestId('database-select').click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect.poll(() => page.getByTestId('schema-select').inputValue(), { timeout: 30_000 }).toBe('main');
}

const tabNames = (page: Page) => page.getByTestId('sqllab-tab').allTextContents();
const activeTab = (page: Page) => page.locator('[data-testid=sqllab-tab][aria-selected=true]');
const TABLES = 350;
const tableName = (i: number) => `tbl_${String(i).padStart(3, '0')}`;

describe('SQL Lab screen details in the browser (backend persistence on)', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let dir: string;
  const shot = (name: string) => screenshot(page, `sqllab-ui-${name}`);

  beforeAll(async () => {
    ensureClientBuilt();
    dir = mkdtempSync(join(tmpdir(), 'meridian-sqllab-ui-'));
    t = await startTestApp({ listen: true, env: { SQL_MAX_ROW: '100000', FEATURE_SQLLAB_BACKEND_PERSISTENCE: 'true' } });
    await ensureTestExamples(t.services);
    token = await t.token();
    // A scratch DuckDB database with 350 tables, CREATE TABLE/VIEW AS allowed and the data preview turned off.
    const scratch = await registerDatabase(t, token, {
      database_name: 'scratch',
      sqlalchemy_uri: `duckdb:///${join(dir, 'scratch.duckdb')}`,
      expose_in_sqllab: true,
      allow_dml: true,
      allow_ctas: true,
      allow_cvas: true,
      extra: JSON.stringify({ disable_data_preview: true }),
    });
    const sql = Array.from({ length: TABLES }, (_, i) => `CREATE TABLE ${tableName(i + 1)} (id INTEGER, label VARCHAR);`).join('\n');
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(token)).send({ database_id: scratch, client_id: clientId(), sql });
    expect(res.status, res.text).toBe(200);
    ({ browser, page } = await openSqlLabBrowser(t.url, { clipboard: true }));
  }, 180_000);
  afterEach((ctx) => afterFailedTest(ctx, page, 'sqllab-ui'));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs with Ctrl+Enter, formats with Ctrl+Shift+F, opens a tab with Ctrl+Q, stops with Ctrl+E; the help lists them', { timeout: 150_000 }, async () => {
    await page.goto(`${t.url}/sqllab/`);
    await expect.poll(() => tabNames(page)).toEqual(['Untitled Query 1']);
    await expect.poll(() => page.getByTestId('schema-select').inputValue(), { timeout: 30_000 }).toBe('main');
    await typeSql(page, 'select 41 + 1 as answer');
    const ran = page.waitForResponse((res) => res.url().includes('/api/v1/sqllab/execute/'));
    await page.keyboard.press('Control+Enter');
    await ran;
    await expect.poll(() => page.getByTestId('row-count').textContent(), { timeout: 60_000 }).toBe('1 row returned');
    await expect(page.getByTestId('results-grid').getByRole('gridcell').allTextContents()).resolves.toEqual(['42']);

    await typeSql(page, 'select country,count(*) as n from cleaned_sales_data group by country');
    await page.keyboard.press('Control+Shift+F');
    await expect.poll(() => editorValue(page)).toMatch(/^SELECT\n\s+country,\n\s+count\(\*\) AS n\nFROM\n\s+cleaned_sales_data\nGROUP BY\n\s+country$/i);

    await typeSql(page, 'SELECT count(*) FROM cleaned_sales_data a, cleaned_sales_data b WHERE a.price * b.price < 0');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('query-running').waitFor({ timeout: 60_000 });
    await page.keyboard.press('Control+E');
    await page.getByTestId('query-stopped').waitFor({ timeout: 60_000 });

    const before = await tabNames(page);
    await page.locator('[data-testid=sql-editor] .ace_content').first().click();
    await page.keyboard.press('Control+Q');
    await expect.poll(() => tabNames(page)).toHaveLength(before.length + 1);
    await expect(activeTab(page).textContent()).resolves.toContain('Untitled Query 2');
    await expect.poll(() => editorValue(page)).toBe('');

    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    const help = page.getByRole('dialog').filter({ hasText: 'Keyboard shortcuts' });
    await help.waitFor();
    const rows = (await help.getByRole('row').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(rows).toEqual(
      expect.arrayContaining([
        'Ctrl + EnterRun query (the selection when there is one)',
        'Ctrl + Shift + FFormat SQL',
        'Ctrl + QNew tab',
        'Ctrl + EStop running query',
      ]),
    );
    await shot('1-shortcuts-help');
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await help.waitFor({ state: 'hidden' });
  });

  it('keeps the editor toolbar on one line at 1024 px wide, its buttons shown as named icons (with a selection, and CREATE TABLE AS)', { timeout: 90_000 }, async () => {
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      await page.goto(`${t.url}/sqllab/`);
      const toolbar = page.getByTestId('editor-toolbar');
      /** How far apart the tops of the toolbar's buttons and inputs are: 0 on one line, a line's height when it wraps. */
      const spread = () =>
        toolbar.evaluate((bar) => {
          const tops = [...bar.querySelectorAll('button, input')].map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => r.top + r.height / 2);
          return Math.round(Math.max(...tops) - Math.min(...tops));
        });
      for (const database of ['examples', 'scratch']) {
        await pickDatabase(page, database);
        await typeSql(page, 'select 1 as one');
        await page.locator('[data-testid=sql-editor] .ace_content').first().click();
        await page.keyboard.press('Control+A');
        await page.getByRole('button', { name: 'Run selection' }).waitFor();
        // It wrapped onto a second line (Format … Copy link under Run) at this width.
        expect(await spread()).toBeLessThanOrEqual(2);
        for (const name of ['Format', 'Schedule', 'Copy link', 'Parameters']) await expect(toolbar.getByRole('button', { name, exact: true }).isVisible()).resolves.toBe(true);
      }
      await shot('0-toolbar-1024');
    } finally {
      await page.setViewportSize(viewport);
    }
  });

  it('shows every table of a schema with 350 tables, 100 more each time the list is scrolled near its end, and searches them all', { timeout: 120_000 }, async () => {
    await pickDatabase(page, 'scratch');
    const picker = page.getByTestId('table-select');
    await expect.poll(() => page.getByText(String(TABLES), { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await picker.click();
    const listbox = page.getByRole('listbox');
    const options = listbox.getByRole('option');
    await expect.poll(() => options.count()).toBe(100);
    for (const shown of [200, 300, TABLES]) {
      await listbox.hover();
      await page.mouse.wheel(0, 100_000);
      await expect.poll(() => options.count()).toBe(shown);
    }
    await expect(options.last().textContent()).resolves.toBe(tableName(TABLES));
    await shot('2-table-list-end');
    // The search looks through all 350, not only the pages shown: tbl_300 ... tbl_350.
    await picker.fill('tbl_3');
    await expect.poll(() => options.count()).toBe(51);
    await expect(options.first().textContent()).resolves.toBe('tbl_300');
    await shot('3-table-search');
    await listbox.getByRole('option', { name: 'tbl_333', exact: true }).click();
    const table = page.getByTestId('table-element').filter({ hasText: 'tbl_333' });
    await table.getByText('label', { exact: true }).waitFor({ timeout: 30_000 });
  });

  it('adds no data preview for a table of a database whose extra has disable_data_preview', { timeout: 90_000 }, async () => {
    // The scratch tab of the previous test: its table tbl_333 was added without a preview.
    let executed = 0;
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes('/api/v1/sqllab/execute/')) executed++;
    };
    page.on('request', onRequest);
    await page.getByTestId('table-select').click();
    await page.getByTestId('table-select').fill('tbl_001');
    await page.getByRole('option', { name: 'tbl_001', exact: true }).click();
    // The preview would start as soon as the columns are known, in the same step that shows them.
    await page.getByTestId('table-element').filter({ hasText: 'tbl_001' }).getByText('id', { exact: true }).waitFor({ timeout: 30_000 });
    page.off('request', onRequest);
    expect(executed).toBe(0);
    await expect(page.getByRole('tab', { name: /Preview:/ }).count()).resolves.toBe(0);
    await shot('4-no-preview');
  });

  it('creates a table and a view from a query (CREATE TABLE/VIEW AS) that can then be queried', { timeout: 120_000 }, async () => {
    await typeSql(page, "SELECT 7 AS id, 'seven' AS label UNION ALL SELECT 8, 'eight'");
    for (const [method, name] of [['CREATE TABLE AS', 'made_by_ctas'], ['CREATE VIEW AS', 'made_by_cvas']] as const) {
      await page.getByRole('button', { name: 'More run options' }).click();
      await page.getByRole('menuitem', { name: 'Create table or view as select…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create table or view from the query' });
      await dialog.getByText(method, { exact: true }).click();
      await dialog.getByRole('textbox', { name: method === 'CREATE VIEW AS' ? 'View name' : 'Table name' }).fill(name);
      if (method === 'CREATE TABLE AS') await shot('5-ctas-modal');
      const done = page.waitForResponse((res) => res.url().includes('/api/v1/sqllab/execute/'));
      await dialog.getByRole('button', { name: 'Run' }).click();
      await done;
      await page.getByText(`Table ${name} was created.`).waitFor({ timeout: 60_000 });
    }
    await shot('6-ctas-created');
    for (const name of ['made_by_ctas', 'made_by_cvas']) {
      await typeSql(page, `SELECT label FROM ${name} ORDER BY id`);
      await expect(runAndWait(page)).resolves.toBe('2 rows returned');
      await expect(page.getByTestId('results-grid').getByRole('gridcell').allTextContents()).resolves.toEqual(['seven', 'eight']);
    }
    const views = await t.http.get('/api/v1/database/').set(bearer(token));
    const scratchId = (views.body.result as { id: number; database_name: string }[]).find((db) => db.database_name === 'scratch')!.id;
    const tables = await t.http.get(`/api/v1/database/${scratchId}/tables/`).query({ q: '(force:!t,schema_name:main)' }).set(bearer(token));
    const kinds = Object.fromEntries((tables.body.result as { value: string; type: string }[]).map((row) => [row.value, row.type]));
    expect(kinds).toMatchObject({ made_by_ctas: 'table', made_by_cvas: 'view' });
  });

  it("says what limited the rows: the default dropdown limit, another dropdown limit, the query's LIMIT, or both", { timeout: 150_000 }, async () => {
    await page.getByTestId('new-tab').click();
    await pickDatabase(page, 'examples');
    const notice = page.getByTestId('limit-notice');
    await typeSql(page, 'SELECT * FROM cleaned_sales_data');
    await expect(runAndWait(page)).resolves.toBe('1,000 rows returned');
    await expect(notice.textContent()).resolves.toBe(
      'The number of results displayed is limited to 1000. Please add additional limits/filters or download to csv to see more rows up to the 100000 limit.',
    );
    await shot('7-limit-notice');
    await setLimit(page, 'Limit 10');
    await expect(runAndWait(page)).resolves.toBe('10 rows returned');
    await expect(notice.textContent()).resolves.toBe('The number of rows displayed is limited to 10 by the limit dropdown.');
    await typeSql(page, 'SELECT * FROM cleaned_sales_data LIMIT 5');
    await expect(runAndWait(page)).resolves.toBe('5 rows returned');
    await expect(notice.textContent()).resolves.toBe('The number of rows displayed is limited to 5 by the query');
    await typeSql(page, 'SELECT * FROM cleaned_sales_data LIMIT 10');
    await expect(runAndWait(page)).resolves.toBe('10 rows returned');
    await expect(notice.textContent()).resolves.toBe('The number of rows displayed is limited to 10 by the query and limit dropdown.');
    // Fewer rows than any limit: no notice.
    await typeSql(page, 'SELECT 1 AS one');
    await expect(runAndWait(page)).resolves.toBe('1 row returned');
    await expect(notice.count()).resolves.toBe(0);
  });

  it('resizes a results column by dragging its header edge', { timeout: 90_000 }, async () => {
    await typeSql(page, 'SELECT country, city FROM cleaned_sales_data ORDER BY country, city');
    await runAndWait(page);
    const grid = page.getByTestId('results-grid');
    const header = grid.getByRole('columnheader', { name: 'country' });
    const widthBefore = (await header.boundingBox())!.width;
    const cityBefore = (await grid.getByRole('columnheader', { name: 'city' }).boundingBox())!.x;
    const edge = (await grid.getByRole('separator', { name: 'Resize country' }).boundingBox())!;
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x + edge.width / 2 + 120, edge.y + edge.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => Math.round((await header.boundingBox())!.width - widthBefore)).toBe(120);
    // The cells follow their header, and the next column moves along.
    const cell = grid.locator('[aria-rowindex="1"] [role=gridcell]').first();
    await expect.poll(async () => Math.round((await cell.boundingBox())!.width)).toBe(Math.round((await header.boundingBox())!.width));
    await expect.poll(async () => Math.round((await grid.getByRole('columnheader', { name: 'city' }).boundingBox())!.x - cityBefore)).toBe(120);
    await shot('8-column-resized');
  });

  it('copies a cell and a row from the cell menu, and the selected cell with Ctrl+C', { timeout: 90_000 }, async () => {
    await typeSql(page, "SELECT * FROM (VALUES ('alpha', 1, NULL), ('beta', 2, 'z')) AS v(name, n, note) ORDER BY n");
    await expect(runAndWait(page)).resolves.toBe('2 rows returned');
    const grid = page.getByTestId('results-grid');
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await grid.getByRole('gridcell', { name: 'beta', exact: true }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy cell' }).click();
    await expect.poll(clipboard).toBe('beta');
    await grid.getByRole('gridcell', { name: 'alpha', exact: true }).click({ button: 'right' });
    await shot('9-cell-menu');
    await page.getByRole('menuitem', { name: 'Copy row' }).click();
    await expect.poll(clipboard).toBe('alpha\t1\tNULL');
    await grid.getByRole('gridcell', { name: 'z', exact: true }).click();
    await page.keyboard.press('Control+C');
    await expect.poll(clipboard).toBe('z');
  });

  it('shows the danger offline badge while tab state cannot reach the server, and clears it once it can', { timeout: 120_000 }, async () => {
    const indicator = page.getByTestId('offline-indicator');
    await expect(indicator.count()).resolves.toBe(0);
    await page.route('**/tabstateview/**', (route) => route.abort('connectionrefused'));
    await typeSql(page, 'SELECT 1 AS kept_while_offline');
    await indicator.waitFor({ timeout: 30_000 });
    await expect(indicator.textContent()).resolves.toBe('offline');
    await expect(indicator.evaluate((el) => getComputedStyle(el).color)).resolves.toMatch(/^rgb\((2\d\d), (\d+), (\d+)\)$/);
    await shot('10-offline');
    // Query polls still reach the server: the badge stays while the tab's SQL is not stored.
    const polled = page.waitForResponse((res) => res.url().includes('/api/v1/query/updated_since') && res.ok(), { timeout: 30_000 });
    await expect(runAndWait(page)).resolves.toBe('1 row returned');
    await polled;
    await expect(indicator.count()).resolves.toBe(1);
    await page.unroute('**/tabstateview/**');
    await indicator.waitFor({ state: 'detached', timeout: 30_000 });
    const label = ((await activeTab(page).textContent()) ?? '').trim();
    const boot = (await t.http.get('/api/v1/sqllab/').set(bearer(token))).body;
    const entry = ((boot.result ?? boot).tab_state_ids as { id: number; label: string }[]).find((tab) => tab.label === label)!;
    const stored = (await t.http.get(`/tabstateview/${entry.id}`).set(bearer(token))).body as { sql: string };
    expect(stored.sql).toBe('SELECT 1 AS kept_while_offline');
  });
});
