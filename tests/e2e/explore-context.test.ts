import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { layoutOfRows, positionFromLayout } from '../../contracts/src/dashboard/layout-reducer';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureTestExamples } from '../helpers/examples';
import { supersetChartZip } from '../helpers/superset-export';
import { afterFailure, ensureClientBuilt, launchBrowser, screenshot, signedInPage } from './browser';

const NO_RESULTS = 'No results were returned for this query';
const exploreChart = (page: Page) => page.locator('[data-testid="explore-chart"]');
const rendered = (page: Page) => page.locator('[data-testid="explore-chart"][data-chart-state="rendered"]').waitFor();
const nobody = [{ expressionType: 'SIMPLE', clause: 'WHERE', subject: 'gender', operator: '==', comparator: 'nobody' }];

/** How many pixels of a canvas under `scope` are of the colour `hex` (no canvas yet counts none). */
const pixels = (page: Page, scope: string, hex: string) =>
  page.evaluate(
    ([selector, rgb]) => {
      const canvas = document.querySelector<HTMLCanvasElement>(`${selector} canvas`);
      if (!canvas) return 0;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - rgb[0]!) < 8 && Math.abs(data[i + 1]! - rgb[1]!) < 8 && Math.abs(data[i + 2]! - rgb[2]!) < 8 && data[i + 3]! > 200) n++;
      return n;
    },
    [scope, [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))] as const,
  );

