import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataMaskOf, newNativeFilter, type NativeFilter } from '../../contracts/src/dashboard/native-filters';
import { GRID_ID, layoutOfRows, newComponent, positionFromLayout, ROOT_ID, withParents } from '../../contracts/src/dashboard/layout-reducer';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureTestExamples } from '../helpers/examples';
import { afterFailure, closeDialog, ensureClientBuilt, launchBrowser, login, screenshot, signedInPage } from './browser';

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

  const rest = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown) => {
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
    t = await startTestApp({ listen: true, env: { FEATURE_ALLOW_FULL_CSV_EXPORT: 'true' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-dashboard-view-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    datasetId = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    const charts = [
      { slice_name: 'Births by gender', viz_type: 'pie', params: { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', row_limit: 10 } },
      { slice_name: 'Total births', viz_type: 'big_number_total', params: { viz_type: 'big_number_total', metric: 'sum__num' } },
      { slice_name: 'Births table', viz_type: 'table', params: { viz_type: 'table', query_mode: 'aggregate', groupby: ['state', 'gender'], metrics: ['sum__num'], row_limit: 5 } },
    ];
    for (const c of charts) {
      const res = await rest('post', '/api/v1/chart/', { slice_name: c.slice_name, viz_type: c.viz_type, datasource_id: datasetId, datasource_type: 'table', params: JSON.stringify({ ...c.params, datasource: `${datasetId}__table` }) });
      chartIds[c.slice_name] = res.body.id;
    }
    browser = await launchBrowser();
    page = await signedInPage(browser, t.url, { width: 1440, height: 900 });
    page.on('request', onRequest);
  });
  afterEach((ctx) => afterFailure(page, 'dashboard-view', ctx.task));
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

  /** A dashboard of the given charts, one per full-width row of `height` grid units, stacked. */
  const stackedDashboard = async (title: string, ids: number[], height = 50, extra: Record<string, unknown> = {}) => {
    const position = positionFromLayout(layoutOfRows(title, ids.map((chartId) => [{ chartId, width: 12, height }])));
    return (await rest('post', '/api/v1/dashboard/', { dashboard_title: title, position_json: JSON.stringify(position), ...extra })).body.id as number;
  };
  const inViewport = (id: number) =>
    page.locator(`[data-testid="dashboard-chart"][data-chart-id="${id}"]`).first().evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
  const menuItem = async (item: string) => {
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: item, exact: true }).click();
  };

  it("'dashboard-focused-chart' scrolls the chart far below into view, even when the filters' state is restored first, and leaves the address", { timeout: 120_000 }, async () => {
    const ids = [chartIds['Total births']!, chartIds['Births by gender']!, chartIds['Total births']!, chartIds['Births table']!];
    const id = await stackedDashboard('Focused', ids, 60);
    const table = chartIds['Births table']!;
    // A kept filter state is read before the grid is drawn: it answers late here.
    await page.route('**/filter_state/**', async (route) => {
      await new Promise((done) => setTimeout(done, 1_500));
      await route.continue();
    });
    try {
      await page.goto(`${t.url}/superset/dashboard/${id}/?native_filters_key=gone&dashboard-focused-chart=${table}`);
      const cell = page.locator(`[data-testid="dashboard-chart"][data-chart-id="${table}"]`);
      await cell.waitFor();
      await expect.poll(() => inViewport(table), { timeout: 10_000 }).toBe(true);
      // The focused chart is outlined for a moment.
      expect(await cell.getAttribute('data-focused')).toBe('true');
      await expect.poll(() => cell.getAttribute('data-chart-state'), { timeout: 30_000 }).toBe('rendered');
      expect(new URL(page.url()).searchParams.has('dashboard-focused-chart')).toBe(false);
      expect(new URL(page.url()).pathname).toBe(`/superset/dashboard/${id}/`);
      // The top chart was scrolled past (the picture below makes the window as tall as the page).
      expect(await inViewport(ids[0]!)).toBe(false);
      await screenshot(page, 'dashboard-focused-chart');
      await expect.poll(() => cell.getAttribute('data-focused'), { timeout: 10_000 }).toBe(null);
    } finally {
      await page.unroute('**/filter_state/**');
    }

    // A chart on a tab not shown first: its tab is opened for it.
    const tabbed = layoutOfRows('Focused tabs', [
      { tab: 'First', rows: [[{ chartId: chartIds['Total births']!, width: 6 }]] },
      { tab: 'Second', rows: [[{ chartId: table, width: 6 }]] },
    ]);
    const tabbedId = (await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Focused tabs', position_json: JSON.stringify(positionFromLayout(tabbed)) })).body.id;
    await page.goto(`${t.url}/superset/dashboard/${tabbedId}/?dashboard-focused-chart=${table}`);
    await rendered(1);
    expect(await page.getByTestId('dashboard-chart').getAttribute('data-chart-id')).toBe(String(table));
    expect(await page.getByRole('tab', { name: 'Second' }).getAttribute('aria-selected')).toBe('true');
    expect(new URL(page.url()).search).toBe('');
  });

  it("'Share dashboard by email' and a chart's 'Share chart by email' open a mailto: link carrying the permalink", { timeout: 120_000 }, async () => {
    const id = await stackedDashboard('Mailed', [chartIds['Total births']!]);
    // An extra parameter of the address is kept in the permalink; Meridian's own (standalone) is not.
    await page.goto(`${t.url}/superset/dashboard/${id}/?year=2000&standalone=0`);
    await rendered(1);
    const mailto = () => page.waitForRequest((r) => r.url().startsWith('mailto:'), { timeout: 15_000 });
    const [dashboardMail] = await Promise.all([mailto(), menuItem('Share dashboard by email')]);
    const dashboardHref = new URL(dashboardMail.url());
    expect(dashboardHref.searchParams.get('Subject')).toBe('Meridian dashboard: Mailed');
    const dashboardLink = /^Check out this dashboard: (\S+)$/.exec(dashboardHref.searchParams.get('Body') ?? '')?.[1];
    expect(dashboardLink).toMatch(new RegExp(`^${t.url}/superset/dashboard/p/[\\w-]+/$`));
    // The permalink opens this dashboard.
    const key = /\/p\/([\w-]+)\/$/.exec(dashboardLink!)![1];
    const dashboardState = (await rest('get', `/api/v1/dashboard/permalink/${key}`)).body;
    expect(dashboardState.dashboardId).toBe(String(id));
    expect(dashboardState.state.urlParams).toEqual([['year', '2000']]);
    expect(dashboardState.state.anchor ?? null).toBe(null);

    await page.getByTestId('dashboard-chart').getByTestId('chart-menu').click();
    const [chartMail] = await Promise.all([mailto(), page.getByRole('menuitem', { name: 'Share chart by email', exact: true }).click()]);
    const chartHref = new URL(chartMail.url());
    expect(chartHref.searchParams.get('Subject')).toBe('Meridian chart: Total births');
    // The chart's link is the dashboard's, anchored on the chart's layout component (Superset's chart share items).
    const chartLink = /^Check out this chart: (\S+)$/.exec(chartHref.searchParams.get('Body') ?? '')?.[1];
    expect(chartLink).toMatch(new RegExp(`^${t.url}/superset/dashboard/p/[\\w-]+/$`));
    const chartKey = /\/p\/([\w-]+)\/$/.exec(chartLink!)![1];
    const chartState = (await rest('get', `/api/v1/dashboard/permalink/${chartKey}`)).body;
    const position = JSON.parse((await rest('get', `/api/v1/dashboard/${id}`)).body.result.position_json);
    const chartComponent = Object.values(position as Record<string, { id: string; type: string; meta?: { chartId?: number } }>).find((c) => c?.type === 'CHART' && c.meta?.chartId === chartIds['Total births'])!.id;
    expect(chartState).toMatchObject({ dashboardId: String(id), state: { anchor: chartComponent, urlParams: [['year', '2000']] } });
  });

  it("a chart's permalink opens the dashboard in a fresh browser on the chart's tab, scrolled to the chart, with the address's extra parameter reaching its queries", { timeout: 150_000 }, async () => {
    const table = chartIds['Births table']!;
    const tabbed = layoutOfRows('Anchored', [
      { tab: 'First', rows: [[{ chartId: chartIds['Total births']!, width: 6 }]] },
      { tab: 'Second', rows: [[{ chartId: chartIds['Births by gender']!, width: 12, height: 70 }], [{ chartId: chartIds['Total births']!, width: 12, height: 70 }], [{ chartId: table, width: 12, height: 60 }]] },
    ]);
    const id = (await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Anchored', position_json: JSON.stringify(positionFromLayout(tabbed)) })).body.id as number;
    const tableComponent = Object.values(tabbed).find((c) => c.type === 'CHART' && c.meta.chartId === table)!.id;
    const secondTab = Object.values(tabbed).find((c) => c.type === 'TAB' && c.meta.text === 'Second')!.id;
    await page.goto(`${t.url}/superset/dashboard/${id}/?year=2000`);
    await rendered(1);
    await page.getByRole('tab', { name: 'Second' }).click();
    const cell = page.locator(`[data-testid="dashboard-chart"][data-chart-id="${table}"]`);
    await cell.scrollIntoViewIfNeeded();
    await expect.poll(() => cell.getAttribute('data-chart-state'), { timeout: 30_000 }).toBe('rendered');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    await cell.getByTestId('chart-menu').click();
    await page.getByRole('menuitem', { name: 'Copy permalink to clipboard', exact: true }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 15_000 }).toMatch(/\/superset\/dashboard\/p\/[\w-]+\/$/);
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const key = /\/p\/([\w-]+)\/$/.exec(link)![1];
    expect((await rest('get', `/api/v1/dashboard/permalink/${key}`)).body.state).toMatchObject({ anchor: tableComponent, urlParams: [['year', '2000']], activeTabs: [secondTab] });

    // Someone else's browser: the link opens the dashboard on the Second tab, scrolled down to the table.
    const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
    const other = await fresh.newPage();
    const urlParams: unknown[] = [];
    other.on('request', (req) => {
      if (req.url().includes('/api/v1/chart/data') && req.method() === 'POST') urlParams.push(JSON.parse(req.postData() ?? '{}').form_data?.url_params);
    });
    try {
      await login(other, t.url);
      await other.goto(link.replace(/^https?:\/\/[^/]+/, t.url));
      await other.waitForURL(new RegExp(`/superset/dashboard/${id}/\\?year=2000#${tableComponent}$`));
      const otherCell = other.locator(`[data-testid="dashboard-chart"][data-chart-id="${table}"]`);
      await otherCell.waitFor();
      expect(await other.getByRole('tab', { name: 'Second' }).getAttribute('aria-selected')).toBe('true');
      const inView = (id: number) =>
        other.locator(`[data-testid="dashboard-chart"][data-chart-id="${id}"]`).first().evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        });
      await expect.poll(() => inView(table), { timeout: 10_000 }).toBe(true);
      // The chart at the top of the tab was scrolled past; the anchored one is outlined for a moment.
      expect(await inView(chartIds['Births by gender']!)).toBe(false);
      expect(await otherCell.getAttribute('data-focused')).toBe('true');
      await expect.poll(() => otherCell.getAttribute('data-chart-state'), { timeout: 30_000 }).toBe('rendered');
      await screenshot(other, 'dashboard-chart-permalink-anchor');
      // The kept parameter reaches the charts' queries as url_params, as on the page the link was made from.
      expect(urlParams.length).toBeGreaterThan(0);
      expect(urlParams.every((p) => JSON.stringify(p) === JSON.stringify({ year: '2000' }))).toBe(true);

      // The anchor alone (no active tabs kept) opens the tab that holds it.
      const anchorOnly = await rest('post', `/api/v1/dashboard/${id}/permalink`, { anchor: tableComponent, activeTabs: [], urlParams: [], dataMask: {} });
      await other.goto(anchorOnly.body.url.replace(/^https?:\/\/[^/]+/, t.url));
      await other.waitForURL(new RegExp(`/superset/dashboard/${id}/#${tableComponent}$`));
      await expect.poll(() => other.getByRole('tab', { name: 'Second' }).getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => inView(table), { timeout: 10_000 }).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it("json_metadata.expanded_slices opens a chart's description; the descriptions toggled are saved as expanded_slices with the dashboard", { timeout: 120_000 }, async () => {
    const described = async (name: string, description: string) =>
      (await rest('post', '/api/v1/chart/', { slice_name: name, description, viz_type: 'big_number_total', datasource_id: datasetId, datasource_type: 'table', params: JSON.stringify({ viz_type: 'big_number_total', metric: 'sum__num', datasource: `${datasetId}__table` }) })).body.id as number;
    const opened = await described('Described births', 'Every birth in the table, summed.');
    const closed = await described('Other births', 'The same sum, described too.');
    const position = positionFromLayout(layoutOfRows('Described', [[{ chartId: opened, width: 6 }, { chartId: closed, width: 6 }]]));
    const id = (await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Described', position_json: JSON.stringify(position), json_metadata: JSON.stringify({ expanded_slices: { [opened]: true } }) })).body.id as number;
    await page.goto(`${t.url}/superset/dashboard/${id}/`);
    await rendered(2);
    const cellOf = (chartId: number) => page.locator(`[data-testid="dashboard-chart"][data-chart-id="${chartId}"]`);
    await expect(cellOf(opened).getByTestId('chart-description').textContent()).resolves.toBe('Every birth in the table, summed.');
    expect(await cellOf(closed).getByTestId('chart-description').count()).toBe(0);
    await screenshot(page, 'dashboard-expanded-slices');

    // Toggled from the charts' menus: the first closed, the second opened; kept into edit mode and saved with it.
    await cellOf(opened).getByTestId('chart-menu').click();
    await page.getByRole('menuitem', { name: 'Hide chart description' }).click();
    await cellOf(closed).getByTestId('chart-menu').click();
    await page.getByRole('menuitem', { name: 'Show chart description' }).click();
    await cellOf(closed).getByTestId('chart-description').waitFor();
    expect(await cellOf(opened).getByTestId('chart-description').count()).toBe(0);
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await cellOf(closed).getByTestId('chart-description').waitFor();
    await page.getByLabel('Dashboard title').fill('Described again');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    const metadata = JSON.parse((await rest('get', `/api/v1/dashboard/${id}`)).body.result.json_metadata);
    expect(metadata.expanded_slices).toEqual({ [closed]: true });
    await page.reload();
    await rendered(2);
    await cellOf(closed).getByTestId('chart-description').waitFor();
    expect(await cellOf(opened).getByTestId('chart-description').count()).toBe(0);
  });

  it("'Export to full Excel' of a table chart (ALLOW_FULL_CSV_EXPORT) saves an .xlsx with every row of the result, past the chart's row limit", { timeout: 120_000 }, async () => {
    const table = chartIds['Births table']!;
    const id = await stackedDashboard('Full Excel', [table]);
    await page.goto(`${t.url}/superset/dashboard/${id}/`);
    await rendered(1);
    const cell = page.getByTestId('dashboard-chart');
    const download = async (item: string) => {
      await cell.getByTestId('chart-menu').click();
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: item, exact: true }).click()]);
      const path = join(dir, `${Date.now()}-${file.suggestedFilename()}`);
      await file.saveAs(path);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(readFileSync(path) as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return { name: file.suggestedFilename(), rows };
    };
    // Every (state, gender) pair, as the server counts them.
    const all = await rest('post', '/api/v1/chart/data', { datasource: { id: datasetId, type: 'table' }, queries: [{ columns: ['state', 'gender'], metrics: ['sum__num'], row_limit: 100_000 }], result_format: 'json', result_type: 'full' });
    const total = all.body.result[0].data.length as number;
    expect(total).toBeGreaterThan(5);

    const limited = await download('Export to Excel');
    expect(limited.rows).toHaveLength(1 + 5);
    const full = await download('Export to full Excel');
    expect(full.name).toBe('Births table.xlsx');
    expect(full.rows[0]).toEqual(['state', 'gender', 'sum__num']);
    expect(full.rows).toHaveLength(1 + total);
    const pairs = (rows: unknown[][]) => rows.map((r) => `${r[0]}|${r[1]}`).sort();
    expect(pairs(full.rows.slice(1))).toEqual(pairs(all.body.result[0].data.map((r: Record<string, unknown>) => [r.state, r.gender])));
  });

  it("the CSS editor previews typed CSS on the page before it is saved; Save keeps it, Discard would not", { timeout: 120_000 }, async () => {
    const id = await stackedDashboard('Styled', [chartIds['Total births']!]);
    await page.goto(`${t.url}/superset/dashboard/${id}/`);
    await rendered(1);
    const background = () => page.getByTestId('dashboard-chart').evaluate((el) => getComputedStyle(el).backgroundColor);
    const before = await background();
    expect(before).not.toBe('rgb(255, 228, 196)');
    await menuItem('Edit CSS');
    const dialog = page.getByRole('dialog', { name: 'Edit CSS' });
    await dialog.getByLabel('CSS', { exact: true }).fill('[data-testid="dashboard-chart"] { background-color: rgb(255, 228, 196) !important; }');
    // Live: the page changed while the editor is open, nothing is saved yet.
    await expect.poll(background).toBe('rgb(255, 228, 196)');
    expect((await rest('get', `/api/v1/dashboard/${id}`)).body.result.css ?? '').toBe('');
    await screenshot(page, 'dashboard-css-live-preview');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(background).toBe(before);

    await menuItem('Edit CSS');
    await dialog.getByLabel('CSS', { exact: true }).fill('[data-testid="dashboard-chart"] { background-color: rgb(255, 228, 196) !important; }');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    expect((await rest('get', `/api/v1/dashboard/${id}`)).body.result.css).toContain('rgb(255, 228, 196)');
    await page.reload();
    await rendered(1);
    expect(await background()).toBe('rgb(255, 228, 196)');
  });

  it('an auto-refresh interval chosen in edit mode is saved in json_metadata.refresh_frequency and kept after a reload', { timeout: 120_000 }, async () => {
    const id = await stackedDashboard('Timed', [chartIds['Total births']!], 50, { json_metadata: JSON.stringify({ color_scheme: 'supersetColors' }) });
    await page.goto(`${t.url}/superset/dashboard/${id}/?edit=true`);
    await page.getByRole('complementary', { name: 'Dashboard builder' }).waitFor();
    await menuItem('Set auto-refresh interval');
    const dialog = page.getByRole('dialog', { name: 'Refresh interval' });
    await dialog.getByText('The interval is saved with the dashboard.').waitFor();
    await dialog.getByLabel('Refresh frequency').click();
    await page.getByRole('option', { name: '5 minutes' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Choosing it is an edit: Save is enabled, and saving writes it beside the other metadata.
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await expect.poll(() => save.isDisabled()).toBe(false);
    await save.click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    const stored = JSON.parse((await rest('get', `/api/v1/dashboard/${id}`)).body.result.json_metadata);
    expect(stored).toMatchObject({ refresh_frequency: 300, color_scheme: 'supersetColors' });

    await page.reload();
    await rendered(1);
    await menuItem('Set auto-refresh interval');
    await expect.poll(() => dialog.getByLabel('Refresh frequency').inputValue()).toBe('5 minutes');
    await closeDialog(page);
  });

  it("a publish that the server refuses (403 or 500) toasts 'You do not have permissions to edit this dashboard.' and leaves the state as it was", { timeout: 120_000 }, async () => {
    const id = await stackedDashboard('Unpublishable', [chartIds['Total births']!]);
    await page.goto(`${t.url}/superset/dashboard/${id}/`);
    await rendered(1);
    const badge = page.getByRole('button', { name: 'Draft', exact: true });
    for (const status of [403, 500]) {
      await page.route(`**/api/v1/dashboard/${id}`, (route) =>
        route.request().method() === 'PUT' ? route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message: status === 403 ? 'Forbidden' : 'Internal server error' }) }) : route.continue(),
      );
      await badge.click();
      const toast = page.getByText('You do not have permissions to edit this dashboard.', { exact: true });
      await toast.waitFor();
      if (status === 403) await screenshot(page, 'dashboard-publish-refused');
      expect(await badge.count()).toBe(1);
      await page.unroute(`**/api/v1/dashboard/${id}`);
      await page.locator('.mantine-Notification-root').filter({ hasText: 'You do not have permissions' }).getByRole('button').first().click().catch(() => undefined);
      await toast.waitFor({ state: 'detached', timeout: 15_000 });
    }
    expect((await rest('get', `/api/v1/dashboard/${id}`)).body.result.published).toBe(false);
    // Once the server agrees, the same badge publishes.
    await badge.click();
    await page.getByText('This dashboard is now published').waitFor();
    expect((await rest('get', `/api/v1/dashboard/${id}`)).body.result.published).toBe(true);
  });

  it('a chart far below the fold is neither fetched nor drawn until it is scrolled near; then it is', { timeout: 120_000 }, async () => {
    const top = chartIds['Total births']!;
    const bottom = chartIds['Births table']!;
    // Three tall charts above the table: it sits several screens down.
    const id = await stackedDashboard('Folded', [top, chartIds['Births by gender']!, top, bottom], 100);
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 500 });
    try {
      queries = [];
      await page.goto(`${t.url}/superset/dashboard/${id}/`);
      const cell = page.locator(`[data-testid="dashboard-chart"][data-chart-id="${bottom}"]`);
      await expect.poll(() => page.locator(`[data-testid="dashboard-chart"][data-chart-id="${top}"][data-chart-state="rendered"]`).count(), { timeout: 30_000 }).toBeGreaterThan(0);
      // Time enough for a call to have gone out, had one been made.
      await page.waitForTimeout(1_500);
      expect(queries.map((q) => q.sliceId)).not.toContain(bottom);
      expect(await cell.getAttribute('data-chart-state')).toBe('loading');
      expect(await cell.locator('table').count()).toBe(0);

      await cell.scrollIntoViewIfNeeded();
      await expect.poll(() => queries.filter((q) => q.sliceId === bottom).length, { timeout: 15_000 }).toBe(1);
      await expect.poll(() => cell.getAttribute('data-chart-state'), { timeout: 30_000 }).toBe('rendered');
      await cell.locator('table').first().waitFor();
      await screenshot(page, 'dashboard-below-fold-drawn');
    } finally {
      await page.setViewportSize(viewport);
    }
  });

  it("a chart in a column lines up with the chart beside it in the row: the tops of the row's charts are level, also of a row inside a column", { timeout: 120_000 }, async () => {
    // One row: a chart, a column of two charts, and a column holding a row with a chart (Superset's nesting).
    const layout = layoutOfRows('Columns', [[{ chartId: chartIds['Births by gender']!, width: 4, height: 40 }]]);
    const row = layout[layout[GRID_ID]!.children[0]!]!;
    const column = newComponent('COLUMN', { width: 4 });
    const nested = newComponent('COLUMN', { width: 4 });
    const innerRow = newComponent('ROW');
    const total = newComponent('CHART', { chartId: chartIds['Total births']!, width: 4, height: 20 });
    const gender = newComponent('CHART', { chartId: chartIds['Births by gender']!, width: 4, height: 20 });
    const table = newComponent('CHART', { chartId: chartIds['Births table']!, width: 4, height: 40 });
    column.children.push(total.id, gender.id);
    innerRow.children.push(table.id);
    nested.children.push(innerRow.id);
    row.children.push(column.id, nested.id);
    for (const c of [column, nested, innerRow, total, gender, table]) layout[c.id] = c;
    const position = positionFromLayout(withParents(layout));
    const id = (await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Columns', position_json: JSON.stringify(position) })).body.id as number;
    const tops = () =>
      page.locator('[data-testid="dashboard-row"]').first().evaluate((r) => [...r.querySelectorAll('[data-testid="dashboard-chart"]')].map((el) => Math.round(el.getBoundingClientRect().top)));
    await page.goto(`${t.url}/superset/dashboard/${id}/`);
    await rendered(4);
    const [beside, inColumn, below, inNestedRow] = await tops();
    // Level tops: a column's first chart, and a row's chart inside a column (it sat 8 px lower, under the row's padding).
    expect(inColumn).toBe(beside);
    expect(inNestedRow).toBe(beside);
    expect(below).toBeGreaterThan(inColumn!);
    await screenshot(page, 'dashboard-column-tops');
  });

  it('the dashboards list narrows by Status and Favorite, and exports and deletes the selected dashboards', { timeout: 150_000 }, async () => {
    const published = await stackedDashboard('Listed published', [chartIds['Total births']!], 50, { published: true });
    const draft = await stackedDashboard('Listed draft', [chartIds['Total births']!], 50, { published: false });
    const favourite = await stackedDashboard('Listed favourite', [chartIds['Total births']!], 50, { published: false });
    await rest('post', `/api/v1/dashboard/${favourite}/favorites/`);
    await page.goto(`${t.url}/dashboard/list/`);
    if (await page.getByTestId('list-view').count()) await page.getByTestId('list-view').click();
    const table = page.getByRole('table', { name: 'Dashboards' });
    const names = async () => (await table.getByRole('link', { name: /^Listed / }).allTextContents()).sort();
    await page.getByLabel('Search dashboards').fill('Listed');
    await expect.poll(names).toEqual(['Listed draft', 'Listed favourite', 'Listed published']);

    const choose = async (filter: string, option: string) => {
      await page.getByRole('combobox', { name: filter, exact: true }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    await choose('Status', 'Published');
    await expect.poll(names).toEqual(['Listed published']);
    await choose('Status', 'Draft');
    await expect.poll(names).toEqual(['Listed draft', 'Listed favourite']);
    await screenshot(page, 'dashboard-list-status-draft');
    await choose('Favorite', 'Favorites');
    await expect.poll(names).toEqual(['Listed favourite']);
    await choose('Favorite', 'Not favorites');
    await expect.poll(names).toEqual(['Listed draft']);
    // Back to every 'Listed' dashboard.
    await page.reload();
    if (await page.getByTestId('list-view').count()) await page.getByTestId('list-view').click();
    await page.getByLabel('Search dashboards').fill('Listed');
    // The search applied (a new query clears a selection): only these rows are left.
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    await expect.poll(names).toEqual(['Listed draft', 'Listed favourite', 'Listed published']);

    const select = (name: string) => table.getByRole('row').filter({ hasText: name }).getByRole('checkbox', { name: 'Select row' }).check();
    await select('Listed published');
    await select('Listed draft');
    const bulk = page.getByRole('toolbar', { name: 'Bulk actions' });
    await bulk.getByText('2 selected').waitFor();
    await screenshot(page, 'dashboard-list-bulk-selected');
    const [file] = await Promise.all([page.waitForEvent('download'), bulk.getByRole('button', { name: 'Export', exact: true }).click()]);
    expect(file.suggestedFilename()).toMatch(/\.zip$/);
    const path = join(dir, `${Date.now()}-${file.suggestedFilename()}`);
    await file.saveAs(path);
    const zip = await JSZip.loadAsync(readFileSync(path));
    const dashboardFiles = Object.keys(zip.files).filter((f) => /\/dashboards\/[^/]+\.yaml$/.test(f));
    const titles = await Promise.all(dashboardFiles.map(async (f) => /dashboard_title: (.+)/.exec(await zip.file(f)!.async('string'))?.[1]?.trim()));
    expect(titles.sort()).toEqual(['Listed draft', 'Listed published']);
    expect(Object.keys(zip.files).some((f) => /\/charts\/[^/]+\.yaml$/.test(f))).toBe(true);

    // Bulk delete of the same two (an action clears the selection) asks first, with DELETE typed.
    await select('Listed published');
    await select('Listed draft');
    await bulk.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to delete the 2 selected dashboards?').waitFor();
    const remove = confirm.getByRole('button', { name: 'Delete', exact: true });
    expect(await remove.isDisabled()).toBe(true);
    await confirm.getByLabel('Type "DELETE" to confirm').fill('DELETE');
    await remove.click();
    await page.getByText('Deleted 2 dashboards').waitFor();
    await expect.poll(names).toEqual(['Listed favourite']);
    expect((await rest('get', `/api/v1/dashboard/${published}`)).status).toBe(404);
    expect((await rest('get', `/api/v1/dashboard/${draft}`)).status).toBe(404);
    expect((await rest('get', `/api/v1/dashboard/${favourite}`)).status).toBe(200);
  });
});
