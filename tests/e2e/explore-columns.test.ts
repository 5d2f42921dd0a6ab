import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowCountText } from '../../client/src/components/row-count';
import { layoutOfRows, positionFromLayout } from '../../contracts/src/dashboard/layout-reducer';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureTestExamples } from '../helpers/examples';
import { afterFailure, ensureClientBuilt, launchBrowser, screenshot, signedInPage } from './browser';

const rendered = (page: Page) => page.locator('[data-testid="explore-chart"][data-chart-state="rendered"]').waitFor();

/** The text and computed alignment of each drawn cell of the table's nth column (1-based). */
const cellsOf = (page: Page, nth: number) =>
  page.locator(`[data-testid="explore-chart"] [data-testid="table-chart"] tbody tr td:nth-child(${nth})`).evaluateAll((tds) => tds.map((td) => ({ text: td.textContent ?? '', align: getComputedStyle(td).textAlign })));
/** Records the queries and the answer of each chart data request the page makes, until `stop`. */
const recordChartData = (page: Page) => {
  const answers: Array<{ queries: any[]; result: any[] }> = [];
  const onResponse = async (res: Response) => {
    if (new URL(res.url()).pathname !== '/api/v1/chart/data') return;
    answers.push({ queries: JSON.parse(res.request().postData() ?? '{}').queries, result: (await res.json().catch(() => ({}))).result ?? [] });
  };
  page.on('response', onResponse);
  return { answers, stop: () => page.off('response', onResponse) };
};
const headersOf = (page: Page) => page.locator('[data-testid="explore-chart"] [data-testid="table-chart"] thead th').allTextContents();

