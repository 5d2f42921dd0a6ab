import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QUERY_NOT_SCHEDULED, QUERY_SAVED, QUERY_SCHEDULED } from '../../contracts/src/messages';
import { END_BEFORE_START, readScheduleInfo } from '../../contracts/src/rules/schedule';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureClientBuilt, screenshot } from './browser';
import { afterFailedTest, openSqlLabBrowser, runAndWait, typeSql } from './sqllab.page';

// SQL Lab extras in a real Chromium: template parameters, Save dataset / Create chart from the results,
// scheduling a saved query (stored in extra_json.schedule_info) and the dark theme.

interface DatasetRow {
  id: number;
  table_name: string;
  sql: string | null;
  database: { id: number; database_name: string };
}

describe('SQL Lab extras in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  const shot = (name: string) => screenshot(page, `sqllab-extra-${name}`);
  const bearer = () => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    await ensureTestExamples(t.services);
    token = await t.token();
    ({ browser, page } = await openSqlLabBrowser(t.url));
  }, 120_000);
  afterEach((ctx) => afterFailedTest(ctx, page, 'sqllab-extra'));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('runs with template parameters from the JSON editor; invalid JSON shows an error and runs nothing', { timeout: 120_000 }, async () => {
    await page.goto(`${t.url}/sqllab/`);
    await expect.poll(() => page.getByTestId('sqllab-tab').allTextContents()).toEqual(['Untitled Query 1']);
    await expect.poll(() => page.getByTestId('schema-select').inputValue(), { timeout: 30_000 }).toBe('main');
    await typeSql(page, 'SELECT {{ n }} AS n');
    await page.getByRole('button', { name: /^Parameters/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Template parameters' });
    await dialog.getByLabel('Template parameters JSON').fill('{"n": 3}');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Parameters (1)' }).waitFor();
    await expect(runAndWait(page)).resolves.toBe('1 row returned');
    const grid = page.getByTestId('results-grid');
    await grid.getByRole('columnheader', { name: 'n' }).waitFor();
    await expect(grid.getByRole('gridcell').allTextContents()).resolves.toEqual(['3']);

    let executed = 0;
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes('/api/v1/sqllab/execute/')) executed++;
    };
    page.on('request', onRequest);
    await page.getByRole('button', { name: 'Parameters (1)' }).click();
    await dialog.getByLabel('Template parameters JSON').fill('{"n": 3');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText(/^Invalid JSON: /).waitFor();
    await expect(dialog.getByLabel('Template parameters JSON').getAttribute('aria-invalid')).resolves.toBe('true');
    await shot('1-template-params-invalid');
    // Still open, nothing applied, nothing run.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    page.off('request', onRequest);
    expect(executed).toBe(0);
    await page.getByRole('button', { name: 'Parameters (1)' }).click();
    expect(JSON.parse(await dialog.getByLabel('Template parameters JSON').inputValue())).toEqual({ n: 3 });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('saves the results as a dataset and creates a chart: each a virtual dataset with the SQL, Explore opened with its id', { timeout: 120_000 }, async () => {
    const sql = 'SELECT country, count(*) AS orders FROM cleaned_sales_data GROUP BY 1';
    await typeSql(page, sql);
    await runAndWait(page);
    const datasets = async () => (await t.http.get('/api/v1/dataset/').query({ q: '(page_size:100)' }).set(bearer())).body.result as DatasetRow[];

    await page.getByTestId('result-set').getByRole('button', { name: 'Save dataset' }).click();
    let dialog = page.getByRole('dialog', { name: 'Save as dataset' });
    await dialog.getByLabel('Dataset name').fill('orders_by_country_e2e');
    await shot('2-save-dataset');
    await dialog.getByRole('button', { name: 'Save dataset' }).click();
    await page.waitForURL(/\/explore\/\?/);
    const saved = (await datasets()).find((d) => d.table_name === 'orders_by_country_e2e');
    expect(saved?.sql).toBe(sql);
    expect(saved?.database.database_name).toBe('examples');
    const url = new URL(page.url());
    expect(url.searchParams.get('datasource_type')).toBe('table');
    expect(url.searchParams.get('datasource_id')).toBe(String(saved!.id));

    await page.goBack();
    await page.getByTestId('sql-editor').waitFor();
    // (Typed again: with backend persistence an edit not yet synced can lose to the server's copy on return.)
    await typeSql(page, sql);
    await runAndWait(page);
    await page.getByTestId('result-set').getByRole('button', { name: 'Create chart' }).click();
    dialog = page.getByRole('dialog', { name: 'Create a chart from this query' });
    await dialog.getByLabel('Dataset name').fill('orders_by_country_chart_e2e');
    await dialog.getByRole('button', { name: 'Create chart' }).click();
    await page.waitForURL(/\/explore\/\?/);
    const forChart = (await datasets()).find((d) => d.table_name === 'orders_by_country_chart_e2e');
    expect(forChart?.sql).toBe(sql);
    expect(forChart!.id).not.toBe(saved!.id);
    expect(new URL(page.url()).searchParams.get('datasource_id')).toBe(String(forChart!.id));
    await page.goBack();
    await page.getByTestId('sql-editor').waitFor();
  });

  it('schedules the saved query: offers to save first, validates the form, stores schedule_info in extra_json', { timeout: 120_000 }, async () => {
    await typeSql(page, 'SELECT country, sum(price) AS revenue FROM cleaned_sales_data GROUP BY 1 ORDER BY 2 DESC');
    await page.getByTestId('schedule-query').click();
    const schedule = page.getByRole('dialog', { name: 'Schedule query' });
    await schedule.getByTestId('schedule-save-first').waitFor();
    await schedule.getByRole('button', { name: 'Save query' }).click();
    const save = page.getByRole('dialog', { name: 'Save query' });
    await save.getByLabel('Name').fill('Revenue by country, scheduled');
    await save.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(QUERY_SAVED).first().waitFor();
    // Saved: the schedule form comes back, for the saved query.
    await schedule.getByText('Revenue by country, scheduled').waitFor();

    await schedule.getByRole('button', { name: 'Schedule' }).click();
    await schedule.getByText('Output table name is required').waitFor();
    await schedule.getByLabel('Output table').fill('revenue_by_country');
    await schedule.getByLabel('Start date').fill('2030-03-10');
    await schedule.getByLabel('End date').fill('2030-03-01');
    await schedule.getByTestId('schedule-interval').click();
    await page.getByRole('option', { name: 'Custom crontab' }).click();
    await schedule.getByLabel('Crontab').fill('0 7 * *');
    await schedule.getByRole('button', { name: 'Schedule' }).click();
    await schedule.getByText(END_BEFORE_START).waitFor();
    await schedule.getByText('A crontab has 5 fields').waitFor();
    await shot('3-schedule-errors');
    await schedule.getByLabel('End date').fill('2030-12-31');
    await schedule.getByLabel('Crontab').fill('0 7 * * MON-FRI');
    await shot('4-schedule-form');
    await schedule.getByRole('button', { name: 'Schedule' }).click();
    await page.getByText(QUERY_SCHEDULED).first().waitFor();
    await schedule.waitFor({ state: 'hidden' });

    const list = await t.http.get('/api/v1/saved_query/').set(bearer());
    const saved = (list.body.result as { id: number; label: string; extra_json: string | null }[]).find((q) => q.label === 'Revenue by country, scheduled');
    expect(readScheduleInfo(saved?.extra_json)).toEqual({
      output_table: 'revenue_by_country',
      start_date: '2030-03-10',
      end_date: '2030-12-31',
      interval: 'custom',
      schedule_interval: '0 7 * * MON-FRI',
    });

    // Opened again, the form shows the stored schedule; a named interval replaces the crontab.
    await page.getByTestId('schedule-query').click();
    await expect.poll(() => schedule.getByLabel('Output table').inputValue()).toBe('revenue_by_country');
    await expect(schedule.getByLabel('Crontab').inputValue()).resolves.toBe('0 7 * * MON-FRI');
    await schedule.getByTestId('schedule-interval').click();
    await page.getByRole('option', { name: 'Weekly (0 0 * * 0)' }).click();
    await schedule.getByRole('button', { name: 'Schedule' }).click();
    await schedule.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => readScheduleInfo(((await t.http.get(`/api/v1/saved_query/${saved!.id}`).set(bearer())).body.result as { extra_json: string }).extra_json)?.schedule_interval)
      .toBe('0 0 * * 0');

    // The server refuses a broken schedule, whoever sends it (422: saved queries are Flask-AppBuilder's own PUT in Superset).
    const bad = await t.http
      .put(`/api/v1/saved_query/${saved!.id}`)
      .set(bearer())
      .send({ extra_json: JSON.stringify({ schedule_info: { output_table: 'x', start_date: '2030-01-02', end_date: '2030-01-01', schedule_interval: '61 * * * *' } }) });
    expect(bad.status).toBe(422);
    expect(bad.body.message.extra_json).toEqual([`schedule_info.end_date: ${END_BEFORE_START}`, 'schedule_info.schedule_interval: Invalid minute field: 61']);

    // The Saved queries list marks it 'Scheduled' with its crontab.
    await page.goto(`${t.url}/savedqueryview/list/`);
    const badge = page.getByTestId('scheduled-badge');
    await badge.waitFor();
    await expect(badge.textContent()).resolves.toBe('Scheduled 0 0 * * 0');
    await shot('5-saved-queries-scheduled');

    // A failed update says so: the saved query is deleted while the form is open.
    await page.goto(`${t.url}/sqllab/`);
    await page.getByTestId('schedule-query').click();
    await expect.poll(() => schedule.getByLabel('Output table').inputValue()).toBe('revenue_by_country');
    expect((await t.http.delete(`/api/v1/saved_query/${saved!.id}`).set(bearer())).status).toBe(200);
    await schedule.getByRole('button', { name: 'Schedule' }).click();
    await page.getByText(QUERY_NOT_SCHEDULED).first().waitFor();
    await schedule.getByRole('button', { name: 'Cancel' }).click();
  });

  it('looks right in the dark theme with results', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await runAndWait(page);
    await page.getByTestId('results-grid').getByRole('gridcell', { name: 'USA', exact: true }).waitFor();
    await shot('6-dark-results');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });
});
