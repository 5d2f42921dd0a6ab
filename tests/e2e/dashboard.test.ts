import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { newNativeFilter } from '../../contracts/src/dashboard/native-filters';
import { GRID_ID, layoutOfRows, newComponent, positionFromLayout, withParents } from '../../contracts/src/dashboard/layout-reducer';
import { startTestApp, type TestApp } from '../helpers/app';
import { pngFacts } from '../helpers/png';
import { closeDialog, ensureClientBuilt, launchBrowser, login, SCREENS_DIR, screenshot } from './browser';

const LONG_CHART_NAME = 'Newborns per year in the ten largest states of the USA, by gender and state';

/** Drags a builder item (by its text) onto a drop zone. */
async function dragIn(page: Page, item: string, target: string) {
  await page.getByTestId('builder-item').filter({ hasText: item }).first().dragTo(page.locator(target).first());
}

// Dashboards in a real Chromium: building from the examples' charts, saving, sharing, and a save over a newer copy.
describe('dashboards in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;
  let admin: string;
  const chartIds: number[] = [];

  const rest = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown) => {
    const req = t.http[method](path).set('Authorization', `Bearer ${admin}`);
    return body === undefined ? req : req.send(body as object);
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true, env: { FEATURE_ALLOW_FULL_CSV_EXPORT: 'true' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-dashboard-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    const list = await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))');
    const datasource = list.body.ids[0];
    const charts = [
      { slice_name: 'Births by gender', viz_type: 'pie', params: { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', row_limit: 10 } },
      { slice_name: 'Total births', viz_type: 'big_number_total', params: { viz_type: 'big_number_total', metric: 'sum__num' } },
      { slice_name: 'Births by state', viz_type: 'echarts_timeseries_bar', params: { viz_type: 'echarts_timeseries_bar', x_axis: 'state', metrics: ['sum__num'], row_limit: 10 } },
      // Too long for the builder's charts list.
      { slice_name: LONG_CHART_NAME, viz_type: 'big_number_total', params: { viz_type: 'big_number_total', metric: 'sum__num' } },
    ];
    for (const c of charts) {
      const res = await rest('post', '/api/v1/chart/', { slice_name: c.slice_name, viz_type: c.viz_type, datasource_id: datasource, datasource_type: 'table', params: JSON.stringify({ ...c.params, datasource: `${datasource}__table` }) });
      chartIds.push(res.body.id);
    }
    // A chart nobody owns: the builder's 'Show only my charts' leaves it out.
    const orphan = await rest('post', '/api/v1/chart/', { slice_name: "Nobody's chart", viz_type: 'big_number_total', datasource_id: datasource, datasource_type: 'table', params: JSON.stringify({ viz_type: 'big_number_total', metric: 'sum__num', datasource: `${datasource}__table` }) });
    await rest('put', `/api/v1/chart/${orphan.body.id}`, { owners: [] });
    expect((await rest('get', `/api/v1/chart/${orphan.body.id}`)).body.result.owners).toEqual([]);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await login(page, t.url);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await screenshot(page, `failed-dashboard-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    await closeDialog(page, 5_000).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let dashboardId: number;

  it('creates a dashboard from the list, drags in charts, a header, text and a divider, resizes, undoes and redoes, saves and reloads', { timeout: 180_000 }, async () => {
    await page.goto(`${t.url}/dashboard/list/`);
    await page.getByRole('button', { name: 'Dashboard', exact: true }).click();
    await page.waitForURL(/\/superset\/dashboard\/\d+\/\?edit=true/);
    dashboardId = Number(/dashboard\/(\d+)\//.exec(page.url())![1]);
    await page.getByRole('complementary', { name: 'Dashboard builder' }).waitFor();
    // The charts list fits its pane, which runs to the window's foot: a long chart name ends in an ellipsis (the
    // longest name made every item wider than the pane, clipped at its right edge) and reads whole on hover.
    const pane = page.getByRole('complementary', { name: 'Dashboard builder' });
    const long = page.getByTestId('builder-item').filter({ hasText: LONG_CHART_NAME });
    await long.waitFor();
    const inner = await pane.evaluate((el) => ({ right: el.getBoundingClientRect().right - parseFloat(getComputedStyle(el).paddingRight), bottom: el.getBoundingClientRect().bottom }));
    expect(inner.bottom).toBe(900);
    expect(Math.max(...(await page.getByTestId('builder-item').evaluateAll((items) => items.map((i) => i.getBoundingClientRect().right))))).toBeLessThanOrEqual(inner.right);
    expect(await long.locator('[title]').first().getAttribute('title')).toBe(LONG_CHART_NAME);
    expect(await long.locator('[title]').first().evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.screenshot({ path: join(SCREENS_DIR, 'dashboard-builder-charts.png') });
    // Sorted by name (ascending), and only the user's own charts when asked (spec 01 §7's owners filter).
    const itemNames = () => page.getByTestId('builder-item').locator('[title]').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.getAttribute('title')));
    await pane.getByLabel('Sort charts').click();
    await page.getByRole('option', { name: 'Sort by name' }).click();
    // Read once the list is back: read while it redrew, the expected order was taken from an empty list.
    await expect.poll(async () => { const names = await itemNames(); return names.length > 0 && names.join('\n') === [...names].sort((a, b) => a!.localeCompare(b!)).join('\n'); }).toBe(true);
    await expect.poll(async () => (await itemNames()).includes("Nobody's chart")).toBe(true);
    await pane.getByLabel('Show only my charts').check();
    await expect.poll(async () => (await itemNames()).includes("Nobody's chart")).toBe(false);
    expect((await itemNames()).length).toBeGreaterThan(0);
    await pane.getByLabel('Show only my charts').uncheck();
    await pane.getByLabel('Sort charts').click();
    await page.getByRole('option', { name: 'Sort by recent' }).click();
    await page.getByLabel('Dashboard title').fill('Births board');

    // The empty dashboard's whole box takes the drop.
    await dragIn(page, 'Births by gender', '[data-testid="drop-GRID_ID-0"]:has-text("Drag charts and components here")');
    await expect.poll(() => page.getByTestId('dashboard-chart').count()).toBe(1);
    await dragIn(page, 'Total births', '[data-testid^="drop-ROW-"]:last-child');
    await expect.poll(() => page.getByTestId('dashboard-chart').count()).toBe(2);
    expect(await page.getByTestId('dashboard-row').count()).toBe(1);

    await page.getByRole('tab', { name: 'Layout elements' }).click();
    await dragIn(page, 'Header', '[data-testid="drop-GRID_ID-0"]');
    await page.getByLabel('Header text').fill('Who is born');
    // A new row stays, empty, to drop things into (it was pruned at once).
    const rows = await page.getByTestId('dashboard-row').count();
    const gridZones = await page.locator('[data-testid^="drop-GRID_ID-"]').count();
    await dragIn(page, 'Row', `[data-testid="drop-GRID_ID-${gridZones - 1}"]`);
    await expect.poll(() => page.getByTestId('dashboard-row').count()).toBe(rows + 1);
    const newRow = page.getByTestId('dashboard-row').last();
    await newRow.getByText('Empty row').waitFor();
    await screenshot(page, 'dashboard-edit-empty-row');
    await dragIn(page, 'Divider', '[data-testid="drop-GRID_ID-2"]');
    await dragIn(page, 'Text', '[data-empty-row]');
    await expect.poll(() => newRow.getByTestId('dashboard-markdown').count()).toBe(1);
    expect(await page.getByTestId('dashboard-row').count()).toBe(rows + 1);
    await page.getByLabel('Markdown', { exact: true }).fill('## Notes\n\nBirths from the **examples** data.');
    // The markdown shows its preview once the focus leaves it, and opens its editor again on a click.
    await page.getByLabel('Header text').click();
    const markdown = page.getByTestId('dashboard-markdown');
    await markdown.getByRole('heading', { name: 'Notes' }).waitFor();
    expect(await markdown.locator('strong').textContent()).toBe('examples');
    await screenshot(page, 'dashboard-edit');
    await markdown.getByRole('button', { name: 'Edit markdown' }).click();
    expect(await page.getByLabel('Markdown', { exact: true }).inputValue()).toContain('**examples**');
    await markdown.getByText('Preview', { exact: true }).click();
    await markdown.getByRole('heading', { name: 'Notes' }).waitFor();

    // A placed chart moves by its handle: the second chart of the row goes before the first, and undo puts it back.
    const chartNames = () => page.getByTestId('dashboard-chart').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-chart-id')));
    const before = await chartNames();
    const firstRowId = (await page.getByTestId('dashboard-row').first().locator('xpath=..').getAttribute('data-component-id'))!;
    // By hand, as a user drags: the grip shows on hover and the drag starts a few pixels away (Playwright's
    // dragTo jumps straight to the target, the grip is hidden by then and Chromium starts no drag). From the top of the
    // page, where the grip at the chart's top is not under the title bar, which stays in view.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('dashboard-chart').nth(1).hover();
    const grip = (await page.getByLabel('Move chart').nth(1).boundingBox())!;
    const zone = (await page.locator(`[data-testid="drop-${firstRowId}-0"]`).boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2 - 10, grip.y + grip.height / 2 + 5, { steps: 3 });
    await page.mouse.move(zone.x + zone.width / 2, zone.y + zone.height / 2, { steps: 10 });
    await page.mouse.up();
    await expect.poll(chartNames).toEqual([before[1], before[0]]);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(chartNames).toEqual(before);

    // Resize the first chart two columns wider with its corner handle.
    const handle = page.getByRole('separator', { name: 'Resize chart' }).first();
    const box = (await handle.boundingBox())!;
    const gridWidth = (await page.getByTestId('dashboard-grid').boundingBox())!.width;
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 5 + (gridWidth / 12) * 2, box.y + 5, { steps: 5 });
    await page.mouse.up();

    // Undo takes the resize back, redo brings it again.
    const widthOfFirst = async () => (await page.getByTestId('dashboard-chart').first().boundingBox())!.width;
    const wide = await widthOfFirst();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(widthOfFirst).toBeLessThan(wide - 50);
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(widthOfFirst).toBeGreaterThan(wide - 5);
    // And so do the keys, as in Superset (Cmd on a Mac).
    await page.keyboard.press('Control+z');
    await expect.poll(widthOfFirst).toBeLessThan(wide - 50);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(widthOfFirst).toBeGreaterThan(wide - 5);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();

    const stored = (await rest('get', `/api/v1/dashboard/${dashboardId}`)).body.result;
    expect(stored.dashboard_title).toBe('Births board');
    const position = JSON.parse(stored.position_json);
    const chartsPlaced = Object.values(position).filter((c: any) => c?.type === 'CHART') as any[];
    expect(chartsPlaced.map((c) => c.meta.chartId).sort()).toEqual([chartIds[0], chartIds[1]].sort());
    expect(chartsPlaced.find((c) => c.meta.chartId === chartIds[0]).meta.width).toBe(6);
    expect(Object.values(position).some((c: any) => c?.type === 'HEADER' && c.meta.text === 'Who is born')).toBe(true);
    expect(Object.values(position).some((c: any) => c?.type === 'MARKDOWN' && String(c.meta.code).includes('**examples**'))).toBe(true);
    expect(stored.charts.sort()).toEqual(['Births by gender', 'Total births']);

    await page.reload();
    await page.getByRole('heading', { name: 'Births board' }).waitFor();
    await page.getByRole('heading', { name: 'Who is born' }).waitFor();
    await page.getByRole('heading', { name: 'Notes' }).waitFor();
    await expect.poll(() => page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').count(), { timeout: 30_000 }).toBe(2);
    await screenshot(page, 'dashboard-view');
  });

  it('adds tabs with a chart inside, and opens a permalink on the second tab', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByRole('tab', { name: 'Layout elements' }).click();
    await dragIn(page, 'Tabs', '[data-testid="drop-GRID_ID-0"]');
    await page.getByRole('button', { name: 'Add tab' }).click();
    await page.getByLabel('Tab title').fill('By state');
    await page.getByRole('tab', { name: 'Charts' }).click();
    await dragIn(page, 'Births by state', '[data-testid^="drop-TAB-"]');
    await expect.poll(() => page.getByTestId('dashboard-chart').count()).toBe(3);
    // A tab added by mistake is deleted from its own close button, after a confirmation.
    await page.getByRole('button', { name: 'Add tab' }).click();
    await expect.poll(() => page.getByTestId('dashboard-tab').count()).toBe(3);
    await page.getByRole('button', { name: 'Delete tab New tab' }).last().click();
    await page.getByRole('dialog', { name: 'Delete dashboard tab?' }).getByRole('button', { name: 'DELETE' }).click();
    await expect.poll(() => page.getByTestId('dashboard-tab').count()).toBe(2);
    expect(await page.getByTestId('dashboard-chart').count()).toBe(3);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();

    const tabs = (await rest('get', `/api/v1/dashboard/${dashboardId}/tabs`)).body.result;
    const byState = Object.entries(tabs.all_tabs as Record<string, string>).find(([, title]) => title === 'By state')![0];
    const link = await rest('post', `/api/v1/dashboard/${dashboardId}/permalink`, { activeTabs: [byState], urlParams: [], dataMask: {} });
    const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const other = await fresh.newPage();
    await login(other, t.url);
    await other.goto(link.body.url.replace(/^https?:\/\/[^/]+/, t.url));
    await other.waitForURL(new RegExp(`/superset/dashboard/${dashboardId}/`));
    await expect.poll(() => other.getByRole('tab', { name: 'By state' }).getAttribute('aria-selected')).toBe('true');
    await other.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').first().waitFor({ timeout: 30_000 });
    await screenshot(other, 'dashboard-permalink-tab');
    await fresh.close();
  });

  it('undoes and redoes past the undo limit: the warning once, the oldest edits gone, the rest redone by keys', { timeout: 90_000 }, async () => {
    const header = (id: string, text: string) => ({ id, type: 'HEADER', children: [], parents: ['ROOT_ID', 'GRID_ID'], meta: { text, headerSize: 'MEDIUM_HEADER', background: 'BACKGROUND_TRANSPARENT' } });
    const position = {
      DASHBOARD_VERSION_KEY: 'v2',
      ROOT_ID: { id: 'ROOT_ID', type: 'ROOT', children: ['GRID_ID'] },
      GRID_ID: { id: 'GRID_ID', type: 'GRID', children: ['HEADER-a', 'HEADER-b'], parents: ['ROOT_ID'] },
      HEADER_ID: { id: 'HEADER_ID', type: 'HEADER', meta: { text: 'Undo board' } },
      'HEADER-a': header('HEADER-a', 'Alpha'),
      'HEADER-b': header('HEADER-b', 'Beta'),
    };
    const id = (await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Undo board', position_json: JSON.stringify(position) }).expect(201)).body.id;
    await page.goto(`${t.url}/superset/dashboard/${id}/?edit=true`);
    const texts = page.getByLabel('Header text');
    await expect.poll(() => texts.count()).toBe(2);
    // 52 edits, each its own step (the two headers in turn): the history keeps 50 + 2 states, so the 52nd pushes out the first.
    const warning = 'You have used all 50 undo slots and will not be able to fully undo subsequent actions. You may save your current state to reset the history.';
    for (let i = 1; i <= 52; i++) {
      await texts.nth(i % 2 ? 0 : 1).fill(`${i % 2 ? 'A' : 'B'}${i}`);
      if (i === 51) expect(await page.getByText(warning).count(), 'no warning before the slots run out').toBe(0);
    }
    await page.getByText(warning).first().waitFor();
    expect(await page.getByText(warning).count(), 'the warning is shown once').toBe(1);
    const undoButton = page.getByRole('button', { name: 'Undo', exact: true });
    for (let i = 0; i < 51; i++) await undoButton.click();
    await expect.poll(() => undoButton.isDisabled()).toBe(true);
    // The oldest state kept is the one after the first edit: 'Alpha' cannot come back, 'Beta' still can.
    expect([await texts.nth(0).inputValue(), await texts.nth(1).inputValue()]).toEqual(['A1', 'Beta']);
    // The saved layout is out of reach, so the dashboard stays changed.
    await expect(page.getByRole('button', { name: 'Save', exact: true }).isEnabled()).resolves.toBe(true);
    await page.locator('body').click({ position: { x: 5, y: 500 } });
    for (let i = 0; i < 51; i++) await page.keyboard.press('Control+Shift+Z');
    expect([await texts.nth(0).inputValue(), await texts.nth(1).inputValue()]).toEqual(['A51', 'B52']);
    await expect.poll(() => page.getByRole('button', { name: 'Redo', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();
  });

  it('publishes, favourites, and copies with Save as', { timeout: 90_000 }, async () => {
    await page.goto(`${t.url}/superset/dashboard/${dashboardId}/`);
    await page.getByRole('button', { name: 'Draft' }).click();
    await page.getByText('This dashboard is now published').waitFor();
    expect((await rest('get', `/api/v1/dashboard/${dashboardId}`)).body.result.published).toBe(true);
    await page.getByRole('button', { name: 'Add Births board to favorites' }).click();
    await expect.poll(async () => (await rest('get', `/api/v1/dashboard/favorite_status/?q=!(${dashboardId})`)).body.result[0].value).toBe(true);

    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Save as' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as' });
    await dialog.getByLabel('New dashboard name').fill('Births board (mine)');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Births board (mine)' }).waitFor();
    expect(page.url()).not.toContain(`/dashboard/${dashboardId}/`);
    await page.goto(`${t.url}/dashboard/list/`);
    await page.getByRole('link', { name: 'Births board (mine)' }).waitFor();
    await screenshot(page, 'dashboard-list');
  });

  it('changes the slug in the properties and the address follows it after the save; a slug another dashboard has is refused on its field', { timeout: 90_000 }, async () => {
    await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Other board', slug: 'taken' }).expect(201);
    await page.goto(`${t.url}/superset/dashboard/${dashboardId}/`);
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit properties' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dashboard properties' });
    const slug = dialog.getByLabel('URL slug');
    // In a short window the fields scroll and Apply stays on screen (the whole modal scrolled, Apply below the window's foot).
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 1024, height: 600 });
    try {
      await expect.poll(() => dialog.getByTestId('dashboard-properties-fields').evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      const apply = (await dialog.getByRole('button', { name: 'Apply' }).boundingBox())!;
      expect(apply.y + apply.height).toBeLessThanOrEqual(600);
    } finally {
      await page.setViewportSize(viewport);
    }
    await slug.fill('taken');
    // Out of edit mode, Apply saves at once (as Superset's properties do there).
    await dialog.getByRole('button', { name: 'Apply' }).click();
    // Superset's 422 {"message": {"slug": ["Must be unique"]}}: the properties open again, the answer on the slug's field.
    await dialog.waitFor();
    await expect.poll(() => slug.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await slug.getAttribute('aria-describedby'))!.split(' ').filter(Boolean);
    expect(await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()))).toContain('Must be unique');
    expect(await slug.inputValue()).toBe('taken');
    await screenshot(page, 'dashboard-properties-slug-taken');
    // Changed, the field is no longer marked.
    await slug.fill('births board');
    await dialog.getByText('Must be unique').waitFor({ state: 'detached' });
    expect(await slug.getAttribute('aria-invalid')).not.toBe('true');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    // Out of edit mode (it may leave a moment after the message).
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();
    await page.waitForURL(`${t.url}/superset/dashboard/births-board/`);
    await page.reload();
    await page.getByRole('heading', { name: 'Births board' }).waitFor();
  });

  it('gives the dashboard another owner in the properties, found by a search on the server; roles are not offered without DASHBOARD_RBAC', { timeout: 90_000 }, async () => {
    await t.userWithRoles('marta', ['Gamma']);
    await page.goto(`${t.url}/superset/dashboard/${dashboardId}/`);
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit properties' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dashboard properties' });
    const owners = dialog.getByLabel('Owners', { exact: true });
    // The current owner is shown by name.
    await dialog.getByText('Admin User').waitFor();
    expect(await dialog.getByText('Roles', { exact: true }).count()).toBe(0);
    await owners.fill('mar');
    await page.getByRole('option', { name: 'marta Test' }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'dashboard-properties-owners');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    const saved = (await rest('get', `/api/v1/dashboard/${dashboardId}`)).body.result.owners as Array<{ first_name: string }>;
    expect(saved.map((o) => o.first_name).sort()).toEqual(['Admin', 'marta']);
  });

  it('two browsers edit the same dashboard: the second save asks to confirm the overwrite, listing what changed', { timeout: 120_000 }, async () => {
    const second = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const bob = await second.newPage();
    await login(bob, t.url);
    await page.goto(`${t.url}/superset/dashboard/${dashboardId}/`);
    await bob.goto(`${t.url}/superset/dashboard/${dashboardId}/`);
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await bob.getByRole('button', { name: 'Edit dashboard' }).click();

    await page.getByLabel('Dashboard title').fill('Births board — first');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();

    await bob.getByLabel('Dashboard title').fill('Births board — second');
    await bob.getByRole('button', { name: 'Save', exact: true }).click();
    const confirm = bob.getByRole('dialog', { name: 'Confirm overwrite' });
    await confirm.getByText('Please confirm the overwrite values.').waitFor();
    await confirm.getByRole('cell', { name: 'dashboard_title' }).waitFor();
    await screenshot(bob, 'dashboard-overwrite-confirm');
    expect((await rest('get', `/api/v1/dashboard/${dashboardId}`)).body.result.dashboard_title).toBe('Births board — first');
    await confirm.getByRole('button', { name: 'Overwrite' }).click();
    await bob.getByText('This dashboard was saved successfully.').waitFor();
    expect((await rest('get', `/api/v1/dashboard/${dashboardId}`)).body.result.dashboard_title).toBe('Births board — second');
    await second.close();
  });

  it('auto-refreshes on the saved interval, staggered, never the timed-refresh-immune chart; the interval can be changed for the session', { timeout: 90_000 }, async () => {
    const [pie, total] = chartIds as [number, number];
    const position = positionFromLayout(layoutOfRows('Refreshing', [[{ chartId: pie, width: 6 }, { chartId: total, width: 6 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Refreshing', position_json: JSON.stringify(position), json_metadata: JSON.stringify({ refresh_frequency: 10, timed_refresh_immune_slices: [total] }) });
    const calls: Array<{ chart: number; force: boolean }> = [];
    const listen = (req: import('playwright-core').Request) => {
      if (req.method() !== 'POST' || new URL(req.url()).pathname !== '/api/v1/chart/data') return;
      const chart = JSON.parse(new URL(req.url()).searchParams.get('form_data') ?? '{}').slice_id;
      calls.push({ chart, force: !!JSON.parse(req.postData() ?? '{}').force });
    };
    page.on('request', listen);
    try {
      await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
      await expect.poll(() => page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').count(), { timeout: 30_000 }).toBe(2);
      // The first periodic refresh fires after 10 s and forces the pie again; the immune big number is never asked again.
      await expect.poll(() => calls.filter((c) => c.chart === pie && c.force).length, { timeout: 25_000 }).toBeGreaterThanOrEqual(1);
      expect(calls.filter((c) => c.chart === total)).toEqual([{ chart: total, force: false }]);

      await page.getByRole('button', { name: 'More dashboard actions' }).click();
      await page.getByRole('menuitem', { name: 'Set auto-refresh interval' }).click();
      const dialog = page.getByRole('dialog', { name: 'Refresh interval' });
      await expect.poll(() => dialog.getByLabel('Refresh frequency').inputValue()).toBe('10 seconds');
      await dialog.getByText('This interval applies to this session only').waitFor();
      await dialog.getByLabel('Refresh frequency').click();
      await page.getByRole('option', { name: "Don't refresh" }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      const before = calls.length;
      await page.waitForTimeout(12_000);
      expect(calls.length).toBe(before);
    } finally {
      page.off('request', listen);
    }
    // Set for the session only: the stored interval is unchanged.
    expect(JSON.parse((await rest('get', `/api/v1/dashboard/${created.body.id}`)).body.result.json_metadata).refresh_frequency).toBe(10);
  });

  it("draws every chart with the dashboard's colour scheme and its label colours, chosen in the properties", { timeout: 90_000 }, async () => {
    const [pie, , bars] = chartIds as [number, number, number];
    const position = positionFromLayout(layoutOfRows('Coloured', [[{ chartId: pie, width: 6 }, { chartId: bars, width: 6 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Coloured', position_json: JSON.stringify(position), json_metadata: JSON.stringify({ label_colors: { boy: '#ff0000' } }) });
    const pixels = (chartId: number, hex: string) =>
      page.evaluate(([id, rgb]) => {
        // No canvas yet (drawing under way) counts nothing: the polls below wait for it.
        const canvas = document.querySelector<HTMLCanvasElement>(`[data-testid="dashboard-chart"][data-chart-id="${id}"] canvas`);
        if (!canvas) return 0;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - rgb[0]!) < 8 && Math.abs(data[i + 1]! - rgb[1]!) < 8 && Math.abs(data[i + 2]! - rgb[2]!) < 8 && data[i + 3]! > 200) n++;
        return n;
      }, [chartId, [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))] as const);
    const drawnAll = () => expect.poll(() => page.locator('[data-testid="dashboard-chart"]:not([data-chart-state="rendered"])').count(), { timeout: 30_000 }).toBe(0);
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
    await drawnAll();
    // label_colors: 'boy' is red on the pie, whatever its scheme.
    await expect.poll(() => pixels(pie, '#ff0000')).toBeGreaterThan(500);
    // D3 Category 10's first two colours, which the bars take once the scheme is the dashboard's (whichever label comes first).
    const d3 = async (chartId: number) => (await pixels(chartId, '#1f77b4')) + (await pixels(chartId, '#ff7f0e'));
    await page.locator(`[data-testid="dashboard-chart"][data-chart-id="${bars}"] canvas`).first().waitFor();
    expect(await d3(bars)).toBe(0);
    // The properties' colour scheme: every chart draws with it.
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit properties' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dashboard properties' });
    await dialog.getByLabel('Color scheme').click();
    await page.getByRole('option', { name: 'D3 Category 10', exact: true }).click();
    await expect(dialog.getByLabel('JSON metadata').inputValue()).resolves.toContain('"color_scheme": "d3Category10"');
    await screenshot(page, 'dashboard-properties-colour-scheme');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    await page.reload();
    await drawnAll();
    await expect.poll(() => d3(bars)).toBeGreaterThan(500);
    await expect.poll(() => pixels(pie, '#ff0000')).toBeGreaterThan(500);
    await screenshot(page, 'dashboard-colour-scheme');
    // A save keeps the colours the labels were drawn with (shared_label_colors), so the next visit draws them alike
    // whichever chart comes first; a label that label_colors names keeps its own.
    const d3Colours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728'];
    expect(JSON.parse((await rest('get', `/api/v1/dashboard/${created.body.id}`)).body.result.json_metadata).shared_label_colors).toBeUndefined();
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByLabel('Dashboard title').fill('Coloured board');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    const shared = JSON.parse((await rest('get', `/api/v1/dashboard/${created.body.id}`)).body.result.json_metadata).shared_label_colors;
    expect(d3Colours).toContain(shared.girl);
    expect(shared.boy).toBeUndefined();
  });

  it('fullscreen (standalone=1) hides the app bar but keeps the title bar, whose menu leaves it; standalone=2 shows the dashboard alone', { timeout: 60_000 }, async () => {
    const position = positionFromLayout(layoutOfRows('Fullscreen', [[{ chartId: chartIds[1]!, width: 6 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Fullscreen', position_json: JSON.stringify(position) });
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
    const appBar = page.getByRole('link', { name: 'Datasets', exact: true });
    await appBar.waitFor();
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Enter fullscreen' }).click();
    await page.waitForURL(/standalone=1/);
    await page.getByRole('heading', { name: 'Fullscreen' }).waitFor();
    await expect(appBar.count()).resolves.toBe(0);
    await screenshot(page, 'dashboard-fullscreen');
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Exit fullscreen' }).click();
    await page.waitForURL((url) => !url.search.includes('standalone'));
    await appBar.waitFor();
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/?standalone=2`);
    await page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').first().waitFor();
    await expect(page.getByRole('button', { name: 'More dashboard actions' }).count()).resolves.toBe(0);
  });

  it('a chart dropped above the grid puts the dashboard in top-level tabs, the chart at the top of the first; Collapse tab content gives the rows back', { timeout: 90_000 }, async () => {
    const position = positionFromLayout(layoutOfRows('Tabbed', [[{ chartId: chartIds[1]!, width: 6 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Tabbed', position_json: JSON.stringify(position) });
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/?edit=true`);
    await page.getByRole('complementary', { name: 'Dashboard builder' }).waitFor();
    await dragIn(page, 'Births by gender', '[data-testid="drop-ROOT_ID-0"]');
    await page.getByTestId('dashboard-tab').first().waitFor();
    await expect.poll(() => page.getByTestId('dashboard-chart').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-chart-id'))))).toEqual([chartIds[0], chartIds[1]]);
    await screenshot(page, 'dashboard-edit-top-level-tabs');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This dashboard was saved successfully.').waitFor();
    const stored = JSON.parse((await rest('get', `/api/v1/dashboard/${created.body.id}`)).body.result.position_json);
    expect(stored.ROOT_ID.children).toHaveLength(1);
    expect(stored[stored.ROOT_ID.children[0]].type).toBe('TABS');
    expect(Object.values(stored).filter((c: any) => c?.type === 'CHART')).toHaveLength(2);

    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByTestId('dashboard-tab').first().hover();
    await page.getByRole('button', { name: 'Collapse tab content' }).click();
    await expect.poll(() => page.getByTestId('dashboard-tab').count()).toBe(0);
    expect(await page.getByTestId('dashboard-chart').count()).toBe(2);

    // A new column shows where to drop into it (it was a 12 px strip).
    await page.getByRole('tab', { name: 'Layout elements' }).click();
    const gridZones = await page.locator('[data-testid^="drop-GRID_ID-"]').count();
    await dragIn(page, 'Column', `[data-testid="drop-GRID_ID-${gridZones - 1}"]`);
    const empty = page.getByText('Empty column', { exact: true });
    await empty.waitFor();
    expect((await empty.boundingBox())!.height).toBeGreaterThan(60);
  });

  it("a chart in a column is level with the chart beside it in the row, in edit mode as in view mode; the zone above the column's chart still takes a drop", { timeout: 90_000 }, async () => {
    // One row: a chart, and a column holding a chart (ROW → [CHART, COLUMN → [CHART]]).
    const layout = layoutOfRows('Column in a row', [[{ chartId: chartIds[0]!, width: 4, height: 30 }]]);
    const row = layout[layout[GRID_ID]!.children[0]!]!;
    const column = newComponent('COLUMN', { width: 4 });
    const inColumn = newComponent('CHART', { chartId: chartIds[1]!, width: 4, height: 30 });
    column.children.push(inColumn.id);
    row.children.push(column.id);
    Object.assign(layout, { [column.id]: column, [inColumn.id]: inColumn });
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Column in a row', position_json: JSON.stringify(positionFromLayout(withParents(layout))) });
    const top = async (chartId: number) => (await page.locator(`[data-testid="dashboard-chart"][data-chart-id="${chartId}"]`).boundingBox())!.y;
    const offset = async () => Math.abs((await top(chartIds[1]!)) - (await top(chartIds[0]!)));
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
    await expect.poll(() => page.getByTestId('dashboard-chart').count()).toBe(2);
    expect(await offset()).toBeLessThanOrEqual(2);
    // The drop zone above the column's chart took 20 px in edit mode (its height and the column's gap): the chart sat lower.
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByRole('complementary', { name: 'Dashboard builder' }).waitFor();
    expect(await offset()).toBeLessThanOrEqual(2);
    await screenshot(page, 'dashboard-edit-column-tops');

    // A chart dragged onto that zone goes first in the column. By hand, to see the zone lit while the drag is over it.
    const zone = page.getByTestId(`drop-${column.id}-0`);
    const from = (await page.getByTestId('builder-item').filter({ hasText: 'Births by state' }).first().boundingBox())!;
    const to = (await zone.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 - 10, from.y + from.height / 2 + 5, { steps: 3 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
    // One more move within the zone: the drag arrived by the last step had not lit it yet.
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 + 1);
    await expect.poll(() => zone.getAttribute('data-over')).toBe('true');
    await page.screenshot({ path: join(SCREENS_DIR, 'dashboard-edit-column-drop.png') });
    await page.mouse.up();
    const inTheColumn = () => page.locator(`[data-component-id="${column.id}"] [data-testid="dashboard-chart"]`).evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-chart-id'))));
    await expect.poll(inTheColumn).toEqual([chartIds[2], chartIds[1]]);
    expect(Math.abs((await top(chartIds[2]!)) - (await top(chartIds[0]!)))).toBeLessThanOrEqual(2);
    await page.getByRole('button', { name: 'Discard' }).click();
  });

  it("a chart whose query fails shows the error box in its cell: the database's name and message, its issue codes and Copy message / Close in a modal", { timeout: 90_000 }, async () => {
    const datasource = (await rest('get', `/api/v1/chart/${chartIds[0]}`)).body.result.datasource_id ?? (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    const broken = (await rest('post', '/api/v1/chart/', { slice_name: 'Broken metric', viz_type: 'big_number_total', datasource_id: datasource, datasource_type: 'table', params: JSON.stringify({ viz_type: 'big_number_total', datasource: `${datasource}__table`, metric: { expressionType: 'SQL', sqlExpression: 'SUM(no_such_column)', label: 'broken' } }) })).body.id;
    const position = positionFromLayout(layoutOfRows('Failing', [[{ chartId: broken, width: 6 }, { chartId: chartIds[1]!, width: 6 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Failing', position_json: JSON.stringify(position) });
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
    const cell = page.locator(`[data-testid="dashboard-chart"][data-chart-id="${broken}"]`);
    const box = cell.getByTestId('error-message');
    await box.waitFor();
    // A database error has a renderer of its own (spec 01 §8): named by its engine, not 'Unexpected error'.
    await expect(box.textContent()).resolves.toMatch(/^DuckDB Error.*no_such_column/);
    await expect(box.getAttribute('data-error-type')).resolves.toMatch(/COLUMN_DOES_NOT_EXIST_ERROR|GENERIC_DB_ENGINE_ERROR/);
    // The other chart is drawn.
    await page.locator(`[data-testid="dashboard-chart"][data-chart-id="${chartIds[1]}"][data-chart-state="rendered"]`).waitFor();
    await screenshot(page, 'dashboard-chart-error-compact');
    await box.click();
    const dialog = page.getByRole('dialog', { name: 'DuckDB Error' });
    await dialog.getByTestId('error-issue-codes').getByText(/^Issue 10\d\d - /).first().waitFor();
    await dialog.getByRole('button', { name: 'Copy message' }).waitFor();
    await screenshot(page, 'dashboard-chart-error-modal');
    // The footer's Close (the header's × is Mantine's own).
    await dialog.locator('button', { hasText: /^Close$/ }).click();
    await dialog.waitFor({ state: 'hidden' });

    // An automated browser (webdriver, as the report screenshots' Chromium) shows the details inline, not compact.
    const automated = await page.context().browser()!.newContext({ viewport: { width: 1366, height: 860 }, storageState: await page.context().storageState() });
    try {
      await automated.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => true }));
      const shot = await automated.newPage();
      await shot.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
      const inline = shot.locator(`[data-testid="dashboard-chart"][data-chart-id="${broken}"]`).getByTestId('error-message');
      await inline.getByTestId('error-issue-codes').getByText(/^Issue 10\d\d - /).first().waitFor();
      await inline.getByRole('button', { name: 'See less' }).waitFor();
      await screenshot(shot, 'dashboard-chart-error-automated');
    } finally {
      await automated.close();
    }
  });

  it('offers the saved CSS templates in the CSS editor', { timeout: 60_000 }, async () => {
    await rest('post', '/api/v1/css_template/', { template_name: 'Teal titles', css: '.dashboard-header h1 { color: teal; }' });
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Styled' });
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit CSS' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit CSS' });
    await dialog.getByLabel('Load a CSS template').click();
    await page.getByRole('option', { name: 'Teal titles' }).click();
    await expect.poll(() => dialog.getByLabel('CSS', { exact: true }).inputValue()).toBe('.dashboard-header h1 { color: teal; }');
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  /**
   * A framing site: a page served by another server on this machine (another origin; Chromium keeps pages not from
   * this machine's network from framing it), in a browser context of its own, holding no session.
   */
  const framingSite = async () => {
    let html = '';
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    /** A host page framing `src`; the host hands over the token once the embedded page listens (posted again until `charts` charts are drawn). */
    const frame = async (src: string, token: string, charts: number, shot: string) => {
      const hostPage = await context.newPage();
      hostPage.setDefaultTimeout(20_000);
      html = `<h1>Host page</h1><iframe id="embed" src="${src}" style="width:1200px;height:760px;border:0"></iframe>`;
      await hostPage.goto(`${origin}/reports`);
      const inFrame = hostPage.frameLocator('#embed');
      await expect
        .poll(async () => {
          await hostPage.evaluate((guestToken) => (document.getElementById('embed') as HTMLIFrameElement).contentWindow!.postMessage({ guestToken }, '*'), token);
          return inFrame.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').count();
        }, { timeout: 30_000, interval: 500 })
        .toBe(charts)
        .catch(async (error) => {
          await screenshot(hostPage, `${shot}-failed`);
          throw error;
        });
      return { hostPage, inFrame };
    };
    return { origin, context, frame, close: async () => (await context.close(), server.close()) };
  };

  it('shows an embedded dashboard in a frame, with the guest token the framing page hands over', { timeout: 90_000 }, async () => {
    const [pie] = chartIds as [number];
    const position = positionFromLayout(layoutOfRows('Embedded births', [[{ chartId: pie, width: 6 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Embedded births', position_json: JSON.stringify(position) });
    const site = await framingSite();
    try {
      // The owner turns embedding on in the dashboard's menu, naming the framing site.
      await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
      await page.getByRole('button', { name: 'More dashboard actions' }).click();
      await page.getByRole('menuitem', { name: 'Embed dashboard' }).click();
      const modal = page.getByRole('dialog', { name: 'Embed dashboard' });
      await modal.getByLabel('Allowed domains (comma separated)').fill(site.origin);
      await modal.getByRole('button', { name: 'Enable embedding' }).click();
      const embedded = { uuid: ((await modal.getByTestId('embedded-uuid').textContent()) ?? '').trim() };
      await modal.getByRole('button', { name: 'Save changes' }).waitFor();
      await screenshot(page, 'dashboard-embed-modal');
      await closeDialog(page);
      expect((await rest('get', `/api/v1/dashboard/${created.body.id}/embedded`)).body.result).toMatchObject({ uuid: embedded.uuid, allowed_domains: [site.origin] });
      const { token } = (await rest('post', '/api/v1/security/guest_token/', { user: { username: 'visitor' }, resources: [{ type: 'dashboard', id: embedded.uuid }], rls: [] })).body;
      const src = `${t.url}/embedded/${embedded.uuid}/`;

      // Framed by a site not allowed: refused.
      expect((await site.context.request.get(src, { headers: { referer: 'https://evil.example/page' } })).status()).toBe(403);
      const allowed = await site.context.request.get(src, { headers: { referer: `${site.origin}/reports` } });
      expect(allowed.status()).toBe(200);
      expect(allowed.headers()['content-security-policy']).toContain(`frame-ancestors 'self' ${site.origin}`);
      expect(allowed.headers()['content-security-policy']).toContain("script-src 'self' 'sha256-");

      const { hostPage, inFrame } = await site.frame(src, token, 1, 'dashboard-embedded');
      await inFrame.getByRole('heading', { name: 'Embedded births' }).waitFor();
      // No native filters and no cross-filters: no filter bar for a guest.
      expect(await inFrame.getByTestId('filter-bar').count()).toBe(0);
      await screenshot(hostPage, 'dashboard-embedded');
      // The frame holds no session: the guest token is what let it in.
      expect((await site.context.cookies()).filter((c) => c.name.includes('session'))).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it("an embedded dashboard's native filters work as on its own page: the default applies, the bar lists the filter, its options come to the guest, Apply changes the charts, a click cross-filters; show_filters=false hides the bar, expand_filters=false folds it", { timeout: 120_000 }, async () => {
    const datasource = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    const table = (await rest('post', '/api/v1/chart/', { slice_name: 'Births per gender', viz_type: 'table', datasource_id: datasource, datasource_type: 'table', params: JSON.stringify({ viz_type: 'table', query_mode: 'aggregate', groupby: ['gender'], metrics: ['sum__num'], row_limit: 10, datasource: `${datasource}__table` }) })).body.id as number;
    const total = chartIds[1]!;
    const gender = newNativeFilter('NATIVE_FILTER-gender', 'filter_select');
    gender.name = 'Gender';
    gender.targets = [{ datasetId: datasource, column: { name: 'gender' } }];
    gender.controlValues = { ...gender.controlValues, multiSelect: false };
    gender.defaultDataMask = { extraFormData: { filters: [{ col: 'gender', op: 'IN', val: ['girl'] }] }, filterState: { value: ['girl'], label: 'girl' }, ownState: {} };
    // On the table only: the big number is left to the table's cross-filter.
    gender.scope = { rootPath: ['ROOT_ID'], excluded: [total] };
    const position = positionFromLayout(layoutOfRows('Embedded filters', [[{ chartId: table, width: 6 }, { chartId: total, width: 4 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Embedded filters', position_json: JSON.stringify(position), json_metadata: JSON.stringify({ native_filter_configuration: [gender] }) });
    const site = await framingSite();
    try {
      const { uuid } = (await rest('post', `/api/v1/dashboard/${created.body.id}/embedded`, { allowed_domains: [site.origin] })).body.result;
      const { token } = (await rest('post', '/api/v1/security/guest_token/', { user: { username: 'visitor' }, resources: [{ type: 'dashboard', id: uuid }], rls: [] })).body;
      const src = `${t.url}/embedded/${uuid}/`;
      // The filter's option queries, as the frame sent them (with the guest's token, in the dashboard's name) and how the server answered.
      const optionQueries: Array<{ formData: Record<string, unknown>; guest: boolean; status: number }> = [];
      // The big number's latest query's filters; the calls for a filter state (a guest may keep none).
      let totalFilters: unknown = null;
      const filterStateCalls: string[] = [];
      site.context.on('response', (res) => {
        const req = res.request();
        if (req.url().includes('/filter_state')) filterStateCalls.push(req.url());
        const formData = req.url().includes('/api/v1/chart/data') && req.method() === 'POST' ? (JSON.parse(req.postData() ?? '{}').form_data ?? {}) : null;
        if (formData?.type === 'NATIVE_FILTER') optionQueries.push({ formData, guest: !!req.headers()['x-guesttoken'], status: res.status() });
        if (Number(JSON.parse(new URL(req.url()).searchParams.get('form_data') ?? '{}').slice_id) === total) totalFilters = formData?.extra_form_data?.filters ?? [];
      });
      const rows = (inFrame: FrameLocator) => inFrame.locator(`[data-testid="dashboard-chart"][data-chart-id="${table}"] tbody tr`).allTextContents();

      const { hostPage, inFrame } = await site.frame(src, token, 2, 'dashboard-embedded-filters');
      // The default value applies: only the girls' row; the big number, out of the filter's scope, is not filtered.
      await expect.poll(() => rows(inFrame)).toEqual([expect.stringMatching(/^girl/)]);
      await expect.poll(() => totalFilters).toEqual([]);
      const bar = inFrame.getByTestId('filter-bar');
      await bar.getByTestId('native-filter').filter({ hasText: 'Gender' }).waitFor();
      // Read-only: no settings (add or edit filters, orientation) for a guest.
      expect(await bar.getByRole('button', { name: 'Filter bar settings' }).count()).toBe(0);
      await bar.getByLabel('Gender', { exact: true }).click();
      const listbox = inFrame.getByRole('listbox');
      await listbox.getByRole('option', { name: 'boy', exact: true }).waitFor();
      expect(await listbox.getByRole('option').allTextContents()).toEqual(expect.arrayContaining(['boy', 'girl']));
      expect(optionQueries.length).toBeGreaterThan(0);
      expect(optionQueries.every((q) => q.guest && q.status === 200 && q.formData.dashboardId === created.body.id && q.formData.native_filter_id === gender.id)).toBe(true);
      await screenshot(hostPage, 'dashboard-embedded-filter-options');
      await listbox.getByRole('option', { name: 'boy', exact: true }).click();
      await bar.getByTestId('filter-bar-apply').click();
      await expect.poll(() => rows(inFrame)).toEqual([expect.stringMatching(/^boy/)]);
      // A click on the table's value cross-filters the big number, and the bar shows it.
      await inFrame.locator(`[data-testid="dashboard-chart"][data-chart-id="${table}"] tbody td`).filter({ hasText: /^boy$/ }).click();
      await bar.getByTestId('cross-filter').filter({ hasText: 'Births per gender' }).waitFor();
      await expect.poll(() => JSON.stringify(totalFilters)).toMatch(/"col":"gender".*"boy"/);
      await screenshot(hostPage, 'dashboard-embedded-filters');
      // The SDK hands over a fresh token: the frame asks again with it, keeping the dashboard drawn and the values chosen.
      const fresh = (await rest('post', '/api/v1/security/guest_token/', { user: { username: 'visitor-again' }, resources: [{ type: 'dashboard', id: uuid }], rls: [] })).body.token as string;
      expect(fresh).not.toBe(token);
      const askedAgain = hostPage.waitForResponse((r) => r.url().includes(`/api/v1/dashboard/${created.body.id}/charts`) && r.request().headers()['x-guesttoken'] === fresh);
      await hostPage.evaluate((guestToken) => (document.getElementById('embed') as HTMLIFrameElement).contentWindow!.postMessage({ guestToken }, '*'), fresh);
      expect((await askedAgain).status()).toBe(200);
      expect(await rows(inFrame)).toEqual([expect.stringMatching(/^boy/)]);
      expect(await bar.getByTestId('cross-filter').count()).toBe(1);
      await hostPage.close();

      // The SDK's filters: { visible: false }: no bar, the default still applies.
      const hidden = await site.frame(`${src}?show_filters=false`, token, 2, 'dashboard-embedded-filters-hidden');
      await expect.poll(() => rows(hidden.inFrame)).toEqual([expect.stringMatching(/^girl/)]);
      expect(await hidden.inFrame.getByTestId('filter-bar').count()).toBe(0);
      await screenshot(hidden.hostPage, 'dashboard-embedded-filters-hidden');
      await hidden.hostPage.close();

      // filters: { expanded: false }: the bar starts folded, and opens.
      const folded = await site.frame(`${src}?expand_filters=false`, token, 2, 'dashboard-embedded-filters-folded');
      await folded.inFrame.locator('[data-testid="filter-bar"][data-collapsed]').waitFor();
      await folded.inFrame.getByRole('button', { name: 'Expand filter bar' }).click();
      await folded.inFrame.getByTestId('filter-bar').getByTestId('native-filter').filter({ hasText: 'Gender' }).waitFor();
      expect(filterStateCalls).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it("a chart's menu views its query and rows, drills to detail, goes full size, refreshes, shares and downloads; the dashboard downloads as image and PDF; the list deletes once DELETE is typed", { timeout: 180_000 }, async () => {
    const [pie] = chartIds as [number];
    const list = await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))');
    const datasource = list.body.ids[0];
    const made = async (slice_name: string, params: Record<string, unknown>) =>
      (await rest('post', '/api/v1/chart/', { slice_name, viz_type: params.viz_type, datasource_id: datasource, datasource_type: 'table', description: slice_name === 'Births table' ? 'Every state and gender, most births first.' : undefined, params: JSON.stringify({ ...params, datasource: `${datasource}__table` }) })).body.id as number;
    const table = await made('Births table', { viz_type: 'table', query_mode: 'aggregate', groupby: ['state', 'gender'], metrics: ['sum__num'], row_limit: 5 });
    const pivotChart = await made('Births pivot', { viz_type: 'pivot_table_v2', groupbyRows: ['gender'], groupbyColumns: ['state'], metrics: ['sum__num'], row_limit: 1000 });
    const position = positionFromLayout(layoutOfRows('Menus', [[{ chartId: pie, width: 4 }, { chartId: table, width: 4 }, { chartId: pivotChart, width: 4 }]]));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Menus', position_json: JSON.stringify(position) });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
    const cell = (name: string) => page.getByTestId('dashboard-chart').filter({ hasText: name });
    await expect.poll(() => page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').count(), { timeout: 30_000 }).toBe(3);
    // The table heads its metric with the dataset's verbose name for sum__num (from GET /dashboard/{id}/datasets).
    await cell('Births table').getByText('Births', { exact: true }).waitFor();
    await expect(cell('Births table').getByText('sum__num', { exact: true }).count()).resolves.toBe(0);
    const menu = async (name: string, item: string) => {
      await cell(name).getByTestId('chart-menu').click();
      await page.getByRole('menuitem', { name: item, exact: true }).click();
    };
    const download = async (name: string, item: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), menu(name, item)]);
      const path = join(dir, `${Date.now()}-${file.suggestedFilename()}`);
      await file.saveAs(path);
      return { name: file.suggestedFilename(), bytes: readFileSync(path) };
    };

    // View query: the SQL the chart runs.
    await menu('Births table', 'View query');
    const sql = page.getByTestId('view-query-sql');
    await expect.poll(() => sql.textContent()).toMatch(/GROUP BY[\s\S]*state/i);
    await closeDialog(page);
    // View as table: its rows before drawing.
    await menu('Births table', 'View as table');
    await page.getByTestId('chart-results').getByText('5 rows').waitFor();
    await screenshot(page, 'dashboard-chart-view-as-table');
    await closeDialog(page);
    // Drill to detail: the dataset's rows under the chart's filters.
    await menu('Births by gender', 'Drill to detail');
    await page.getByRole('dialog', { name: 'Drill to detail' }).getByRole('cell').first().waitFor();
    await closeDialog(page);

    // The description shows on demand; the chart goes full size and comes back with Escape.
    await menu('Births table', 'Show chart description');
    await expect(cell('Births table').getByTestId('chart-description').textContent()).resolves.toBe('Every state and gender, most births first.');
    await menu('Births by gender', 'Enter fullscreen');
    const full = page.locator('[data-testid="dashboard-chart"][data-full-size]');
    await expect.poll(async () => (await full.boundingBox())?.width).toBe(1440);
    await full.locator('canvas').first().waitFor();
    await screenshot(page, 'dashboard-chart-full-size');
    await page.keyboard.press('Escape');
    await expect.poll(() => full.count()).toBe(0);

    // Force refresh asks this chart alone again, bypassing the cache.
    const forced: number[] = [];
    const onRequest = (req: import('playwright-core').Request) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/v1/chart/data' && JSON.parse(req.postData() ?? '{}').force) forced.push(JSON.parse(new URL(req.url()).searchParams.get('form_data') ?? '{}').slice_id);
    };
    page.on('request', onRequest);
    await menu('Births table', 'Force refresh');
    await expect.poll(() => forced).toEqual([table]);
    page.off('request', onRequest);

    // Share: a permalink of the dashboard anchored on the chart (Superset's chart share items).
    await menu('Births by gender', 'Copy permalink to clipboard');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/superset\/dashboard\/p\/[\w-]+\/$/);

    // Downloads: the data as CSV (limited and full), pivoted CSV and Excel; the chart as a PNG.
    const csv = await download('Births table', 'Export to .CSV');
    expect(csv.name).toBe('Births table.csv');
    const lines = csv.bytes.toString('utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('state,gender,sum__num');
    expect(lines).toHaveLength(6);
    const fullCsv = await download('Births table', 'Export to full .CSV');
    expect(fullCsv.bytes.toString('utf8').trim().split(/\r?\n/).length).toBeGreaterThan(6);
    const pivoted = await download('Births pivot', 'Export to Pivoted .CSV');
    const pivotLines = pivoted.bytes.toString('utf8').trim().split(/\r?\n/);
    expect(pivotLines[0]).toMatch(/^gender,/);
    expect(pivotLines.map((l) => l.split(',')[0])).toEqual(['gender', 'boy', 'girl']);
    const xlsx = await download('Births table', 'Export to Excel');
    expect(xlsx.name).toBe('Births table.xlsx');
    expect(xlsx.bytes.subarray(0, 2).toString()).toBe('PK');
    const png = await download('Births by gender', 'Download as image');
    expect(png.name).toBe('Births by gender.png');
    expect(png.bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(png.bytes.readUInt32BE(16)).toBeGreaterThan(200);

    // The whole dashboard, from its header menu.
    // The picture of a whole dashboard is made on the page's main thread (every element's styles copied, then
    // drawn): about 1.5 s here alone, several times that on a loaded machine, so it gets longer than a click's wait.
    const dashboardDownload = async (item: string) => {
      // Should it time out, the charts' states say whether the picture waited for a chart or was being made.
      const states = () => page.locator('[data-chart-state]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-chart-state')).join(', ')).catch(() => '?');
      const waited = page.waitForEvent('download', { timeout: 60_000 }).catch(async (error: Error) => {
        throw new Error(`${error.message}; the charts' states then: ${await states()}`);
      });
      const [file] = await Promise.all([waited, (async () => {
        await page.getByRole('button', { name: 'More dashboard actions' }).click();
        await page.getByRole('menuitem', { name: item, exact: true }).click();
      })()]);
      const path = join(dir, `${Date.now()}-${file.suggestedFilename()}`);
      await file.saveAs(path);
      return { name: file.suggestedFilename(), bytes: readFileSync(path) };
    };
    const image = await dashboardDownload('Download as image');
    expect(image.name).toBe('Menus.png');
    expect(image.bytes.subarray(1, 4).toString()).toBe('PNG');
    const pdf = await dashboardDownload('Export to PDF');
    expect(pdf.name).toBe('Menus.pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    // A dashboard downloaded whole: the charts not yet scrolled to (not drawn until then) are drawn for it.
    const stacked = positionFromLayout(layoutOfRows('Stacked', [pie, table, pivotChart].map((chartId) => [{ chartId, width: 12, height: 50 }])));
    const tall = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Stacked', position_json: JSON.stringify(stacked) });
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 300 });
    try {
      await page.goto(`${t.url}/superset/dashboard/${tall.body.id}/`);
      await page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').first().waitFor();
      await expect(cell('Births pivot').getAttribute('data-chart-state')).resolves.toBe('loading');
      const whole = await dashboardDownload('Download as image');
      expect(whole.name).toBe('Stacked.png');
      writeFileSync(join(SCREENS_DIR, 'dashboard-download-stacked.png'), whole.bytes);
      expect(await page.locator('[data-testid="dashboard-chart"]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-chart-state')))).toEqual(['rendered', 'rendered', 'rendered']);
      const facts = pngFacts(whole.bytes);
      expect(facts.height).toBeGreaterThan(3 * 400);
      // The last chart (the pivot table, at the bottom) is in the picture, not a spinner.
      expect(pngFacts(whole.bytes, [-300, -20]).colours).toBeGreaterThan(20);
    } finally {
      await page.setViewportSize(viewport);
    }

    // The dashboards list deletes it once DELETE is typed.
    await page.goto(`${t.url}/dashboard/list/`);
    await page.getByRole('button', { name: 'Delete Menus', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    const remove = confirm.getByRole('button', { name: 'Delete', exact: true });
    await expect(remove.isDisabled()).resolves.toBe(true);
    await confirm.getByLabel('Type "DELETE" to confirm').fill('delete');
    await screenshot(page, 'dashboard-list-delete-typed');
    await remove.click();
    await page.getByText('Deleted: Menus').waitFor();
    expect((await rest('get', `/api/v1/dashboard/${created.body.id}`)).status).toBe(404);
  });

  it('the charts and dashboards lists show cards (each chart drawn small from its own data, each dashboard as its layout in miniature) and filter by dataset, owner and modifier', { timeout: 120_000 }, async () => {
    await page.goto(`${t.url}/chart/list/`);
    await page.getByTestId('card-view').click();
    const cards = page.getByTestId('list-card');
    await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(3);
    const pie = cards.filter({ hasText: 'Births by gender' }).first();
    await pie.locator('[data-testid="chart-thumbnail"][data-drawn] canvas').first().waitFor({ timeout: 30_000 });
    // The chart is laid out on a larger card and shrunk to the thumbnail, whole: laid out in the 150 px cover it had
    // no room for its labels (a heatmap's or box plot's rotated names filled the plot, others were cut off).
    const fit = await pie.getByTestId('chart-thumbnail').evaluate((thumb) => {
      const canvas = thumb.querySelector('canvas')!;
      const box = thumb.getBoundingClientRect();
      const drawn = canvas.getBoundingClientRect();
      return { laidOut: canvas.offsetHeight / box.height, inside: drawn.left >= box.left - 0.5 && drawn.right <= box.right + 0.5 && drawn.top >= box.top - 0.5 && drawn.bottom <= box.bottom + 0.5 };
    });
    expect(fit.laidOut).toBeGreaterThan(1.3);
    expect(fit.inside).toBe(true);
    await expect(pie.getByRole('link', { name: 'Births by gender' }).getAttribute('href')).resolves.toMatch(/\/explore\/\?slice_id=\d+/);
    await cards.filter({ hasText: 'Total births' }).first().locator('[data-testid="chart-thumbnail"][data-drawn]').waitFor();
    // A thumbnail reads the dataset's verbose names, as the chart does when opened: the table heads sum__num 'Births'.
    const tableCard = cards.filter({ hasText: 'Births table' }).first();
    await tableCard.scrollIntoViewIfNeeded();
    await tableCard.getByTestId('chart-thumbnail').getByText('Births', { exact: true }).waitFor({ timeout: 30_000 });
    await expect(tableCard.getByTestId('chart-thumbnail').getByText('sum__num', { exact: true }).count()).resolves.toBe(0);
    await screenshot(page, 'chart-list-cards');
    // The choice is remembered.
    await page.reload();
    await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(3);
    await page.getByTestId('list-view').click();
    const chartsTable = page.getByRole('table', { name: 'Charts' });
    await chartsTable.waitFor();
    // The Dataset and Owner filters read their choices from the server.
    await page.getByRole('combobox', { name: 'Dataset' }).click();
    await page.getByRole('option', { name: 'main.birth_names' }).click();
    await expect.poll(() => chartsTable.getByText('main.birth_names').count()).toBeGreaterThanOrEqual(3);
    await page.getByRole('combobox', { name: 'Owner' }).click();
    await page.getByRole('option', { name: 'Admin User' }).click();
    await expect.poll(() => chartsTable.getByRole('row').count()).toBeGreaterThan(3);

    const [pieId, totalId] = chartIds as [number, number];
    const position = positionFromLayout(layoutOfRows('Miniature', [[{ chartId: pieId, width: 8, sliceName: 'Births by gender' }, { chartId: totalId, width: 4, sliceName: 'Total births' }], [{ markdown: '# Notes', width: 12 }]]));
    await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Miniature', position_json: JSON.stringify(position) });
    await page.goto(`${t.url}/dashboard/list/`);
    // The seven filters share one line at 1440 px (the Tag filter wrapped alone to a second); narrower, they wrap into
    // rows that start at the left, under the first.
    const filters = ['Search dashboards', 'Status', 'Owner', 'Modified by', 'Favorite', 'Certified', 'Tag'].map((name) => `input[aria-label="${name}"]`).join(', ');
    const filterBoxes = () => page.locator(filters).evaluateAll((inputs) => inputs.map((i) => i.getBoundingClientRect()).map((r) => ({ left: Math.round(r.left), top: Math.round(r.top) })));
    await page.getByRole('combobox', { name: 'Tag' }).waitFor();
    const wide = await filterBoxes();
    expect(wide).toHaveLength(7);
    expect(new Set(wide.map((b) => b.top)).size).toBe(1);
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 1024, height: viewport.height });
    try {
      await expect.poll(async () => new Set((await filterBoxes()).map((b) => b.top)).size).toBe(2);
      const narrow = await filterBoxes();
      const secondRow = narrow.filter((b) => b.top > narrow[0]!.top);
      expect(Math.min(...secondRow.map((b) => b.left))).toBe(narrow[0]!.left);
    } finally {
      await page.setViewportSize(viewport);
    }
    await page.getByTestId('card-view').click();
    const board = cards.filter({ hasText: 'Miniature' }).first();
    await board.getByTestId('dashboard-thumbnail').waitFor();
    // Its miniature holds a box per chart of its layout.
    await expect.poll(() => board.locator('[data-testid="dashboard-thumbnail"] [title]').count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'dashboard-list-cards');
    await page.getByTestId('list-view').click();
    const boards = page.getByRole('table', { name: 'Dashboards' });
    await boards.waitFor();
    await page.getByRole('combobox', { name: 'Modified by' }).click();
    await page.getByRole('option', { name: 'Admin User' }).click();
    await boards.getByText('Miniature').waitFor();
  });

  it('looks right in the dark theme', { timeout: 60_000 }, async () => {
    await page.evaluate(() => localStorage.setItem('meridian-color-scheme', 'dark'));
    await page.goto(`${t.url}/superset/dashboard/${dashboardId}/`);
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'dashboard-view-dark');
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    // The drop zones between rows show only under a drag: at rest they drew grey bars across the dark grid.
    await page.locator('[data-testid^="drop-"]').first().waitFor();
    const restingZones = await page.locator('[data-testid^="drop-"]:not([data-over]):not([data-empty-row])').evaluateAll((zones) => zones.map((z) => getComputedStyle(z).backgroundColor));
    expect(restingZones.length).toBeGreaterThan(0);
    expect(new Set(restingZones)).toEqual(new Set(['rgba(0, 0, 0, 0)']));
    await screenshot(page, 'dashboard-edit-dark');
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.evaluate(() => localStorage.setItem('meridian-color-scheme', 'light'));
  });

  it("a table dropped into a new dashboard names its metric by the dataset's verbose name at once (it showed the raw name until a reload)", { timeout: 90_000 }, async () => {
    const datasource = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    const params = { viz_type: 'table', datasource: `${datasource}__table`, groupby: ['gender'], metrics: ['sum__num'], row_limit: 10 };
    const table = await rest('post', '/api/v1/chart/', { slice_name: 'Births by gender, table', viz_type: 'table', datasource_id: datasource, datasource_type: 'table', params: JSON.stringify(params) });
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'New with a table' });
    try {
      await page.goto(`${t.url}/superset/dashboard/${created.body.id}/?edit=true`);
      await page.getByRole('complementary', { name: 'Dashboard builder' }).waitFor();
      await dragIn(page, 'Births by gender, table', '[data-testid="drop-GRID_ID-0"]');
      const cellOf = page.locator(`[data-testid="dashboard-chart"][data-chart-id="${table.body.id}"]`);
      await cellOf.getByRole('columnheader', { name: 'Births' }).waitFor();
      expect(await cellOf.getByRole('columnheader', { name: 'sum__num' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Discard' }).click();
    } finally {
      await rest('delete', `/api/v1/chart/${table.body.id}`);
    }
  });
});
