import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DATASOURCE_NOT_LOADED,
  FETCH_TAB_STATE_FAILED,
  QUERY_SAVED,
  QUERY_UPDATED,
  REMOVE_QUERY_FAILED,
  SAVE_EDITOR_STATE_FAILED,
  STORE_QUERY_IN_BACKEND_FAILED,
} from '../../contracts/src/messages';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureClientBuilt, screenshot } from './browser';
import { afterFailedTest, dragSplit, editorValue, openSqlLabBrowser, runAndWait, signIn, typeSql } from './sqllab.page';

// SQL Lab with backend persistence on, in a real Chromium: autorun of copied tabs, removing queries from the
// history on the server, the §8 messages of failed tab-state calls, opening a dataset by datasourceKey, the
// streamed CSV download, sorting a paged result within its loaded rows, local-storage usage, and the split and
// cursor kept in the server's tab state.

function editorCursor(page: Page): Promise<{ row: number; column: number } | null> {
  return page.evaluate(() => {
    const el = document.querySelector('[data-testid=sql-editor] .ace_editor') as
      | (HTMLElement & { env?: { editor: { getCursorPosition(): { row: number; column: number } } } })
      | null;
    return el?.env ? el.env.editor.getCursorPosition() : null;
  });
}

const tabNames = (page: Page) => page.getByTestId('sqllab-tab').allTextContents();
const activeTab = (page: Page) => page.locator('[data-testid=sqllab-tab][aria-selected=true]');

