import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SQL_ADHOC_KEPT_WARNING } from '../../contracts/src/explore/form-data';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureTestExamples } from '../helpers/examples';
import { afterFailure, ensureClientBuilt, launchBrowser, screenshot, signedInPage } from './browser';

const rendered = (page: Page) => page.locator('[data-testid="explore-chart"][data-chart-state="rendered"]').waitFor();
/** The series the time-series chart draws (its legend), from the chart's data-series attribute. */
const seriesOf = async (page: Page) => JSON.parse((await page.locator('[data-testid="explore-chart"] [data-series]').getAttribute('data-series')) ?? '[]') as string[];

// Explore's advanced analytics, filter operators and datasource warnings, in a real Chromium on the examples data.
describe('Explore: advanced analytics, filter operators, datasource warnings', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let admin: string;
  let birthNames: number;

  const rest = (method: 'get' | 'post', path: string, body?: unknown) => {
    const req = t.http[method](path).set('Authorization', `Bearer ${admin}`);
    return body === undefined ? req : req.send(body as object);
  };
  const saveChart = async (name: string, params: Record<string, unknown>) =>
    (await rest('post', '/api/v1/chart/', { slice_name: name, viz_type: params.viz_type, datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) })).body.id as number;

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-analytics-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    birthNames = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    browser = await launchBrowser();
    page = await signedInPage(browser, t.url, { width: 1440, height: 900 });
  });
  afterEach((ctx) => afterFailure(page, 'analytics', ctx.task));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a rolling mean and a time shift on a saved line chart: the server rolls and joins last year's series, drawn as 'Births__1 year ago'", { timeout: 120_000 }, async () => {
    const id = await saveChart('Births, rolling', { viz_type: 'echarts_timeseries_line', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], row_limit: 1000 });
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    expect(await seriesOf(page)).toHaveLength(1);
    const [plain] = await seriesOf(page);

    const controls = page.getByRole('region', { name: 'Chart controls' });
    await controls.getByRole('button', { name: 'Advanced analytics' }).click();
    await controls.getByLabel('Rolling function').click();
    await page.getByRole('option', { name: 'mean', exact: true }).click();
    await controls.getByLabel('Periods', { exact: true }).fill('3');
    await controls.getByLabel('Time shift').click();
    await page.getByRole('option', { name: '1 year ago', exact: true }).click();
    await page.keyboard.press('Escape');

    const answered = page.waitForResponse((res) => res.url().includes('/api/v1/chart/data') && res.request().method() === 'POST');
    await page.getByRole('button', { name: 'Update chart' }).click();
    const request = (await answered).request().postDataJSON();
    expect(request.queries[0].time_offsets).toEqual(['1 year ago']);
    expect(request.queries[0].post_processing.map((o: { operation: string }) => o.operation)).toEqual(['pivot', 'rolling', 'flatten']);
    const answer = await (await answered).json();
    expect(answer.result[0].colnames).toEqual(['ds', 'sum__num', 'sum__num__1 year ago']);
    await rendered(page);
    // The metric and its shift both read by the verbose name ('Births', 'Births__1 year ago').
    await expect.poll(() => seriesOf(page)).toEqual([plain, `${plain}__1 year ago`]);
    await screenshot(page, 'explore-rolling-time-shift');

    // As the difference, only the comparison is drawn: the originals are dropped.
    await controls.getByLabel('Calculation type').click();
    await page.getByRole('option', { name: 'Difference', exact: true }).click();
    await page.getByRole('button', { name: 'Update chart' }).click();
    await expect.poll(() => seriesOf(page)).toEqual([`difference__${plain}__${plain}__1 year ago`]);
  });

  it("a saved line chart with a time shift and no time range switches to a table cleanly: the shift waits in the stash and comes back to the line", { timeout: 120_000 }, async () => {
    const id = await saveChart('Births, shifted', { viz_type: 'echarts_timeseries_line', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], groupby: ['gender'], time_range: 'No filter', time_compare: ['1 year ago'], comparison_type: 'values', row_limit: 1000 });
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    const chooseType = async (name: string) => {
      const answered = page.waitForResponse((res) => res.url().includes('/api/v1/chart/data') && res.request().method() === 'POST');
      await controls.getByRole('button', { name: /^Chart type:/ }).click();
      await page.getByRole('dialog', { name: 'Select a visualization type' }).getByPlaceholder('Search all charts').fill(name);
      await page.getByRole('radio', { name, exact: true }).click();
      await page.getByRole('button', { name: 'Select', exact: true }).click();
      return (await answered).request().postDataJSON();
    };
    // The table's own 'Time Comparison' needs an enclosed time range: given the line's shift it failed ('An enclosed
    // time range (both start and end) must be specified when using a Time Comparison.').
    const asTable = await chooseType('Table');
    expect(asTable.queries[0].time_offsets).toEqual([]);
    await rendered(page);
    await expect(page.locator('[data-testid="explore-chart"]').getByRole('columnheader').allTextContents()).resolves.toEqual(expect.arrayContaining(['gender']));
    await expect(controls.getByLabel('Time shift').inputValue()).resolves.toBe('');
    await screenshot(page, 'explore-line-shift-to-table');
    const asLine = await chooseType('Line Chart');
    expect(asLine.queries[0].time_offsets).toEqual(['1 year ago']);
    await rendered(page);
  });

  it("'Contribution Mode' draws each gender's share of the year; the legend moves to the right and the y-axis takes bounds, without a new query", { timeout: 120_000 }, async () => {
    const id = await saveChart('Births, shares', { viz_type: 'echarts_timeseries_line', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], groupby: ['gender'], row_limit: 1000 });
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    // Unset, it reads as its choice for none.
    await expect(controls.getByLabel('Contribution Mode').inputValue()).resolves.toBe('None');
    await controls.getByLabel('Contribution Mode').click();
    await page.getByRole('option', { name: 'Row', exact: true }).click();
    const answered = page.waitForResponse((res) => res.url().includes('/api/v1/chart/data') && res.request().method() === 'POST');
    await page.getByRole('button', { name: 'Update chart' }).click();
    const request = (await answered).request().postDataJSON();
    expect(request.queries[0].post_processing).toEqual([
      { operation: 'pivot', options: { index: ['ds'], columns: ['gender'], aggregates: { sum__num: { operator: 'mean' } }, drop_missing_columns: true } },
      { operation: 'contribution', options: { orientation: 'row' } },
      { operation: 'flatten' },
    ]);
    const answer = await (await answered).json();
    const rows = answer.result[0].data as Array<Record<string, number>>;
    const genders = (answer.result[0].colnames as string[]).filter((c) => c !== 'ds');
    expect(genders).toHaveLength(2);
    // Each year's shares make the whole.
    for (const row of rows) expect(genders.reduce((sum, g) => sum + row[g]!, 0)).toBeCloseTo(1, 9);
    await rendered(page);
    await expect.poll(() => seriesOf(page)).toEqual(['boy', 'girl']);

    // Drawing options only: the chart is drawn again from the answer it has.
    let queried = 0;
    const count = (req: import('playwright-core').Request) => void (req.url().includes('/api/v1/chart/data') && queried++);
    page.on('request', count);
    await page.getByRole('tab', { name: 'Customize' }).click();
    await controls.getByLabel('Orientation', { exact: true }).click();
    await page.getByRole('option', { name: 'Right', exact: true }).click();
    await controls.getByText('Truncate Y Axis', { exact: true }).click();
    await controls.getByLabel('Y Axis Bounds: min').fill('0');
    await controls.getByLabel('Y Axis Bounds: max').fill('1');
    await controls.getByLabel('Rotate x axis label').click();
    await page.getByRole('option', { name: '45°', exact: true }).click();
    await rendered(page);
    page.off('request', count);
    expect(queried).toBe(0);
    await screenshot(page, 'explore-contribution-legend-right');
    // Saved as Superset stores them.
    await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save chart' });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Chart [Births, shares] has been overwritten').waitFor();
    const params = JSON.parse((await rest('get', `/api/v1/chart/${id}`)).body.result.params);
    expect(params).toMatchObject({ contributionMode: 'row', legendOrientation: 'right', truncateYAxis: true, y_axis_bounds: [0, 1], xAxisLabelRotation: 45 });
  });

  it("'Currency format': a currency picked by name and a prefix put its symbol before the big number, without a new query, saved as Superset stores it", { timeout: 120_000 }, async () => {
    const id = await saveChart('Births, in euros', { viz_type: 'big_number_total', datasource: `${birthNames}__table`, metric: 'sum__num', y_axis_format: ',d' });
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const number = page.getByTestId('explore-chart').getByTestId('big-number');
    const plain = (await number.innerText()).split('\n')[0]!;
    expect(plain).toMatch(/^[\d,]+$/);

    let queried = 0;
    const count = (req: import('playwright-core').Request) => void (req.url().includes('/api/v1/chart/data') && queried++);
    page.on('request', count);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    await page.getByRole('tab', { name: 'Customize' }).click();
    await controls.getByLabel('Currency prefix or suffix').click();
    await page.getByRole('option', { name: 'Prefix', exact: true }).click();
    // Searched by the currency's name; each choice shows its symbol, code and name.
    await controls.getByLabel('Currency symbol').fill('euro');
    await page.getByRole('option', { name: '€ (EUR) Euro', exact: true }).waitFor();
    await screenshot(page, 'explore-currency-search');
    await page.getByRole('option', { name: '€ (EUR) Euro', exact: true }).click();
    await expect.poll(async () => (await number.innerText()).split('\n')[0]).toBe(`€ ${plain}`);
    // After the number it reads '1,234 €'.
    await controls.getByLabel('Currency prefix or suffix').click();
    await page.getByRole('option', { name: 'Suffix', exact: true }).click();
    await expect.poll(async () => (await number.innerText()).split('\n')[0]).toBe(`${plain} €`);
    await controls.getByLabel('Currency prefix or suffix').click();
    await page.getByRole('option', { name: 'Prefix', exact: true }).click();
    await rendered(page);
    page.off('request', count);
    expect(queried).toBe(0);
    await screenshot(page, 'explore-currency-format');

    await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save chart' });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Chart [Births, in euros] has been overwritten').waitFor();
    const params = JSON.parse((await rest('get', `/api/v1/chart/${id}`)).body.result.params);
    expect(params.currency_format).toEqual({ symbolPosition: 'prefix', symbol: 'EUR' });
  });

  it("the mixed chart's 'Advanced analytics Query B' shifts only query B: B's answer joins last year's series, A's is untouched", { timeout: 120_000 }, async () => {
    const id = await saveChart('Births, mixed', { viz_type: 'mixed_timeseries', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], groupby: [], metrics_b: ['count'], groupby_b: [], adhoc_filters_b: [], seriesType: 'line', seriesTypeB: 'bar', yAxisIndexB: 1, row_limit: 1000 });
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    await controls.getByRole('button', { name: 'Advanced analytics Query A' }).waitFor();
    await controls.getByRole('button', { name: 'Advanced analytics Query B' }).click();
    await controls.getByLabel('Time shift').click();
    await page.getByRole('option', { name: '1 year ago', exact: true }).click();
    await page.keyboard.press('Escape');
    const answered = page.waitForResponse((res) => res.url().includes('/api/v1/chart/data') && res.request().method() === 'POST');
    await page.getByRole('button', { name: 'Update chart' }).click();
    const [a, b] = (await answered).request().postDataJSON().queries;
    expect([a.time_offsets, b.time_offsets]).toEqual([[], ['1 year ago']]);
    expect(a.post_processing).toEqual([]);
    expect(b.post_processing.map((o: { operation: string }) => o.operation)).toEqual(['pivot', 'flatten']);
    const answer = await (await answered).json();
    expect(answer.result[1].colnames).toEqual(['ds', 'count', 'count__1 year ago']);
    await rendered(page);
    await expect.poll(async () => (await seriesOf(page)).length).toBe(3);
    await screenshot(page, 'explore-mixed-time-shift-b');
  });

  it("Superset's remaining options: the mixed chart names each series' query and orders B's its own way, the legend below and zoom on; the pie leaves labels off slices under 'Percentage threshold'; all drawn again without a new query", { timeout: 180_000 }, async () => {
    const id = await saveChart('Births by gender, mixed', { viz_type: 'mixed_timeseries', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], groupby: ['gender'], metrics_b: ['count'], groupby_b: ['gender'], adhoc_filters_b: [], seriesType: 'line', seriesTypeB: 'bar', yAxisIndexB: 1, row_limit: 1000 });
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    const before = await seriesOf(page);
    expect(before).toHaveLength(4);
    let queried = 0;
    const count = (req: import('playwright-core').Request) => void (req.url().includes('/api/v1/chart/data') && queried++);
    page.on('request', count);
    await page.getByRole('tab', { name: 'Customize' }).click();
    await controls.getByText('Show query identifiers', { exact: true }).click();
    // Query B's own order: by name, ascending (A's stays the largest total first).
    await controls.getByLabel('Sort Series By').nth(1).click();
    await page.getByRole('option', { name: 'Category name', exact: true }).click();
    await controls.getByText('Sort Series Ascending', { exact: true }).nth(1).click();
    await controls.getByLabel('Orientation', { exact: true }).click();
    await page.getByRole('option', { name: 'Bottom', exact: true }).click();
    await controls.getByText('Data Zoom', { exact: true }).click();
    await controls.getByText('Minor ticks', { exact: true }).click();
    await rendered(page);
    await expect.poll(() => seriesOf(page)).toEqual([
      expect.stringMatching(/ \(Query A\), (boy|girl)$/),
      expect.stringMatching(/ \(Query A\), (boy|girl)$/),
      expect.stringMatching(/ \(Query B\), boy$/),
      expect.stringMatching(/ \(Query B\), girl$/),
    ]);
    await screenshot(page, 'explore-mixed-query-identifiers');
    expect(queried).toBe(0);
    await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog', { name: 'Save chart' }).getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Chart [Births by gender, mixed] has been overwritten').waitFor();
    const params = JSON.parse((await rest('get', `/api/v1/chart/${id}`)).body.result.params);
    expect(params).toMatchObject({ show_query_identifiers: true, sort_series_typeB: 'name', sort_series_ascendingB: true, legendOrientation: 'bottom', zoomable: true, minorTicks: true });

    // A pie of births by state: at 5% (the default) the smaller states have no label; at 0 every slice has one.
    const pieId = await saveChart('Births by state, pie', { viz_type: 'pie', datasource: `${birthNames}__table`, groupby: ['state'], metric: 'sum__num', row_limit: 100, show_legend: false });
    await page.goto(`${t.url}/explore/?slice_id=${pieId}`);
    await rendered(page);
    queried = 0;
    await page.getByRole('tab', { name: 'Customize' }).click();
    await expect(controls.getByLabel('Percentage threshold').inputValue()).resolves.toBe('5');
    const chart = page.getByTestId('explore-chart');
    const atDefault = await chart.screenshot();
    await screenshot(page, 'explore-pie-threshold-5');
    await controls.getByLabel('Percentage threshold').fill('0');
    await rendered(page);
    await expect.poll(async () => (await chart.screenshot()).equals(atDefault)).toBe(false);
    await screenshot(page, 'explore-pie-threshold-0');
    await controls.getByLabel('Percentage threshold').fill('5');
    await expect.poll(async () => (await chart.screenshot()).equals(atDefault)).toBe(true);
    page.off('request', count);
    expect(queried).toBe(0);
  });

  it('filters with NOT LIKE and a TEMPORAL_RANGE picked in the time range popover inside the filter editor', { timeout: 120_000 }, async () => {
    const id = await saveChart('Births, filtered', { viz_type: 'echarts_timeseries_line', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], row_limit: 1000 });
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    const popover = page.getByRole('dialog').first();
    const addFilter = async (column: string, operator: string) => {
      await controls.getByRole('button', { name: 'Add filter' }).click();
      await popover.getByLabel('Column').click();
      await page.getByRole('option', { name: column, exact: true }).click();
      await popover.getByLabel('Operator').click();
      await page.getByRole('option', { name: operator, exact: true }).click();
    };
    await addFilter('name', 'Not like');
    await popover.getByLabel('Value').fill('A%');
    await popover.getByRole('button', { name: 'Save', exact: true }).click();
    await controls.getByText('name NOT LIKE A%').waitFor();

    // The time range popover opens inside the filter editor, which stays open while a range is picked in it.
    await addFilter('ds', 'TEMPORAL_RANGE');
    await popover.getByRole('button', { name: 'Time range' }).click();
    await popover.getByText('Advanced', { exact: true }).click();
    await popover.getByLabel('START (INCLUSIVE)').fill('2000-01-01');
    await popover.getByLabel('END (EXCLUSIVE)').fill('2005-01-01');
    await screenshot(page, 'explore-filter-temporal-range');
    await popover.getByRole('button', { name: 'Apply' }).click();
    await popover.getByRole('button', { name: 'Save', exact: true }).click();
    await controls.getByText('ds TEMPORAL_RANGE (2000-01-01 : 2005-01-01)').waitFor();

    const answered = page.waitForResponse((res) => res.url().includes('/api/v1/chart/data') && res.request().method() === 'POST');
    await page.getByRole('button', { name: 'Update chart' }).click();
    const filters = (await answered).request().postDataJSON().queries[0].adhoc_filters;
    expect(filters).toEqual([
      { expressionType: 'SIMPLE', clause: 'WHERE', subject: 'name', operator: 'NOT LIKE', comparator: 'A%' },
      { expressionType: 'SIMPLE', clause: 'WHERE', subject: 'ds', operator: 'TEMPORAL_RANGE', comparator: '2000-01-01 : 2005-01-01' },
    ]);
    const years = ((await (await answered).json()).result[0].data as Array<{ ds: number }>).map((r) => new Date(r.ds).getUTCFullYear());
    expect(years.length).toBeGreaterThan(0);
    expect(years.every((y) => y >= 2000 && y < 2005)).toBe(true);
    await rendered(page);
    await screenshot(page, 'explore-filter-operators');
  });

  it('swapping the dataset of a chart with a SQL metric keeps the expression and warns about it above the controls', { timeout: 120_000 }, async () => {
    const sqlMetric = { expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 'rows' };
    const id = await saveChart('Rows by gender', { viz_type: 'pie', datasource: `${birthNames}__table`, groupby: ['gender'], metric: sqlMetric });
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    await expect(page.getByTestId('datasource-warning').count()).resolves.toBe(0);
    const other = (await rest('get', '/api/v1/dataset/?q=(columns:!(table_name),page_size:100)')).body.result.map((d: { table_name: string }) => d.table_name).find((n: string) => n !== 'birth_names');
    await page.getByRole('button', { name: 'Dataset actions' }).click();
    await page.getByRole('menuitem', { name: 'Swap dataset' }).click();
    await page.getByLabel('Search datasets').fill(other);
    await page.getByRole('dialog', { name: 'Swap dataset' }).getByText(other, { exact: true }).click();
    await page.getByRole('region', { name: 'Dataset' }).getByText(other).waitFor();
    const warning = page.getByTestId('datasource-warning');
    await warning.getByText(SQL_ADHOC_KEPT_WARNING).waitFor();
    await screenshot(page, 'explore-datasource-warning');
    await warning.getByRole('button', { name: 'Dismiss warning' }).click();
    await warning.waitFor({ state: 'detached' });
  });
});
