import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QUERY_STOPPED } from '../../contracts/src/messages';
import { ToastType } from '../../contracts/src/rules/toast';
import { formatElapsed } from '../../contracts/src/sqllab/elapsed';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase, waitFor } from '../rest/sqllab.helpers';
import { ensureClientBuilt, screenshot } from './browser';
import { afterFailedTest, editorValue, openSqlLabBrowser, runAndWait, signIn, typeSql } from './sqllab.page';

// Issue 10, SQL Lab: each fix walked through in a real Chromium, backend persistence on (the default).

type Bootstrap = { tab_state_ids: { id: number; label: string; saved_query_id: number | null }[]; queries: Record<string, { id: string; startDttm: number; endDttm: number | null; state: string }> };

const tabNames = (page: Page) => page.getByTestId('sqllab-tab').allTextContents();
const activeTab = (page: Page) => page.locator('[data-testid=sqllab-tab][aria-selected=true]');

async function pickDatabase(page: Page, name: string): Promise<void> {
  await page.getByTestId('database-select').click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect.poll(() => page.getByTestId('schema-select').inputValue(), { timeout: 30_000 }).toBe('main');
}

async function addTable(page: Page, name: string): Promise<void> {
  await page.getByTestId('table-select').click();
  await page.getByRole('option', { name, exact: true }).click();
}

/** The captions of Ace's completion popup, in the order it lists them. */
function completions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Completer = { completions?: { filtered: { caption?: string; value: string }[] }; activated?: boolean };
    const editor = (document.querySelector('[data-testid=sql-editor] .ace_editor') as HTMLElement & { env: { editor: { completer?: Completer } } }).env.editor;
    const completer = editor.completer;
    return completer?.activated && completer.completions ? completer.completions.filtered.map((c) => c.caption ?? c.value) : [];
  });
}

/** Types into Ace at the cursor, one key at a time (live autocomplete opens on typed keys). */
async function typeInEditor(page: Page, text: string): Promise<void> {
  for (const char of text) await page.keyboard.type(char);
}