describe('SQL Lab with backend persistence: autorun, server history, datasets, CSV, paged sorting, stored layout', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  const consoleErrors: string[] = [];
  const shot = (name: string) => screenshot(page, `sqllab-more-${name}`);
  const bearer = () => ({ Authorization: `Bearer ${token}` });
  const serverTabs = async () => {
    // Superset wraps the bootstrap in `result`; accept the bare object too.
    type Bootstrap = { tab_state_ids: { id: number; label: string }[] };
    const body = (await t.http.get('/api/v1/sqllab/').set(bearer())).body as Bootstrap & { result?: Bootstrap };
    return (body.result ?? body).tab_state_ids;
  };
  const serverTab = async (label: string) => {
    const entry = (await serverTabs()).find((tab) => tab.label === label);
    if (!entry) return undefined;
    return (await t.http.get(`/tabstateview/${entry.id}`).set(bearer())).body as Record<string, unknown> & { id: number };
  };
  const serverQueries = async () =>
    ((await t.http.get('/api/v1/query/').query({ q: '(page_size:100)' }).set(bearer())).body.result as { sql: string; client_id?: string }[]) ?? [];

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true, env: { SQL_MAX_ROW: '1000000', DISPLAY_MAX_ROW: '1000', FEATURE_SQLLAB_BACKEND_PERSISTENCE: 'true' } });
    await ensureTestExamples(t.services);
    token = await t.token();
    ({ browser, page } = await openSqlLabBrowser(t.url, { clipboard: true, acceptDownloads: true }));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  }, 120_000);
  afterEach((ctx) => afterFailedTest(ctx, page, 'sqllab-more'));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("copying a tab runs its SQL once in the copy ('Copy of {name}', autorun on), then autorun is off on the server", { timeout: 120_000 }, async () => {
    await page.goto(`${t.url}/sqllab/`);
    await expect.poll(() => tabNames(page)).toEqual(['Untitled Query 1']);
    await expect.poll(() => page.getByTestId('schema-select').inputValue(), { timeout: 30_000 }).toBe('main');
    await typeSql(page, 'SELECT 6 * 7 AS answer');
    await page.getByRole('button', { name: 'Tab actions for Untitled Query 1' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate tab' }).click();
    await expect.poll(() => activeTab(page).textContent()).toContain('Copy of Untitled Query 1');
    // Nobody pressed Run: the copy ran by itself.
    await page.getByTestId('row-count').waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('row-count').textContent()).resolves.toBe('1 row returned');
    await page.getByTestId('results-grid').getByRole('gridcell', { name: '42', exact: true }).waitFor();
    await shot('1-copy-autorun');
    // autorun is turned off and synced, so a reload does not run it again.
    await expect.poll(async () => (await serverTab('Copy of Untitled Query 1'))?.autorun, { timeout: 30_000, interval: 1000 }).toBe(false);
    expect(await serverTab('Untitled Query 1')).toMatchObject({ autorun: false });
    await page.reload();
    await expect.poll(() => activeTab(page).textContent(), { timeout: 20_000 }).toContain('Copy of Untitled Query 1');
    await page.getByTestId('history-tab').click();
    await expect.poll(() => page.getByTestId('query-history').locator('tbody tr').count()).toBe(1);
  });

  it('removes a query from the history on the server too (DELETE /tabstateview/{id}/query/{queryId})', { timeout: 60_000 }, async () => {
    expect((await serverQueries()).filter((q) => q.sql === 'SELECT 6 * 7 AS answer')).toHaveLength(1);
    await page.getByTestId('query-history').getByRole('button', { name: 'Remove from history' }).click();
    await expect.poll(() => page.getByTestId('query-history').count()).toBe(0);
    await expect.poll(async () => (await serverQueries()).filter((q) => q.sql === 'SELECT 6 * 7 AS answer').length).toBe(0);
    await page.getByTestId('results-tab').click();
  });

  it('a tab deleted on the server: removing its query and storing its SQL fail with the catalogue messages', { timeout: 90_000 }, async () => {
    await typeSql(page, 'SELECT 7 AS lucky');
    await expect(runAndWait(page)).resolves.toBe('1 row returned');
    const copy = await serverTab('Copy of Untitled Query 1');
    expect(copy).toBeDefined();
    // Another window (here a script) deletes the tab on the server.
    await t.http.delete(`/tabstateview/${copy!.id}`).set(bearer()).expect(200);
    await page.getByTestId('history-tab').click();
    await page.getByTestId('query-history').getByRole('button', { name: 'Remove from history' }).click();
    await page.getByText(REMOVE_QUERY_FAILED).first().waitFor();
    await page.getByTestId('results-tab').click();
    // The next edit cannot be stored: the user is told to save the query, and the failure is logged.
    await typeSql(page, 'SELECT 8 AS lost');
    await page.getByText(STORE_QUERY_IN_BACKEND_FAILED).first().waitFor({ timeout: 30_000 });
    expect(consoleErrors.some((text) => text.includes(SAVE_EDITOR_STATE_FAILED))).toBe(true);
    await shot('2-store-failed');
    await page.getByRole('button', { name: 'Close Copy of Untitled Query 1' }).click();
    await expect.poll(() => tabNames(page)).toEqual(['Untitled Query 1']);
  });

  it("opens a dataset by ?datasourceKey={id}__table with its SELECT *; an unknown one shows \"The datasource couldn't be loaded\"", { timeout: 60_000 }, async () => {
    const databases = (await t.http.get('/api/v1/database/').set(bearer())).body.result as { id: number; database_name: string }[];
    const examples = databases.find((db) => db.database_name === 'examples')!;
    const created = await t.http
      .post('/api/v1/dataset/')
      .set(bearer())
      .send({ database: examples.id, schema: 'main', table_name: 'big_ids' })
      .expect(201);
    await page.goto(`${t.url}/sqllab/?datasourceKey=${created.body.id}__table`);
    await expect.poll(() => activeTab(page).textContent(), { timeout: 20_000 }).toContain('Query main.big_ids');
    await expect.poll(() => editorValue(page)).toMatch(/^SELECT\s[\s\S]*FROM\s+"?main"?\."?big_ids"?/i);
    // The request is consumed: the address is plain /sqllab/ again.
    expect(new URL(page.url()).search).toBe('');
    await shot('3-datasource');
    await expect(runAndWait(page)).resolves.toMatch(/rows? returned$/);

    await page.goto(`${t.url}/sqllab/?datasourceKey=987654__table`);
    await page.getByText(DATASOURCE_NOT_LOADED).first().waitFor();
    // Consumed even so: a reload does not fail again.
    expect(new URL(page.url()).search).toBe('');
    expect((await tabNames(page)).filter((name) => name.startsWith('Query '))).toEqual(['Query main.big_ids']);
  });

  it('downloads the CSV through a plain link (streamed to disk by the browser)', { timeout: 120_000 }, async () => {
    await typeSql(page, 'SELECT range AS n, range * 2 AS twice FROM range(750) ORDER BY n');
    await expect(runAndWait(page)).resolves.toBe('750 rows returned');
    let fetched = false;
    const onRequest = (request: { url(): string; resourceType(): string }) => {
      if (request.url().includes('/api/v1/sqllab/export/') && request.resourceType() === 'fetch') fetched = true;
    };
    page.on('request', onRequest);
    const downloading = page.waitForEvent('download');
    await page.getByTestId('download-csv').click();
    const download = await downloading;
    page.off('request', onRequest);
    expect(fetched).toBe(false);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('n,twice');
    expect(lines).toHaveLength(751);
    expect(lines[750]).toBe('749,1498');
    // Still on SQL Lab.
    expect(new URL(page.url()).pathname).toBe('/sqllab/');
  });

  it('sorts a paged result within its loaded rows (and says so), and copies the loaded rows', { timeout: 120_000 }, async () => {
    await typeSql(page, 'SELECT range AS n FROM range(10000) ORDER BY n');
    await page.getByTestId('row-limit').click();
    await page.getByRole('option', { name: 'Limit 10,000', exact: true }).click();
    await expect(runAndWait(page)).resolves.toBe('10,000 rows returned');
    const grid = page.getByTestId('results-grid');
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe('10000');
    const header = grid.getByRole('columnheader', { name: 'n' }).getByRole('button');
    // Numbers sort descending first: within the first page, 999 comes first, not 9999.
    await header.click();
    const firstCell = page.locator('[data-testid=results-grid] [aria-rowindex="1"] [role=gridcell]').first();
    await expect.poll(() => firstCell.textContent()).toBe('999');
    await expect(page.getByTestId('sort-notice').textContent()).resolves.toBe(
      'Sorted within loaded rows: the first 1,000 of 10,000. Clear the sort to scroll every row.',
    );
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe('1000');
    await shot('4-sorted-within-loaded');
    // Ascending, then no sort: the whole result scrolls again.
    await header.click();
    await expect.poll(() => firstCell.textContent()).toBe('0');
    await expect(page.getByTestId('sort-notice').count()).resolves.toBe(1);
    await header.click();
    await expect.poll(() => firstCell.textContent()).toBe('0');
    await expect(page.getByTestId('sort-notice').count()).resolves.toBe(0);
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe('10000');

    await page.getByTestId('copy-results').click();
    await page.getByText('Copied to clipboard!').first().waitFor();
    const copied = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
    expect(copied[0]).toBe('n');
    expect(copied).toHaveLength(1001);
    expect(copied[1000]).toBe('999');
  });

  it("shows the local storage used by SQL Lab in KB with two decimals, as stored", { timeout: 60_000 }, async () => {
    const usage = page.getByTestId('local-storage-usage');
    const stored = () =>
      page.evaluate(() => `${(((window.localStorage.getItem('meridian.sqllab') ?? '').length * 2) / 1024).toFixed(2)} KB`);
    // Saves are debounced (5000 ms), so the figure follows the stored text once it is written.
    await expect.poll(async () => (await usage.textContent()) === (await stored()), { timeout: 20_000, interval: 500 }).toBe(true);
    expect(await usage.textContent()).toMatch(/^\d+\.\d{2} KB$/);
    expect(Number.parseFloat((await usage.textContent()) ?? '0')).toBeGreaterThan(0);
  });

  it('keeps the editor/results split and the cursor in the server tab state (extra_json.extras) across a reload', { timeout: 120_000 }, async () => {
    await typeSql(page, 'SELECT 1 AS a,\n2 AS b');
    // Cursor to row 1, column 2.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => editorCursor(page)).toEqual({ row: 1, column: 2 });
    const percent = await dragSplit(page, 150);
    expect(percent).toBeGreaterThan(50);
    const label = ((await activeTab(page).textContent()) ?? '').trim();
    await expect
      .poll(async () => ((await serverTab(label))?.extra_json as { extras?: unknown } | undefined)?.extras, { timeout: 30_000, interval: 1000 })
      .toMatchObject({ cursorPosition: { row: 1, column: 2 }, northPercent: percent, southPercent: 100 - percent });
    // A fresh browser (no local storage) signed in as the same user: the server alone brings them back.
    const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await signIn(fresh, t.url);
    const other = await fresh.newPage();
    await other.goto(`${t.url}/sqllab/`);
    await expect.poll(() => activeTab(other).textContent(), { timeout: 20_000 }).toContain(label);
    await expect.poll(() => editorValue(other)).toBe('SELECT 1 AS a,\n2 AS b');
    await expect.poll(() => other.getByTestId('split-handle').getAttribute('aria-valuenow')).toBe(String(percent));
    await expect.poll(() => editorCursor(other)).toEqual({ row: 1, column: 2 });
    // The tab's latest query comes back with its rows, fetched by its results key.
    await expect.poll(() => other.getByTestId('row-count').textContent(), { timeout: 30_000 }).toBe('10,000 rows returned');
    await other.locator('[data-testid=results-grid] [aria-rowindex="1"] [role=gridcell]').first().waitFor();
    await screenshot(other, 'sqllab-more-5-split-restored');
    await fresh.close();
  });

  it('warns with the usage in KB when the stored editor state nears the 5120 KB budget', { timeout: 120_000 }, async () => {
    const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await signIn(fresh, t.url);
    const other = await fresh.newPage();
    // Five recent queries, each with just under 1024 KB of results (bigger ones are not kept), fill about 4.9 MB.
    await other.goto(`${t.url}/`);
    await other.evaluate(() => {
      const now = Date.now();
      const queries: Record<string, unknown> = {};
      for (let i = 0; i < 5; i++) {
        const id = `bigresult0${i}`;
        queries[id] = {
          id, dbId: 1, sql: `SELECT ${i}`, sqlEditorId: 'closed-tab', tab: 'Old', startDttm: now, endDttm: now, state: 'success', rows: 1,
          results: { status: 'success', columns: [{ column_name: 'x', name: 'x', type: 'VARCHAR' }], data: [{ x: 'x'.repeat(500_000) }] },
        };
      }
      window.localStorage.setItem('meridian.sqllab', JSON.stringify({
        queryEditors: [{ id: 'filled', version: 1, name: 'Filled', sql: 'SELECT 1', autorun: false, dbId: 1, updatedAt: now }],
        queries, tabHistory: ['filled'], destroyedQueryEditors: {},
      }));
    });
    await other.goto(`${t.url}/sqllab/`);
    const usage = other.getByTestId('local-storage-usage');
    await expect.poll(() => usage.getAttribute('data-nearly-full'), { timeout: 30_000 }).toBe('true');
    const shown = (await usage.textContent()) ?? '';
    expect(shown).toMatch(/^\d+\.\d{2} KB$/);
    expect(Number.parseFloat(shown)).toBeGreaterThan(5120 * 0.9);
    await other.getByText(`Currently, you are using ${shown} out of 5120 KB storage space.`, { exact: false }).first().waitFor();
    await screenshot(other, 'sqllab-more-6-storage-nearly-full');
    await fresh.close();
  });

  it('runs only the selected text', { timeout: 90_000 }, async () => {
    await page.getByTestId('new-tab').click();
    await typeSql(page, 'SELECT 1 AS first_col;\nSELECT 2 AS second_col');
    // Select the second line.
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Shift+Home');
    await expect
      .poll(() =>
        page.evaluate(() => {
          const el = document.querySelector('[data-testid=sql-editor] .ace_editor') as (HTMLElement & { env?: { editor: { getSelectedText(): string } } }) | null;
          return el?.env?.editor.getSelectedText() ?? null;
        }),
      )
      .toBe('SELECT 2 AS second_col');
    await expect(runAndWait(page)).resolves.toBe('1 row returned');
    const grid = page.getByTestId('results-grid');
    await grid.getByRole('columnheader', { name: 'second_col' }).waitFor();
    await expect(grid.getByRole('columnheader', { name: 'first_col' }).count()).resolves.toBe(0);
    expect((await serverQueries()).map((q) => q.sql)).toContain('SELECT 2 AS second_col');
    await shot('7-run-selection');
  });

  it("updates the tab's saved query in place ('Your query was updated')", { timeout: 90_000 }, async () => {
    const label = 'Selection demo';
    await page.getByTestId('save-query').click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(label);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(QUERY_SAVED).first().waitFor();
    await typeSql(page, 'SELECT 3 AS third_col');
    await page.getByTestId('save-query').click();
    dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Name').inputValue()).resolves.toBe(label);
    await dialog.getByRole('button', { name: 'Update', exact: true }).click();
    await page.getByText(QUERY_UPDATED).first().waitFor();
    const list = (await t.http.get('/api/v1/saved_query/').set(bearer())).body.result as { label: string; sql: string }[];
    expect(list.filter((q) => q.label === label).map((q) => q.sql)).toEqual(['SELECT 3 AS third_col']);
    await expect(activeTab(page).textContent()).resolves.toContain(label);
  });

  it('hides and shows the left bar, and the choice survives a reload', { timeout: 90_000 }, async () => {
    await expect(page.getByTestId('database-select').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Toggle left bar' }).click();
    await expect.poll(() => page.getByTestId('database-select').count()).toBe(0);
    // The editor takes the freed width and keeps its SQL.
    await expect.poll(() => page.locator('[data-testid=sql-editor] .ace_content').textContent()).toContain('third_col');
    await shot('8-left-bar-hidden');
    await page.reload();
    await expect.poll(() => activeTab(page).textContent(), { timeout: 20_000 }).toContain('Selection demo');
    await page.getByTestId('run-query').waitFor();
    await expect(page.getByTestId('database-select').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Toggle left bar' }).click();
    await expect.poll(() => page.getByTestId('database-select').count()).toBe(1);
  });

  it('a tab whose server state is gone (404) is removed when opened, without an error', { timeout: 90_000 }, async () => {
    const databases = (await t.http.get('/api/v1/database/').set(bearer())).body.result as { id: number; database_name: string }[];
    const examples = databases.find((db) => db.database_name === 'examples')!;
    const created = await t.http
      .post('/tabstateview/')
      .set(bearer())
      .send({ queryEditor: { name: 'Gone soon', sql: 'SELECT 1', dbId: examples.id, autorun: false } })
      .expect(200);
    // Keep this browser's tab the active one on the server, so the new tab arrives unloaded.
    const current = await serverTab('Selection demo');
    await t.http.post(`/tabstateview/${current!.id}/activate`).set(bearer()).expect(200);
    await page.reload();
    await expect.poll(() => tabNames(page), { timeout: 20_000 }).toContain('Gone soon');
    await t.http.delete(`/tabstateview/${created.body.id}`).set(bearer()).expect(200);
    await page.getByTestId('sqllab-tab').filter({ hasText: 'Gone soon' }).click();
    await expect.poll(() => tabNames(page)).not.toContain('Gone soon');
    await expect(page.getByText(FETCH_TAB_STATE_FAILED).count()).resolves.toBe(0);
  });

  it("'Close all other tabs' leaves one tab, here and on the server", { timeout: 90_000 }, async () => {
    await page.getByTestId('sqllab-tab').filter({ hasText: 'Selection demo' }).click();
    expect((await tabNames(page)).length).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Tab actions for Selection demo' }).click();
    await page.getByRole('menuitem', { name: 'Close all other tabs' }).click();
    await expect.poll(() => tabNames(page)).toEqual(['Selection demo']);
    await expect.poll(async () => (await serverTabs()).map((tab) => tab.label), { timeout: 30_000, interval: 1000 }).toEqual(['Selection demo']);
    await shot('9-closed-others');
  });
});

describe('SQL Lab with local persistence only: autorun from the address, layout kept across a reload', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => screenshot(page, `sqllab-more-local-${name}`);

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true, env: { FEATURE_SQLLAB_BACKEND_PERSISTENCE: 'false' } });
    await ensureTestExamples(t.services);
    ({ browser, page } = await openSqlLabBrowser(t.url));
  }, 120_000);
  afterEach((ctx) => afterFailedTest(ctx, page, 'sqllab-more-local'));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('?sql=...&autorun=true opens a tab that runs once; a reload does not run it again', { timeout: 90_000 }, async () => {
    await page.goto(`${t.url}/sqllab/?sql=${encodeURIComponent('SELECT 5 AS five')}&autorun=true`);
    await expect.poll(() => activeTab(page).textContent(), { timeout: 20_000 }).toContain('Shared query');
    await page.getByTestId('row-count').waitFor({ timeout: 60_000 });
    await page.getByTestId('results-grid').getByRole('gridcell', { name: '5', exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.reload();
    await expect.poll(() => activeTab(page).textContent(), { timeout: 20_000 }).toContain('Shared query');
    await page.getByTestId('history-tab').click();
    await expect.poll(() => page.getByTestId('query-history').locator('tbody tr').count()).toBe(1);
    await page.getByTestId('results-tab').click();
  });

  it('keeps the cursor and the split in local storage across a reload', { timeout: 90_000 }, async () => {
    await typeSql(page, 'SELECT 1 AS a,\n2 AS b');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => editorCursor(page)).toEqual({ row: 1, column: 1 });
    const percent = await dragSplit(page, -120);
    expect(percent).toBeLessThan(50);
    // Reloaded at once, well within the 5000 ms save debounce: the pending save is flushed on the way out.
    await page.reload();
    await expect.poll(() => editorValue(page), { timeout: 20_000 }).toBe('SELECT 1 AS a,\n2 AS b');
    await expect.poll(() => page.getByTestId('split-handle').getAttribute('aria-valuenow')).toBe(String(percent));
    await expect.poll(() => editorCursor(page)).toEqual({ row: 1, column: 1 });
    await shot('1-layout-restored');
  });
});
