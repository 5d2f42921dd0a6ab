import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newNativeFilter } from '../../contracts/src/dashboard/native-filters';
import { ensureExampleDashboards } from '../../server/src/dashboard/example-dashboards';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { closeDialog, ensureClientBuilt, launchBrowser, login, SCREENS_DIR, screenshot } from './browser';

type Extra = { filters?: Array<{ col: string; op: string; val: unknown }>; time_range?: string };

// Native filters and cross-filters on the births example dashboard, in a real Chromium (issue 13).
describe('native filters and cross-filters in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let admin: string;
  let dashboardId: number;
  const chartId: Record<string, number> = {};
  /** The extra_form_data of the last chart data request of each chart, by slice id. */
  let sent = new Map<number, Extra>();
  let urlParams: unknown = null;

  const onRequest = (req: Request) => {
    if (!req.url().includes('/api/v1/chart/data') || req.method() !== 'POST') return;
    const sliceId = Number(JSON.parse(new URL(req.url()).searchParams.get('form_data') ?? '{}').slice_id);
    if (!sliceId) return;
    const formData = JSON.parse(req.postData() ?? '{}').form_data ?? {};
    sent.set(sliceId, (formData.extra_form_data ?? {}) as Extra);
    urlParams = formData.url_params ?? urlParams;
  };
  /** Waits until the chart's latest query carried (or, with null, did not carry) a filter on `col`. */
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
  const drawn = async () => expect.poll(async () => page.locator('[data-testid="dashboard-chart"]:not([data-chart-state="rendered"])').count(), { timeout: 30_000 }).toBe(0);
  const filterInput = (name: string) => page.getByTestId('filter-bar').getByLabel(name, { exact: true });
  const pick = async (name: string, value: string) => {
    await filterInput(name).click();
    // Searching finds values beyond the first page of options.
    await filterInput(name).fill(value);
    await page.getByRole('option', { name: value, exact: true }).click();
    await page.keyboard.press('Escape');
  };
  const options = async (name: string) => {
    await filterInput(name).click();
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    const texts = await page.getByRole('listbox').getByRole('option').allTextContents();
    await page.keyboard.press('Escape');
    return texts;
  };

  /**
   * Of a chart's drawn pixels, the share drawn faded. Charts draw on a transparent canvas, so an item drawn at 0.3
   * opacity leaves translucent pixels (a few edges and letters are translucent too: compare with the same chart).
   */
  const fadedShare = (name: string) =>
    cell(name)
      .locator('canvas')
      .first()
      .evaluate((canvas: HTMLCanvasElement) => {
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let drawn = 0;
        let faded = 0;
        for (let i = 3; i < data.length; i += 4) {
          if (!data[i]) continue;
          drawn += 1;
          if (data[i]! > 50 && data[i]! < 110) faded += 1;
        }
        return faded / drawn;
      });
  /** The opacity (alpha, 0-255) a chart's canvas has at a point of the page. */
  const alphaAt = (name: string, x: number, y: number) =>
    cell(name)
      .locator('canvas')
      .first()
      .evaluate((canvas: HTMLCanvasElement, [px, py]) => {
        const r = canvas.getBoundingClientRect();
        const scale = canvas.width / r.width;
        return canvas.getContext('2d')!.getImageData(Math.round((px! - r.left) * scale), Math.round((py! - r.top) * scale), 1, 1).data[3];
      }, [x, y]);
  /** Clicks a chart's canvas at the given fractions of its box, one point after the other, until the chart cross-filters; the point that did. */
  const crossFilterFrom = async (name: string, points: Array<[number, number]>) => {
    const canvas = cell(name).locator('canvas').first();
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    const chip = page.getByTestId('cross-filter').filter({ hasText: name });
    for (const [fx, fy] of points) {
      const at = { x: box.x + box.width * fx, y: box.y + box.height * fy };
      await page.mouse.click(at.x, at.y);
      if (await chip.waitFor({ timeout: 1_000 }).then(() => true, () => false)) return at;
    }
    throw new Error(`no cross-filter from ${name}`);
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-filters-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    await ensureExampleDashboards(t.services);
    const board = await t.http.get('/api/v1/dashboard/births').set('Authorization', `Bearer ${admin}`);
    dashboardId = board.body.result.id;
    const charts = await t.http.get(`/api/v1/dashboard/${dashboardId}/charts`).set('Authorization', `Bearer ${admin}`);
    for (const c of charts.body.result) chartId[c.slice_name] = c.id;
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('request', onRequest);
    await login(page, t.url);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await screenshot(page, `failed-filters-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    await closeDialog(page, 5_000).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a value filter with a default narrows only the charts in its scope; the header indicator lists it; hovering shows the scope', { timeout: 120_000 }, async () => {
    sent = new Map();
    await page.goto(`${t.url}/superset/dashboard/births/?region=west`);
    await page.getByTestId('filter-bar').waitFor();
    await drawn();
    // The address's own parameters reach the chart queries as url_params.
    expect(urlParams).toEqual({ region: 'west' });
    await expectFilter('Total births', 'gender', ['girl']);
    await expectFilter('Births by state', 'gender', ['girl']);
    // The pie compares boys and girls: it is out of the Gender filter's scope.
    await expectFilter('Boys and girls', 'gender', null);
    await expect.poll(() => cell('Total births').getByTestId('filter-indicator').textContent()).toBe('1');
    expect(await cell('Boys and girls').getByTestId('filter-indicator').count()).toBe(0);
    await cell('Total births').getByTestId('filter-indicator').click();
    await page.getByText('Applied filters (1)').waitFor();
    await cell('Total births').getByTestId('filter-indicator').click();
    await page.getByText('Applied filters (1)').waitFor({ state: 'hidden' });
    await page.locator('[data-testid="native-filter"]').filter({ hasText: 'Gender' }).hover();
    await expect.poll(() => cell('Boys and girls').getAttribute('data-filter-focus')).toBe('out');
    expect(await cell('Total births').getAttribute('data-filter-focus')).toBe('in');
    await screenshot(page, 'filters-births-default');
    await page.mouse.move(900, 10);
  });

  it('the vertical filter bar fills the window below the title bar, scrolled or not', { timeout: 60_000 }, async () => {
    const bar = page.locator('[data-testid="filter-bar"][data-orientation="vertical"]');
    const titleBarBottom = () => page.getByRole('heading', { name: 'USA Births Names' }).evaluate((h) => h.parentElement!.getBoundingClientRect().bottom);
    const edges = () => bar.evaluate((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom, window: innerHeight }));
    expect(await edges()).toEqual({ top: await titleBarBottom(), bottom: 1000, window: 1000 });
    // Scrolled, the title bar stays in view under the app's bar and the filter bar under it, down to the window's foot
    // (it ended 55 px short: its height counted the title bar, its top did not).
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(300);
    expect(await edges()).toEqual({ top: await titleBarBottom(), bottom: 1000, window: 1000 });
    expect(await titleBarBottom()).toBeGreaterThan(100);
    await page.screenshot({ path: join(SCREENS_DIR, 'filters-bar-scrolled.png') });
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  it('a map and a pie that cross-filter keep the state or slice they selected drawn and fade the rest, until the cross-filter goes', { timeout: 120_000 }, async () => {
    await drawn();
    const remove = (chart: string) => page.getByTestId('cross-filter').filter({ hasText: chart }).getByRole('button', { name: 'Remove cross-filter' }).click();
    const mapBefore = await fadedShare('Births by state');
    // California, at the map's left.
    const state = await crossFilterFrom('Births by state', [[0.12, 0.45], [0.1, 0.4], [0.15, 0.5], [0.14, 0.55], [0.11, 0.35]]);
    // Away from the chart, so that its hover look is not what is measured.
    await page.mouse.move(5, 500);
    await expect.poll(() => fadedShare('Births by state')).toBeGreaterThan(mapBefore + 0.3);
    expect(await alphaAt('Births by state', state.x, state.y)).toBe(255);
    await screenshot(page, 'filters-cross-filter-map');
    await remove('Births by state');
    await expect.poll(() => fadedShare('Births by state')).toBeLessThan(mapBefore + 0.05);

    // The pie is out of the Gender filter's scope: it shows boys and girls.
    await drawn();
    const pieBefore = await fadedShare('Boys and girls');
    const slice = await crossFilterFrom('Boys and girls', [[0.3, 0.6], [0.25, 0.55], [0.35, 0.7], [0.7, 0.6], [0.75, 0.55], [0.65, 0.7]]);
    await page.mouse.move(5, 500);
    await expect.poll(() => fadedShare('Boys and girls')).toBeGreaterThan(pieBefore + 0.2);
    expect(await alphaAt('Boys and girls', slice.x, slice.y)).toBe(255);
    await screenshot(page, 'filters-cross-filter-pie');
    await remove('Boys and girls');
    await expect.poll(() => fadedShare('Boys and girls')).toBeLessThan(pieBefore + 0.05);
    expect(await page.getByTestId('cross-filter').count()).toBe(0);
  });

  it('a cascaded child filter lists only the values consistent with its parent', { timeout: 120_000 }, async () => {
    const girls = await options('Name');
    expect(girls).toContain('Jennifer');
    expect(girls).not.toContain('Michael');
    await pick('Gender', 'boy');
    await page.getByTestId('filter-bar-apply').click();
    await expectFilter('Total births', 'gender', ['boy']);
    await expect.poll(async () => (await options('Name')).includes('Michael')).toBe(true);
    expect(await options('Name')).not.toContain('Jennifer');
    await screenshot(page, 'filters-births-cascade');
  });

  it("a multiple-value filter's 'Select All' chooses every option, and again clears them; a pill's × drops its value", { timeout: 120_000 }, async () => {
    const state = page.getByTestId('filter-bar').locator('[data-testid="native-filter"]').filter({ hasText: 'State' });
    const pills = state.locator('.mantine-Pill-label');
    const all = (await options('State')).filter((o) => o !== 'Select All');
    expect(all.length).toBeGreaterThan(2);
    await filterInput('State').click();
    await page.getByRole('option', { name: 'Select All', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => pills.allTextContents()).toEqual(all);
    await screenshot(page, 'filters-select-all');
    await page.getByTestId('filter-bar-apply').click();
    await expectFilter('Total births', 'state', all);
    await expect.poll(() => cell('Total births').getByTestId('filter-indicator').textContent()).toBe('2');
    // Out of focus the select shows four values and '+ N ...' for the rest (spec 01 §9 'default max tags 4').
    if (all.length > 4) {
      const shown = () => state.locator('.mantine-Pill-root').evaluateAll((pills) => pills.filter((p) => getComputedStyle(p).visibility !== 'hidden').length);
      await expect.poll(shown).toBe(4);
      // The number is a CSS counter of the hidden ones (the screenshot shows it drawn).
      expect(await state.locator('.mantine-MultiSelect-pillsList').evaluate((list) => getComputedStyle(list, '::after').content)).toContain('counter(');
      await screenshot(page, 'filters-max-tags');
      await filterInput('State').click();
      await expect.poll(shown).toBe(all.length);
      await page.keyboard.press('Escape');
    }
    // Deselecting one drops it alone.
    await state.locator('.mantine-Pill-root', { hasText: all[0] }).locator('.mantine-Pill-remove').click();
    await expect.poll(() => pills.allTextContents()).toEqual(all.slice(1));
    // Select All with some chosen chooses the rest; with all chosen it clears them.
    await filterInput('State').click();
    await page.getByRole('option', { name: 'Select All', exact: true }).click();
    await expect.poll(async () => (await pills.allTextContents()).sort()).toEqual([...all].sort());
    await page.getByRole('option', { name: 'Select All', exact: true }).click();
    await expect.poll(() => pills.count()).toBe(0);
    await page.keyboard.press('Escape');
    // Pasted text splits on commas, semicolons, tabs and newlines (spec 01 §5); the pieces that are options are chosen.
    const [first, second, third] = all as [string, string, string];
    await filterInput('State').evaluate((input, text) => {
      const data = new DataTransfer();
      data.setData('text', text);
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, `${first}, ${second};no such state\t${third}`);
    await expect.poll(() => pills.allTextContents()).toEqual([first, second, third]);
    await filterInput('State').click();
    for (let i = 0; i < 3; i++) await state.locator('.mantine-Pill-remove').first().click();
    await expect.poll(() => pills.count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByTestId('filter-bar-apply').click();
    // Back to the Gender filter alone (the chart's earlier answer for it is drawn again from the cache, not asked anew).
    await expect.poll(() => cell('Total births').getByTestId('filter-indicator').textContent()).toBe('1');
  });

  it('a time range filter changes the time series', { timeout: 120_000 }, async () => {
    await page.locator('[data-testid="native-filter"]').filter({ hasText: 'Years' }).getByRole('button', { name: 'Time range' }).click();
    await page.getByText('Advanced', { exact: true }).click();
    await page.getByLabel('START (INCLUSIVE)').fill('1990-01-01');
    await page.getByLabel('END (EXCLUSIVE)').fill('2000-01-01');
    // Working in the filter's popover highlights the charts in its scope.
    expect(await cell('Births by gender over time').getAttribute('data-filter-focus')).toBe('in');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    // The chart is updated in place: its drawing stays, under a spinner, while the new answer loads.
    await cell('Births by gender over time').locator('canvas').first().evaluate((canvas) => {
      (canvas as unknown as { beforeApply: boolean }).beforeApply = true;
      const w = window as unknown as { spinnerOverDrawing: boolean };
      w.spinnerOverDrawing = false;
      const body = canvas.closest('[data-testid="dashboard-chart"]')!;
      new MutationObserver(() => {
        if (body.querySelector('[data-testid="chart-refreshing"]') && body.contains(canvas)) w.spinnerOverDrawing = true;
      }).observe(body, { childList: true, subtree: true });
    });
    await page.getByTestId('filter-bar-apply').click();
    await expect.poll(() => sent.get(chartId['Births by gender over time']!)?.time_range).toBe('1990-01-01 : 2000-01-01');
    // The popover closed and the focus went elsewhere: the highlight ends (it stayed on for good).
    await expect.poll(() => cell('Births by gender over time').getAttribute('data-filter-focus')).toBeNull();
    await drawn();
    expect(await page.evaluate(() => (window as unknown as { spinnerOverDrawing: boolean }).spinnerOverDrawing)).toBe(true);
    expect(await cell('Births by gender over time').locator('canvas').first().evaluate((canvas) => (canvas as unknown as { beforeApply?: boolean }).beforeApply)).toBe(true);
    await screenshot(page, 'filters-births-time-range');
  });

  it('the filter configuration modal stays still while idle (no render loop between its selects)', { timeout: 60_000 }, async () => {
    await page.getByRole('button', { name: 'Filter bar settings' }).click();
    await page.getByRole('menuitem', { name: 'Add or edit filters' }).click();
    const modal = page.getByRole('dialog', { name: 'Add and edit filters' });
    await modal.getByRole('textbox', { name: 'Filter name' }).waitFor();
    await expect.poll(() => modal.locator('[data-field="dataset"]').inputValue()).toContain('birth_names');
    // Nothing is touched for 1.5 s. A render loop flipped the Dataset box between two spellings of its label, with ~100 attribute writes a second.
    const mutations = await modal.evaluate(
      (dialog) =>
        new Promise<number>((resolve) => {
          let count = 0;
          const observer = new MutationObserver((records) => (count += records.length));
          observer.observe(dialog, { subtree: true, attributes: true, childList: true, characterData: true });
          setTimeout(() => (observer.disconnect(), resolve(count)), 1_500);
        }),
    );
    expect(mutations).toBeLessThan(10);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'detached' });
  });

  it("the filter configuration modal's settings checkboxes stand evenly spaced; its footer stays in a short window", { timeout: 60_000 }, async () => {
    await page.getByRole('button', { name: 'Filter bar settings' }).click();
    await page.getByRole('menuitem', { name: 'Add or edit filters' }).click();
    const modal = page.getByRole('dialog', { name: 'Add and edit filters' });
    await modal.getByRole('checkbox', { name: 'Sort filter values' }).waitFor();
    // Between two checkboxes with nothing opened under the first, one step everywhere: 'Sort filter values' sat
    // closer to 'Pre-filter available values' (4 px) than every other pair (12 px).
    const tops = await modal.locator('.mantine-Checkbox-root').evaluateAll((roots) => roots.map((r) => r.getBoundingClientRect().top));
    const steps = tops.slice(1).map((top, i) => Math.round(top - tops[i]!)).filter((step) => step < 40);
    expect(steps.length).toBeGreaterThan(4);
    expect(new Set(steps).size).toBe(1);
    // In a short window the form scrolls in its pane and Cancel / Save stay on screen (the whole modal scrolled, its
    // footer below the window's foot).
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 1024, height: 700 });
    try {
      const form = modal.getByTestId('filter-config-form');
      await expect.poll(() => form.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      const save = (await modal.getByRole('button', { name: 'Save', exact: true }).boundingBox())!;
      expect(save.y + save.height).toBeLessThanOrEqual(700);
      await page.screenshot({ path: join(SCREENS_DIR, 'filters-config-short-window.png') });
    } finally {
      await page.setViewportSize(viewport);
    }
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'detached' });
  });

  it("the filter configuration modal's delete icons read red on the dark theme, as on the light", { timeout: 60_000 }, async () => {
    /** The colour the 'Remove Gender' icon is drawn in, as [r, g, b]. */
    const removeColour = async () => {
      await page.getByRole('button', { name: 'Filter bar settings' }).click();
      await page.getByRole('menuitem', { name: 'Add or edit filters' }).click();
      const modal = page.getByRole('dialog', { name: 'Add and edit filters' });
      const remove = modal.getByRole('button', { name: 'Remove Gender' });
      const colour = await remove.evaluate((el) => getComputedStyle(el.querySelector('svg')!).color);
      await modal.getByRole('button', { name: 'Cancel' }).click();
      await modal.waitFor({ state: 'detached' });
      return colour.match(/\d+/g)!.slice(0, 3).map(Number) as [number, number, number];
    };
    const reddish = ([r, g, b]: [number, number, number]) => r - Math.max(g, b) > 60;
    // On the births dashboard, as the tests before leave it (its filter state is theirs to keep); alone, it opens it.
    if (!page.url().includes('/superset/dashboard/births/')) await page.goto(`${t.url}/superset/dashboard/births/`);
    expect(reddish(await removeColour())).toBe(true);
    await page.evaluate(() => localStorage.setItem('meridian-color-scheme', 'dark'));
    try {
      await page.reload();
      // Mantine's dark 'light' red is red-0 (#fff5f5): the icons were near white.
      expect(reddish(await removeColour())).toBe(true);
    } finally {
      await page.evaluate(() => localStorage.setItem('meridian-color-scheme', 'light'));
      await page.reload();
    }
  });

  it('removing a filter and undoing within 5 s restores it; after 5 s it is gone; cancelling with edits asks first', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Filter bar settings' }).click();
    await page.getByRole('menuitem', { name: 'Add or edit filters' }).click();
    const modal = page.getByRole('dialog', { name: 'Add and edit filters' });
    await modal.waitFor();
    const item = (name: string) => modal.getByTestId('filter-config-item').filter({ hasText: name });
    await expect.poll(() => modal.getByTestId('filter-config-item').count()).toBe(4);
    await item('State').getByRole('button', { name: 'Remove State' }).click();
    await item('State').getByRole('button', { name: 'Restore Filter' }).click();
    await expect.poll(() => item('State').getByRole('button', { name: 'Remove State' }).count()).toBe(1);
    await item('Years').getByRole('button', { name: 'Remove Years' }).click();
    await screenshot(page, 'filters-config-removed');
    await expect.poll(() => item('Years').count(), { timeout: 8_000 }).toBe(0);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.getByText('There are unsaved changes.').waitFor();
    await modal.getByRole('button', { name: 'Yes, cancel' }).click();
    await modal.waitFor({ state: 'detached' });
    expect(await page.getByTestId('native-filter').count()).toBe(4);
  });

  it('the form moves to the first invalid filter on save; a required filter with no value blocks apply', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Filter bar settings' }).click();
    await page.getByRole('menuitem', { name: 'Add or edit filters' }).click();
    const modal = page.getByRole('dialog', { name: 'Add and edit filters' });
    await modal.waitFor();
    // A new filter without a name: saving selects it and shows what is missing.
    await modal.getByRole('button', { name: 'Add filters and dividers' }).click();
    await page.getByRole('menuitem', { name: 'Filter' }).click();
    await modal.getByTestId('filter-config-item').filter({ hasText: 'Gender' }).click();
    await modal.getByTestId('filters-save').click();
    await modal.getByText('Name is required').waitFor();
    await expect.poll(() => modal.locator('[data-testid="filter-config-item"][data-selected]').textContent()).toContain('[untitled]');
    await screenshot(page, 'filters-config-invalid');
    // Each error goes once its field is filled in.
    const form = modal.getByTestId('filter-form');
    await form.getByRole('textbox', { name: 'Filter name' }).fill('Fixed');
    await form.getByText('Name is required').waitFor({ state: 'detached' });
    expect(await form.getByText('Dataset is required').count()).toBe(1);
    await form.getByLabel(/^Dataset/).first().click();
    await page.getByRole('option', { name: 'birth_names (main)', exact: true }).click();
    await form.getByLabel(/^Column/).first().click();
    await page.getByRole('option', { name: 'state', exact: true }).click();
    await expect.poll(() => form.getByText(/^(Name|Dataset|Column) is required$/).count()).toBe(0);
    await expect.poll(() => modal.getByTestId('filter-config-item').filter({ hasText: 'Fixed' }).evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('none');
    await screenshot(page, 'filters-config-fixed');
    await modal.getByTestId('filter-config-item').filter({ hasText: 'Fixed' }).getByRole('button', { name: /^Remove/ }).click();
    // Name becomes required.
    await modal.getByTestId('filter-config-item').filter({ hasText: 'Name' }).click();
    await modal.getByLabel('Filter value is required').check();
    await page.waitForTimeout(5_500);
    await modal.getByTestId('filters-save').click();
    await modal.waitFor({ state: 'detached' });
    const stored = await t.http.get(`/api/v1/dashboard/${dashboardId}`).set('Authorization', `Bearer ${admin}`);
    const config = JSON.parse(stored.body.result.json_metadata).native_filter_configuration;
    expect(config.map((f: { name: string }) => f.name)).toEqual(['Gender', 'Name', 'State', 'Years']);
    expect(config[1].controlValues.enableEmptyFilter).toBe(true);
    expect(config[0].chartsInScope).not.toContain(chartId['Boys and girls']);

    await pick('State', 'CA');
    await page.getByTestId('native-filter').filter({ hasText: 'Name' }).getByText('Value is required').waitFor();
    expect(await page.getByTestId('filter-bar-apply').isDisabled()).toBe(true);
    await pick('Name', 'Michael');
    await expect.poll(() => page.getByTestId('filter-bar-apply').isDisabled()).toBe(false);
    await page.getByTestId('filter-bar-apply').click();
    await expectFilter('Total births', 'state', ['CA']);
    await expectFilter('Total births', 'name', ['Michael']);
    // Top states is out of the State filter's scope.
    await expectFilter('Top states', 'state', null);
    await drawn();
    await screenshot(page, 'filters-births-required');
  });

  it('the state survives a reload (native_filters_key) and a permalink', { timeout: 120_000 }, async () => {
    await expect.poll(() => new URL(page.url()).searchParams.get('native_filters_key')).toBeTruthy();
    sent = new Map();
    await page.reload();
    await page.getByTestId('filter-bar').waitFor();
    await expectFilter('Total births', 'state', ['CA']);
    await expectFilter('Total births', 'name', ['Michael']);
    expect(await page.getByTestId('filter-bar').getByText('CA', { exact: true }).count()).toBeGreaterThan(0);
    const permalink = page.waitForResponse((r) => r.url().includes('/permalink') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Copy permalink to clipboard' }).click();
    const url = (await (await permalink).json()).url as string;
    // A fresh page (another tab): no kept state, only the permalink.
    const other = await page.context().newPage();
    const seen = new Map<number, Extra>();
    other.on('request', (req) => {
      if (!req.url().includes('/api/v1/chart/data')) return;
      const sliceId = Number(JSON.parse(new URL(req.url()).searchParams.get('form_data') ?? '{}').slice_id);
      if (sliceId) seen.set(sliceId, JSON.parse(req.postData() ?? '{}').form_data?.extra_form_data ?? {});
    });
    await other.goto(url.replace(/^https?:\/\/[^/]+/, t.url));
    await other.getByTestId('filter-bar').waitFor();
    await expect.poll(() => JSON.stringify(seen.get(chartId['Total births']!)?.filters?.find((f) => f.col === 'state')?.val ?? null), { timeout: 20_000 }).toBe('["CA"]');
    await other.close();
  });

  it('a cross-filter from a bar chart narrows the other charts, shows in the bar, and clears', { timeout: 120_000 }, async () => {
    // Clear the native filters first so the cross-filter's effect is on its own.
    await page.getByTestId('filter-bar-clear').click();
    await pick('Name', 'Michael');
    await page.getByTestId('filter-bar-apply').click();
    await drawn();
    const barsBefore = await fadedShare('Top states');
    const canvas = cell('Top states').locator('canvas').first();
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    // Click along the bottom of the plot, left to right, until a bar answers with a cross-filter.
    for (let x = box.x + 30; x < box.x + box.width - 10 && (await page.getByTestId('cross-filter').count()) === 0; x += 8) {
      await page.mouse.click(x, box.y + box.height - 75);
      await page.waitForTimeout(100);
    }
    await page.getByTestId('cross-filter').waitFor();
    const state = ((await page.getByTestId('cross-filter').textContent()) ?? '').match(/state: (\S+)/)?.[1];
    expect(state).toBeTruthy();
    await expectFilter('Total births', 'state', [state]);
    await expectFilter('Boys and girls', 'state', [state]);
    // The emitting chart is not filtered by its own cross-filter.
    await expectFilter('Top states', 'state', null);
    await drawn();
    // Total births: the Name filter and the cross-filter.
    expect(await cell('Total births').getByTestId('filter-indicator').textContent()).toBe('2');
    // The bar keeps its selected bar drawn in full and fades the others (as the pie and the map).
    await page.mouse.move(5, 500);
    await expect.poll(() => fadedShare('Top states')).toBeGreaterThan(barsBefore + 0.2);
    await screenshot(page, 'filters-births-cross-filter');
    await page.getByRole('button', { name: 'Remove cross-filter' }).click();
    await expect.poll(() => fadedShare('Top states')).toBeLessThan(barsBefore + 0.05);
    // Cleared: back to the Name filter alone (the earlier answer is drawn again from the cache).
    await expect.poll(() => cell('Total births').getByTestId('filter-indicator').textContent()).toBe('1');
    expect(await page.getByTestId('cross-filter').count()).toBe(0);
  });

  it('cross-filter scoping: a chart with a custom scope leaves out the charts unchecked; a table row cross-filters; the Explore link carries the filters', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Cross-filter scoping' }).click();
    const modal = page.getByRole('dialog', { name: 'Cross-filtering scoping' });
    await modal.waitFor();
    await modal.getByTestId('cross-filter-scoping-list').getByText('Top states', { exact: true }).click();
    await modal.getByLabel('Custom').check();
    await modal.getByLabel('Apply to specific panels').check();
    await modal.getByTestId('filter-scope-charts').getByLabel('Total births').uncheck();
    await screenshot(page, 'filters-cross-filter-scoping');
    await modal.getByTestId('cross-filter-scoping-save').click();
    await modal.waitFor({ state: 'detached' });
    const stored = JSON.parse((await t.http.get(`/api/v1/dashboard/${dashboardId}`).set('Authorization', `Bearer ${admin}`)).body.result.json_metadata);
    const topStates = stored.chart_configuration[chartId['Top states']!];
    expect(topStates.crossFilters.scope.excluded).toContain(chartId['Total births']);
    expect(topStates.crossFilters.chartsInScope).not.toContain(chartId['Total births']);
    expect(topStates.crossFilters.chartsInScope).toContain(chartId['Boys and girls']);

    const canvas = cell('Top states').locator('canvas').first();
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    for (let x = box.x + 30; x < box.x + box.width - 10 && (await page.getByTestId('cross-filter').count()) === 0; x += 8) {
      await page.mouse.click(x, box.y + box.height - 75);
      await page.waitForTimeout(100);
    }
    const state = ((await page.getByTestId('cross-filter').textContent()) ?? '').match(/state: (\S+)/)?.[1];
    await expectFilter('Boys and girls', 'state', [state]);
    expect(await cell('Total births').getByTestId('filter-indicator').textContent()).toBe('1');
    await page.getByRole('button', { name: 'Remove cross-filter' }).click();

    // A click on a name in the table cross-filters the other charts on that name.
    await cell('Most popular names').scrollIntoViewIfNeeded();
    await cell('Most popular names').getByRole('cell', { name: 'Michael', exact: true }).click();
    // The table marks the value of its own cross-filter (as the pie and the bars show theirs).
    await expect.poll(() => cell('Most popular names').locator('td[data-selected]').allTextContents()).toEqual(['Michael']);
    await page.getByTestId('cross-filter').filter({ hasText: 'name: Michael' }).waitFor();
    // The chart's name and the value both read whole in the narrow bar (the name was cut short beside the value),
    // and say so on hover.
    const chip = page.getByTestId('cross-filter').filter({ hasText: 'name: Michael' });
    const whole = (testId: string) => chip.getByTestId(testId).evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(await whole('cross-filter-chart')).toBe(true);
    expect(await chip.getByTestId('cross-filter-chart').getAttribute('title')).toBe('Most popular names');
    expect(await chip.getByTestId('cross-filter-value').evaluate((el) => el.querySelector('.mantine-Badge-label')!.scrollWidth <= el.querySelector('.mantine-Badge-label')!.clientWidth)).toBe(true);
    await screenshot(page, 'filters-cross-filter-table');
    await expectFilter('Births by state', 'name', ['Michael']);
    await page.getByRole('button', { name: 'Remove cross-filter' }).click();

    const href = await cell('Total births').locator('a').first().getAttribute('href');
    const formData = JSON.parse(new URL(href!, t.url).searchParams.get('form_data')!);
    expect(formData.extra_form_data.filters).toEqual([{ col: 'name', op: 'IN', val: ['Michael'] }]);
    sent = new Map();
    await page.goto(new URL(href!, t.url).toString());
    await page.getByTestId('explore-chart').waitFor();
    await expect.poll(() => [...sent.values()].some((e) => JSON.stringify(e.filters) === JSON.stringify([{ col: 'name', op: 'IN', val: ['Michael'] }])), { timeout: 20_000 }).toBe(true);
    await page.goBack();
    await page.getByTestId('filter-bar').waitFor();
  });

  it('a numerical range and a time grain filter made in the modal: dataset, column and default value; saved and applied', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Filter bar settings' }).click();
    await page.getByRole('menuitem', { name: 'Add or edit filters' }).click();
    const modal = page.getByRole('dialog', { name: 'Add and edit filters' });
    await modal.waitFor();
    const choose = async (label: string, option: string) => {
      await modal.getByLabel(new RegExp(`^${label}`)).first().click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    // A numerical range on num, default 100 to 5000.
    await modal.getByRole('button', { name: 'Add filters and dividers' }).click();
    await page.getByRole('menuitem', { name: 'Filter' }).click();
    await choose('Filter Type', 'Numerical range');
    await modal.getByRole('textbox', { name: 'Filter name' }).fill('Births per row');
    await choose('Dataset', 'birth_names (main)');
    await choose('Column', 'num');
    await modal.getByLabel('Filter has default value').check();
    await modal.getByTestId('filter-default-value').getByLabel('Births per row minimum').fill('100');
    await modal.getByTestId('filter-default-value').getByLabel('Births per row maximum').fill('5000');
    // A time grain, default Month.
    await modal.getByRole('button', { name: 'Add filters and dividers' }).click();
    await page.getByRole('menuitem', { name: 'Filter' }).click();
    await choose('Filter Type', 'Time grain');
    await modal.getByRole('textbox', { name: 'Filter name' }).fill('Grain');
    await choose('Dataset', 'birth_names (main)');
    await modal.getByLabel('Filter has default value').check();
    await modal.getByTestId('filter-default-value').getByLabel('Grain').click();
    await page.getByRole('option', { name: 'Month', exact: true }).click();
    await screenshot(page, 'filters-config-new-grain');
    await modal.getByTestId('filters-save').click();
    await modal.waitFor({ state: 'detached' });
    const config = JSON.parse((await t.http.get(`/api/v1/dashboard/${dashboardId}`).set('Authorization', `Bearer ${admin}`)).body.result.json_metadata).native_filter_configuration;
    const range = config.find((f: { name: string }) => f.name === 'Births per row');
    expect(range).toMatchObject({ filterType: 'filter_range', targets: [{ column: { name: 'num' } }], defaultDataMask: { filterState: { value: [100, 5000] } } });
    expect(config.find((f: { name: string }) => f.name === 'Grain').defaultDataMask.extraFormData).toEqual({ time_grain_sqla: 'P1M' });
    await expect.poll(() => JSON.stringify(sent.get(chartId['Total births']!)?.filters?.filter((f) => f.col === 'num'))).toBe(JSON.stringify([{ col: 'num', op: '>=', val: 100 }, { col: 'num', op: '<=', val: 5000 }]));
    await expect.poll(() => (sent.get(chartId['Births by gender over time']!) as { time_grain_sqla?: string } | undefined)?.time_grain_sqla).toBe('P1M');
    await drawn();
    await screenshot(page, 'filters-births-range-grain');
  });

  it('the bar switches to horizontal with More filters, and back, saved in the metadata', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Filter bar settings' }).click();
    await page.getByRole('menuitem', { name: 'Horizontal (Top)' }).click();
    await page.locator('[data-testid="filter-bar"][data-orientation="horizontal"]').waitFor();
    await page.getByTestId('more-filters').click();
    await page.getByTestId('native-filter').filter({ hasText: 'Years' }).waitFor();
    // The filters in the bar line up: the Name box, a value chosen, is as tall as the empty Gender box (a wrapped
    // search field made it twice as tall).
    const bar = page.locator('[data-testid="filter-bar"][data-orientation="horizontal"]');
    const boxHeight = (name: string) => bar.getByTestId('native-filter').filter({ hasText: name }).locator('.mantine-Input-wrapper').first().evaluate((el) => el.getBoundingClientRect().height);
    await screenshot(page, 'filters-births-horizontal');
    expect(await boxHeight('Name')).toBe(await boxHeight('Gender'));
    await page.keyboard.press('Escape');
    const stored = await t.http.get(`/api/v1/dashboard/${dashboardId}`).set('Authorization', `Bearer ${admin}`);
    expect(JSON.parse(stored.body.result.json_metadata).filter_bar_orientation).toBe('HORIZONTAL');
    await page.getByRole('button', { name: 'Filter bar settings' }).click();
    await page.getByRole('menuitem', { name: 'Vertical (Left)' }).click();
    await page.locator('[data-testid="filter-bar"][data-orientation="vertical"]').waitFor();
    await page.getByRole('button', { name: 'Collapse filter bar' }).click();
    await page.getByRole('button', { name: 'Expand filter bar' }).click();
    await page.getByTestId('native-filter').first().waitFor();
  });

  it('in the horizontal bar a time range filter lines up with the other filters, and a cross-filter reads whole beside them', { timeout: 120_000 }, async () => {
    const auth = ['Authorization', `Bearer ${admin}`] as const;
    const stored = JSON.parse((await t.http.get(`/api/v1/dashboard/${dashboardId}`).set(...auth)).body.result.json_metadata);
    const config = stored.native_filter_configuration as Array<{ name: string }>;
    // Years first, so that it is in the bar rather than under More filters.
    const years = config.find((f) => f.name === 'Years')!;
    await t.http.put(`/api/v1/dashboard/${dashboardId}`).set(...auth).send({ json_metadata: JSON.stringify({ ...stored, filter_bar_orientation: 'HORIZONTAL', native_filter_configuration: [years, ...config.filter((f) => f !== years)] }) }).expect(200);
    await page.goto(`${t.url}/superset/dashboard/births/`);
    const bar = page.locator('[data-testid="filter-bar"][data-orientation="horizontal"]');
    await bar.waitFor();
    const edges = (locator: ReturnType<Page['locator']>) => locator.evaluate((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom }));
    const item = (name: string) => bar.getByTestId('native-filter').filter({ hasText: name });
    // The time range's box is as tall as the Gender box beside it, and level with it (it was a smaller button, lower down).
    expect(await edges(item('Years').getByRole('button', { name: 'Time range' }))).toEqual(await edges(item('Gender').locator('.mantine-Input-wrapper').first()));
    expect(await edges(item('Years').locator('label').first())).toEqual(await edges(item('Gender').locator('label').first()));

    // The first name of the table, whichever the filters leave.
    await cell('Most popular names').scrollIntoViewIfNeeded();
    await cell('Most popular names').getByRole('cell').first().click();
    const chip = bar.getByTestId('cross-filter').filter({ hasText: 'name: ' });
    await chip.waitFor();
    expect(await chip.getByTestId('cross-filter-chart').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENS_DIR, 'filters-horizontal-time-range.png') });
    await chip.getByRole('button', { name: 'Remove cross-filter' }).click();
    await t.http.put(`/api/v1/dashboard/${dashboardId}`).set(...auth).send({ json_metadata: JSON.stringify(stored) }).expect(200);
  });

  it('a value filter on a column of more than 100 values lists a page of 100, loads the next as the list scrolls, and search finds any value', { timeout: 120_000 }, async () => {
    const auth = ['Authorization', `Bearer ${admin}`] as const;
    const board = (await t.http.get('/api/v1/dashboard/world_health').set(...auth)).body.result;
    const datasetId = (await t.http.get('/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:wb_health_population)))').set(...auth)).body.ids[0];
    // Not 'Dynamically search all filter values': its search looks through the values the list has (spec 01 §9 pages).
    const country = newNativeFilter('NATIVE_FILTER-country', 'filter_select');
    country.name = 'Country';
    country.targets = [{ datasetId, column: { name: 'country_name' } }];
    await t.http.put(`/api/v1/dashboard/${board.id}`).set(...auth).send({ json_metadata: JSON.stringify({ ...JSON.parse(board.json_metadata), native_filter_configuration: [country] }) }).expect(200);
    const distinct = await t.http.post('/api/v1/chart/data').set(...auth).send({ datasource: { id: datasetId, type: 'table' }, queries: [{ columns: ['country_name'], metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 'rows' }], row_limit: 1000, time_range: 'No filter' }], result_format: 'json', result_type: 'full' });
    const total = distinct.body.result[0].data.length as number;
    expect(total).toBeGreaterThan(200);

    await page.goto(`${t.url}/superset/dashboard/world_health/`);
    await filterInput('Country').click();
    const listbox = page.getByRole('listbox');
    const listed = () => listbox.getByRole('option').count();
    // A page of 100, and Select All.
    await expect.poll(listed).toBe(101);
    expect(await listbox.getByRole('option').nth(1).textContent()).toBe('Afghanistan');
    // Scrolled past 70 percent, the next page comes; then the last.
    await listbox.hover();
    await page.mouse.wheel(0, 4_000);
    await expect.poll(listed).toBe(201);
    await page.mouse.wheel(0, 4_000);
    await expect.poll(listed).toBe(total + 1);
    await screenshot(page, 'filters-select-pages');
    await page.keyboard.press('Escape');
    // A fresh list has one page again, and searching finds a value beyond it.
    await page.reload();
    await filterInput('Country').click();
    await expect.poll(listed).toBe(101);
    expect(await listbox.getByRole('option', { name: 'Zimbabwe', exact: true }).count()).toBe(0);
    await filterInput('Country').fill('zimb');
    await listbox.getByRole('option', { name: 'Zimbabwe', exact: true }).waitFor();
    await listbox.getByRole('option', { name: 'Zimbabwe', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('filter-bar-apply').click();
    await expect.poll(() => [...sent.values()].some((e) => JSON.stringify(e.filters) === JSON.stringify([{ col: 'country_name', op: 'IN', val: ['Zimbabwe'] }])), { timeout: 20_000 }).toBe(true);
  });

  it("the embedded SDK's filters config works on the dashboard's own page too: show_filters=false hides the bar, expand_filters=false folds it", { timeout: 60_000 }, async () => {
    const other = await page.context().newPage();
    try {
      await other.goto(`${t.url}/superset/dashboard/births/?show_filters=false`);
      await other.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]').first().waitFor();
      expect(await other.getByTestId('filter-bar').count()).toBe(0);
      await other.goto(`${t.url}/superset/dashboard/births/?expand_filters=false`);
      await other.locator('[data-testid="filter-bar"][data-collapsed]').waitFor();
      await other.getByRole('button', { name: 'Expand filter bar' }).click();
      await other.getByTestId('filter-bar').getByTestId('native-filter').first().waitFor();
    } finally {
      await other.close();
    }
  });
});