describe('SQL Lab fixes of issue 10 in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let dir: string;
  let scratch: number;
  const shot = (name: string) => screenshot(page, `sqllab-fixes-${name}`);
  const bootstrap = async () => {
    const body = (await t.http.get('/api/v1/sqllab/').set(bearer(token))).body as Bootstrap & { result?: Bootstrap };
    return body.result ?? body;
  };
  const scratchSql = async (sql: string) => {
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(token)).send({ database_id: scratch, client_id: clientId(), sql });
    expect(res.status, res.text).toBe(200);
  };
  /** On SQL Lab, with its editor (a test run alone, or retried, may find the page elsewhere). */
  const onSqlLab = async () => {
    if (!page.url().startsWith(`${t.url}/sqllab/`)) await page.goto(`${t.url}/sqllab/`);
    await page.getByTestId('sql-editor').waitFor();
    // On the examples database: a test that failed midway (under load) may have left the tab elsewhere.
    if ((await page.getByTestId('database-select').inputValue()) !== 'examples') await pickDatabase(page, 'examples');
  };
  /** A new signed-in browser context on the same server: another browser, no local storage. */
  const freshPage = async (): Promise<{ other: BrowserContext; fresh: Page }> => {
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await signIn(other, t.url);
    return { other, fresh: await other.newPage() };
  };

  beforeAll(async () => {
    ensureClientBuilt();
    dir = mkdtempSync(join(tmpdir(), 'meridian-sqllab-fixes-'));
    t = await startTestApp({ listen: true, env: { SQL_MAX_ROW: '100000', DEFAULT_SQLLAB_LIMIT: '10000', FEATURE_SQLLAB_BACKEND_PERSISTENCE: 'true' } });
    await ensureTestExamples(t.services);
    token = await t.token();
    scratch = await registerDatabase(t, token, { database_name: 'scratch', sqlalchemy_uri: `duckdb:///${join(dir, 'scratch.duckdb')}`, expose_in_sqllab: true, allow_dml: true });
    await scratchSql('CREATE TABLE doomed (id INTEGER, label VARCHAR)');
    ({ browser, page } = await openSqlLabBrowser(t.url, { clipboard: true }));
  }, 180_000);
  afterEach((ctx) => afterFailedTest(ctx, page, 'sqllab-fixes'));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a database switch clears the table list and the schema; tables restored later load their columns, and a dropped one (404) leaves the list', { timeout: 150_000 }, async () => {
    const missing: string[] = [];
    const onResponse = (res: Response) => {
      if (res.url().includes('/table_metadata/') && res.status() === 404) missing.push(res.url());
    };
    page.on('response', onResponse);
    await page.goto(`${t.url}/sqllab/`);
    await expect.poll(() => tabNames(page)).toEqual(['Untitled Query 1']);
    await expect.poll(() => page.getByTestId('schema-select').inputValue(), { timeout: 30_000 }).toBe('main');
    await addTable(page, 'cleaned_sales_data');
    const tables = page.getByTestId('table-element');
    await tables.getByText('country', { exact: true }).waitFor();

    // Restored after a reload (stored with its name only), the table shows its columns again, not "No columns".
    await page.reload();
    await tables.getByText('country', { exact: true }).waitFor({ timeout: 30_000 });
    await expect(tables.getByText('No columns').count()).resolves.toBe(0);

    await pickDatabase(page, 'scratch');
    await expect.poll(() => tables.count()).toBe(0);
    await page.getByText('Pick a table above to see its columns and preview its data.').waitFor();
    await expect(page.getByRole('tab', { name: /Preview: cleaned_sales_data/ }).count()).resolves.toBe(0);
    await addTable(page, 'doomed');
    await tables.getByText('label', { exact: true }).waitFor();
    await shot('1-switched-database');
    // The server keeps the tab's tables of the new database only.
    await expect
      .poll(async () => {
        const active = (await t.http.get(`/tabstateview/${(await bootstrap()).tab_state_ids[0].id}`).set(bearer(token))).body as { table_schemas: { table: string }[] };
        return active.table_schemas.map((ts) => ts.table);
      }, { timeout: 20_000 })
      .toEqual(['doomed']);

    // The table is dropped behind SQL Lab's back: after a reload its metadata answers 404 and it leaves the list.
    await scratchSql('DROP TABLE doomed');
    await page.reload();
    await expect.poll(() => missing.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => tables.count()).toBe(0);
    await expect(page.getByText('No columns').count()).resolves.toBe(0);
    expect(missing.every((url) => url.includes('name=doomed'))).toBe(true);
    page.off('response', onResponse);
    await pickDatabase(page, 'examples');
  });

  it("a query restored in another browser shows its own elapsed time, not the time since it was loaded", { timeout: 120_000 }, async () => {
    await onSqlLab();
    await typeSql(page, 'SELECT 42 AS answer');
    await expect(runAndWait(page)).resolves.toBe('1 row returned');
    const clientTimer = await page.getByTestId('query-timer').textContent();
    // The tab's latest query is on the server once the sync ran.
    const record = await waitFor('the query on the server', async () => Object.values((await bootstrap()).queries).find((q) => q.state === 'success' && q.endDttm && q.startDttm));
    // The tab's latest query reaches the server with the next sync.
    await waitFor('the tab naming it as its latest query', async () => {
      const boot = (await t.http.get('/api/v1/sqllab/').set(bearer(token))).body as { active_tab?: { latest_query?: { id: string } | null } };
      return boot.active_tab?.latest_query?.id === record.id;
    });
    const { other, fresh } = await freshPage();
    try {
      await fresh.goto(`${t.url}/sqllab/`);
      await fresh.getByTestId('row-count').waitFor({ timeout: 30_000 });
      await fresh.getByTestId('results-grid').getByRole('gridcell', { name: '42', exact: true }).waitFor();
      await expect(fresh.getByTestId('query-timer').textContent()).resolves.toBe(formatElapsed(record.endDttm! - record.startDttm));
      expect(clientTimer).toMatch(/^00:00:\d\d\.\d\d$/);
      await screenshot(fresh, 'sqllab-fixes-2-restored-elapsed');
    } finally {
      await other.close();
    }
  });

  it('a tab closed just before leaving the page stays closed: its DELETE is sent at once and outlives the page', { timeout: 120_000 }, async () => {
    await page.goto(`${t.url}/sqllab/`);
    await page.getByTestId('sql-editor').waitFor();
    await page.getByTestId('new-tab').click();
    const name = (await activeTab(page).textContent())!;
    // Wait until the server has it (created from the browser's copy).
    await expect.poll(async () => (await bootstrap()).tab_state_ids.map((tab) => tab.label), { timeout: 20_000 }).toContain(name);
    await page.getByRole('button', { name: `Close ${name}`, exact: true }).click();
    // Leave at once: no sync cycle of this page runs again, and this browser does not come back to send it later.
    await page.goto('about:blank');
    await expect.poll(async () => (await bootstrap()).tab_state_ids.map((tab) => tab.label), { timeout: 20_000 }).not.toContain(name);
    await page.goto(`${t.url}/sqllab/`);
    await page.getByTestId('sql-editor').waitFor();
    await expect(tabNames(page)).resolves.not.toContain(name);
  });

  it('the row-limit notice is read whole, with its numbers', { timeout: 120_000 }, async () => {
    await onSqlLab();
    await typeSql(page, 'SELECT * FROM range(20000)');
    await expect(runAndWait(page)).resolves.toBe('10,000 rows returned');
    const notice = page.getByTestId('limit-notice');
    await expect(notice.textContent()).resolves.toBe(
      'The number of results displayed is limited to 10000. Please add additional limits/filters or download to csv to see more rows up to the 100000 limit.',
    );
    // Nothing of it is cut off: no ellipsis, no hidden overflow, and inside the results pane.
    const clipped = await notice.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 || getComputedStyle(el).textOverflow === 'ellipsis');
    expect(clipped).toBe(false);
    const box = (await notice.boundingBox())!;
    const pane = (await page.getByTestId('result-set').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(pane.x + pane.width + 1);
    await shot('3-limit-notice');
  });

  it('"Filter results" narrows the rows held in the browser', { timeout: 120_000 }, async () => {
    await onSqlLab();
    await typeSql(page, "SELECT * FROM (VALUES ('France', 1), ('Germany', 2), ('Spain', 3), (NULL, 4)) AS t(country, n)");
    await expect(runAndWait(page)).resolves.toBe('4 rows returned');
    const grid = page.getByTestId('results-grid');
    const filter = page.getByRole('textbox', { name: 'Filter results' });
    await filter.fill('an');
    await expect.poll(() => grid.getByRole('gridcell').allTextContents()).toEqual(['France', '1', 'Germany', '2']);
    await expect(page.getByTestId('filter-count').textContent()).resolves.toBe('2 of 4 rows match');
    await shot('4-filter-results');
    await filter.fill('null');
    await expect.poll(() => grid.getByRole('gridcell').allTextContents()).toEqual(['NULL', '4']);
    await page.getByRole('button', { name: 'Clear the filter' }).click();
    await expect.poll(() => grid.getByRole('gridcell').count()).toBe(8);
    await expect(page.getByTestId('filter-count').count()).resolves.toBe(0);
  });

  it('autocomplete lists tables and columns before functions and keywords, and offers the columns before FROM is typed', { timeout: 120_000 }, async () => {
    await onSqlLab();
    await typeSql(page, 'SELECT * FROM ');
    await typeInEditor(page, 'w');
    // 'w' matches the table wb_health_population and the keywords WHERE, WHEN, WITH, WINDOW: the table comes first.
    await expect.poll(() => completions(page).then((list) => list.slice(0, 2)), { timeout: 20_000 }).toEqual(['wb_health_population', expect.stringMatching(/^W/)]);
    await page.keyboard.press('Escape');

    // The table is known in the statement: its columns are offered in the select list, typed before FROM.
    await typeSql(page, 'SELECT  FROM cleaned_sales_data');
    await page.evaluate(() => {
      const editor = (document.querySelector('[data-testid=sql-editor] .ace_editor') as HTMLElement & { env: { editor: { moveCursorTo(r: number, c: number): void; clearSelection(): void } } }).env.editor;
      editor.moveCursorTo(0, 7);
      editor.clearSelection();
    });
    await typeInEditor(page, 'coun');
    await expect.poll(() => completions(page), { timeout: 20_000 }).toContain('country');
    const list = await completions(page);
    expect(list.indexOf('country')).toBeLessThan(list.indexOf('COUNT'));
    await shot('5-autocomplete-columns-first');
    await page.keyboard.press('Enter');
    await expect.poll(() => editorValue(page)).toBe('SELECT country FROM cleaned_sales_data');
  });

  it("a database error shows the database's own message under the catalogue's, and the editor marks its line", { timeout: 120_000 }, async () => {
    await onSqlLab();
    await typeSql(page, 'SELECT order_number,\n  no_such_col\nFROM cleaned_sales_data');
    await page.getByTestId('run-query').click();
    const error = page.getByTestId('query-error');
    await error.waitFor({ timeout: 60_000 });
    await error.getByText('We can\'t seem to resolve the column "no_such_col".').waitFor();
    await expect(page.getByTestId('database-message').textContent()).resolves.toContain('Referenced column "no_such_col" not found');
    await expect(page.getByTestId('error-line').textContent()).resolves.toBe('Line 2 of the query');
    // Ace's gutter marks line 2 (and only it) as the error.
    const marked = page.locator('[data-testid=sql-editor] .ace_gutter-cell.ace_error');
    await expect.poll(() => marked.allTextContents()).toEqual(['2']);
    await expect(page.locator('[data-testid=sql-editor] .ace-error-line').count()).resolves.toBe(1);
    await shot('6-database-error');
    // Fixed and run again: the mark goes.
    await typeSql(page, 'SELECT order_number\nFROM cleaned_sales_data LIMIT 1');
    await expect(runAndWait(page)).resolves.toBe('1 row returned');
    await expect.poll(() => marked.count()).toBe(0);
  });

  it("'Query was stopped.' is an info toast, not a success one", { timeout: 120_000 }, async () => {
    await onSqlLab();
    await typeSql(page, 'SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range * b.range < 0');
    await page.getByTestId('run-query').click();
    await page.getByTestId('query-running').waitFor();
    await page.getByTestId('stop-query').click();
    const toast = page.locator('[data-toast-type]', { hasText: QUERY_STOPPED });
    await toast.first().waitFor();
    await expect(toast.first().getAttribute('data-toast-type')).resolves.toBe(ToastType.INFO);
    await page.getByTestId('query-stopped').waitFor();
  });

  it('"Copy link" of a saved query gives its ?savedQueryId= link, which opens its tab once, tied to it (Update)', { timeout: 180_000 }, async () => {
    await onSqlLab();
    await typeSql(page, 'SELECT country, sum(price) AS revenue FROM cleaned_sales_data GROUP BY 1');
    await page.getByTestId('save-query').click();
    const dialog = page.getByRole('dialog', { name: 'Save query' });
    await dialog.getByLabel('Name').fill('Revenue shared');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Your query was saved').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const saved = ((await t.http.get('/api/v1/saved_query/').set(bearer(token))).body.result as { id: number; label: string }[]).find((q) => q.label === 'Revenue shared')!;
    await page.getByTestId('copy-link').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${t.url}/sqllab/?savedQueryId=${saved.id}`);
    const link = await page.evaluate(() => navigator.clipboard.readText());

    const { other, fresh } = await freshPage();
    try {
      // Another browser (no local storage): the link finds the tab the server ties to the saved query.
      await fresh.goto(link);
      await activeTab(fresh).getByText('Revenue shared').waitFor();
      await expect.poll(() => editorValue(fresh)).toContain('sum(price) AS revenue');
      await expect(fresh.getByTestId('save-query').textContent()).resolves.toBe('Update');
      await screenshot(fresh, 'sqllab-fixes-7-shared-saved-query');
      // Opened again, from another tab: the same tab becomes active, no second one.
      await fresh.getByTestId('new-tab').click();
      await expect.poll(() => activeTab(fresh).textContent()).not.toBe('Revenue shared');
      await fresh.goto(link);
      await activeTab(fresh).getByText('Revenue shared').waitFor();
      await expect.poll(() => tabNames(fresh).then((names) => names.filter((n) => n === 'Revenue shared').length)).toBe(1);
    } finally {
      await other.close();
    }
    // The first browser opens it once too.
    await page.goto(link);
    await activeTab(page).getByText('Revenue shared').waitFor();
    await expect(tabNames(page).then((names) => names.filter((n) => n === 'Revenue shared').length)).resolves.toBe(1);
    // The server tab is tied to the saved query.
    const tied = (await bootstrap()).tab_state_ids.filter((tab) => tab.saved_query_id === saved.id);
    expect(tied.map((tab) => tab.label)).toEqual(['Revenue shared']);
  });

  it('a permalink of an unsaved query opened twice finds the tab it opened', { timeout: 120_000 }, async () => {
    await onSqlLab();
    await page.getByTestId('new-tab').click();
    const name = (await activeTab(page).textContent())!;
    await typeSql(page, 'SELECT 314 AS pi_ish');
    await page.getByTestId('copy-link').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`^${t.url}/sqllab/p/[0-9a-f-]{36}$`));
    const link = await page.evaluate(() => navigator.clipboard.readText());
    await page.getByRole('button', { name: `Close ${name}`, exact: true }).click();
    await page.goto(link);
    await activeTab(page).getByText('Shared query').waitFor();
    await expect.poll(() => editorValue(page)).toBe('SELECT 314 AS pi_ish');
    await page.getByTestId('new-tab').click();
    const count = (await tabNames(page)).length;
    await page.goto(link);
    await activeTab(page).getByText('Shared query').waitFor();
    await expect.poll(() => editorValue(page)).toBe('SELECT 314 AS pi_ish');
    await expect.poll(() => tabNames(page).then((names) => names.length)).toBe(count);
  });

  it('at 1024 px wide the timer does not overlap "Save dataset" and the tab strip scrolls; light and dark', { timeout: 180_000 }, async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      await page.goto(`${t.url}/sqllab/`);
      await page.getByTestId('sql-editor').waitFor();
      for (let i = 0; i < 8; i++) await page.getByTestId('new-tab').click();
      await expect.poll(() => page.getByTestId('sqllab-tab').count()).toBeGreaterThanOrEqual(9);
      const strip = page.getByRole('tablist', { name: 'Query tabs' });
      const overflow = await strip.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, overflowX: getComputedStyle(el).overflowX }));
      expect(overflow.scroll).toBeGreaterThan(overflow.client);
      expect(overflow.overflowX).toBe('auto');
      // The newest tab is scrolled into view, and the page itself does not scroll sideways.
      const last = (await activeTab(page).boundingBox())!;
      const stripBox = (await strip.boundingBox())!;
      expect(last.x + last.width).toBeLessThanOrEqual(stripBox.x + stripBox.width + 1);
      await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(1024);
      expect((await page.getByTestId('new-tab').boundingBox())!.x + 30).toBeLessThanOrEqual(1024);

      await pickDatabase(page, 'examples');
      await typeSql(page, 'SELECT * FROM range(20000)');
      await expect(runAndWait(page)).resolves.toBe('10,000 rows returned');
      const timer = (await page.getByTestId('query-timer').boundingBox())!;
      const save = (await page.getByTestId('result-set').getByRole('button', { name: 'Save dataset' }).boundingBox())!;
      const overlaps = timer.x < save.x + save.width && save.x < timer.x + timer.width && timer.y < save.y + save.height && save.y < timer.y + timer.height;
      expect(overlaps).toBe(false);
      const notice = page.getByTestId('limit-notice');
      await expect(notice.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)).resolves.toBe(false);
      await shot('8-1024-light');
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
      await shot('9-1024-dark');
      await typeSql(page, 'SELECT order_number,\n  no_such_col\nFROM cleaned_sales_data');
      await page.getByTestId('run-query').click();
      await page.getByTestId('database-message').waitFor({ timeout: 60_000 });
      await shot('10-1024-dark-error');
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });
});
