import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataMaskOf, newNativeFilter, type NativeFilter } from '../../contracts/src/dashboard/native-filters';
import { GRID_ID, layoutOfRows, positionFromLayout, ROOT_ID, withParents } from '../../contracts/src/dashboard/layout-reducer';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureTestExamples } from '../helpers/examples';
import { closeDialog, ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

type ChartQuery = { sliceId: number; force: boolean; filters: Array<{ col: string; op: string; val: unknown }> };

// How a dashboard shows and refreshes (spec 02 §2 display options, §4 refreshing, §3 chart meta and requiredFirst).
describe('dashboard display, refresh and first filter values in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let admin: string;
  let datasetId: number;
  const chartIds: Record<string, number> = {};
  /** Every chart's data query (filter option queries carry no slice id and are left out). */
  let queries: ChartQuery[] = [];

  const rest = (method: 'get' | 'post' | 'put', path: string, body?: unknown) => {
    const req = t.http[method](path).set('Authorization', `Bearer ${admin}`);
    return body === undefined ? req : req.send(body as object);
  };
  const onRequest = (req: Request) => {
    if (!req.url().includes('/api/v1/chart/data') || req.method() !== 'POST') return;
    const sliceId = Number(JSON.parse(new URL(req.url()).searchParams.get('form_data') ?? '{}').slice_id);
    if (!sliceId) return;
    const body = JSON.parse(req.postData() ?? '{}');
    queries.push({ sliceId, force: body.force === true, filters: body.form_data?.extra_form_data?.filters ?? [] });
  };
  const rendered = (count: number) => expect.poll(() => page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').count(), { timeout: 30_000 }).toBe(count);
  const selectFilter = (id: string, name: string, column: string, extra: Partial<NativeFilter> = {}): NativeFilter => ({ ...newNativeFilter(id), name, targets: [{ datasetId, column: { name: column } }], ...extra });

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-dashboard-view-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    datasetId = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    const charts = [
      { slice_name: 'Births by gender', viz_type: 'pie', params: { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', row_limit: 10 } },
      { slice_name: 'Total births', viz_type: 'big_number_total', params: { viz_type: 'big_number_total', metric: 'sum__num' } },
    ];
    for (const c of charts) {
      const res = await rest('post', '/api/v1/chart/', { slice_name: c.slice_name, viz_type: c.viz_type, datasource_id: datasetId, datasource_type: 'table', params: JSON.stringify({ ...c.params, datasource: `${datasetId}__table` }) });
      chartIds[c.slice_name] = res.body.id;
    }
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('request', onRequest);
    await login(page, t.url);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await screenshot(page, `failed-dashboard-view-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    await closeDialog(page, 5_000).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the uiConfig bitmask hides the title (1), the tabs' bar (2), the app's navigation (4) and the charts' controls (8)", { timeout: 120_000 }, async () => {
    const gender = selectFilter('NATIVE_FILTER-gender', 'Gender', 'gender');
    gender.defaultDataMask = dataMaskOf(gender, ['girl']);
    // Top-level tabs: the root holds the tabs in place of the grid.
    const tabbed = layoutOfRows('Shown', [
      { tab: 'First', rows: [[{ chartId: chartIds['Total births']!, width: 6 }]] },
      { tab: 'Second', rows: [[{ chartId: chartIds['Births by gender']!, width: 6 }]] },
    ]);
    const tabsId = tabbed[GRID_ID]!.children[0]!;
    tabbed[ROOT_ID] = { ...tabbed[ROOT_ID]!, children: [tabsId] };
    delete tabbed[GRID_ID];
    const position = positionFromLayout(withParents(tabbed));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Shown', position_json: JSON.stringify(position), json_metadata: JSON.stringify({ native_filter_configuration: [gender] }) });
    const open = async (mask: number | null) => {
      await page.goto(`${t.url}/superset/dashboard/${created.body.id}/${mask === null ? '' : `?uiConfig=${mask}`}`);
      await rendered(1);
    };
    const nav = page.getByRole('navigation', { name: 'Main' });
    const title = page.getByRole('heading', { name: 'Shown' });
    const tabs = page.getByTestId('dashboard-tab');
    const chart = page.getByTestId('dashboard-chart');

    await open(null);
    expect([await nav.count(), await title.count(), await tabs.count()]).toEqual([1, 1, 2]);
    await chart.getByTestId('filter-indicator').waitFor();
    expect(await chart.getByTestId('chart-menu').count()).toBe(1);

    // 1 + 2: no title bar (nor its menu), no tabs' bar; the first tab's chart is shown.
    await open(3);
    expect([await nav.count(), await title.count(), await tabs.count()]).toEqual([1, 0, 0]);
    expect(await page.getByRole('button', { name: 'More dashboard actions' }).count()).toBe(0);
    expect(await chart.getAttribute('data-chart-id')).toBe(String(chartIds['Total births']));
    await screenshot(page, 'dashboard-ui-config-3');

    // 4 + 8: no app navigation, and each chart without its filter indicator and menu (the filter still applies).
    queries = [];
    await open(12);
    expect([await nav.count(), await title.count(), await tabs.count()]).toEqual([0, 1, 2]);
    expect(await chart.getByTestId('chart-menu').count()).toBe(0);
    expect(await chart.getByTestId('filter-indicator').count()).toBe(0);
    expect(queries.at(-1)?.filters).toEqual([{ col: 'gender', op: 'IN', val: ['girl'] }]);
    await screenshot(page, 'dashboard-ui-config-12');
  });

  it("'Force refresh' of the dashboard queries its charts with force=true and is disabled until every chart has answered", { timeout: 120_000 }, async () => {
    const position = positionFromLayout(layoutOfRows('Refreshed', [[{ chartId: chartIds['Births by gender']!, width: 6 }, { chartId: chartIds['Total births']!, width: 6 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Refreshed', position_json: JSON.stringify(position) });
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
    await rendered(2);
    // The forced queries answer late, so the refresh lasts long enough to be seen.
    let held = 0;
    await page.route('**/api/v1/chart/data**', async (route) => {
      if (JSON.parse(route.request().postData() ?? '{}').force === true) {
        held += 1;
        await new Promise((done) => setTimeout(done, 3_000));
      }
      await route.continue();
    });
    queries = [];
    const menuItem = page.getByRole('menuitem', { name: 'Force refresh' });
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    expect(await menuItem.isDisabled()).toBe(false);
    await menuItem.click();
    await expect.poll(() => held).toBe(2);
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    expect(await menuItem.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Refresh dashboard' }).isDisabled()).toBe(true);
    await screenshot(page, 'dashboard-force-refresh-disabled');
    await page.keyboard.press('Escape');
    expect(queries.map((q) => [q.sliceId, q.force]).sort()).toEqual([[chartIds['Births by gender'], true], [chartIds['Total births'], true]].sort());
    // Every chart answered: the refresh is over.
    await rendered(2);
    await expect.poll(() => page.getByRole('button', { name: 'Refresh dashboard' }).isDisabled(), { timeout: 10_000 }).toBe(false);
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    expect(await menuItem.isDisabled()).toBe(false);
    await page.keyboard.press('Escape');
    await page.unroute('**/api/v1/chart/data**');
  });

  it('a chart added in the editor is saved with its uuid in its chart meta', { timeout: 120_000 }, async () => {
    const position = positionFromLayout(layoutOfRows('Added', [[{ chartId: chartIds['Total births']!, width: 4 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Added', position_json: JSON.stringify(position) });
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/?edit=true`);
    await page.getByRole('complementary', { name: 'Dashboard builder' }).waitFor();
    await page.getByTestId('builder-item').filter({ hasText: 'Births by gender' }).first().dragTo(page.locator('[data-testid^="drop-ROW-"]:last-child').first());
    await expect.poll(() => page.getByTestId('dashboard-chart').count()).toBe(2);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    const stored = JSON.parse((await rest('get', `/api/v1/dashboard/${created.body.id}`)).body.result.position_json);
    const metas = Object.values(stored).filter((c: any) => c?.type === 'CHART').map((c: any) => c.meta);
    const uuidOf = async (id: number) => (await rest('get', `/api/v1/chart/${id}`)).body.result.uuid;
    expect(metas.find((m) => m.chartId === chartIds['Births by gender'])).toMatchObject({ sliceName: 'Births by gender', uuid: await uuidOf(chartIds['Births by gender']!) });
    expect(metas.find((m) => m.chartId === chartIds['Total births']).uuid).toBe(await uuidOf(chartIds['Total births']!));
  });

  it("'Select first filter value by default' picks the first value of a filter under 'More filters', and the charts in its scope wait for it", { timeout: 120_000 }, async () => {
    const filters = [selectFilter('NATIVE_FILTER-g', 'Gender', 'gender'), selectFilter('NATIVE_FILTER-n', 'Name', 'name'), selectFilter('NATIVE_FILTER-y', 'Number', 'num')];
    const state = selectFilter('NATIVE_FILTER-s', 'State', 'state', { requiredFirst: true, controlValues: { ...newNativeFilter('x').controlValues, defaultToFirstItem: true } });
    // The pie is out of the State filter's scope: it need not wait.
    state.scope = { rootPath: ['ROOT_ID'], excluded: [chartIds['Births by gender']!] };
    const position = positionFromLayout(layoutOfRows('First value', [[{ chartId: chartIds['Total births']!, width: 6 }, { chartId: chartIds['Births by gender']!, width: 6 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'First value', position_json: JSON.stringify(position), json_metadata: JSON.stringify({ filter_bar_orientation: 'HORIZONTAL', native_filter_configuration: [...filters, state] }) });
    queries = [];
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
    await rendered(2);
    // The State filter is not drawn: it sits under 'More filters', closed.
    await page.getByTestId('more-filters').waitFor();
    expect(await page.getByLabel('State', { exact: true }).count()).toBe(0);
    const total = queries.filter((q) => q.sliceId === chartIds['Total births']);
    // One query, already filtered on the first state (ascending): none ran before the value was known.
    expect(total).toHaveLength(1);
    expect(total[0]!.filters).toEqual([{ col: 'state', op: 'IN', val: ['CA'] }]);
    expect(queries.filter((q) => q.sliceId === chartIds['Births by gender']).map((q) => q.filters)).toEqual([[]]);
    await page.getByTestId('more-filters').click();
    const shown = page.locator('[data-testid="native-filter"][data-filter-id="NATIVE_FILTER-s"]');
    await shown.getByText('CA', { exact: true }).waitFor();
    await screenshot(page, 'dashboard-filter-first-value-more');
  });
});