// Explore's empty answers, data panes, dashboard context and a chart imported from Superset's own export, in Chromium.
describe('Explore: no results, data panes, dashboard context, Superset chart import', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let admin: string;
  let birthNames: number;

  const rest = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown) => {
    const req = t.http[method](path).set('Authorization', `Bearer ${admin}`);
    return body === undefined ? req : req.send(body as object);
  };
  const createChart = async (name: string, params: Record<string, unknown>) =>
    (await rest('post', '/api/v1/chart/', { slice_name: name, viz_type: params.viz_type, datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify({ datasource: `${birthNames}__table`, ...params }) })).body.id as number;

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-explore-context-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 200 });
    await ensureExampleDatasets(t.services);
    birthNames = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    browser = await launchBrowser();
    page = await signedInPage(browser, t.url, { width: 1440, height: 900 }, { acceptDownloads: true });
  });
  afterEach((ctx) => afterFailure(page, 'explore-context', ctx.task));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows 'No results were returned for this query' for any chart type whose filter matches nothing, in Explore and on a dashboard; a big number total reads 'No data'", { timeout: 120_000 }, async () => {
    const pie = await createChart('Nobody pie', { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', adhoc_filters: nobody });
    const line = await createChart('Nobody line', { viz_type: 'echarts_timeseries_line', x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], groupby: [], adhoc_filters: nobody });
    const total = await createChart('Nobody total', { viz_type: 'big_number_total', metric: 'sum__num', adhoc_filters: nobody });
    for (const id of [pie, line]) {
      await page.goto(`${t.url}/explore/?slice_id=${id}`);
      // An empty answer is a success: drawn (rendered) as the message, with Explore's hint on the controls.
      await rendered(page);
      await exploreChart(page).getByText(NO_RESULTS).waitFor();
      await exploreChart(page).getByText('Make sure that the controls are configured properly').waitFor();
      expect(await exploreChart(page).locator('canvas').count()).toBe(0);
    }
    await screenshot(page, 'explore-no-results-line');
    await page.goto(`${t.url}/explore/?slice_id=${total}`);
    await rendered(page);
    await exploreChart(page).getByText('No data', { exact: true }).waitFor();
    expect(await exploreChart(page).getByText(NO_RESULTS).count()).toBe(0);

    const position = positionFromLayout(layoutOfRows('Nobody', [[{ chartId: pie, width: 4 }, { chartId: line, width: 4 }, { chartId: total, width: 4 }]]));
    const dashboard = (await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Nobody', position_json: JSON.stringify(position) })).body.id;
    await page.goto(`${t.url}/superset/dashboard/${dashboard}/`);
    await expect.poll(() => page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').count(), { timeout: 30_000 }).toBe(3);
    for (const id of [pie, line]) await page.locator(`[data-testid="dashboard-chart"][data-chart-id="${id}"]`).getByText(NO_RESULTS).waitFor();
    // On a dashboard, no Explore hint.
    expect(await page.getByText('Make sure that the controls are configured properly').count()).toBe(0);
    await page.locator(`[data-testid="dashboard-chart"][data-chart-id="${total}"]`).getByText('No data', { exact: true }).waitFor();
    await screenshot(page, 'dashboard-no-results');
  });

  it('shows every row of Results and Samples in a virtualised grid, with the row count, copy and a CSV download', { timeout: 120_000 }, async () => {
    const id = await createChart('Raw names', { viz_type: 'table', query_mode: 'raw', all_columns: ['ds', 'name', 'state', 'num'], row_limit: 2000, order_by_cols: [] });
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    for (const [pane, count] of [['Results', 2000], ['Samples', 1000]] as const) {
      await page.getByRole('tab', { name: pane }).click();
      const panel = page.getByRole('tabpanel', { name: pane });
      await expect.poll(() => panel.getByTestId('rows-count').textContent()).toBe(`${count.toLocaleString('en-US')} rows`);
      const grid = panel.getByTestId('results-grid');
      await expect(grid.getAttribute('aria-rowcount')).resolves.toBe(String(count));
      // Virtualised: only the rows near the viewport are in the page; the last one comes with scrolling.
      expect(await grid.locator('[role="row"][aria-rowindex]').count()).toBeLessThan(100);
      await grid.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await grid.locator(`[role="row"][aria-rowindex="${count}"]`).waitFor();
      // The date-time reading of a temporal column, as before.
      const heads = await grid.getByRole('columnheader').allTextContents();
      const ds = await grid.locator(`[role="row"][aria-rowindex="${count}"] [role="gridcell"]`).nth(heads.indexOf('ds')).textContent();
      expect(ds).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      await screenshot(page, `explore-${pane.toLowerCase()}-virtual`);
      const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download as CSV' }).click()]);
      expect(download.suggestedFilename()).toBe(`${pane.toLowerCase()}.csv`);
      const csv = readFileSync((await download.path())!, 'utf8').trim().split('\n');
      expect(csv).toHaveLength(count + 1);
      expect(csv[0]!.split(',')).toEqual(heads);
      expect(csv[count]!.split(',')[heads.indexOf('ds')]).toBe(ds);
    }
  });

  it("opens a dashboard's chart in Explore with dashboard_id (title and 'Edit chart'), drawn in the dashboard's colours", { timeout: 120_000 }, async () => {
    const pie = await createChart('Genders in the dashboard colours', { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', color_scheme: 'supersetColors' });
    const position = positionFromLayout(layoutOfRows('Context', [[{ chartId: pie, width: 6 }]]));
    const metadata = { color_scheme: 'd3Category10', label_colors: { boy: '#ff0000' }, shared_label_colors: { girl: '#00aa00' } };
    const dashboard = (await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Context', position_json: JSON.stringify(position), json_metadata: JSON.stringify(metadata) })).body.id;
    await page.goto(`${t.url}/superset/dashboard/${dashboard}/`);
    const cell = page.locator(`[data-testid="dashboard-chart"][data-chart-id="${pie}"]`);
    await page.locator(`[data-testid="dashboard-chart"][data-chart-id="${pie}"][data-chart-state="rendered"]`).waitFor();
    await cell.getByTestId('chart-menu').click();
    const edit = page.getByRole('menuitem', { name: 'Edit chart' });
    expect(new URL((await edit.getAttribute('href'))!, t.url).searchParams.get('dashboard_id')).toBe(String(dashboard));
    await page.keyboard.press('Escape');
    await cell.getByRole('link', { name: 'Genders in the dashboard colours' }).click();
    await page.waitForURL(/\/explore\//);
    expect(new URL(page.url()).searchParams.get('dashboard_id')).toBe(String(dashboard));
    await rendered(page);
    // label_colors' boy in red and shared_label_colors' girl in green, as on the dashboard.
    await expect.poll(() => pixels(page, '[data-testid="explore-chart"]', '#ff0000'), { timeout: 15_000 }).toBeGreaterThan(500);
    await expect.poll(() => pixels(page, '[data-testid="explore-chart"]', '#00aa00'), { timeout: 15_000 }).toBeGreaterThan(500);
    // Its colour scheme control shows the dashboard's scheme, locked, with Superset's note.
    await page.getByRole('tab', { name: 'Customize' }).click();
    const scheme = page.getByLabel('Color scheme', { exact: true });
    await expect(scheme.inputValue()).resolves.toBe('D3 Category 10');
    expect(await scheme.isDisabled()).toBe(true);
    await page.getByText('The color scheme is determined by the related dashboard. Edit the color scheme in the dashboard properties.').waitFor();
    await screenshot(page, 'explore-dashboard-context');

    // Opened on its own, the chart keeps its own colours (Superset Colors' first two), its scheme open to change.
    await page.goto(`${t.url}/explore/?slice_id=${pie}`);
    await rendered(page);
    await page.getByRole('tab', { name: 'Customize' }).click();
    await expect(page.getByLabel('Color scheme', { exact: true }).inputValue()).resolves.toBe('Superset Colors');
    expect(await page.getByLabel('Color scheme', { exact: true }).isDisabled()).toBe(false);
    await expect.poll(async () => (await pixels(page, '[data-testid="explore-chart"]', '#1fa8c9')) + (await pixels(page, '[data-testid="explore-chart"]', '#454e7c')), { timeout: 15_000 }).toBeGreaterThan(500);
    expect(await pixels(page, '[data-testid="explore-chart"]', '#ff0000')).toBe(0);
  });

  it("imports a chart exported in Superset's own format (type Slice) and draws it in Explore", { timeout: 120_000 }, async () => {
    const answer = await t.http.post('/api/v1/chart/import/').set('Authorization', `Bearer ${admin}`).attach('formData', supersetChartZip(), 'chart_export_20240917T140233.zip');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const found = (await rest('get', '/api/v1/chart/?q=(filters:!((col:slice_name,opr:eq,value:%27Births per year by gender%27)))')).body.result;
    expect(found).toHaveLength(1);
    const chart = (await rest('get', `/api/v1/chart/${found[0].id}`)).body.result;
    expect(chart).toMatchObject({ uuid: '6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0', viz_type: 'echarts_timeseries_line', description: 'Births of the examples, per year, girls and boys apart' });
    // The exporting instance's ids are remapped: the chart reads the imported dataset.
    const params = JSON.parse(chart.params);
    expect(params.datasource).not.toBe('21__table');
    await page.goto(`${t.url}/explore/?slice_id=${found[0].id}`);
    await rendered(page);
    await expect.poll(() => exploreChart(page).locator('canvas').count()).toBeGreaterThan(0);
    await expect(page.getByLabel('Chart name').inputValue()).resolves.toBe('Births per year by gender');
    await screenshot(page, 'explore-imported-superset-chart');
  });
});
