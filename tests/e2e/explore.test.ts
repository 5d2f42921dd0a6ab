import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { SEEDED_ROLES } from '../../server/src/security/permission-matrix';
import { SecurityRepository } from '../../server/src/security/security.repository';
import { closeDialog, ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

const rendered = (page: Page) => page.locator('[data-testid="explore-chart"][data-chart-state="rendered"]').waitFor();

// Explore in a real Chromium, on the examples data: building, saving, reopening and overwriting charts.
describe('Explore in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;
  let admin: string;
  let birthNames: number;

  const rest = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown) => {
    const req = t.http[method](path).set('Authorization', `Bearer ${admin}`);
    return body === undefined ? req : req.send(body as object);
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-explore-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    birthNames = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await login(page, t.url);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await screenshot(page, `failed-explore-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    await closeDialog(page, 5_000).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds a pie from the dataset, saves it, reopens it from its address and overwrites it', { timeout: 120_000 }, async () => {
    await page.goto(`${t.url}/explore/?datasource_id=${birthNames}&datasource_type=table&viz_type=pie`);
    await page.getByRole('region', { name: 'Dataset' }).getByText('birth_names').waitFor();
    // The database line under the dataset's name sits inside the header, clear of its bottom border (it touched it).
    const header = (await page.getByTestId('datasource-header').boundingBox())!;
    const databaseLine = (await page.getByTestId('datasource-database').boundingBox())!;
    await expect(page.getByTestId('datasource-database').textContent()).resolves.toMatch(/examples/);
    expect(header.y + header.height - (databaseLine.y + databaseLine.height)).toBeGreaterThanOrEqual(4);
    // The address keeps a form_data_key so a reload restores unsaved edits.
    await expect.poll(() => new URL(page.url()).searchParams.get('form_data_key')).toBeTruthy();

    const controls = page.getByRole('region', { name: 'Chart controls' });
    await controls.getByLabel('Dimensions').click();
    await page.getByRole('option', { name: 'gender', exact: true }).click();
    await page.keyboard.press('Escape');
    await controls.getByRole('button', { name: 'Add metric' }).click();
    await page.getByRole('tab', { name: 'Saved' }).click();
    await page.getByPlaceholder('Select a saved metric').click();
    await page.getByRole('option', { name: 'Births' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Create chart' }).click();
    await rendered(page);
    await screenshot(page, 'explore-pie');

    await page.getByLabel('Chart name').fill('Births by gender (pie)');
    await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save chart' });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Chart [Births by gender (pie)] has been saved').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('slice_id')).toMatch(/^\d+$/);
    const sliceId = Number(new URL(page.url()).searchParams.get('slice_id'));
    const saved = await rest('get', `/api/v1/chart/${sliceId}`);
    expect(JSON.parse(saved.body.result.params)).toMatchObject({ viz_type: 'pie', groupby: ['gender'], metric: 'sum__num' });

    // Reopened: one chart data call, started before the editor's controls are drawn and taken over by its first run.
    // The editor opened again at the saved chart's address first (asking its data again): the page is left for a
    // blank one before counting, so a late call of it cannot be counted as the reopened page's (it was, twice,
    // under a loaded machine: a load state does not wait for a call that has not started).
    await page.goto('about:blank');
    const dataCalls: string[] = [];
    const countCall = (req: import('playwright-core').Request) => void (new URL(req.url()).pathname === '/api/v1/chart/data' && dataCalls.push(req.postData() ?? ''));
    page.on('request', countCall);
    await page.goto(`${t.url}/explore/?slice_id=${sliceId}`);
    await rendered(page);
    page.off('request', countCall);
    expect(dataCalls, dataCalls.join("\n")).toHaveLength(1);
    expect(JSON.parse(dataCalls[0]!).queries[0]).toMatchObject({ columns: ['gender'], metrics: ['sum__num'] });
    await expect(page.getByLabel('Chart name').inputValue()).resolves.toBe('Births by gender (pie)');
    await page.getByRole('tab', { name: 'Customize' }).click();
    await page.getByRole('checkbox', { name: 'Donut' }).check();
    await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('radio', { name: 'Save (Overwrite)' }).check();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Chart [Births by gender (pie)] has been overwritten').waitFor();
    await expect.poll(async () => JSON.parse((await rest('get', `/api/v1/chart/${sliceId}`)).body.result.params).donut).toBe(true);
    await screenshot(page, 'explore-pie-donut');

    // An edit reloaded at once, within the form data's save debounce, is still there (sent as the page is left).
    await expect.poll(() => new URL(page.url()).searchParams.get('form_data_key')).toBeTruthy();
    await page.getByRole('checkbox', { name: 'Donut' }).uncheck();
    await page.reload();
    await page.getByRole('tab', { name: 'Customize' }).click();
    await expect.poll(() => page.getByRole('checkbox', { name: 'Donut' }).isChecked()).toBe(false);
  });

  it("switches a saved line chart to bar and back, keeping each type's controls; bad values block the run; a slow chart stops", { timeout: 120_000 }, async () => {
    const params = { viz_type: 'echarts_timeseries_line', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], groupby: ['gender'], row_limit: 1000 };
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Births over time', viz_type: params.viz_type, datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) });
    await page.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
    await rendered(page);
    await screenshot(page, 'explore-line');

    const controls = page.getByRole('region', { name: 'Chart controls' });
    const chooseType = async (name: string) => {
      await controls.getByRole('button', { name: /^Chart type:/ }).click();
      await page.getByRole('dialog', { name: 'Select a visualization type' }).getByPlaceholder('Search all charts').fill(name);
      await page.getByRole('radio', { name, exact: true }).click();
      await page.getByRole('button', { name: 'Select', exact: true }).click();
    };
    await chooseType('Bar Chart');
    await rendered(page);
    await page.getByRole('tab', { name: 'Customize' }).click();
    await controls.locator('input[aria-label="Bar orientation"]').click();
    await page.getByRole('option', { name: 'Horizontal' }).click();
    await chooseType('Line Chart');
    await expect(controls.locator('input[aria-label="Bar orientation"]').count()).resolves.toBe(0);
    await page.getByRole('tab', { name: 'Data' }).click();
    await controls.getByText('SUM(num)').or(controls.getByText('Births', { exact: true })).first().waitFor();
    await chooseType('Bar Chart');
    await page.getByRole('tab', { name: 'Customize' }).click();
    await expect(controls.locator('input[aria-label="Bar orientation"]').inputValue()).resolves.toBe('Horizontal');
    await rendered(page);
    await screenshot(page, 'explore-bar-horizontal');

    // Turning on Data Zoom loads the zoom part and draws with it; the drawing stays on screen meanwhile (never unmounted).
    const drawing = page.getByTestId('explore-chart').getByTestId('echart');
    const partsBefore = Number(await drawing.getAttribute('data-parts'));
    await page.evaluate(() => {
      const w = window as unknown as { echartsRemoved: number };
      w.echartsRemoved = 0;
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.removedNodes) if (n instanceof Element && (n.matches('[data-testid="echart"]') || n.querySelector('[data-testid="echart"]'))) w.echartsRemoved++;
      }).observe(document.querySelector('[data-testid="explore-chart"]')!, { childList: true, subtree: true });
    });
    await controls.getByRole('checkbox', { name: 'Data Zoom' }).check();
    await expect.poll(async () => Number(await drawing.getAttribute('data-parts'))).toBeGreaterThan(partsBefore);
    await expect(page.evaluate(() => (window as unknown as { echartsRemoved: number }).echartsRemoved)).resolves.toBe(0);
    // Drawn again with the part (the instance is made anew): not a render failure.
    await page.waitForTimeout(500);
    await expect(page.getByTestId('explore-chart').getAttribute('data-chart-state')).resolves.toBe('rendered');
    await expect(drawing.locator('canvas').count()).resolves.toBeGreaterThan(0);
    await controls.getByRole('checkbox', { name: 'Data Zoom' }).uncheck();

    // Bad values show the validators' words and block the run.
    await page.getByRole('tab', { name: 'Data' }).click();
    // The saved metric's chip reads the dataset's verbose name for sum__num.
    await controls.getByRole('button', { name: 'Remove Births' }).click();
    await page.getByTestId('control-errors').getByText('Control labeled "Metrics" cannot be empty').waitFor();
    await expect(page.getByRole('button', { name: 'Update chart' }).isDisabled()).resolves.toBe(true);
    await controls.locator('input[aria-label="Row limit"]').fill('12.5');
    await page.getByTestId('control-errors').getByText('Control labeled "Row limit" is expected to be an integer').waitFor();
    await controls.locator('input[aria-label="Row limit"]').fill('100');
    await controls.getByRole('button', { name: 'Add metrics' }).click();
    await page.getByRole('dialog').getByRole('tab', { name: 'Simple' }).click();
    await page.getByRole('dialog').getByPlaceholder('Select column').click();
    await page.getByRole('option', { name: 'num', exact: true }).click();
    await page.getByRole('dialog').getByPlaceholder('Select aggregate').click();
    await page.getByRole('option', { name: 'MAX', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Update chart' }).isDisabled()).resolves.toBe(false);

    // A slow answer: Stop aborts the request and the chart says so.
    await page.route('**/api/v1/chart/data**', async (route) => {
      await new Promise((r) => setTimeout(r, 4000));
      await route.continue().catch(() => undefined);
    });
    await page.getByRole('button', { name: 'Update chart' }).click();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Updating chart was stopped').waitFor();
    await expect(page.getByTestId('explore-chart').getAttribute('data-chart-state')).resolves.toBe('stopped');
    await page.unroute('**/api/v1/chart/data**');
    await page.getByRole('button', { name: 'Update chart' }).click();
    await rendered(page);
  });

  it('stars a chart, shows and opens its query in SQL Lab, and opens its permalink in a fresh browser', { timeout: 120_000 }, async () => {
    const params = { viz_type: 'echarts_timeseries_bar', datasource: `${birthNames}__table`, x_axis: 'state', metrics: ['sum__num'], row_limit: 10 };
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Births by state', viz_type: params.viz_type, datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) });
    const id = created.body.id as number;
    // An extra parameter of the address (a Jinja url_param) goes with the permalink.
    await page.goto(`${t.url}/explore/?slice_id=${id}&region=west`);
    await rendered(page);
    await page.getByRole('button', { name: 'Add Births by state to favorites' }).click();
    await expect.poll(async () => (await rest('get', `/api/v1/chart/favorite_status/?q=!(${id})`)).body.result[0].value).toBe(true);

    // Export to .JSON downloads the chart's data answer.
    await page.getByRole('button', { name: 'More chart actions' }).click();
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export to .JSON' }).click()]);
    expect(json.suggestedFilename()).toBe('Births by state.json');
    const exported = JSON.parse(readFileSync((await json.path())!, 'utf8'));
    expect(exported.result[0].data).toHaveLength(10);
    expect(Object.keys(exported.result[0].data[0]).sort()).toEqual(['state', 'sum__num']);
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);

    await page.getByRole('button', { name: 'More chart actions' }).click();
    await page.getByRole('menuitem', { name: 'View query' }).click();
    const queryDialog = page.getByRole('dialog', { name: 'View query' });
    await queryDialog.getByText(/SELECT/).waitFor();
    await expect(queryDialog.textContent()).resolves.toMatch(/birth_names/);
    // Formatted as SQL Lab's Format SQL formats it (one select item a line), and nothing runs past the modal's edge.
    const sql = queryDialog.getByTestId('view-query-sql');
    await expect.poll(() => sql.textContent()).toMatch(/^SELECT\n\s+/);
    expect(await sql.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'explore-view-query');
    await queryDialog.getByRole('switch', { name: 'Show original SQL' }).check({ force: true });
    await expect.poll(() => sql.textContent()).toMatch(/^SELECT "state" AS "state", /);
    await closeDialog(page);

    await page.getByRole('button', { name: 'More chart actions' }).click();
    const [sqllab] = await Promise.all([context.waitForEvent('page'), page.getByRole('menuitem', { name: 'Run in SQL Lab' }).click()]);
    await sqllab.waitForURL(/\/sqllab\//);
    await sqllab.getByText('Births by state').first().waitFor();
    await expect.poll(() => sqllab.locator('.ace_content').first().textContent()).toMatch(/birth_names/);
    await sqllab.close();

    await page.getByRole('button', { name: 'More chart actions' }).click();
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/v1/explore/permalink') && r.request().method() === 'POST'), page.getByRole('menuitem', { name: 'Copy permalink to clipboard' }).click()]);
    const url = (await answer.json()).url as string;
    expect(url).toMatch(/\/superset\/explore\/p\/[^/]+\/$/);
    expect(JSON.parse(answer.request().postData() ?? '{}').urlParams).toEqual([['region', 'west']]);
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const other = await fresh.newPage();
    const queried: unknown[] = [];
    other.on('request', (req) => {
      if (req.url().includes('/api/v1/chart/data') && req.method() === 'POST') queried.push(JSON.parse(req.postData() ?? '{}').form_data?.url_params);
    });
    await login(other, t.url);
    await other.goto(url);
    await rendered(other);
    await expect(other.getByLabel('Chart name').inputValue()).resolves.toBe('Births by state');
    // Opened with the link's URL params as the form data's url_params, which reach the chart's query.
    expect(queried).toContainEqual({ region: 'west' });
    await fresh.close();
  });

  it("a user without can_csv or chart write sees the exports and Save disabled (spec 01 §6 can_download, can_add), the image download kept", { timeout: 120_000 }, async () => {
    await new SecurityRepository(t.services.db).seedRoles({
      BirthsViewer: [...SEEDED_ROLES.Gamma.filter(([p, v]) => p !== 'can_csv' && !(p === 'can_write' && v === 'Chart')), ['datasource_access', `[examples].[birth_names](id:${birthNames})`]],
    });
    await t.userWithRoles('births_viewer', ['BirthsViewer']);
    const params = { viz_type: 'big_number_total', datasource: `${birthNames}__table`, metric: 'sum__num', adhoc_filters: [] };
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Births (viewer)', viz_type: params.viz_type, datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) });
    const viewer = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const other = await viewer.newPage();
      await login(other, t.url, 'births_viewer', 'pw');
      await other.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
      await rendered(other);
      await expect(other.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).isDisabled()).resolves.toBe(true);
      await other.getByRole('button', { name: 'More chart actions' }).click();
      for (const name of ['Export to .CSV', 'Export to .JSON', 'Export to Excel']) {
        await expect(other.getByRole('menuitem', { name }).getAttribute('data-disabled')).resolves.toBe('true');
      }
      await expect(other.getByRole('menuitem', { name: 'Download as image' }).getAttribute('data-disabled')).resolves.toBeNull();
      await screenshot(other, 'explore-viewer-menu');
    } finally {
      await viewer.close();
    }
    // The admin's exports stay on.
    await page.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
    await rendered(page);
    await page.getByRole('button', { name: 'More chart actions' }).click();
    await expect(page.getByRole('menuitem', { name: 'Export to .CSV' }).getAttribute('data-disabled')).resolves.toBeNull();
    await page.keyboard.press('Escape');
  });

  it('drills to detail and drills by from a bar', { timeout: 120_000 }, async () => {
    const params = { viz_type: 'echarts_timeseries_bar', datasource: `${birthNames}__table`, x_axis: 'state', metrics: ['sum__num'], row_limit: 10, adhoc_filters: [] };
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Births by state (drill)', viz_type: params.viz_type, datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) });
    await page.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
    await rendered(page);
    const box = (await page.getByTestId('explore-chart').boundingBox())!;
    // The tooltip is made on the pointer's first move over a chart, not with every chart drawn: it answers at once.
    expect(await page.locator('[data-testid="echart"] > div').count()).toBe(1);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height - 90);
    // The series is named by the metric's verbose name ('Births'), as the dataset gives it.
    await page.locator('[data-testid="echart"] > div').filter({ hasText: 'Births' }).first().waitFor({ timeout: 5_000 });
    // Right-click along the bottom of the plot until a bar answers with its menu.
    const menu = page.getByRole('menuitem', { name: /^Drill to detail by state = / });
    for (let x = box.x + 40; x < box.x + box.width - 20; x += 12) {
      await page.mouse.click(x, box.y + box.height - 75, { button: 'right' });
      if (await menu.isVisible().catch(() => false)) break;
      await page.keyboard.press('Escape');
    }
    const label = (await menu.textContent())!;
    const state = label.replace('Drill to detail by state = ', '');
    await screenshot(page, 'explore-drill-menu');
    await menu.click();
    const detail = page.getByRole('dialog', { name: 'Drill to detail' });
    await detail.getByTestId('drill-detail-count').waitFor();
    const stateColumn = await detail.locator('th').allTextContents();
    const index = stateColumn.indexOf('state');
    expect(index).toBeGreaterThanOrEqual(0);
    const states = await detail.locator(`tbody tr td:nth-child(${index + 1})`).allTextContents();
    expect(states.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set([state]));
    // The temporal column reads as Superset's database date-time, not epoch milliseconds.
    const ds = await detail.locator(`tbody tr td:nth-child(${stateColumn.indexOf('ds') + 1})`).allTextContents();
    expect(ds.length).toBeGreaterThan(0);
    for (const text of ds) expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await expect(detail.getByTestId('drill-detail-count').textContent()).resolves.toMatch(/^[\d,]+ rows?$/);
    await screenshot(page, 'explore-drill-detail');
    await closeDialog(page);

    for (let x = box.x + 40; x < box.x + box.width - 20; x += 12) {
      await page.mouse.click(x, box.y + box.height - 75, { button: 'right' });
      if (await menu.isVisible().catch(() => false)) break;
      await page.keyboard.press('Escape');
    }
    await page.getByRole('menuitem', { name: 'gender', exact: true }).click();
    const by = page.getByRole('dialog', { name: 'Drill by' });
    await by.locator('[data-testid="drill-by-chart"][data-chart-state="rendered"]').waitFor();
    await by.getByRole('navigation', { name: 'Drill by steps' }).getByText(/› gender$/).waitFor();
    await screenshot(page, 'explore-drill-by');
    await by.getByRole('button', { name: 'Births by state (drill)' }).click();
    await by.locator('[data-testid="drill-by-chart"][data-chart-state="rendered"]').waitFor();
    await closeDialog(page);
  });

  it('shows dates and row counts in the data panes, offers every format with a custom one, and fits the Sort by and card labels', { timeout: 120_000 }, async () => {
    const params = { viz_type: 'echarts_timeseries_bar', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], groupby: ['gender'], row_limit: 1000 };
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Births by year and gender (panes)', viz_type: params.viz_type, datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) });
    const trendline = { viz_type: 'big_number', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metric: 'sum__num' };
    await rest('post', '/api/v1/chart/', { slice_name: 'Births per year and gender, all states', viz_type: 'big_number', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(trendline) });
    await page.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
    await rendered(page);
    const controls = page.getByRole('region', { name: 'Chart controls' });

    // The Sort by drop zone's words are whole (they wrap in its half-width row).
    const sortBy = controls.locator('[data-control="timeseries_limit_metric"]').getByText('Drop a column/metric here or click');
    expect(await sortBy.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().width > 0)).toBe(true);

    // Results and Samples: a temporal column reads as a date-time, on screen and in the copy; the count is of the rows shown.
    await page.evaluate(() => {
      const w = window as unknown as { copied: string[] };
      w.copied = [];
      navigator.clipboard.writeText = async (text: string) => void w.copied.push(text);
    });
    const dateTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
    for (const pane of ['Results', 'Samples']) {
      await page.getByRole('tab', { name: pane }).click();
      const panel = page.getByRole('tabpanel', { name: pane });
      await panel.getByTestId('rows-count').waitFor();
      const grid = panel.getByTestId('results-grid');
      const heads = await grid.getByRole('columnheader').allTextContents();
      const cells = await grid.locator('[role="row"][aria-rowindex]').evaluateAll((rows, i) => rows.map((row) => row.querySelectorAll('[role="gridcell"]')[i]?.textContent ?? ''), heads.indexOf('ds'));
      expect(cells.length).toBeGreaterThan(0);
      for (const text of cells) expect(text).toMatch(dateTime);
      // The count is of every row the answer holds (the grid draws those near its viewport).
      const count = Number(await grid.getAttribute('aria-rowcount'));
      await expect(panel.getByTestId('rows-count').textContent()).resolves.toBe(`${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`);
      await panel.getByRole('button', { name: 'Copy rows' }).click();
      const copied = (await page.evaluate(() => (window as unknown as { copied: string[] }).copied.at(-1)))!;
      expect(copied.split('\n')[1]!.split('\t')[heads.indexOf('ds')]).toBe(cells[0]);
      // The search keeps the rows with a cell holding its text (a date as shown); the count and the copy follow it.
      const day = cells[0]!.slice(0, 10);
      await panel.getByLabel('Search rows').fill(day);
      await expect.poll(() => panel.getByTestId('rows-count').textContent()).toMatch(new RegExp(`^[\\d,]+ of ${count.toLocaleString('en-US')} rows?$`));
      const matching = Number((await panel.getByTestId('rows-count').textContent())!.split(' ')[0]!.replace(/,/g, ''));
      expect(matching).toBeGreaterThan(0);
      expect(matching).toBeLessThanOrEqual(count);
      await panel.getByRole('button', { name: 'Copy rows' }).click();
      const found = (await page.evaluate(() => (window as unknown as { copied: string[] }).copied.at(-1)))!.split('\n').slice(1);
      expect(found).toHaveLength(matching);
      expect(found.every((line) => line.includes(day))).toBe(true);
      await panel.getByLabel('Search rows').fill('no row holds this');
      await expect.poll(() => panel.getByTestId('rows-count').textContent()).toBe(`0 of ${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`);
      await screenshot(page, `explore-${pane.toLowerCase()}-pane-search`);
      await panel.getByRole('button', { name: 'Clear the search' }).click();
      await expect.poll(() => panel.getByTestId('rows-count').textContent()).toBe(`${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`);
      await screenshot(page, `explore-${pane.toLowerCase()}-pane`);
    }

    // The Y Axis Format picker opens on every format; '$' finds the dollar ones; a typed d3 format can be picked.
    await page.getByRole('tab', { name: 'Customize' }).click();
    const yFormat = controls.locator('input[aria-label="Y Axis Format"]');
    await yFormat.click();
    await expect.poll(() => page.getByRole('option').count()).toBeGreaterThan(10);
    await screenshot(page, 'explore-y-format-open');
    await yFormat.pressSequentially('$');
    await page.getByRole('option', { name: '$,.2f (12345.432 => $12,345.43)' }).waitFor();
    await yFormat.pressSequentially(',.1f');
    await page.getByRole('option', { name: '$,.1f', exact: true }).waitFor();
    await screenshot(page, 'explore-y-format-custom');
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'Customize' }).click();
    await expect.poll(() => yFormat.inputValue()).toBe('$,.1f');
    await page.locator('[data-testid="explore-chart"] canvas').first().waitFor();
    // A y-axis title stands clear of these wide labels ('$1,500,000.0').
    await page.getByLabel('Y Axis Title').fill('Births');
    await page.waitForTimeout(500);
    await screenshot(page, 'explore-y-title-wide-labels');

    // In the charts list's card view, the chart type tag sits under the title (truncating when long): the title keeps its row.
    await page.goto(`${t.url}/chart/list/`);
    await page.getByTestId('card-view').click();
    const card = page.getByTestId('list-card').filter({ hasText: 'Births per year and gender, all states' });
    await card.waitFor();
    const title = (await card.getByRole('link', { name: 'Births per year and gender, all states' }).boundingBox())!;
    const tag = (await card.getByText('Big Number with Trendline').boundingBox())!;
    expect(title.width).toBeGreaterThan(1.5 * tag.width);
    // A short type name stays whole.
    const barTag = page.getByTestId('list-card').filter({ hasText: 'Births by year and gender (panes)' }).getByText('Bar Chart', { exact: true });
    expect(await barTag.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'explore-chart-list-card-tags');
  });

  it("shows a failed query in the error box: a database error by its engine with See more / See less, a network failure as 'Unexpected error' reading 'Network error.'", { timeout: 120_000 }, async () => {
    const broken = (await rest('post', '/api/v1/chart/', { slice_name: 'Broken metric', viz_type: 'big_number_total', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify({ viz_type: 'big_number_total', datasource: `${birthNames}__table`, metric: { expressionType: 'SQL', sqlExpression: 'SUM(no_such_column)', label: 'broken' } }) })).body.id;
    await page.goto(`${t.url}/explore/?slice_id=${broken}`);
    const box = page.getByTestId('explore-chart').getByTestId('error-message');
    await box.waitFor();
    await expect(box.getByText('DuckDB Error').count()).resolves.toBe(1);
    await box.getByText(/no_such_column/).waitFor();
    await expect(box.getByTestId('error-issue-codes').count()).resolves.toBe(0);
    await box.getByRole('button', { name: 'See more' }).click();
    await box.getByTestId('error-issue-codes').getByText('Issue 1004 - The column was deleted or renamed in the database.').waitFor();
    await screenshot(page, 'explore-chart-error');
    await box.getByRole('button', { name: 'See less' }).click();
    await expect(box.getByTestId('error-issue-codes').count()).resolves.toBe(0);

    // No answer at all: spec 01 §4 'alert is the first response error or Network error.', in the generic box.
    await page.route('**/api/v1/chart/data**', (route) => route.abort());
    try {
      await page.reload();
      await box.waitFor();
      await expect(box.textContent()).resolves.toContain('Unexpected error');
      await box.getByText('Network error.', { exact: true }).waitFor();
      await expect(page.getByTestId('explore-chart').getAttribute('data-chart-state')).resolves.toBe('failed');
    } finally {
      await page.unroute('**/api/v1/chart/data**');
    }
  });

  it("a new chart asks for its required controls instead of running ('Add required control values to preview chart'), names them by label, fills a time series' x-axis from the dataset, and a typed new dashboard name is created on save", { timeout: 120_000 }, async () => {
    const chartData: string[] = [];
    const listen = (req: import('playwright-core').Request) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/v1/chart/data') chartData.push(req.postData() ?? '');
    };
    page.on('request', listen);
    try {
      await page.goto(`${t.url}/explore/?datasource_id=${birthNames}&datasource_type=table&viz_type=table`);
      await page.getByTestId('controls-missing').getByText('Add required control values to preview chart').waitFor();
      await expect(page.getByTestId('control-errors').textContent()).resolves.toBe('Control labeled "Metrics" Group By, Metrics or Percentage Metrics must have a value');
      await screenshot(page, 'explore-new-table-missing-controls');
      // A switch to a time series: its x-axis is the dataset's time column; only the metrics are missing; nothing was stopped.
      const controls = page.getByRole('region', { name: 'Chart controls' });
      await controls.getByRole('button', { name: /^Chart type:/ }).click();
      await page.getByRole('dialog', { name: 'Select a visualization type' }).getByPlaceholder('Search all charts').fill('Bar Chart');
      await page.getByRole('radio', { name: 'Bar Chart', exact: true }).click();
      await page.getByRole('button', { name: 'Select', exact: true }).click();
      await expect.poll(() => page.getByTestId('control-errors').textContent()).toBe('Control labeled "Metrics" cannot be empty');
      await page.getByTestId('controls-missing').waitFor();
      await expect(page.getByText('Updating chart was stopped').count()).resolves.toBe(0);
      await expect(controls.getByLabel('X-axis', { exact: true }).inputValue()).resolves.toBe('ds');
      expect(chartData).toEqual([]);

      // The required metric given, the chart runs; saved with a dashboard name typed (not picked), that dashboard is made.
      await controls.getByRole('button', { name: 'Add metric' }).click();
      await page.getByRole('tab', { name: 'Saved' }).click();
      await page.getByPlaceholder('Select a saved metric').click();
      await page.getByRole('option', { name: 'Births' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('button', { name: /Create chart|Update chart/ }).click();
      await rendered(page);
      await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
      const save = page.getByRole('dialog', { name: 'Save chart' });
      await save.getByLabel('Chart name').fill('Births by day, bars');
      await save.getByLabel('Add to dashboard').fill('Typed dashboard');
      // The typed name is offered as an option while typing (the dropdown was empty), and picked.
      await page.getByRole('option', { name: 'Typed dashboard', exact: true }).click();
      await expect(save.getByLabel('Add to dashboard').inputValue()).resolves.toBe('Typed dashboard');
      // The buttons say the dashboard is a new one, as Superset's (the typed name alone read like an existing one).
      await save.getByRole('button', { name: 'Save & go to new dashboard', exact: true }).waitFor();
      await save.getByRole('button', { name: 'Save to new dashboard', exact: true }).click();
      await page.getByText('Dashboard [Typed dashboard] just got created and chart [Births by day, bars] was added to it').waitFor();
      // The same name typed again (left in the field, not picked) is that dashboard, found by a search of the user's
      // own dashboards, not a second one of the same name.
      await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
      await save.getByLabel('Save as...').check();
      await save.getByLabel('Chart name').fill('Births by day, bars again');
      await save.getByLabel('Add to dashboard').fill('Typed dashboard');
      await save.getByLabel('Chart name').click();
      await save.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Chart [Births by day, bars again] was added to dashboard [Typed dashboard]').waitFor();
      const named = await rest('get', `/api/v1/dashboard/?q=(filters:!((col:dashboard_title,opr:ct,value:'Typed dashboard')))`);
      expect(named.body.count).toBe(1);
    } finally {
      page.off('request', listen);
    }
  });

  it('writes a custom SQL metric and filter in Ace: the columns are offered as completions, a click on one keeps the editor open', { timeout: 120_000 }, async () => {
    await page.goto(`${t.url}/explore/?datasource_id=${birthNames}&datasource_type=table&viz_type=big_number_total`);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    await controls.getByRole('button', { name: 'Add metric' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Custom SQL' }).click();
    const editor = dialog.getByTestId('sql-expression-editor');
    await editor.locator('.ace_content').click();
    for (const key of 'SUM(num_b') await page.keyboard.type(key);
    // The completion popup lists the dataset's columns; clicking one inserts it and the editor stays open.
    const option = editor.locator('.ace_autocomplete .ace_line', { hasText: 'num_boys' }).first();
    await option.waitFor();
    await screenshot(page, 'explore-metric-sql-ace');
    // (Ace redraws its popup lines as the cursor blinks: click where the row is, as a user does.)
    const box = (await option.boundingBox())!;
    await page.mouse.click(box.x + 20, box.y + box.height / 2);
    const aceValue = () => editor.locator('.ace_editor').first().evaluate((el) => (el as HTMLElement & { env: { editor: { getValue(): string } } }).env.editor.getValue());
    await expect.poll(aceValue).toBe('SUM(num_boys)');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await controls.getByText('SUM(num_boys)').waitFor();

    await controls.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('dialog').getByRole('tab', { name: 'Custom SQL' }).click();
    const where = page.getByRole('dialog').getByTestId('sql-expression-editor');
    await where.locator('.ace_content').click();
    await page.keyboard.insertText("state = 'CA'");
    // Escape in the SQL editor (as to dismiss its completions) keeps the popover and the SQL being written.
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    await expect(where.isVisible()).resolves.toBe(true);
    await page.getByRole('dialog').getByRole('button', { name: 'Save', exact: true }).click();
    const request = page.waitForRequest((r) => r.url().includes('/api/v1/chart/data') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Create chart' }).click();
    const body = JSON.parse((await request).postData() ?? '{}');
    expect(body.queries[0].metrics[0]).toMatchObject({ expressionType: 'SQL', sqlExpression: 'SUM(num_boys)' });
    expect(JSON.stringify(body.queries[0])).toContain("state = 'CA'");
    await rendered(page);

    // The metric goes along between the tabs: the SQL metric read back as column and aggregate, and the simple one,
    // changed, written as SQL.
    await controls.getByText('SUM(num_boys)').click();
    const editing = page.getByRole('dialog');
    await editing.getByRole('tab', { name: 'Simple' }).click();
    await expect(editing.getByLabel('Column', { exact: true }).inputValue()).resolves.toBe('num_boys');
    await expect(editing.getByLabel('Aggregate', { exact: true }).inputValue()).resolves.toBe('SUM');
    await editing.getByLabel('Aggregate', { exact: true }).click();
    await page.getByRole('option', { name: 'MAX', exact: true }).click();
    await editing.getByRole('tab', { name: 'Custom SQL' }).click();
    const sqlValue = () => editing.getByTestId('sql-expression-editor').locator('.ace_editor').first().evaluate((el) => (el as HTMLElement & { env: { editor: { getValue(): string } } }).env.editor.getValue());
    await expect.poll(sqlValue).toBe('MAX(num_boys)');
    await screenshot(page, 'explore-metric-tab-carry');
    await editing.getByRole('button', { name: 'Close' }).click();
  });

  it('edits a saved chart’s properties: name, description, certification and cache timeout', { timeout: 90_000 }, async () => {
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Props chart', viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify({ viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', datasource: `${birthNames}__table` }) });
    await page.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
    await rendered(page);
    await page.getByRole('button', { name: 'More chart actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit chart properties' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Chart Properties' });
    await dialog.getByLabel('Name').fill('Props chart (renamed)');
    await dialog.getByLabel('Description').fill('Births by gender, all years');
    await dialog.getByLabel('Certified by').fill('Data team');
    await dialog.getByLabel('Cache timeout').fill('600');
    // At 900 px high the fields scroll inside the modal and its footer stays on screen.
    const saveBox = (await dialog.getByRole('button', { name: 'Save' }).boundingBox())!;
    expect(saveBox.y + saveBox.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await screenshot(page, 'explore-chart-properties');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Chart properties updated').waitFor();
    await expect.poll(() => page.getByLabel('Chart name').inputValue()).toBe('Props chart (renamed)');
    const stored = (await rest('get', `/api/v1/chart/${created.body.id}`)).body.result;
    expect(stored).toMatchObject({ slice_name: 'Props chart (renamed)', description: 'Births by gender, all years', certified_by: 'Data team', cache_timeout: 600 });
    expect(stored.owners.length).toBeGreaterThan(0);
  });

  it('adds annotation layers to a line chart: a formula, events from a Superset layer, and a failing layer that leaves the chart drawn', { timeout: 150_000 }, async () => {
    const layer = async (name: string) => (await rest('post', '/api/v1/annotation_layer/', { name })).body.id as number;
    const releases = await layer('Releases');
    const doomed = await layer('Doomed layer');
    for (const [short_descr, start] of [['Launch', '1980-01-01T00:00:00'], ['Relaunch', '1995-01-01T00:00:00']]) {
      expect((await rest('post', `/api/v1/annotation_layer/${releases}/annotation/`, { short_descr, start_dttm: start, end_dttm: start })).status).toBe(201);
    }
    const params = { viz_type: 'echarts_timeseries_line', datasource: `${birthNames}__table`, x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], row_limit: 1000 };
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Births with annotations', viz_type: params.viz_type, datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) });
    await page.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
    await rendered(page);
    /** Pixels of one exact colour on the chart's canvas: the layer drawn in it is there. */
    const pixels = (hex: string) =>
      page.evaluate((rgb) => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="explore-chart"] canvas')!;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - rgb[0]!) < 8 && Math.abs(data[i + 1]! - rgb[1]!) < 8 && Math.abs(data[i + 2]! - rgb[2]!) < 8 && data[i + 3]! > 200) n++;
        return n;
      }, [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
    expect(await pixels('#00c800')).toBe(0);

    const controls = page.getByRole('region', { name: 'Chart controls' });
    await controls.getByRole('button', { name: 'Annotations and Layers' }).click();
    const addLayer = async (fill: (dialog: ReturnType<typeof page.getByRole>) => Promise<void>) => {
      await controls.getByRole('button', { name: 'Add annotation layer' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add annotation layer' });
      await fill(dialog);
      await dialog.getByRole('button', { name: 'OK', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
    };

    // A formula is drawn at once from its expression; a bad one is refused with the popover's words.
    await addLayer(async (dialog) => {
      await dialog.getByRole('button', { name: 'OK', exact: true }).click();
      await dialog.getByText('Name is required').waitFor();
      await dialog.getByLabel('Name').fill('Goal');
      await dialog.getByLabel('Formula').fill('y = 2*(x+');
      await dialog.getByRole('button', { name: 'OK', exact: true }).click();
      await dialog.getByText('Invalid formula expression').waitFor();
      await dialog.getByLabel('Formula').fill('y = 1500000');
      await dialog.getByLabel('Color').fill('#00c800');
      await dialog.getByLabel('Line width').fill('3');
    });
    await expect.poll(() => pixels('#00c800')).toBeGreaterThan(100);

    // Events from a Superset annotation layer are queried on their own and drawn as lines.
    const layerQuery = page.waitForResponse((res) => res.url().includes('/api/v1/chart/data') && (res.request().postData() ?? '').includes('"Launches"'));
    await addLayer(async (dialog) => {
      await dialog.getByLabel('Name').fill('Launches');
      await dialog.getByLabel('Annotation layer type', { exact: true }).and(page.locator('input')).click();
      await dialog.getByRole('option', { name: 'Event', exact: true }).click();
      await dialog.getByPlaceholder('Select a source').click();
      await dialog.getByRole('option', { name: 'Releases' }).click();
      await dialog.getByLabel('Show label').check();
      await dialog.getByLabel('Color').fill('#c800c8');
    });
    const answer = await (await layerQuery).json();
    expect(answer.result[0].annotation_data.Launches.records.map((r: { short_descr: string }) => r.short_descr)).toEqual(['Launch', 'Relaunch']);
    await expect.poll(() => pixels('#c800c8')).toBeGreaterThan(100);
    await expect(page.locator('[data-testid="annotation-layer"]').count()).resolves.toBe(2);

    // A layer whose source is gone fails on its own: its error is shown, the chart and the other layers stay drawn.
    await addLayer(async (dialog) => {
      await dialog.getByLabel('Name').fill('Gone');
      await dialog.getByLabel('Annotation layer type', { exact: true }).and(page.locator('input')).click();
      await dialog.getByRole('option', { name: 'Event', exact: true }).click();
      await dialog.getByPlaceholder('Select a source').click();
      await dialog.getByRole('option', { name: 'Doomed layer' }).click();
      expect((await rest('delete', `/api/v1/annotation_layer/${doomed}`)).status).toBe(200);
    });
    await page.getByTestId('annotation-error').filter({ hasText: 'Annotation layer "Gone": Annotation layer not found.' }).waitFor();
    await expect(page.getByTestId('explore-chart').getAttribute('data-chart-state')).resolves.toBe('rendered');
    expect(await pixels('#c800c8')).toBeGreaterThan(100);
    await controls.getByRole('button', { name: /^Layer error: Annotation layer not found\./ }).waitFor();
    await screenshot(page, 'explore-annotations');

    // Removing the failed layer clears its error; saving keeps the layers in the chart's params.
    await page.locator('[data-testid="annotation-layer"][data-layer="Gone"]').getByRole('button', { name: /Gone/ }).click();
    await page.getByRole('dialog', { name: 'Edit annotation layer' }).getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByTestId('annotation-error').count()).toBe(0);
    await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
    const save = page.getByRole('dialog', { name: 'Save chart' });
    await save.getByRole('radio', { name: 'Save (Overwrite)' }).check();
    await save.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Chart [Births with annotations] has been overwritten').waitFor();
    await expect
      .poll(async () => (JSON.parse((await rest('get', `/api/v1/chart/${created.body.id}`)).body.result.params).annotation_layers ?? []).map((l: { name: string }) => l.name))
      .toEqual(['Goal', 'Launches']);
  });
  it("a saved chart whose run fails stays a saved chart: its run button reads 'Update chart', not a new chart's 'Create chart'", { timeout: 120_000 }, async () => {
    const params = { viz_type: 'pie', datasource: `${birthNames}__table`, groupby: ['gender'], metric: 'sum__num', time_range: 'No filter' };
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Births that will fail', viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) });
    await page.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
    await rendered(page);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    await controls.getByText('Births', { exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Custom SQL' }).click();
    await dialog.getByTestId('sql-expression-editor').locator('.ace_content').click();
    await page.keyboard.insertText('SUM(no_such_column)');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Update chart' }).click();
    await page.getByTestId('explore-chart').getByTestId('error-message').getByText(/no_such_column/).waitFor();
    await screenshot(page, 'explore-saved-chart-failed');
    await expect(page.getByRole('button', { name: 'Create chart' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Update chart' }).isEnabled()).resolves.toBe(true);
    await expect(page.getByTestId('explore-header').getByText('Unsaved').count()).resolves.toBe(0);
    // Saving still offers to overwrite it.
    await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
    const save = page.getByRole('dialog', { name: 'Save chart' });
    await save.getByRole('radio', { name: 'Save (Overwrite)' }).waitFor();
    await closeDialog(page);
  });

  it('Escape on an open dropdown in the filter and metric popovers closes only the dropdown: the filter or metric being edited stays', { timeout: 120_000 }, async () => {
    await page.goto(`${t.url}/explore/?datasource_id=${birthNames}&datasource_type=table&viz_type=pie`);
    const controls = page.getByRole('region', { name: 'Chart controls' });
    await controls.getByRole('button', { name: 'Add filter' }).click();
    const popover = page.getByRole('dialog');
    await popover.getByLabel('Column').click();
    await page.getByRole('option', { name: 'gender', exact: true }).click();
    const value = popover.getByPlaceholder('Pick a value');
    await value.click();
    await page.getByRole('option', { name: 'boy', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('option', { name: 'boy', exact: true }).count()).toBe(0);
    await expect(popover.getByLabel('Column').inputValue()).resolves.toBe('gender');
    await value.click();
    await page.getByRole('option', { name: 'boy', exact: true }).click();
    await screenshot(page, 'explore-filter-popover-after-escape');
    await popover.getByRole('button', { name: 'Save', exact: true }).click();
    await controls.getByText('gender = boy').waitFor();

    // With no dropdown open, Escape closes the popover as before.
    await controls.getByText('gender = boy').click();
    await popover.getByLabel('Column').waitFor();
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'hidden' });

    await controls.getByRole('button', { name: 'Add metric' }).click();
    await popover.getByRole('tab', { name: 'Saved' }).click();
    await popover.getByPlaceholder('Select a saved metric').click();
    await page.getByRole('option', { name: 'Births' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('option', { name: 'Births' }).count()).toBe(0);
    await popover.getByPlaceholder('Select a saved metric').click();
    await page.getByRole('option', { name: 'Births' }).click();
    await popover.getByRole('button', { name: 'Save', exact: true }).click();
    await controls.getByText('Births', { exact: true }).waitFor();
  });

  it("names a pivot table's rows and columns in its headers: 'metric' over the metric, each column level's column, the row columns above the rows", { timeout: 120_000 }, async () => {
    const params = { viz_type: 'pivot_table_v2', datasource: `${birthNames}__table`, groupbyRows: ['state'], groupbyColumns: ['gender'], metrics: ['sum__num'], rowTotals: true, colTotals: true, time_range: 'No filter' };
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Births pivot by state and gender', viz_type: 'pivot_table_v2', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) });
    await page.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
    await rendered(page);
    const table = page.getByTestId('explore-chart').getByTestId('pivot-table');
    const headerLines = await table.locator('thead tr').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    // Superset's default ('Combine metrics' off): the metric heads the columns, the gender's values under it.
    expect(headerLines).toEqual([
      ['', 'metric', 'Births'],
      ['gender', 'boy', 'girl', 'Total'],
      ['state', '', ''],
    ]);
    // The rows' headers line up under 'state' (the last spans the level names' column), their cells under the columns'.
    const [stateBox, boyBox] = await Promise.all([table.getByRole('columnheader', { name: 'state' }).boundingBox(), table.getByRole('columnheader', { name: 'boy' }).boundingBox()]);
    const firstRow = table.locator('tbody tr').first();
    const [rowHeader, firstCell] = await Promise.all([firstRow.locator('th').first().boundingBox(), firstRow.locator('td').first().boundingBox()]);
    expect(Math.round(rowHeader!.x)).toBe(Math.round(stateBox!.x));
    expect(Math.round(firstCell!.x)).toBe(Math.round(boyBox!.x));
    await screenshot(page, 'explore-pivot-headers');
  });

  it('draws only the rows of a large pivot table in view (and a few around), under sticky headers; the last comes with scrolling', { timeout: 120_000 }, async () => {
    // About 5,000 rows: births by state, name and year, split by gender, with subtotals and a total.
    const params = { viz_type: 'pivot_table_v2', datasource: `${birthNames}__table`, groupbyRows: ['state', 'name', 'ds'], groupbyColumns: ['gender'], metrics: ['sum__num'], rowTotals: true, colTotals: true, rowSubTotals: true, row_limit: 5000, time_range: 'No filter' };
    const created = await rest('post', '/api/v1/chart/', { slice_name: 'Births pivot by state, name and year', viz_type: 'pivot_table_v2', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) });
    await page.goto(`${t.url}/explore/?slice_id=${created.body.id}`);
    await rendered(page);
    const scroller = page.getByTestId('explore-chart').getByTestId('pivot-table');
    const table = scroller.locator('table');
    const count = Number(await table.getAttribute('aria-rowcount'));
    expect(count).toBeGreaterThan(5_000);
    const bodyRows = table.locator('tbody tr[aria-rowindex]');
    expect(await bodyRows.count()).toBeLessThan(100);
    expect(await bodyRows.first().getAttribute('aria-rowindex')).toBe('4');

    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const lastRow = table.locator(`tbody tr[aria-rowindex="${count}"]`);
    await lastRow.waitFor();
    expect(await lastRow.locator('th').first().textContent()).toBe('Total');
    const [scrollerBox, lastBox] = await Promise.all([scroller.boundingBox(), lastRow.boundingBox()]);
    expect(lastBox!.y + lastBox!.height).toBeLessThanOrEqual(scrollerBox!.y + scrollerBox!.height + 1);
    expect(await bodyRows.count()).toBeLessThan(100);
    // A group begun above the rows in view is named on the first of them: its state, spanning down.
    const firstShown = bodyRows.first();
    expect(Number(await firstShown.getAttribute('aria-rowindex'))).toBeGreaterThan(count - 100);
    expect(await firstShown.locator('th').first().textContent()).toMatch(/^[A-Z]{2}$|^other$/);
    // The column headers stay on top of the scrolled rows.
    const [box, head] = await Promise.all([scroller.boundingBox(), table.getByRole('columnheader', { name: 'boy' }).boundingBox()]);
    expect(head!.y).toBeGreaterThanOrEqual(box!.y);
    expect(head!.y).toBeLessThan(box!.y + 40);
    await screenshot(page, 'explore-pivot-virtual');
  });
});