// The table's 'Customize columns' (column_config), in a real Chromium on the examples data.
describe('Explore: customize columns of a table', () => {
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

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-columns-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    birthNames = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    browser = await launchBrowser();
    page = await signedInPage(browser, t.url, { width: 1440, height: 900 });
  });
  afterEach((ctx) => afterFailure(page, 'columns', ctx.task));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a metric's number format and alignment set in Customize columns redraw its cells, and stay when the metric is renamed", { timeout: 120_000 }, async () => {
    const metric = { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'SUM', label: 'SUM(num)', hasCustomLabel: false };
    const params = { viz_type: 'table', datasource: `${birthNames}__table`, query_mode: 'aggregate', groupby: ['gender'], metrics: [metric], row_limit: 100 };
    const id = (await rest('post', '/api/v1/chart/', { slice_name: 'Births by gender (table)', viz_type: 'table', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) })).body.id as number;
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const before = await cellsOf(page, 2);
    expect(before.length).toBeGreaterThan(0);
    // Adaptive formatting, right-aligned as every number.
    expect(before.every((c) => /^[\d.]+[kMB]?$/.test(c.text) && c.align === 'right'), JSON.stringify(before)).toBe(true);

    const dataCalls: string[] = [];
    page.on('request', (req) => void (new URL(req.url()).pathname === '/api/v1/chart/data' && dataCalls.push(req.url())));
    const controls = page.getByRole('region', { name: 'Chart controls' });
    await page.getByRole('tab', { name: 'Customize' }).click();
    await controls.getByText('Customize columns', { exact: true }).waitFor();
    await controls.getByRole('button', { name: 'Customize gender' }).waitFor();
    await controls.getByRole('button', { name: 'Customize SUM(num)' }).click();
    const popover = page.getByLabel('SUM(num) settings');
    await popover.getByLabel('D3 format').click();
    await page.getByRole('option', { name: ',d (12345.432 => 12,345)' }).click();
    await popover.locator('label', { hasText: 'Center' }).click();
    // Redrawn from the last answer (a render trigger): whole numbers with thousands separators, centred.
    await expect.poll(() => cellsOf(page, 2)).toEqual(before.map((c) => ({ text: expect.stringMatching(/^\d{1,3}(,\d{3})+$/), align: 'center' })));
    expect(dataCalls).toEqual([]);
    // The group-by keeps its own (left) alignment.
    expect((await cellsOf(page, 1)).every((c) => c.align === 'left')).toBe(true);
    await screenshot(page, 'explore-table-customize-columns');
    const formatted = (await cellsOf(page, 2)).map((c) => c.text);
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'hidden' });

    // The metric renamed in the metrics control: its settings move to the new label, and the next answer is drawn with them.
    await page.getByRole('tab', { name: 'Data' }).click();
    await controls.getByText('SUM(num)', { exact: true }).click();
    const editor = page.getByRole('dialog');
    await editor.getByLabel('Label').fill('Total');
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Update chart' }).click();
    await expect.poll(() => headersOf(page)).toEqual(['gender', 'Total']);
    await rendered(page);
    await expect.poll(() => cellsOf(page, 2)).toEqual(formatted.map((text) => ({ text, align: 'center' })));
    await page.getByRole('tab', { name: 'Customize' }).click();
    await controls.getByRole('button', { name: 'Customize Total' }).waitFor();
    await expect(controls.getByRole('button', { name: 'Customize SUM(num)' }).count()).resolves.toBe(0);
    await screenshot(page, 'explore-table-customize-renamed');
  });

  it("Superset's table, pivot and big number options: pivot sorted by value with conditional colours, the table's summary row, a coloured big number, a trendline's timestamp; light and dark", { timeout: 180_000 }, async () => {
    const open = async (name: string, params: Record<string, unknown>) => {
      const full = { datasource: `${birthNames}__table`, ...params };
      const id = (await rest('post', '/api/v1/chart/', { slice_name: name, viz_type: params.viz_type, datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(full) })).body.id as number;
      await page.goto(`${t.url}/explore/?slice_id=${id}`);
      await rendered(page);
    };
    const chart = page.locator('[data-testid="explore-chart"]');
    const controls = page.getByRole('region', { name: 'Chart controls' });
    const setScheme = async (scheme: 'light' | 'dark') => {
      await page.evaluate((s) => localStorage.setItem('meridian-color-scheme', s), scheme);
      await page.reload();
      await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
      await rendered(page);
    };

    // Pivot: states by their total births, largest first (Sort rows by: value descending), girls' and boys' columns
    // under the metric, cells of at least a million births coloured.
    await open('Pivot by value', {
      viz_type: 'pivot_table_v2', groupbyRows: ['state'], groupbyColumns: ['gender'], metrics: ['sum__num'], rowTotals: true, colTotals: true, rowOrder: 'value_z_to_a',
      conditional_formatting: [{ column: 'sum__num', operator: '≥', targetValue: 1000000, colorScheme: '#5AC189' }], valueFormat: ',d',
    });
    const totals = await chart.locator('[data-testid="pivot-table"] tbody tr').evaluateAll((trs) => trs.map((tr) => Number((tr.querySelector('td:last-child')?.textContent ?? '').replace(/,/g, ''))));
    // Descending by each row's total, the 'Total' row last.
    const body = totals.slice(0, -1);
    expect(body).toEqual([...body].sort((a, b) => b - a));
    const coloured = await chart.locator('[data-testid="pivot-table"] tbody td').evaluateAll((tds) => tds.filter((td) => (td as HTMLElement).style.backgroundColor).length);
    expect(coloured).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'Customize' }).click();
    for (const label of ['Sort rows by', 'Sort columns by', 'Rows subtotal position', 'Columns subtotal position', 'Conditional formatting']) await controls.getByText(label, { exact: true }).waitFor();
    await screenshot(page, 'explore-pivot-parity-light');
    await setScheme('dark');
    await screenshot(page, 'explore-pivot-parity-dark');
    await setScheme('light');

    // A temporal row column is queried at 'Time grain' (the dataset's temporal columns looked up when Explore opens).
    const bodies: string[] = [];
    const onRequest = (req: { url: () => string; postData: () => string | null }) => void (new URL(req.url()).pathname === '/api/v1/chart/data' && bodies.push(req.postData() ?? ''));
    page.on('request', onRequest);
    await open('Pivot by year', { viz_type: 'pivot_table_v2', groupbyRows: ['ds'], groupbyColumns: ['gender'], metrics: ['sum__num'], time_grain_sqla: 'P1Y', date_format: '%Y' });
    page.off('request', onRequest);
    expect(bodies.map((b) => JSON.parse(b).queries[0].columns[0])).toContainEqual(expect.objectContaining({ columnType: 'BASE_AXIS', timeGrain: 'P1Y', sqlExpression: 'ds' }));
    const years = await chart.locator('[data-testid="pivot-table"] tbody tr th:first-child').allTextContents();
    expect(years.length).toBeGreaterThan(0);
    expect(years.every((y) => /^\d{4}$/.test(y)), JSON.stringify(years)).toBe(true);
    await controls.getByText('Time grain', { exact: true }).waitFor();

    // Table: 'Show summary' (show_totals) draws the summary row below the rows, the metric's total over every row kept.
    // 'Allow columns to be rearranged': a header dragged onto another takes its place, the summary row with it.
    await open('Table with totals', { viz_type: 'table', query_mode: 'aggregate', groupby: ['gender'], metrics: ['sum__num'], show_totals: true, allow_rearrange_columns: true, row_limit: 100 });
    const summary = chart.locator('[data-testid="table-totals"] td');
    await expect.poll(() => summary.allTextContents()).toEqual(['Summary', expect.stringMatching(/^[\d.]+[kMB]?$/)]);
    const total = (await summary.allTextContents())[1];
    await screenshot(page, 'explore-table-totals-light');
    await chart.locator('thead th', { hasText: 'gender' }).dragTo(chart.locator('thead th', { hasText: 'Births' }));
    await expect.poll(() => headersOf(page)).toEqual(['Births', 'gender']);
    // 'Summary' stays with the chart's first column (Superset's footer travels with its column); the metric keeps its total.
    await expect.poll(() => summary.allTextContents()).toEqual([total, 'Summary']);
    expect((await cellsOf(page, 2)).map((c) => c.text).sort()).toEqual(['boy', 'girl']);
    await screenshot(page, 'explore-table-totals-dragged');
    await page.getByRole('tab', { name: 'Customize' }).click();
    for (const label of ['Allow columns to be rearranged', 'Visual formatting', 'Show Cell bars', 'Align +/-', 'Custom Conditional Formatting']) await controls.getByText(label, { exact: true }).waitFor();
    // The lazily loaded controls drawn before the picture.
    await controls.getByRole('button', { name: 'Add new color formatter' }).waitFor();
    await controls.getByRole('button', { name: 'Customize gender' }).waitFor();
    await screenshot(page, 'explore-table-visual-formatting');
    await setScheme('dark');
    await screenshot(page, 'explore-table-totals-dark');
    await setScheme('light');

    // Metrics only: the first metric's cell names the row, as Superset's footer does; the other metric gives its total.
    await open('Totals of metrics only', { viz_type: 'table', query_mode: 'aggregate', groupby: [], metrics: ['sum__num', 'count'], show_totals: true, row_limit: 100 });
    await expect.poll(() => summary.allTextContents()).toEqual(['Summary', expect.stringMatching(/^[\d.]+[kMB]?$/)]);
    await screenshot(page, 'explore-table-totals-metrics-only');

    // 'Page length' 10 with the reader's 'Show N entries' beside the search box: 20 picked, 20 rows a page.
    await open('Names paged', { viz_type: 'table', query_mode: 'aggregate', groupby: ['name'], metrics: ['sum__num'], page_length: 10, include_search: true, row_limit: 100 });
    const bodyRows = () => chart.locator('[data-testid="table-chart"] tbody tr:not([aria-hidden])').count();
    await expect.poll(bodyRows).toBe(10);
    await chart.getByLabel('Page size').selectOption('20');
    await expect.poll(bodyRows).toBe(20);
    await screenshot(page, 'explore-table-page-size');

    // big_number_total coloured by its conditional formatting; big_number with its latest period's time shown.
    await open('Coloured total', { viz_type: 'big_number_total', metric: 'sum__num', subheader: 'births', conditional_formatting: [{ column: 'sum__num', operator: '>', targetValue: 0, colorScheme: '#E04355' }] });
    const colour = await chart.locator('[data-testid="big-number"]').getByText(/\d/).first().evaluate((el) => getComputedStyle(el).color);
    expect(colour).toBe('rgb(224, 67, 85)');
    await screenshot(page, 'explore-big-number-total-coloured');
    // With a 3-year rolling mean in 'Fixed Color' red: the answer comes rolled (the first two periods have no mean).
    await open('Trend with timestamp', {
      viz_type: 'big_number', x_axis: 'ds', time_grain_sqla: 'P1Y', metric: 'sum__num', show_timestamp: true, time_format: '%Y', compare_lag: 1, compare_suffix: 'YoY',
      color_picker: { r: 224, g: 67, b: 85, a: 1 }, rolling_type: 'mean', rolling_periods: 3, min_periods: 3,
    });
    await expect.poll(() => chart.locator('[data-testid="big-number-timestamp"]').textContent()).toMatch(/^\d{4}$/);
    await page.getByRole('tab', { name: 'Customize' }).click();
    await expect.poll(() => controls.getByLabel('Fixed Color').inputValue()).toBe('rgba(224, 67, 85, 1)');
    await screenshot(page, 'explore-big-number-timestamp-light');
    await setScheme('dark');
    await screenshot(page, 'explore-big-number-timestamp-dark');
    await setScheme('light');
  });

  it("'Server pagination': the table asks the server for one page and its total, and a page, a page size or a sorted header asks again", { timeout: 120_000 }, async () => {
    const params = { viz_type: 'table', datasource: `${birthNames}__table`, query_mode: 'aggregate', groupby: ['name'], metrics: ['sum__num'], server_pagination: true, server_page_length: 10, row_limit: 1000, show_totals: true };
    const id = (await rest('post', '/api/v1/chart/', { slice_name: 'Names, server paged', viz_type: 'table', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) })).body.id as number;
    const { answers, stop } = recordChartData(page);
    const chart = page.locator('[data-testid="explore-chart"]');
    const names = () => cellsOf(page, 1).then((cells) => cells.map((c) => c.text));
    try {
      await page.goto(`${t.url}/explore/?slice_id=${id}`);
      await rendered(page);
      await expect.poll(() => answers.length).toBeGreaterThan(0);
      // One page of ten, its total from the is_rowcount query, the summary from the third.
      const [first] = answers;
      expect(first!.queries.map((q) => [q.row_limit, q.row_offset, !!q.is_rowcount])).toEqual([[10, 0, false], [1000, 0, true], [0, 0, false]]);
      const total = first!.result[1].data[0].rowcount as number;
      expect(total).toBeGreaterThan(20);
      const pages = Math.ceil(total / 10);
      await expect.poll(names).toHaveLength(10);
      const firstPage = await names();
      // The pager counts the pages of the total, not of the ten rows drawn.
      await chart.getByRole('button', { name: String(pages), exact: true }).waitFor();
      await expect.poll(() => chart.locator('[data-testid="table-totals"] td').first().textContent()).toBe('Summary');
      await screenshot(page, 'explore-table-server-pagination');

      // Page 2: rows 11 to 20 asked for.
      await chart.getByRole('button', { name: '2', exact: true }).click();
      await expect.poll(() => answers.at(-1)?.queries[0]).toMatchObject({ row_offset: 10, row_limit: 10 });
      await rendered(page);
      await expect.poll(names).toHaveLength(10);
      const secondPage = await names();
      expect(secondPage.filter((n) => firstPage.includes(n))).toEqual([]);

      // 'Show 20 entries': the first page of twenty.
      await chart.getByLabel('Page size').selectOption('20');
      await expect.poll(() => answers.at(-1)?.queries[0]).toMatchObject({ row_offset: 0, row_limit: 20 });
      await rendered(page);
      await expect.poll(names).toHaveLength(20);
      await chart.getByRole('button', { name: String(Math.ceil(total / 20)), exact: true }).waitFor();

      // A click on the 'name' header orders the rows on the server: the names first in the alphabet over all rows.
      await chart.locator('thead th', { hasText: 'name' }).click();
      await expect.poll(() => answers.at(-1)?.queries[0]?.orderby).toEqual([['name', true]]);
      await rendered(page);
      const sorted = await names();
      expect(sorted).toHaveLength(20);
      // In code-point order, as the database compares text.
      expect(sorted).toEqual([...sorted].sort());
      expect(answers.at(-1)!.queries[0]).toMatchObject({ row_offset: 0, row_limit: 20 });
      await screenshot(page, 'explore-table-server-pagination-sorted');

      // On a dashboard: the cell asks for its page, and page 2 asks again.
      const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Server paged', position_json: JSON.stringify(positionFromLayout(layoutOfRows('Server paged', [[{ chartId: id, sliceName: 'Names, server paged' }]]))) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      answers.length = 0;
      await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
      const cell = page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]');
      await cell.waitFor();
      const cellNames = () => cell.locator('[data-testid="table-chart"] tbody tr:not([aria-hidden]) td:first-child').allTextContents();
      await expect.poll(cellNames).toHaveLength(10);
      const dashboardFirst = await cellNames();
      expect(dashboardFirst).toEqual(firstPage);
      await cell.getByRole('button', { name: '2', exact: true }).click();
      await expect.poll(() => answers.at(-1)?.queries[0]).toMatchObject({ row_offset: 10, row_limit: 10 });
      await expect.poll(cellNames).toEqual(secondPage);
      await screenshot(page, 'dashboard-table-server-pagination');
    } finally {
      stop();
    }
  });

  it("'Server pagination' with 'Search box': the server searches the 'Search by' column (ILIKE 'text%'), the pages and the row count follow; light and dark", { timeout: 150_000 }, async () => {
    const params = { viz_type: 'table', datasource: `${birthNames}__table`, query_mode: 'aggregate', groupby: ['gender', 'name'], metrics: ['sum__num'], server_pagination: true, server_page_length: 10, row_limit: 1000, include_search: true };
    const id = (await rest('post', '/api/v1/chart/', { slice_name: 'Names, searched on the server', viz_type: 'table', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) })).body.id as number;
    const { answers, stop } = recordChartData(page);
    const chart = page.locator('[data-testid="explore-chart"]');
    const status = () => page.getByTestId('chart-status').textContent();
    const names = () => cellsOf(page, 2).then((cells) => cells.map((c) => c.text));
    // Searches the names starting with 'j' and waits for the answer drawn; gives the count of the searched rows.
    const searchNames = async () => {
      await chart.getByLabel('Search by').selectOption('name');
      await chart.getByLabel('Search', { exact: true }).fill('j');
      await expect.poll(() => answers.at(-1)?.queries[0]?.filters).toEqual([{ col: 'name', op: 'ILIKE', val: 'j%' }]);
      await rendered(page);
      const last = answers.at(-1)!;
      // The count query is searched too, and starts again from the first page.
      expect(last.queries[1]).toMatchObject({ is_rowcount: true, filters: [{ col: 'name', op: 'ILIKE', val: 'j%' }] });
      expect(last.queries[0]).toMatchObject({ row_offset: 0, row_limit: 10 });
      return last.result[1].data[0].rowcount as number;
    };
    try {
      await page.goto(`${t.url}/explore/?slice_id=${id}`);
      await rendered(page);
      await expect.poll(() => answers.length).toBeGreaterThan(0);
      const total = answers[0]!.result[1].data[0].rowcount as number;
      expect(total).toBeGreaterThan(20);
      // The row count under the chart is the total of the is_rowcount query, not the ten rows of the page.
      await expect.poll(status).toContain(rowCountText(total));
      expect(await chart.getByLabel('Search', { exact: true }).getAttribute('placeholder')).toBe(`Search ${total} records`);
      // 'Search by' the text columns drawn, the first by default.
      expect(await chart.getByLabel('Search by').locator('option').allTextContents()).toEqual(['gender', 'name']);
      expect(await chart.getByLabel('Search by').inputValue()).toBe('gender');
      await chart.getByRole('button', { name: String(Math.ceil(total / 10)), exact: true }).waitFor();
      // Page 2 before the search: the search goes back to the first page.
      await chart.getByRole('button', { name: '2', exact: true }).click();
      await expect.poll(() => answers.at(-1)?.queries[0]).toMatchObject({ row_offset: 10 });
      await rendered(page);

      const found = await searchNames();
      expect(found).toBeGreaterThan(10);
      expect(found).toBeLessThan(total);
      const shown = await names();
      expect(shown).toHaveLength(10);
      // Whatever the case: 'J...' names.
      expect(shown.every((n) => n.toLowerCase().startsWith('j'))).toBe(true);
      await expect.poll(status).toContain(rowCountText(found));
      expect(await chart.getByLabel('Search', { exact: true }).getAttribute('placeholder')).toBe(`Search ${found} records`);
      // The pager counts the searched rows' pages.
      const pages = Math.ceil(found / 10);
      await chart.getByRole('button', { name: String(pages), exact: true }).waitFor();
      expect(await chart.getByRole('button', { name: String(Math.ceil(total / 10)), exact: true }).count()).toBe(0);
      await screenshot(page, 'explore-table-server-search-light');
      // Typing on once the answer is drawn: the box kept its text and the focus, and the server searches 'jo'.
      await page.keyboard.type('o');
      await expect.poll(() => answers.at(-1)?.queries[0]?.filters).toEqual([{ col: 'name', op: 'ILIKE', val: 'jo%' }]);
      await rendered(page);
      await expect.poll(async () => (await names()).every((n) => n.toLowerCase().startsWith('jo'))).toBe(true);
      expect(await chart.getByLabel('Search', { exact: true }).inputValue()).toBe('jo');

      await page.evaluate(() => localStorage.setItem('meridian-color-scheme', 'dark'));
      await page.reload();
      await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
      await rendered(page);
      expect(await searchNames()).toBe(found);
      await screenshot(page, 'explore-table-server-search-dark');
    } finally {
      stop();
      await page.evaluate(() => localStorage.setItem('meridian-color-scheme', 'light'));
    }
  });

  it("'Render columns in HTML format': HTML text cells drawn as HTML with scripts, handlers and javascript: links removed; off, as text", { timeout: 120_000 }, async () => {
    const examples = (await rest('get', `/api/v1/dataset/${birthNames}`)).body.result.database.id;
    const sql = `SELECT * FROM (VALUES
      (1, '<a href="https://example.com/" target="_blank">Example site</a>'),
      (2, '<span style="color: rgb(224, 67, 85)">red text</span>'),
      (3, '<div>kept</div><img src="x" onerror="window.__tableXss = 1"><script>window.__tableXss = 2</script>'),
      (4, '<a href="javascript:window.__tableXss = 3">bad link</a>'),
      (5, 'a < b and <b>not html</b>')
    ) AS cells(id, cell)`;
    const dataset = await rest('post', '/api/v1/dataset/', { database: examples, schema: 'main', table_name: 'html_cells', sql });
    expect(dataset.status, JSON.stringify(dataset.body)).toBe(201);
    const params = { viz_type: 'table', datasource: `${dataset.body.id}__table`, query_mode: 'raw', all_columns: ['id', 'cell'], order_by_cols: ['["id",true]'], row_limit: 10 };
    const id = (await rest('post', '/api/v1/chart/', { slice_name: 'HTML cells', viz_type: 'table', datasource_id: dataset.body.id, datasource_type: 'table', params: JSON.stringify(params) })).body.id as number;
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const cell = (n: number) => page.locator(`[data-testid="explore-chart"] [data-testid="table-chart"] tbody tr:nth-child(${n}) td:nth-child(2)`);
    await expect.poll(() => cell(1).locator('a').getAttribute('href')).toBe('https://example.com/');
    expect(await cell(1).locator('a').textContent()).toBe('Example site');
    expect(await cell(1).locator('a').getAttribute('rel')).toBe('noopener noreferrer');
    expect(await cell(2).locator('span span').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(224, 67, 85)');
    // Sanitized: the div stays; the image's handler and the script are gone, and none ran.
    expect(await cell(3).locator('div').textContent()).toBe('kept');
    expect(await cell(3).locator('script').count()).toBe(0);
    expect(await cell(3).locator('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('onerror')))).toEqual([null]);
    expect(await cell(4).locator('a').getAttribute('href')).toBeNull();
    expect(await cell(5).textContent()).toBe('a < b and <b>not html</b>');
    // The image has failed to load (its error event has come) and no handler set the mark.
    await cell(3).locator('img').evaluate((img: HTMLImageElement) => img.complete || new Promise((done) => img.addEventListener('error', done, { once: true })));
    expect(await page.evaluate(() => (window as unknown as { __tableXss?: number }).__tableXss)).toBeUndefined();
    await screenshot(page, 'explore-table-html-cells');

    // Off: every cell is its text.
    await page.getByRole('tab', { name: 'Customize' }).click();
    await page.getByRole('region', { name: 'Chart controls' }).getByRole('checkbox', { name: 'Render columns in HTML format' }).click();
    await expect.poll(() => cell(1).textContent()).toBe('<a href="https://example.com/" target="_blank">Example site</a>');
    expect(await cell(1).locator('a').count()).toBe(0);
    await screenshot(page, 'explore-table-html-off');
  });

  it("'Time Comparison': each metric as 'Main', '#', '△' and '%' under its name, from the shifted period's query", { timeout: 120_000 }, async () => {
    const params = { viz_type: 'table', datasource: `${birthNames}__table`, query_mode: 'aggregate', groupby: ['gender'], metrics: ['sum__num'], time_range: '2000-01-01 : 2001-01-01', time_compare: '1 year ago', comparison_type: 'values', show_totals: true, row_limit: 100 };
    const id = (await rest('post', '/api/v1/chart/', { slice_name: 'Births against a year before', viz_type: 'table', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) })).body.id as number;
    const { answers, stop } = recordChartData(page);
    try {
      await page.goto(`${t.url}/explore/?slice_id=${id}`);
      await rendered(page);
      await expect.poll(() => answers.length).toBeGreaterThan(0);
    } finally {
      stop();
    }
    const chart = page.locator('[data-testid="explore-chart"]');
    await expect.poll(() => chart.locator('[data-testid="table-group-headers"] th').allTextContents()).toEqual(['', 'Births']);
    expect(await chart.locator('[data-testid="table-chart"] thead tr:last-child th').allTextContents()).toEqual(['gender', 'Main', '#', '△', '%']);
    // The '%' cells are the change from the year before, as the answer's two values give it (three decimals, as Superset).
    const rows = answers[0]!.result[0].data as Array<Record<string, number | string>>;
    expect(rows.every((r) => typeof r['sum__num__1 year ago'] === 'number')).toBe(true);
    const change = (r: Record<string, number | string>) => `${(((Number(r.sum__num) - Number(r['sum__num__1 year ago'])) / Math.abs(Number(r['sum__num__1 year ago']))) * 100).toFixed(3)}%`;
    const genders = (await cellsOf(page, 1)).map((c) => c.text);
    const percents = (await cellsOf(page, 5)).map((c) => c.text.replace('\u2212', '-'));
    expect(percents).toEqual(genders.map((g) => change(rows.find((r) => r.gender === g)!)));
    await expect.poll(() => chart.locator('[data-testid="table-totals"] td').allTextContents()).toEqual(['Summary', expect.any(String), expect.any(String), expect.any(String), expect.stringMatching(/%$/)]);
    await screenshot(page, 'explore-table-time-comparison');
  });

  it("'Custom date' and 'Inherit range from time filter' shifts, the comparison columns menu, folded groups and basic conditional formatting (light and dark)", { timeout: 120_000 }, async () => {
    const params = { viz_type: 'table', datasource: `${birthNames}__table`, query_mode: 'aggregate', groupby: ['gender'], metrics: ['sum__num'], time_range: '2000-01-01 : 2001-01-01', time_compare: '1 year ago', comparison_type: 'values', comparison_color_enabled: true, row_limit: 100 };
    const id = (await rest('post', '/api/v1/chart/', { slice_name: 'Births against a custom date', viz_type: 'table', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) })).body.id as number;
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    const chart = page.locator('[data-testid="explore-chart"]');
    const lastHeaders = () => chart.locator('[data-testid="table-chart"] thead tr:last-child th').allTextContents();
    const run = async () => {
      const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/v1/chart/data' && res.request().method() === 'POST');
      await page.getByRole('button', { name: 'Update chart' }).click();
      const res = await answered;
      await rendered(page);
      return { request: res.request().postDataJSON(), answer: (await res.json()).result[0] };
    };

    // 'Custom date' asks for the start date, required; the server compares with the period from it.
    const section = controls.getByRole('button', { name: 'Time Comparison' });
    if ((await section.getAttribute('aria-expanded')) !== 'true') await section.click();
    await controls.getByLabel('Time shift').waitFor();
    await controls.getByLabel('Time shift').click();
    await page.getByRole('option', { name: 'Custom date', exact: true }).click();
    await controls.getByText('A date is required when using custom date shift').waitFor();
    await controls.getByLabel('Shift start date').fill('1999-01-01');
    const custom = await run();
    expect(custom.request.queries[0].time_offsets).toEqual(['1999-01-01']);
    expect(custom.answer.colnames).toEqual(['gender', 'sum__num', 'sum__num__1999-01-01']);
    await expect.poll(() => controls.getByTestId('comparison-time-range').textContent()).toBe('1999-01-01T00:00:00 ≤ col < 2000-01-02T00:00:00');
    const rows = custom.answer.data as Array<Record<string, number | string>>;
    // 1999-01-01 is 365 days before the range's start: the shifted range is 1999-01-01 to 2000-01-02 (2000 is a leap year).
    const shifted = (await rest('post', '/api/v1/chart/data', { datasource: { id: birthNames, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['sum__num'], filters: [{ col: 'ds', op: 'TEMPORAL_RANGE', val: '1999-01-01 : 2000-01-02' }] }], result_type: 'full' })).body.result[0].data as Array<Record<string, number | string>>;
    expect(rows.map((r) => [r.gender, r['sum__num__1999-01-01']]).sort()).toEqual(shifted.map((r) => [r.gender, r.sum__num]).sort());

    // 'Basic conditional formatting': the metric's cells tinted by its change, an arrow on 'Main' (green and up for a rise).
    const mains = await chart.locator('[data-testid="table-chart"] tbody tr td:nth-child(2)').evaluateAll((tds) => tds.map((td) => ({ text: td.textContent ?? '', background: getComputedStyle(td).backgroundColor })));
    const genders = (await cellsOf(page, 1)).map((c) => c.text);
    expect(mains).toEqual(genders.map((g) => {
      const r = rows.find((x) => x.gender === g)!;
      const up = Number(r.sum__num) > Number(r['sum__num__1999-01-01']);
      return { text: expect.stringMatching(up ? /^↑/ : /^↓/), background: up ? 'rgba(0, 150, 0, 0.2)' : 'rgba(150, 0, 0, 0.2)' };
    }));
    await screenshot(page, 'explore-table-time-comparison-custom-light');

    // 'color type' the other way: a fall is green, redrawn without a query.
    await page.getByRole('tab', { name: 'Customize' }).click();
    await controls.getByLabel('color type').click();
    await page.getByRole('option', { name: 'Red for increase, green for decrease', exact: true }).click();
    const flipped = mains.map((m) => (m.background === 'rgba(0, 150, 0, 0.2)' ? 'rgba(150, 0, 0, 0.2)' : 'rgba(0, 150, 0, 0.2)'));
    await expect.poll(() => chart.locator('[data-testid="table-chart"] tbody tr td:nth-child(2)').evaluateAll((tds) => tds.map((td) => getComputedStyle(td).backgroundColor))).toEqual(flipped);
    await controls.getByLabel('color type').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-table-time-comparison-colors-light');
    await page.getByRole('tab', { name: 'Data' }).click();

    // The menu shows '%' alone beside 'Main'; the group's minus icon folds the metric to 'Main', its plus icon unfolds it.
    await chart.getByTestId('table-comparison-menu').click();
    await page.getByRole('menuitem', { name: '%' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(lastHeaders).toEqual(['gender', 'Main', '%']);
    await chart.getByRole('button', { name: 'Hide Births comparison' }).click();
    await expect.poll(lastHeaders).toEqual(['gender', 'Main']);
    await chart.getByRole('button', { name: 'Show Births comparison' }).click();
    await expect.poll(lastHeaders).toEqual(['gender', 'Main', '%']);
    await chart.getByTestId('table-comparison-menu').click();
    await page.getByRole('menuitem', { name: 'Display all' }).click();
    await expect.poll(lastHeaders).toEqual(['gender', 'Main', '#', '△', '%']);
    await page.getByText('Select columns that will be displayed in the table. You can multiselect columns.').waitFor();
    await screenshot(page, 'explore-table-time-comparison-menu-light');
    await page.keyboard.press('Escape');

    // 'Inherit range from time filter': shifted by the range's length, named 'inherit'.
    await controls.getByLabel('Time shift').click();
    await page.getByRole('option', { name: 'Inherit range from time filter', exact: true }).click();
    const inherit = await run();
    expect(inherit.request.queries[0].time_offsets).toEqual(['inherit']);
    expect(inherit.answer.colnames).toEqual(['gender', 'sum__num', 'sum__num__inherit']);
    await expect.poll(() => controls.getByTestId('comparison-time-range').textContent()).toBe('1998-12-31T00:00:00 ≤ col < 2000-01-01T00:00:00');
    expect(inherit.answer.data.every((r: Record<string, unknown>) => typeof r.sum__num__inherit === 'number')).toBe(true);

    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await rendered(page);
    await controls.getByTestId('comparison-time-range').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-table-time-comparison-inherit-dark');
    await chart.getByTestId('table-comparison-menu').click();
    await page.getByText('Select columns that will be displayed in the table. You can multiselect columns.').waitFor();
    await screenshot(page, 'explore-table-time-comparison-menu-dark');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });
});
