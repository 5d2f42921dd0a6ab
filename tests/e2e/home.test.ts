import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { closeDialog, ensureClientBuilt, launchBrowser, login, screenshot } from './browser';
import { runAndWait, typeSql } from './sqllab.page';

const LONG_SQL = 'SELECT name, gender, state, SUM(num) AS total_births FROM birth_names WHERE state IN (\'CA\', \'NY\', \'TX\') GROUP BY name, gender, state ORDER BY total_births DESC';

/** Sets the colour scheme the way the header's switch stores it, and reloads. */
async function useScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((s) => localStorage.setItem('meridian-color-scheme', s), scheme);
  await page.reload();
  await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
}

// The home page, the login page's calls, Superset's old addresses and SQL Lab's history badge, in a real Chromium.
describe('home and other screens in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let chartId: number;

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-home-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    const { db } = t.services;
    const dataset = await db.selectFrom('tables').select('id').where('table_name', '=', 'birth_names').executeTakeFirstOrThrow();
    const chart = await db
      .insertInto('slices')
      .values({ slice_name: 'Births by state', viz_type: 'table', datasource_id: dataset.id, datasource_type: 'table', params: '{}', created_by_fk: 1, changed_by_fk: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    chartId = chart.id;
    await db.insertInto('slice_user').values({ slice_id: chart.id, user_id: 1 }).execute();
    await db.insertInto('favstar').values({ user_id: 1, class_name: 'slice', obj_id: chart.id }).execute();
    await db.insertInto('logs').values({ action: 'explore', user_id: 1, slice_id: chart.id, dttm: new Date(Date.now() - 3600_000) }).execute();
    await db.insertInto('saved_query').values({ label: 'Top names', sql: 'SELECT name FROM birth_names LIMIT 10', user_id: 1, created_by_fk: 1, changed_by_fk: 1 }).execute();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the login page signs in without asking for a CSRF token, so nothing answers 401', async () => {
    const failures: string[] = [];
    const csrfCalls: string[] = [];
    const onResponse = (res: { url(): string; status(): number }) => {
      if (res.status() === 401) failures.push(res.url());
      if (res.url().includes('/api/v1/security/csrf_token/')) csrfCalls.push(res.url());
    };
    page.on('response', onResponse);
    await page.goto(`${t.url}/login/`);
    await page.getByLabel('Username').waitFor();
    await screenshot(page, 'login');
    expect(csrfCalls).toEqual([]);
    await login(page, t.url);
    page.off('response', onResponse);
    expect(failures).toEqual([]);
    expect(csrfCalls).toEqual([]);
  });

  it("SQL Lab's Query history badge shows a two-digit count whole", { timeout: 180_000 }, async () => {
    await page.goto(`${t.url}/sqllab/`);
    await page.getByTestId('run-query').waitFor();
    // Ten short SELECTs, then the same long one twice: twelve queries in this tab's history.
    for (let i = 1; i <= 10; i++) {
      await typeSql(page, `SELECT ${i} AS n`);
      await runAndWait(page);
    }
    await typeSql(page, LONG_SQL);
    await runAndWait(page);
    await runAndWait(page);
    const badge = page.getByTestId('history-tab').locator('.mantine-Badge-root');
    await expect.poll(() => badge.textContent()).toBe('12');
    // Nothing clipped: the label fits in the badge.
    const fits = await badge.locator('.mantine-Badge-label').evaluate((el) => el.scrollWidth <= el.clientWidth + 0.5);
    expect(fits).toBe(true);
    await page.getByTestId('history-tab').screenshot({ path: join('test-results/screens', 'sqllab-history-badge.png') });
  });

  it('home: Recents lists the long query once with its kind readable, then Dashboards, Charts and Saved queries with Favorite and Mine', async () => {
    // The chart was just opened in Explore (as its view is logged).
    await t.services.db.insertInto('logs').values({ action: 'explore', user_id: 1, slice_id: chartId, dttm: new Date() }).execute();
    await page.goto(`${t.url}/`);
    const recents = page.getByRole('region', { name: 'Recents' });
    await expect.poll(() => recents.getByRole('tab').allTextContents()).toEqual(['Viewed', 'Edited', 'Created']);
    // The title is the SQL's first 120 characters on one line.
    const longQuery = recents.getByRole('link', { name: `Query: ${LONG_SQL.slice(0, 120)}`, exact: true });
    await longQuery.waitFor();
    await expect(longQuery.count()).resolves.toBe(1);
    // The kind line reads in full ("Query · Ran ..."), and the icon keeps its size next to a long title.
    await expect(longQuery.getByText(/^Query · Ran /).isVisible()).resolves.toBe(true);
    const icon = await longQuery.locator('.mantine-ThemeIcon-root').boundingBox();
    expect(icon!.width).toBeGreaterThanOrEqual(33);
    await recents.getByRole('link', { name: 'Chart: Births by state' }).waitFor();
    await screenshot(page, 'home-light');

    await recents.getByRole('tab', { name: 'Edited' }).click();
    await recents.getByRole('link', { name: 'Chart: Births by state' }).waitFor();
    await recents.getByRole('tab', { name: 'Created' }).click();
    await recents.getByRole('link', { name: 'Saved query: Top names' }).waitFor();
    await recents.getByRole('link', { name: 'Chart: Births by state' }).waitFor();

    const sections = await page.locator('section[aria-label]').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    expect(sections).toEqual(['Recents', 'Dashboards', 'Charts', 'Saved queries']);

    const dashboards = page.getByRole('region', { name: 'Dashboards' });
    await expect.poll(() => dashboards.getByRole('tab').allTextContents()).toEqual(['Favorite', 'Mine']);
    // No dashboards (and, while the domain is being built, no endpoint): a clean empty state, no error.
    await dashboards.getByText('No favorite dashboards yet').waitFor();
    await dashboards.getByRole('tab', { name: 'Mine' }).click();
    await dashboards.getByText('No dashboards yet').waitFor();

    const charts = page.getByRole('region', { name: 'Charts' });
    await charts.getByRole('link', { name: 'Chart: Births by state' }).waitFor();
    await expect(charts.getByRole('link', { name: 'Chart: Births by state' }).getAttribute('href')).resolves.toBe(`/explore/?slice_id=${chartId}`);
    await charts.getByRole('tab', { name: 'Mine' }).click();
    await charts.getByRole('link', { name: 'Chart: Births by state' }).waitFor();

    const saved = page.getByRole('region', { name: 'Saved queries' });
    await saved.getByText('No favorite saved queries yet').waitFor();
    await saved.getByRole('tab', { name: 'Mine' }).click();
    const top = saved.getByRole('link', { name: 'Saved query: Top names' });
    await top.waitFor();
    await expect(top.getAttribute('href')).resolves.toMatch(/^\/sqllab\/\?savedQueryId=\d+$/);
    await screenshot(page, 'home-light-tabs');

    // The chosen tabs are kept for the next visit, as Superset keeps them.
    await page.reload();
    await expect(page.getByRole('region', { name: 'Charts' }).getByRole('tab', { name: 'Mine' }).getAttribute('aria-selected')).resolves.toBe('true');
    await useScheme(page, 'dark');
    await page.getByRole('region', { name: 'Recents' }).getByRole('link').first().waitFor();
    await screenshot(page, 'home-dark');
    await useScheme(page, 'light');
  });

  it("Superset's old addresses open their screen", async () => {
    await page.goto(`${t.url}/alert/list/`);
    await page.getByRole('heading', { name: 'Alerts & reports' }).waitFor();
    await page.getByText('No alerts yet').waitFor();
    await page.goto(`${t.url}/rowlevelsecurity/list/`);
    await page.getByRole('heading', { name: 'Row level security' }).waitFor();
    await page.getByText('No rules yet').waitFor();
    await expect(page.getByText('Page not found').count()).resolves.toBe(0);

    await page.goto(`${t.url}/dataset/add/`);
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.getByRole('link', { name: 'birth_names' }).waitFor();
    await screenshot(page, 'legacy-dataset-add');
    await closeDialog(page);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/tablemodelview/list/');

    // The charts list's "+ Chart" goes where Superset's does.
    await page.goto(`${t.url}/chart/list/`);
    await page.getByRole('button', { name: 'Chart', exact: true }).click();
    await page.getByRole('heading', { name: 'Create a new chart' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/chart/add/');
    await expect(page.getByRole('button', { name: 'Create new chart' }).isDisabled()).resolves.toBe(true);
    await page.getByPlaceholder('Search datasets').click();
    await page.getByPlaceholder('Search datasets').fill('birth');
    await page.getByRole('option', { name: /birth_names$/ }).click();
    await page.getByRole('radio', { name: 'Pie Chart' }).click();
    await screenshot(page, 'legacy-chart-add');
    const dataset = await t.services.db.selectFrom('tables').select('id').where('table_name', '=', 'birth_names').executeTakeFirstOrThrow();
    await expect(page.getByRole('link', { name: 'Create new chart' }).getAttribute('href')).resolves.toBe(`/explore/?datasource_id=${dataset.id}&datasource_type=table&viz_type=pie`);
    await useScheme(page, 'dark');
    await page.getByRole('heading', { name: 'Create a new chart' }).waitFor();
    await screenshot(page, 'legacy-chart-add-dark');
    await page.goto(`${t.url}/alert/list/`);
    await page.getByText('No alerts yet').waitFor();
    await screenshot(page, 'alert-list-dark');
    await useScheme(page, 'light');
  });
});
