import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SAVE_CROSS_FILTER_SCOPING_FAILED } from '../../contracts/src/messages';
import { ToastType } from '../../contracts/src/rules/toast';
import { newNativeFilter } from '../../contracts/src/dashboard/native-filters';
import { ensureExampleDashboards } from '../../server/src/dashboard/example-dashboards';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type TestApp } from '../helpers/app';
import { afterFailure, ensureClientBuilt, launchBrowser, login, SCREENS_DIR, screenshot, signedInPage } from './browser';

type Extra = { filters?: Array<{ col: string; op: string; val: unknown }>; time_range?: string };
type Query = { columns?: unknown[]; metrics?: unknown[]; orderby?: unknown[]; adhoc_filters?: Array<Record<string, unknown>>; time_range?: string; granularity?: string | null };

// More of issue 13 in a real Chromium: Clear all waiting for Apply, the filters out of scope, reordering and dividers,
// sorted and pre-filtered options, failed saves, cross-filters switched off, and legacy filter boxes.
describe('native filters in the browser, continued', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let admin: string;
  let dashboardId: number;
  let datasetId: number;
  const chartId: Record<string, number> = {};
  /** The extra_form_data of the last chart data request of each chart, by slice id. */
  let sent = new Map<number, Extra>();
  /** Every chart data request of a chart (those with a slice id), in order. */
  let chartCalls: number[] = [];
  /** The options queries of value filters (chart data requests without a slice id), in order. */
  let optionQueries: Query[] = [];

  const onRequest = (req: Request) => {
    if (!req.url().includes('/api/v1/chart/data') || req.method() !== 'POST') return;
    const sliceId = Number(JSON.parse(new URL(req.url()).searchParams.get('form_data') ?? '{}').slice_id);
    const body = JSON.parse(req.postData() ?? '{}');
    if (!sliceId) {
      optionQueries.push((body.queries?.[0] ?? {}) as Query);
      return;
    }
    chartCalls.push(sliceId);
    sent.set(sliceId, (body.form_data?.extra_form_data ?? {}) as Extra);
  };
  const auth = () => ['Authorization', `Bearer ${admin}`] as const;
  const metadataOf = async (id: number) => JSON.parse((await t.http.get(`/api/v1/dashboard/${id}`).set(...auth())).body.result.json_metadata);
  const putMetadata = async (id: number, metadata: Record<string, unknown>) => t.http.put(`/api/v1/dashboard/${id}`).set(...auth()).send({ json_metadata: JSON.stringify(metadata) }).expect(200);
  const expectFilter = async (chart: string, col: string, val: unknown[] | null, op = 'IN') =>
    expect
      .poll(() => {
        const extra = sent.get(chartId[chart]!);
        if (!extra) return 'no query yet';
        const f = extra.filters?.find((x) => x.col === col);
        return val === null ? (f ? 'filtered' : 'none') : f ? JSON.stringify([f.op, f.val]) : 'none';
      }, { timeout: 20_000 })
      .toBe(val === null ? 'none' : JSON.stringify([op, val]));
  const cell = (name: string) => page.locator(`[data-testid="dashboard-chart"][data-chart-id="${chartId[name]}"]`);
  /** Waits until the dashboard's charts are there (not merely none yet) and every one is drawn. */
  const drawn = async (p = page) => {
    await p.locator('[data-testid="dashboard-chart"]').first().waitFor();
    await expect.poll(async () => p.locator('[data-testid="dashboard-chart"]:not([data-chart-state="rendered"])').count(), { timeout: 30_000 }).toBe(0);
  };
  const filterInput = (name: string) => page.getByTestId('filter-bar').getByLabel(name, { exact: true });
  const options = async (name: string) => {
    await filterInput(name).click();
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    const texts = await page.getByRole('listbox').getByRole('option').allTextContents();
    await page.keyboard.press('Escape');
    return texts.filter((o) => o !== 'Select All');
  };
  const openFiltersModal = async () => {
    await page.getByRole('button', { name: 'Filter bar settings' }).click();
    await page.getByRole('menuitem', { name: 'Add or edit filters' }).click();
    const modal = page.getByRole('dialog', { name: 'Add and edit filters' });
    await modal.getByTestId('filter-config-item').first().waitFor();
    return modal;
  };
  const openBirths = async () => {
    await page.goto(`${t.url}/superset/dashboard/births/`);
    await page.getByTestId('filter-bar').waitFor();
    await drawn();
  };
  /** The filter bar's items in their order: a filter by its name, a divider as `— title / description`. */
  const barItems = () =>
    page
      .getByTestId('filter-bar')
      .locator('[data-testid="native-filter"], [data-testid="filter-divider"]')
      .evaluateAll((els) => els.map((el) => (el.getAttribute('data-testid') === 'filter-divider' ? `— ${[...el.children].map((c) => c.textContent).join(' / ')}` : (el.querySelector('label')?.textContent ?? ''))));
  /** The first name of the names table, clicked: with cross-filters on, it emits one. */
  const clickFirstName = async (p: Page, tableId: number) => {
    const table = p.locator(`[data-testid="dashboard-chart"][data-chart-id="${tableId}"]`);
    await table.scrollIntoViewIfNeeded();
    await table.getByRole('cell').first().click();
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-filters-more-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    await ensureExampleDashboards(t.services);
    const board = await t.http.get('/api/v1/dashboard/births').set(...auth());
    dashboardId = board.body.result.id;
    const charts = await t.http.get(`/api/v1/dashboard/${dashboardId}/charts`).set(...auth());
    for (const c of charts.body.result) chartId[c.slice_name] = c.id;
    datasetId = (await t.http.get('/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))').set(...auth())).body.ids[0];
    browser = await launchBrowser();
    page = await signedInPage(browser, t.url, { width: 1440, height: 1000 });
    page.on('request', onRequest);
  });
  afterEach((ctx) => afterFailure(page, 'filters-more', ctx.task));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Clear all empties the bar but the charts keep their filtered data, with no new query, until Apply', { timeout: 120_000 }, async () => {
    sent = new Map();
    await openBirths();
    await expectFilter('Total births', 'gender', ['girl']);
    const shownBefore = await cell('Total births').textContent();
    const gender = page.getByTestId('filter-bar').getByTestId('native-filter').filter({ hasText: 'Gender' });
    expect(await filterInput('Gender').inputValue()).toBe('girl');
    chartCalls = [];
    await page.getByTestId('filter-bar-clear').click();
    await expect.poll(() => filterInput('Gender').inputValue()).toBe('');
    expect(await page.getByTestId('filter-bar-apply').isDisabled()).toBe(false);
    // Nothing is asked of the server, and the charts show what they showed, still filtered.
    await page.waitForTimeout(1_500);
    expect(chartCalls).toEqual([]);
    expect(await cell('Total births').textContent()).toBe(shownBefore);
    expect(await cell('Total births').getByTestId('filter-indicator').textContent()).toBe('1');
    await screenshot(page, 'filters-more-cleared-not-applied');
    await page.getByTestId('filter-bar-apply').click();
    await expectFilter('Total births', 'gender', null);
    expect(chartCalls).toContain(chartId['Total births']);
    await expect.poll(() => cell('Total births').getByTestId('filter-indicator').count()).toBe(0);
    await drawn();
    expect(await cell('Total births').textContent()).not.toBe(shownBefore);
    // Cleared and applied is what a reload restores (native_filters_key), not the default.
    await expect.poll(() => new URL(page.url()).searchParams.get('native_filters_key')).toBeTruthy();
    sent = new Map();
    await page.reload();
    await gender.waitFor();
    await expectFilter('Total births', 'gender', null);
    expect(await filterInput('Gender').inputValue()).toBe('');
  });

  it("a filter whose scope reaches no chart of the tab shown sits under 'Filters out of scope', and comes back on its tab", { timeout: 120_000 }, async () => {
    const board = (await t.http.get('/api/v1/dashboard/world_health').set(...auth())).body.result;
    const layout = JSON.parse(board.position_json) as Record<string, { type: string; id: string; meta?: { text?: string } }>;
    const health = Object.values(layout).find((c) => c.type === 'TAB' && c.meta?.text === 'Health')!;
    const worldDataset = (await t.http.get('/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:wb_health_population)))').set(...auth())).body.ids[0];
    const region = newNativeFilter('NATIVE_FILTER-region', 'filter_select');
    region.name = 'Region';
    region.targets = [{ datasetId: worldDataset, column: { name: 'region' } }];
    const healthOnly = newNativeFilter('NATIVE_FILTER-health', 'filter_select');
    healthOnly.name = 'Health region';
    healthOnly.targets = [{ datasetId: worldDataset, column: { name: 'region' } }];
    // The Health tab alone (a root path), as Superset's scope tree writes it.
    healthOnly.scope = { rootPath: [health.id], excluded: [] };
    await putMetadata(board.id, { ...JSON.parse(board.json_metadata), native_filter_configuration: [region, healthOnly] });

    await page.goto(`${t.url}/superset/dashboard/world_health/`);
    const bar = page.getByTestId('filter-bar');
    const outOfScope = bar.getByTestId('filters-out-of-scope');
    await outOfScope.waitFor();
    expect(await outOfScope.locator('summary').textContent()).toBe('Filters out of scope (1)');
    // The in-scope list holds Region only; Health region is inside the section.
    const inScopeNames = () => bar.locator('[data-testid="native-filter"]:not([data-testid="filters-out-of-scope"] *) label').allTextContents();
    expect(await inScopeNames()).toEqual(['Region']);
    expect(await outOfScope.getByTestId('native-filter').locator('label').allTextContents()).toEqual(['Health region']);
    await outOfScope.locator('summary').click();
    await outOfScope.getByTestId('native-filter').filter({ hasText: 'Health region' }).locator('input').first().waitFor({ state: 'visible' });
    await screenshot(page, 'filters-more-out-of-scope');
    // On the Health tab the filter is in scope: the section goes.
    await page.getByRole('tab', { name: 'Health' }).click();
    await expect.poll(() => outOfScope.count()).toBe(0);
    await expect.poll(inScopeNames).toEqual(['Region', 'Health region']);
    await putMetadata(board.id, JSON.parse(board.json_metadata));
  });

  it('a value filter sorted by a metric, descending then ascending, with a pre-filter (SQL and time range): the options query carries them and the options follow', { timeout: 180_000 }, async () => {
    await openBirths();
    const modal = await openFiltersModal();
    await modal.getByTestId('filter-config-item').filter({ hasText: 'State' }).click();
    const form = modal.getByTestId('filter-form');
    await form.getByLabel('Pre-filter available values').check();
    await form.getByRole('button', { name: 'Add filter' }).click();
    const editor = page.getByRole('dialog').filter({ has: page.getByRole('tab', { name: 'Custom SQL' }) });
    await editor.getByRole('tab', { name: 'Custom SQL' }).click();
    await editor.getByTestId('sql-expression-editor').locator('.ace_content').click();
    await page.keyboard.insertText("state IN ('CA', 'NY', 'TX', 'FL', 'IL')");
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await form.getByText("state IN ('CA', 'NY', 'TX', 'FL', 'IL')").waitFor();
    // The time range of the options query.
    await form.getByRole('button', { name: 'Time range' }).click();
    await page.getByText('Advanced', { exact: true }).click();
    await page.getByLabel('START (INCLUSIVE)').fill('1990-01-01');
    await page.getByLabel('END (EXCLUSIVE)').fill('2000-01-01');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await form.getByLabel('Sort filter values').check();
    await form.getByLabel('Sort descending').check();
    await form.getByLabel('Sort Metric').click();
    await page.getByRole('option', { name: 'sum__num', exact: true }).click();
    await screenshot(page, 'filters-more-sort-prefilter-form');
    await modal.getByTestId('filters-save').click();
    await modal.waitFor({ state: 'detached' });

    const state = (await metadataOf(dashboardId)).native_filter_configuration.find((f: { name: string }) => f.name === 'State');
    expect(state).toMatchObject({ sortMetric: 'sum__num', controlValues: { sortAscending: false }, time_range: '1990-01-01 : 2000-01-01', adhoc_filters: [{ expressionType: 'SQL', sqlExpression: "state IN ('CA', 'NY', 'TX', 'FL', 'IL')" }] });

    // What the options should be, asked of the server on its own: the five states by births in the 1990s.
    const expected = async (ascending: boolean) => {
      const answer = await t.http.post('/api/v1/chart/data').set(...auth()).send({ datasource: { id: datasetId, type: 'table' }, queries: [{ columns: ['state'], metrics: ['sum__num'], orderby: [['sum__num', ascending]], filters: [{ col: 'state', op: 'IN', val: ['CA', 'NY', 'TX', 'FL', 'IL'] }], time_range: '1990-01-01 : 2000-01-01', granularity: 'ds', row_limit: 100 }], result_format: 'json', result_type: 'full' }).expect(200);
      return (answer.body.result[0].data as Array<{ state: string }>).map((r) => r.state);
    };
    const descending = await expected(false);
    expect(descending.length).toBe(5);
    // A metric order, not the alphabet's.
    expect(descending).not.toEqual([...descending].sort());
    // The time range narrows the sums (the server reads it with the granularity column).
    const sums = async (time_range: string) => (await t.http.post('/api/v1/chart/data').set(...auth()).send({ datasource: { id: datasetId, type: 'table' }, queries: [{ columns: [], metrics: ['sum__num'], time_range, granularity: 'ds' }], result_format: 'json', result_type: 'full' })).body.result[0].data[0].sum__num;
    expect(await sums('1990-01-01 : 2000-01-01')).toBeLessThan(await sums('No filter'));

    optionQueries = [];
    await expect.poll(() => options('State'), { timeout: 20_000 }).toEqual(descending);
    const query = optionQueries.find((q) => JSON.stringify(q.columns) === '["state"]')!;
    expect(query).toMatchObject({ orderby: [['sum__num', false]], time_range: '1990-01-01 : 2000-01-01', granularity: 'ds', adhoc_filters: [{ expressionType: 'SQL', sqlExpression: "state IN ('CA', 'NY', 'TX', 'FL', 'IL')" }] });
    expect(query.metrics).toEqual(['sum__num']);
    await filterInput('State').click();
    await screenshot(page, 'filters-more-sorted-options');
    await page.keyboard.press('Escape');

    // Ascending.
    const again = await openFiltersModal();
    await again.getByTestId('filter-config-item').filter({ hasText: 'State' }).click();
    await again.getByTestId('filter-form').getByLabel('Sort ascending').check();
    // The bar's State list was opened: it asks for its options again as soon as the configuration changes.
    optionQueries = [];
    await again.getByTestId('filters-save').click();
    await again.waitFor({ state: 'detached' });
    await expect.poll(() => options('State'), { timeout: 20_000 }).toEqual(await expected(true));
    expect(optionQueries.find((q) => JSON.stringify(q.columns) === '["state"]')?.orderby).toEqual([['sum__num', true]]);
  });

  it('the modal reorders filters and adds a divider (title and description trimmed): saved, and shown in the bar in that order', { timeout: 120_000 }, async () => {
    await openBirths();
    expect(await barItems()).toEqual(['Gender', 'Name', 'State', 'Years']);
    const modal = await openFiltersModal();
    await modal.getByRole('button', { name: 'Add filters and dividers' }).click();
    await page.getByRole('menuitem', { name: 'Divider' }).click();
    const form = modal.getByTestId('filter-form');
    await form.getByRole('textbox', { name: 'Title' }).fill('  Where and when  ');
    await form.getByRole('textbox', { name: 'Description' }).fill('   Narrow by place and years.  \n');
    const item = (name: string) => modal.getByTestId('filter-config-item').filter({ hasText: name });
    const listed = () => modal.getByTestId('filter-config-item').allTextContents();
    // The divider, last, moves up twice: above State.
    await item('Where and when').getByRole('button', { name: 'Move up' }).click();
    await item('Where and when').getByRole('button', { name: 'Move up' }).click();
    // Years above State; Gender below Name.
    await item('Years').getByRole('button', { name: 'Move up' }).click();
    await item('Gender').getByRole('button', { name: 'Move down' }).click();
    await expect.poll(listed).toEqual(['Name', 'Gender', 'Where and when', 'Years', 'State'].map((n) => expect.stringContaining(n)));
    // The first cannot move up, nor the last down.
    expect(await item('Name').getByRole('button', { name: 'Move up' }).isDisabled()).toBe(true);
    expect(await item('State').getByRole('button', { name: 'Move down' }).isDisabled()).toBe(true);
    await screenshot(page, 'filters-more-reorder-divider');
    await modal.getByTestId('filters-save').click();
    await modal.waitFor({ state: 'detached' });

    const config = (await metadataOf(dashboardId)).native_filter_configuration as Array<{ type: string; name?: string; title?: string; description?: string }>;
    expect(config.map((f) => (f.type === 'DIVIDER' ? `— ${f.title}` : f.name))).toEqual(['Name', 'Gender', '— Where and when', 'Years', 'State']);
    expect(config[2]).toMatchObject({ type: 'DIVIDER', title: 'Where and when', description: 'Narrow by place and years.' });
    await expect.poll(barItems).toEqual(['Name', 'Gender', '— Where and when / Narrow by place and years.', 'Years', 'State']);
    await screenshot(page, 'filters-more-bar-order');
    // And after a reload, from the stored configuration.
    await page.reload();
    await page.getByTestId('filter-bar').waitFor();
    await expect.poll(barItems).toEqual(['Name', 'Gender', '— Where and when / Narrow by place and years.', 'Years', 'State']);
  });

  it("a failed save of the filters says so and keeps the modal and the stored configuration; a failed cross-filter scoping save reads 'Failed to save cross-filter scoping'", { timeout: 120_000 }, async () => {
    await openBirths();
    const before = await metadataOf(dashboardId);
    const itemsBefore = await barItems();
    const failPut = async (route: import('playwright-core').Route) => (route.request().method() === 'PUT' ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Internal server error' }) }) : route.fallback());
    await page.route(`**/api/v1/dashboard/${dashboardId}`, failPut);
    try {
      const modal = await openFiltersModal();
      await modal.getByTestId('filter-config-item').filter({ hasText: 'Gender' }).click();
      await modal.getByTestId('filter-form').getByRole('textbox', { name: 'Description' }).fill('Changed, not saved');
      await modal.getByTestId('filters-save').click();
      const toast = page.locator(`[data-toast-type="${ToastType.DANGER}"]`, { hasText: 'Could not save the filters' });
      await toast.first().waitFor();
      expect(await toast.first().textContent()).toContain('Internal server error');
      // The modal stays open with the edits, to try again or cancel.
      expect(await modal.getByTestId('filter-form').getByRole('textbox', { name: 'Description' }).inputValue()).toBe('Changed, not saved');
      expect(await modal.getByTestId('filters-save').isEnabled()).toBe(true);
      await screenshot(page, 'filters-more-save-failed');
      await modal.getByRole('button', { name: 'Cancel' }).click();
      await modal.getByRole('button', { name: 'Yes, cancel' }).click();
      await modal.waitFor({ state: 'detached' });
      expect(await barItems()).toEqual(itemsBefore);

      await page.getByRole('button', { name: 'More dashboard actions' }).click();
      await page.getByRole('menuitem', { name: 'Cross-filter scoping' }).click();
      const scoping = page.getByRole('dialog', { name: 'Cross-filtering scoping' });
      await scoping.getByTestId('cross-filter-scoping-list').getByText('Top states', { exact: true }).click();
      await scoping.getByLabel('Custom').check();
      await scoping.getByTestId('cross-filter-scoping-save').click();
      await page.locator(`[data-toast-type="${ToastType.DANGER}"]`, { hasText: SAVE_CROSS_FILTER_SCOPING_FAILED }).first().waitFor();
      expect(await page.locator(`[data-toast-type="${ToastType.DANGER}"]`, { hasText: SAVE_CROSS_FILTER_SCOPING_FAILED }).first().textContent()).toContain('Failed to save cross-filter scoping');
      expect(await scoping.isVisible()).toBe(true);
      await screenshot(page, 'filters-more-scoping-failed');
      await scoping.getByRole('button', { name: 'Cancel' }).click();
      await scoping.waitFor({ state: 'detached' });
    } finally {
      await page.unroute(`**/api/v1/dashboard/${dashboardId}`, failPut);
    }
    expect(await metadataOf(dashboardId)).toEqual(before);
  });

  it("with the dashboard's cross_filters_enabled off (the scoping dialog's switch), a click on a chart emits no cross-filter", { timeout: 120_000 }, async () => {
    await openBirths();
    const unfiltered = await cell('Total births').textContent();
    // On: the click cross-filters (so the click below is one that would).
    await clickFirstName(page, chartId['Most popular names']!);
    const chip = page.getByTestId('cross-filter');
    await chip.waitFor();
    const name = ((await chip.textContent()) ?? '').match(/name: (\S+)/)?.[1];
    await expectFilter('Total births', 'name', [name]);

    // Switched off with that cross-filter in effect: it goes from the bar and from the charts' queries.
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Cross-filter scoping' }).click();
    const scoping = page.getByRole('dialog', { name: 'Cross-filtering scoping' });
    await scoping.getByLabel('Enable cross-filtering').uncheck();
    await scoping.getByTestId('cross-filter-scoping-save').click();
    await scoping.waitFor({ state: 'detached' });
    expect((await metadataOf(dashboardId)).cross_filters_enabled).toBe(false);
    await expect.poll(() => chip.count()).toBe(0);
    // Total births is back to the Gender filter alone (its earlier answer, drawn again from the cache).
    await expect.poll(() => cell('Total births').getByTestId('filter-indicator').textContent()).toBe('1');
    await expect.poll(() => cell('Total births').textContent()).toBe(unfiltered);

    const check = async () => {
      await drawn();
      chartCalls = [];
      await clickFirstName(page, chartId['Most popular names']!);
      await page.waitForTimeout(1_500);
      expect(await chip.count()).toBe(0);
      expect(await page.getByTestId('cross-filters').count()).toBe(0);
      expect(chartCalls).toEqual([]);
      expect(await cell('Most popular names').locator('td[data-selected]').count()).toBe(0);
    };
    await check();
    // And so after a reload, from the stored metadata.
    await page.reload();
    await page.getByTestId('filter-bar').waitFor();
    await check();
    await screenshot(page, 'filters-more-cross-filters-disabled');
    await putMetadata(dashboardId, { ...(await metadataOf(dashboardId)), cross_filters_enabled: true });
  });

  it('a legacy dashboard (filter_scopes and default_filters, no native_filter_configuration) opens with its filters applied to the charts in scope', { timeout: 120_000 }, async () => {
    const filterBox = chartId['Top names']!;
    const pie = chartId['Boys and girls']!;
    const legacy = {
      color_scheme: 'supersetColors',
      cross_filters_enabled: true,
      default_filters: JSON.stringify({ [filterBox]: { gender: ['boy'], state: ['CA'] } }),
      filter_scopes: { [filterBox]: { gender: { scope: ['ROOT_ID'], immune: [pie] }, state: { scope: ['ROOT_ID'], immune: [] } } },
    };
    const copy = await t.http.post(`/api/v1/dashboard/${dashboardId}/copy/`).set(...auth()).send({ dashboard_title: 'Legacy births', duplicate_slices: false, json_metadata: JSON.stringify(legacy) }).expect(200);
    const legacyId = copy.body.result.id as number;
    expect((await metadataOf(legacyId)).native_filter_configuration ?? []).toEqual([]);

    sent = new Map();
    await page.goto(`${t.url}/superset/dashboard/${legacyId}/`);
    await page.getByTestId('filter-bar').waitFor();
    await expectFilter('Total births', 'gender', ['boy']);
    await expectFilter('Total births', 'state', ['CA']);
    // The pie is immune to gender, not to state.
    await expectFilter('Boys and girls', 'gender', null);
    await expectFilter('Boys and girls', 'state', ['CA']);
    // The filter box's own chart is out of its filters' scope.
    await expectFilter('Top names', 'gender', null);
    await expectFilter('Top names', 'state', null);
    expect(await barItems()).toEqual(['gender', 'state']);
    expect(await filterInput('gender').locator('xpath=..').textContent()).toContain('boy');
    await expect.poll(() => cell('Total births').getByTestId('filter-indicator').textContent()).toBe('2');
    await drawn();
    await screenshot(page, 'filters-more-legacy');
  });

  it('with the DASHBOARD_CROSS_FILTERS flag off, a click on a chart emits no cross-filter and there is no scoping dialog', { timeout: 180_000 }, async () => {
    const off = await startTestApp({ listen: true, env: { FEATURE_DASHBOARD_CROSS_FILTERS: 'false' } });
    const offDir = mkdtempSync(join(tmpdir(), 'meridian-e2e-filters-off-'));
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, reducedMotion: 'reduce' });
    try {
      await ensureTestExamples(off.services, { path: join(offDir, 'examples.duckdb'), salesRows: 500 });
      await ensureExampleDatasets(off.services);
      await ensureExampleDashboards(off.services);
      const token = await off.token();
      const board = (await off.http.get('/api/v1/dashboard/births').set('Authorization', `Bearer ${token}`)).body.result;
      expect(JSON.parse(board.json_metadata).cross_filters_enabled).toBe(true);
      const charts = (await off.http.get(`/api/v1/dashboard/${board.id}/charts`).set('Authorization', `Bearer ${token}`)).body.result as Array<{ id: number; slice_name: string }>;
      const table = charts.find((c) => c.slice_name === 'Most popular names')!.id;
      // A kept state (as a permalink or a key made while the flag was on) that holds a cross-filter of the table.
      const mask = { [table]: { id: table, extraFormData: { filters: [{ col: 'name', op: 'IN', val: ['Michael'] }] }, filterState: { value: [['Michael']], selectedValues: ['Michael'], label: 'Michael' } } };
      const kept = await off.http.post(`/api/v1/dashboard/${board.id}/filter_state`).set('Authorization', `Bearer ${token}`).send({ value: JSON.stringify(mask) }).expect(201);
      const other = await context.newPage();
      other.setDefaultTimeout(20_000);
      const calls: number[] = [];
      const filtered: string[] = [];
      other.on('request', (req) => {
        if (!req.url().includes('/api/v1/chart/data') || req.method() !== 'POST') return;
        calls.push(Number(JSON.parse(new URL(req.url()).searchParams.get('form_data') ?? '{}').slice_id));
        const extra = JSON.parse(req.postData() ?? '{}').form_data?.extra_form_data as Extra | undefined;
        for (const f of extra?.filters ?? []) filtered.push(f.col);
      });
      await login(other, off.url);
      await other.goto(`${off.url}/superset/dashboard/births/?native_filters_key=${kept.body.key}`);
      await other.getByTestId('filter-bar').waitFor();
      await drawn(other);
      // The kept cross-filter is not applied: no chart is filtered on name, and the bar shows no cross-filter.
      expect(calls.filter(Boolean).length).toBeGreaterThan(5);
      expect(filtered).not.toContain('name');
      expect(filtered).toContain('gender');
      expect(await other.getByTestId('cross-filters').count()).toBe(0);
      calls.length = 0;
      await clickFirstName(other, table);
      await other.waitForTimeout(1_500);
      expect(await other.getByTestId('cross-filter').count()).toBe(0);
      expect(calls.filter(Boolean)).toEqual([]);
      await other.getByRole('button', { name: 'More dashboard actions' }).click();
      await other.getByRole('menu').waitFor();
      expect(await other.getByRole('menuitem', { name: 'Cross-filter scoping' }).count()).toBe(0);
      await other.keyboard.press('Escape');
      await screenshot(other, 'filters-more-flag-off');
    } finally {
      await context.close();
      await off.close();
      rmSync(offDir, { recursive: true, force: true });
    }
  });

  it("the 'Parent filters' select shows only while 'Values are dependent on other filters' is ticked; unticked, the parents go", { timeout: 120_000 }, async () => {
    await openBirths();
    const before = await metadataOf(dashboardId);
    const modal = await openFiltersModal();
    const form = modal.getByTestId('filter-form');
    const dependent = form.getByLabel('Values are dependent on other filters');
    const parents = form.getByLabel('Parent filters', { exact: true });
    // Name depends on Gender (the example's configuration): ticked, with its parent shown.
    await modal.getByTestId('filter-config-item').filter({ hasText: 'Name' }).click();
    expect(await dependent.isChecked()).toBe(true);
    expect(await parents.isVisible()).toBe(true);
    expect(await form.getByText('Gender', { exact: true }).count()).toBe(1);
    // State depends on nothing: no parent select until the box is ticked.
    await modal.getByTestId('filter-config-item').filter({ hasText: 'State' }).click();
    expect(await dependent.isChecked()).toBe(false);
    expect(await parents.count()).toBe(0);
    await dependent.check();
    await parents.waitFor();
    await screenshot(page, 'filters-more-dependent-ticked');
    await dependent.uncheck();
    await expect.poll(() => parents.count()).toBe(0);
    // Name unticked: its parent goes, and ticked again the select is empty.
    await modal.getByTestId('filter-config-item').filter({ hasText: 'Name' }).click();
    await dependent.uncheck();
    await expect.poll(() => parents.count()).toBe(0);
    await dependent.check();
    await parents.waitFor();
    expect(await form.getByText('Gender', { exact: true }).count()).toBe(0);
    await dependent.uncheck();
    await modal.getByTestId('filters-save').click();
    await modal.waitFor({ state: 'detached' });
    const config = (await metadataOf(dashboardId)).native_filter_configuration as Array<{ name?: string; cascadeParentIds?: string[] }>;
    expect(config.find((f) => f.name === 'Name')!.cascadeParentIds).toEqual([]);
    expect(config.find((f) => f.name === 'State')!.cascadeParentIds).toEqual([]);
    await putMetadata(dashboardId, before);
  });

  it("in the horizontal bar, 'More filters' holds the filters out of scope of the tab shown under their own 'Filters out of scope' heading", { timeout: 120_000 }, async () => {
    const board = (await t.http.get('/api/v1/dashboard/world_health').set(...auth())).body.result;
    const layout = JSON.parse(board.position_json) as Record<string, { type: string; id: string; meta?: { text?: string } }>;
    const health = Object.values(layout).find((c) => c.type === 'TAB' && c.meta?.text === 'Health')!;
    const worldDataset = (await t.http.get('/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:wb_health_population)))').set(...auth())).body.ids[0];
    const select = (id: string, name: string, column: string) => {
      const f = newNativeFilter(`NATIVE_FILTER-${id}`, 'filter_select');
      f.name = name;
      f.targets = [{ datasetId: worldDataset, column: { name: column } }];
      return f;
    };
    // Four filters in scope everywhere (three in the bar, one under More filters) and one on the Health tab only.
    const healthOnly = select('health', 'Health region', 'region');
    healthOnly.scope = { rootPath: [health.id], excluded: [] };
    const filters = [select('region', 'Region', 'region'), select('country', 'Country', 'country_name'), select('code', 'Country code', 'country_code'), select('region2', 'Region again', 'region'), healthOnly];
    await putMetadata(board.id, { ...JSON.parse(board.json_metadata), filter_bar_orientation: 'HORIZONTAL', native_filter_configuration: filters });
    try {
      await page.goto(`${t.url}/superset/dashboard/world_health/`);
      const bar = page.locator('[data-testid="filter-bar"][data-orientation="horizontal"]');
      await bar.waitFor();
      const names = (locator: ReturnType<Page['locator']>) => locator.locator('[data-testid="native-filter"] label').allTextContents();
      await expect.poll(() => names(bar)).toEqual(['Region', 'Country', 'Country code']);
      await bar.getByTestId('more-filters').click();
      const dropdown = page.locator('.mantine-Popover-dropdown').filter({ has: page.getByTestId('native-filter') });
      const outOfScope = dropdown.getByTestId('filters-out-of-scope');
      await outOfScope.waitFor();
      expect(await outOfScope.locator('summary').textContent()).toBe('Filters out of scope (1)');
      // Region again overflows the bar, in scope, above the section; Health region is inside it.
      expect(await names(dropdown)).toEqual(['Region again', 'Health region']);
      expect(await dropdown.locator('[data-testid="native-filter"]:not([data-testid="filters-out-of-scope"] *) label').allTextContents()).toEqual(['Region again']);
      expect(await names(outOfScope)).toEqual(['Health region']);
      await outOfScope.locator('summary').click();
      await outOfScope.getByTestId('native-filter').locator('input').first().waitFor({ state: 'visible' });
      await screenshot(page, 'filters-more-horizontal-out-of-scope');
      await page.keyboard.press('Escape');
      await expect.poll(() => dropdown.count()).toBe(0);
      // On the Health tab it is in scope: under More filters with Region again, and no section.
      await page.getByRole('tab', { name: 'Health' }).click();
      await bar.getByTestId('more-filters').click();
      await expect.poll(() => names(dropdown)).toEqual(['Region again', 'Health region']);
      expect(await page.getByTestId('filters-out-of-scope').count()).toBe(0);
      await page.keyboard.press('Escape');
    } finally {
      await putMetadata(board.id, JSON.parse(board.json_metadata));
    }
  });

  it("a country map filtered to one state draws the other states in the 'no data' grey, in the light and the dark theme", { timeout: 120_000 }, async () => {
    const before = await metadataOf(dashboardId);
    const config = before.native_filter_configuration.map((f: { name?: string }) =>
      f.name === 'State' ? { ...f, defaultDataMask: { extraFormData: { filters: [{ col: 'state', op: 'IN', val: ['CA'] }] }, filterState: { value: ['CA'] }, ownState: {} } } : f,
    );
    await putMetadata(dashboardId, { ...before, native_filter_configuration: config });
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await page.evaluate((s) => localStorage.setItem('meridian-color-scheme', s), scheme);
        sent = new Map();
        await openBirths();
        await expectFilter('Births by state', 'state', ['CA']);
        await drawn();
        const map = cell('Births by state');
        await map.scrollIntoViewIfNeeded();
        await page.waitForTimeout(500);
        await map.screenshot({ path: join(SCREENS_DIR, `filters-more-map-one-state-${scheme}.png`) });
      }
    } finally {
      await page.evaluate(() => localStorage.removeItem('meridian-color-scheme'));
      await putMetadata(dashboardId, before);
    }
  });
});
