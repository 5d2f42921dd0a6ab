import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, registerDatabase } from '../rest/sqllab.helpers';
import { ensureClientBuilt, launchBrowser, screenshot, signedInPage } from './browser';

// Issue 15: the report modal in chart and dashboard headers, the Alerts & reports list with its execution log, and
// list cards with server-drawn thumbnails.
describe('reports and alerts in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let admin: string;
  let db: number;
  let chart: number;
  let dashboard: number;

  const rest = {
    get: (path: string) => t.http.get(path).set(bearer(admin)),
    post: (path: string, body: object) => t.http.post(path).set(bearer(admin)).send(body),
  };
  const pick = async (label: string | RegExp, option: string, scope = page.getByRole('dialog')) => {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  beforeAll(async () => {
    ensureClientBuilt();
    // THUMBNAILS on: the list cards show pictures the server draws.
    t = await startTestApp({ listen: true, env: { FEATURE_THUMBNAILS: 'true' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-reports-'));
    db = await registerDatabase(t, admin, { database_name: 'shop', sqlalchemy_uri: `duckdb:///${join(dir, 'shop.duckdb')}`, allow_dml: true });
    await rest.post('/api/v1/sqllab/execute/', { database_id: db, sql: "CREATE TABLE sales AS SELECT * FROM (VALUES ('North', 120), ('South', 80), ('West', 150)) t(region, amount)", runAsync: false });
    const dataset = (await rest.post('/api/v1/dataset/', { database: db, schema: 'main', table_name: 'sales' })).body.id;
    const params = { viz_type: 'pie', datasource: `${dataset}__table`, groupby: ['region'], metric: { expressionType: 'SQL', sqlExpression: 'SUM(amount)', label: 'total' }, adhoc_filters: [], row_limit: 100 };
    chart = (await rest.post('/api/v1/chart/', { slice_name: 'Sales by region', viz_type: 'pie', datasource_id: dataset, datasource_type: 'table', params: JSON.stringify(params) })).body.id;
    dashboard = (await rest.post('/api/v1/dashboard/', { dashboard_title: 'Shop' })).body.id;
    browser = await launchBrowser();
    page = await signedInPage(browser, t.url, { width: 1366, height: 900 });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("sets up, switches off, edits and deletes the user's email report from the chart header", async () => {
    await page.goto(`${t.url}/explore/?slice_id=${chart}`);
    await page.getByRole('button', { name: 'More chart actions' }).click();
    await page.getByRole('menuitem', { name: 'Set up an email report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a new email report' });
    await expect(dialog.getByLabel(/^Report name/).inputValue()).resolves.toBe('Sales by region report');
    await dialog.getByLabel(/^Report name/).fill('Sales every morning');
    await pick('Repeat', 'Every day at 09:00', dialog);
    await dialog.getByLabel('Text embedded in email').check();
    await dialog.getByText('Sent to admin@meridian.local.').waitFor();
    await dialog.getByTestId('report-schedule-text').getByText(/At 09:00 AM/).waitFor();
    await screenshot(page, 'report-modal-chart');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.getByText('The report has been created').waitFor();
    const [report] = (await rest.get('/api/v1/report/')).body.result;
    expect(report).toMatchObject({ name: 'Sales every morning', crontab: '0 9 * * *', creation_method: 'charts', chart_id: chart, active: true });
    expect((await rest.get(`/api/v1/report/${report.id}`)).body.result).toMatchObject({ report_format: 'TEXT', recipients: [{ type: 'Email', recipient_config_json: JSON.stringify({ target: 'admin@meridian.local' }) }] });

    // Switched off from the menu.
    await page.getByRole('button', { name: 'More chart actions' }).click();
    await page.getByRole('menuitem', { name: 'Manage email report' }).hover();
    await page.getByRole('menuitem', { name: 'Email reports active' }).click();
    await expect.poll(async () => (await rest.get(`/api/v1/report/${report.id}`)).body.result.active).toBe(false);

    // Edited: the modal opens with what is stored.
    await page.getByRole('button', { name: 'More chart actions' }).click();
    await page.getByRole('menuitem', { name: 'Manage email report' }).hover();
    await page.getByRole('menuitem', { name: 'Edit email report' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit email report' });
    await expect.poll(() => edit.getByLabel(/^Report name/).inputValue()).toBe('Sales every morning');
    await edit.getByLabel(/^Report name/).fill('Sales each morning');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Report updated').waitFor();
    expect((await rest.get(`/api/v1/report/${report.id}`)).body.result.name).toBe('Sales each morning');

    // Deleted.
    await page.getByRole('button', { name: 'More chart actions' }).click();
    await page.getByRole('menuitem', { name: 'Manage email report' }).hover();
    await page.getByRole('menuitem', { name: 'Delete email report' }).click();
    await page.getByRole('dialog', { name: 'Delete email report' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted: Sales each morning').waitFor();
    expect((await rest.get('/api/v1/report/')).body.count).toBe(0);

    // The dashboard header offers the same, with PDF among its formats.
    await page.goto(`${t.url}/superset/dashboard/${dashboard}/`);
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Set up an email report' }).click();
    const dash = page.getByRole('dialog', { name: 'Schedule a new email report' });
    await dash.getByLabel('PDF attached in email').check();
    await dash.getByRole('button', { name: 'Add' }).click();
    await page.getByText('The report has been created').waitFor();
    expect((await rest.get('/api/v1/report/')).body.result[0]).toMatchObject({ creation_method: 'dashboards', dashboard_id: dashboard });
  }, 120_000);

  it('adds an alert from the Alerts & reports list, and shows its execution log', async () => {
    await page.goto(`${t.url}/alert/list/`);
    await page.getByRole('button', { name: 'Alert', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add alert' });
    await dialog.getByLabel(/^Alert name/).fill('West over 1000');
    await pick(/^Database/, 'shop', dialog);
    await dialog.getByLabel(/^SQL query/).fill("SELECT amount FROM sales WHERE region = 'West'");
    await dialog.getByRole('textbox', { name: 'Value' }).fill('1000');
    await dialog.getByText('Chart', { exact: true }).click();
    await pick(/^Chart/, 'Sales by region', dialog);
    await pick('Repeat', 'Every hour', dialog);
    await dialog.getByLabel(/^Email addresses/).fill('ops@example.com');
    await screenshot(page, 'report-modal-alert');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.getByText('The report has been created').waitFor();
    const row = page.getByRole('row', { name: /West over 1000/ });
    await row.waitFor();
    await row.getByText('Every hour').or(row.getByText('Every hour, every day')).or(row.getByText(/At 0 minutes past the hour/)).first().waitFor();
    const alert = (await rest.get('/api/v1/report/').query({ q: '(filters:!((col:type,opr:eq,value:Alert)))' })).body.result[0];
    expect(alert).toMatchObject({ name: 'West over 1000', type: 'Alert', chart_id: chart, creation_method: 'alerts_reports' });

    // One run: 150 is not over 1000.
    await t.services.reportExecutor.execute(alert.id, new Date());
    await page.reload();
    await page.getByRole('row', { name: /West over 1000/ }).getByTestId('report-state').getByText('Not triggered').waitFor();
    await screenshot(page, 'report-alert-list');
    await page.getByRole('button', { name: 'Execution log of West over 1000' }).click();
    await page.getByRole('heading', { name: 'West over 1000: execution log' }).waitFor();
    const log = page.getByRole('table', { name: 'Execution log' });
    await log.getByText('Not triggered').waitFor();
    await log.getByText('Working').waitFor();
    await log.getByRole('cell', { name: '150' }).first().waitFor();
    await screenshot(page, 'report-execution-log');

    // The Reports tab holds the dashboard report, not the alert.
    await page.goto(`${t.url}/report/list/`);
    await page.getByRole('row', { name: /Shop report/ }).waitFor();
    expect(await page.getByRole('row', { name: /West over 1000/ }).count()).toBe(0);
  }, 120_000);

  it('with THUMBNAILS on, the chart and dashboard list cards show the pictures the server drew', async () => {
    for (const [list, name] of [['/chart/list/', 'Sales by region'], ['/dashboard/list/', 'Shop']] as const) {
      await page.goto(`${t.url}${list}`);
      await page.getByTestId('card-view').click();
      const card = page.getByTestId('list-card').filter({ hasText: name }).first();
      await card.locator('[data-testid="server-thumbnail"][data-state="ready"] img').waitFor({ timeout: 90_000 });
      expect(await card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(300);
      await screenshot(page, `report-thumbnails-${list.split('/')[1]}`);
    }
    await page.getByTestId('list-view').click();
  }, 200_000);
});
