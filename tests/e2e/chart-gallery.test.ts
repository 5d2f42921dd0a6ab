import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { ensureExampleDashboards } from '../../server/src/dashboard/example-dashboards';
import { layoutOfRows, positionFromLayout } from '../../contracts/src/dashboard/layout-reducer';
import { startTestApp, type TestApp } from '../helpers/app';
import { supersetDashboardZip } from '../helpers/superset-export';
import { ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

type Example = 'birth_names' | 'wb_health_population' | 'france_departments';
/** Virtual datasets on the examples database, by name: data for the charts that the examples' tables have none for. */
const VIRTUAL: Partial<Record<Example, string>> = {
  // Births by French department's ISO 3166-2 code (FR-01 ... FR-95, Corsica's FR-2A and FR-2B, La Réunion by its
  // current code, FR-974, which Superset's shapes key as FR-RE): a country map of France.
  france_departments: "SELECT CASE i WHEN 20 THEN 'FR-2A' ELSE 'FR-' || lpad(CAST(i AS VARCHAR), 2, '0') END AS department, i * 1000 AS births FROM range(1, 96) t(i) UNION ALL SELECT 'FR-2B', 21000 UNION ALL SELECT 'FR-974', 50000",
};
const everyYear = { time_range: 'No filter' };
const year2014 = { time_range: '2014-01-01 : 2015-01-01' };
const notAggregates = { adhoc_filters: [{ expressionType: 'SIMPLE', clause: 'WHERE', subject: 'region', operator: '!=', comparator: 'Aggregates' }] };
const yearly = { x_axis: 'ds', time_grain_sqla: 'P1Y', ...everyYear };

/** One saved chart per chart type, on the examples, with the form data a user would build. */
const ALL_CHARTS: Array<{ viz_type: string; on: Example; params: Record<string, unknown>; text?: string; name?: string }> = [
  { viz_type: 'echarts_timeseries_line', on: 'birth_names', params: { ...yearly, metrics: ['sum__num'], groupby: ['gender'] } },
  { viz_type: 'echarts_timeseries_bar', on: 'birth_names', params: { ...yearly, metrics: ['sum__num_boys', 'sum__num_girls'], stack: 'Stack', show_value: true } },
  { viz_type: 'echarts_area', on: 'birth_names', params: { ...yearly, metrics: ['sum__num'], groupby: ['state'], limit: 5, stack: 'Stream' } },
  { viz_type: 'echarts_timeseries_scatter', on: 'birth_names', params: { ...yearly, metrics: ['sum__num'] } },
  { viz_type: 'echarts_timeseries_smooth', on: 'birth_names', params: { ...yearly, metrics: ['sum__num_boys', 'sum__num_girls'] } },
  { viz_type: 'echarts_timeseries_step', on: 'birth_names', params: { ...yearly, metrics: ['count'] } },
  { viz_type: 'mixed_timeseries', on: 'birth_names', params: { ...yearly, metrics: ['sum__num'], metrics_b: ['count'] } },
  { viz_type: 'pie', on: 'birth_names', params: { groupby: ['state'], metric: 'sum__num', ...everyYear } },
  { viz_type: 'big_number_total', on: 'birth_names', params: { metric: 'sum__num', subheader: 'births, all years', ...everyYear }, text: 'births, all years' },
  { viz_type: 'big_number', on: 'birth_names', params: { ...yearly, metric: 'sum__num' } },
  { viz_type: 'table', on: 'birth_names', params: { groupby: ['name', 'gender'], metrics: ['sum__num'], row_limit: 50, ...everyYear }, text: 'gender' },
  { viz_type: 'markdown', on: 'birth_names', params: { code: '# Births\n\nThe **birth_names** example: names by year, state and gender.' }, text: 'The birth_names example' },
  // Superset's numbered label contents (5: category, value and percentage), each stage's share of the one before it.
  { viz_type: 'funnel', on: 'birth_names', params: { groupby: ['state'], metric: 'sum__num', row_limit: 6, label_type: 5, percent_calculation_type: 'prev_step', ...everyYear } },
  // A dial banded by 'Interval bounds' in the scheme's 3rd, 5th and 2nd colours, no progress bars over them.
  // Superset's funnel legend options: the legend in a column on the left, 10px more room beside it.
  { viz_type: 'funnel', name: 'funnel-legend-left', on: 'birth_names', params: { groupby: ['state'], metric: 'sum__num', row_limit: 6, legendOrientation: 'left', legendMargin: 10, ...everyYear } },
  { viz_type: 'gauge_chart', on: 'birth_names', params: { metric: 'sum__num', groupby: ['gender'], max_val: 100000000, intervals: '40000000,70000000,100000000', interval_color_indices: '3,5,2', show_progress: false, ...everyYear } },
  { viz_type: 'treemap_v2', on: 'birth_names', params: { groupby: ['gender', 'state'], metric: 'sum__num', label_type: 'value', ...everyYear } },
  { viz_type: 'sunburst_v2', on: 'birth_names', params: { columns: ['gender', 'state'], metric: 'sum__num', show_total: true, ...everyYear } },
  // 'Date format' on a temporal level: the years as '%Y', not timestamps.
  { viz_type: 'treemap_v2', name: 'treemap_v2-dates', on: 'birth_names', params: { groupby: ['ds', 'gender'], metric: 'sum__num', label_type: 'key', date_format: '%Y', time_range: '2000-01-01 : 2004-01-01' } },
  { viz_type: 'sunburst_v2', name: 'sunburst_v2-dates', on: 'birth_names', params: { columns: ['ds', 'gender'], metric: 'sum__num', date_format: '%Y', time_range: '2000-01-01 : 2004-01-01' } },
  { viz_type: 'radar', on: 'birth_names', params: { groupby: ['state'], metrics: ['sum__num_boys', 'sum__num_girls', 'count'], row_limit: 4, ...everyYear } },
  // 'Normalize Values': the state's metrics as shares of its largest; the labels still read the values themselves. (One
  // state: the states' shares are alike, and their polygons and labels lay one over another.)
  { viz_type: 'radar', name: 'radar-normalized', on: 'birth_names', params: { groupby: ['state'], metrics: ['sum__num_boys', 'sum__num_girls', 'count'], row_limit: 1, is_normalized: true, show_labels: true, ...everyYear } },
  // Superset's series settings: picked colours as it stores them ({ r, g, b, a }), own labels, the legend shown.
  { viz_type: 'waterfall', on: 'birth_names', params: { x_axis: 'ds', time_grain_sqla: 'P1Y', metric: 'sum__num', time_range: '2000-01-01 : 2009-01-01', increase_color: { r: 31, g: 119, b: 180, a: 1 }, decrease_color: { r: 255, g: 127, b: 14, a: 1 }, increase_label: 'Up', decrease_label: 'Down', total_label: 'Net', show_legend: true, x_axis_label: 'Year', y_axis_label: 'Births' } },
  // 'Breakdowns': each year's births by gender as steps, then the running total named by the year.
  { viz_type: 'waterfall', name: 'waterfall-breakdown', on: 'birth_names', params: { x_axis: 'ds', time_grain_sqla: 'P1Y', groupby: ['gender'], metric: 'sum__num', time_range: '2000-01-01 : 2004-01-01', x_axis_time_format: '%Y', show_value: true, y_axis_format: '.3s' } },
  { viz_type: 'word_cloud', on: 'birth_names', params: { series: 'name', metric: 'sum__num', ...everyYear } },
  { viz_type: 'box_plot', on: 'wb_health_population', params: { groupby: ['region'], columns: ['country_name'], metrics: ['avg__SP_DYN_LE00_IN'], x_ticks_layout: '45°', ...year2014, ...notAggregates } },
  { viz_type: 'histogram_v2', on: 'wb_health_population', params: { column: 'SP_DYN_LE00_IN', bins: 10, ...year2014, ...notAggregates } },
  // States by births, most first ('Sort X Axis' by the metric), coloured by rank within each gender, the scale in pieces.
  { viz_type: 'heatmap_v2', on: 'birth_names', params: { x_axis: 'state', groupby: 'gender', metric: 'sum__num', sort_x_axis: 'value_desc', legend_type: 'piecewise', normalized: true, normalize_across: 'y', ...everyYear } },
  { viz_type: 'bubble_v2', on: 'wb_health_population', params: { entity: 'country_name', series: 'region', x: 'avg__SP_DYN_TFRT_IN', y: 'avg__SP_DYN_LE00_IN', size: 'sum__SP_POP_TOTL', row_limit: 60, xAxisFormat: '.1f', tooltipSizeFormat: ',d', ...year2014, ...notAggregates } },
  { viz_type: 'graph_chart', on: 'birth_names', params: { source: 'state', target: 'gender', metric: 'sum__num', edgeSymbol: 'circle,arrow', baseNodeSize: 16, target_category: 'gender', ...everyYear } },
  { viz_type: 'sankey_v2', on: 'birth_names', params: { source: 'gender', target: 'state', metric: 'sum__num', ...everyYear } },
  { viz_type: 'world_map', on: 'wb_health_population', params: { entity: 'country_code', country_fieldtype: 'cca3', metric: 'sum__SP_POP_TOTL', ...year2014, ...notAggregates } },
  { viz_type: 'country_map', on: 'birth_names', params: { entity: 'state', select_country: 'usa', metric: 'sum__num', ...everyYear } },
  { viz_type: 'country_map', name: 'country_map-france', on: 'france_departments', params: { entity: 'department', select_country: 'france', metric: { expressionType: 'SIMPLE', column: { column_name: 'births' }, aggregate: 'SUM', label: 'SUM(births)' } } },
  { viz_type: 'pivot_table_v2', on: 'birth_names', params: { groupbyRows: ['gender', 'state'], groupbyColumns: [], metrics: ['sum__num'], rowTotals: true, colTotals: true, rowSubTotals: true, ...everyYear }, text: 'Subtotal' },
];

// GALLERY_ONLY=pie,table draws only those types (for looking at one type's screenshots while working on it).
const only = process.env.GALLERY_ONLY?.split(',');
const CHARTS = only ? ALL_CHARTS.filter((c) => only.includes(c.viz_type) || only.includes(c.name ?? '')) : ALL_CHARTS;

async function useScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((s) => localStorage.setItem('meridian-color-scheme', s), scheme);
  await page.reload();
  await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
}

// Every chart type drawn in a real Chromium from a saved chart on the examples, in Explore and together
// on one dashboard, in the light and the dark theme (screenshots under test-results/screens/).
describe('Chart types in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;
  let admin: string;
  const datasets = {} as Record<Example, number>;
  const slices: Array<{ id: number; viz_type: string; text?: string; name: string }> = [];
  const errors: string[] = [];

  const rest = (method: 'get' | 'post' | 'put', path: string, body?: unknown) => {
    const req = t.http[method](path).set('Authorization', `Bearer ${admin}`);
    return body === undefined ? req : req.send(body as object);
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-gallery-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    await ensureExampleDashboards(t.services);
    for (const name of ['birth_names', 'wb_health_population'] as const) {
      datasets[name] = (await rest('get', `/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:${name})))`)).body.ids[0];
    }
    const examples = (await rest('get', `/api/v1/dataset/${datasets.birth_names}`)).body.result.database.id;
    for (const [name, sql] of Object.entries(VIRTUAL) as Array<[Example, string]>) {
      const res = await rest('post', '/api/v1/dataset/', { database: examples, schema: 'main', table_name: name, sql });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      datasets[name] = res.body.id;
    }
    for (const c of CHARTS) {
      const datasource = datasets[c.on];
      const res = await rest('post', '/api/v1/chart/', {
        slice_name: c.name ?? c.viz_type,
        viz_type: c.viz_type,
        datasource_id: datasource,
        datasource_type: 'table',
        params: JSON.stringify({ viz_type: c.viz_type, datasource: `${datasource}__table`, ...c.params }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      slices.push({ id: res.body.id, viz_type: c.viz_type, text: c.text, name: c.name ?? c.viz_type });
    }
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (e) => errors.push(String(e)));
    // The pages run under Meridian's Content-Security-Policy: anything it refuses fails the test.
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    await login(page, t.url);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await screenshot(page, `failed-gallery-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Whether each page records the chart's canvas as it is the moment Explore's chart turns 'rendered'. */
  let watching = false;
  /** Opens each saved chart in Explore and waits until it is drawn, with no chart error shown. */
  async function drawEach(scheme: 'light' | 'dark'): Promise<void> {
    if (!watching) {
      watching = true;
      await page.addInitScript(() => {
        new MutationObserver(() => {
          const chart = document.querySelector('[data-testid="explore-chart"][data-chart-state="rendered"]');
          const canvas = chart?.querySelector('canvas');
          const w = window as unknown as { atRendered?: string };
          if (canvas && w.atRendered === undefined) w.atRendered = canvas.toDataURL();
        }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-chart-state'] });
      });
      // Each canvas keeps where the text of its last whole drawing went (a full clear starts a drawing anew): each
      // text's box, as wide as its glyphs and as tall as its font, in the canvas's pixels.
      await page.addInitScript(() => {
        const proto = CanvasRenderingContext2D.prototype;
        const { clearRect, fillText } = proto;
        type Texts = { texts?: Array<{ text: string; left: number; right: number; top: number; bottom: number }> };
        proto.clearRect = function (x, y, w, h) {
          const m = this.getTransform();
          if (x <= 0 && y <= 0 && w * m.a >= this.canvas.width && h * m.d >= this.canvas.height) (this.canvas as Texts).texts = [];
          clearRect.call(this, x, y, w, h);
        };
        proto.fillText = function (text, x, y, maxWidth) {
          const m = this.getTransform();
          const box = this.measureText(text);
          ((this.canvas as Texts).texts ??= []).push({ text, left: m.e + m.a * (x - box.actualBoundingBoxLeft), right: m.e + m.a * (x + box.actualBoundingBoxRight), top: m.f + m.d * (y - box.fontBoundingBoxAscent), bottom: m.f + m.d * (y + box.fontBoundingBoxDescent) });
          fillText.call(this, text, x, y, maxWidth);
        };
      });
    }
    for (const s of slices) {
      // The scripts of countries' shapes the page fetches: a country map fetches its own country's only.
      const shapes: string[] = [];
      const onRequest = (r: { url: () => string }) => {
        const m = /country-map-([a-z_]+)-[\w-]+\.js$/.exec(r.url());
        if (m) shapes.push(m[1]!);
      };
      page.on('request', onRequest);
      await page.goto(`${t.url}/explore/?slice_id=${s.id}`);
      const chart = page.locator('[data-testid="explore-chart"]');
      await expect.poll(() => chart.getAttribute('data-chart-state'), { message: `${s.name} is drawn`, timeout: 30_000 }).toMatch(/^(rendered|failed)$/);
      expect(await chart.getAttribute('data-chart-state'), `${s.name}: ${await chart.innerText()}`).toBe('rendered');
      if (s.text) await chart.getByText(s.text, { exact: false }).first().waitFor();
      else expect(await chart.locator('canvas, svg').count(), `${s.viz_type} draws a canvas or svg`).toBeGreaterThan(0);
      if (s.viz_type === 'word_cloud') {
        // The cloud places its words after ECharts' 'finished': 'rendered' comes when the last is placed, so
        // what it pictured then is what stays (a report's screenshot is taken at 'rendered').
        const atRendered = await page.evaluate(() => (window as unknown as { atRendered?: string }).atRendered);
        expect(atRendered, 'the canvas as it was at rendered').toBeTruthy();
        await page.waitForTimeout(1_500);
        expect(await chart.locator('canvas').first().evaluate((c) => (c as HTMLCanvasElement).toDataURL()) === atRendered, 'the word cloud did not change after rendered').toBe(true);
      }
      if (s.viz_type === 'treemap_v2') {
        // Each rectangle's label stays in its rectangle: no two labels (nor the lines of one) overlap.
        const texts = await chart.locator('canvas').first().evaluate((c) => (c as HTMLCanvasElement & { texts?: Array<{ text: string; left: number; right: number; top: number; bottom: number }> }).texts ?? []);
        expect(texts.length, 'the treemap labels its rectangles').toBeGreaterThan(10);
        const overlapping = texts.flatMap((a, i) => texts.slice(i + 1).filter((b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5).map((b) => `${a.text} / ${b.text}`));
        expect(overlapping).toEqual([]);
      }
      if (s.name === 'waterfall' && scheme === 'light') {
        // The stored { r, g, b, a } colours show in Customize's colour pickers, and the legend names the series as set.
        await page.getByRole('tab', { name: 'Customize' }).click();
        await expect.poll(() => page.getByLabel('Increase color').inputValue()).toBe('rgba(31, 119, 180, 1)');
        await expect.poll(() => page.getByLabel('Total color').inputValue()).toBe('rgba(102, 102, 102, 1)');
        await page.getByLabel('Increase color').scrollIntoViewIfNeeded();
        await screenshot(page, 'gallery-waterfall-customize');
        const texts = await chart.locator('canvas').first().evaluate((c) => ((c as HTMLCanvasElement & { texts?: Array<{ text: string }> }).texts ?? []).map((t) => t.text));
        expect(texts).toEqual(expect.arrayContaining(['Up', 'Down', 'Net', 'Year']));
      }
      if (s.name === 'waterfall-breakdown') {
        const texts = await chart.locator('canvas').first().evaluate((c) => ((c as HTMLCanvasElement & { texts?: Array<{ text: string }> }).texts ?? []).map((t) => t.text));
        expect(texts.filter((t) => t === 'boy' || t === 'girl'), 'each year names its gender steps').toHaveLength(8);
        expect(texts).toEqual(expect.arrayContaining(['2000', '2003']));
      }
      if (s.name === 'sunburst_v2') {
        // 'Show Total' writes the total in the centre.
        const texts = await chart.locator('canvas').first().evaluate((c) => ((c as HTMLCanvasElement & { texts?: Array<{ text: string }> }).texts ?? []).map((t) => t.text));
        expect(texts.some((t) => t.startsWith('Total: '))).toBe(true);
      }
      if (s.name === 'treemap_v2-dates' || s.name === 'sunburst_v2-dates') {
        const texts = await chart.locator('canvas').first().evaluate((c) => ((c as HTMLCanvasElement & { texts?: Array<{ text: string }> }).texts ?? []).map((t) => t.text));
        expect(texts, 'the years in the date format').toEqual(expect.arrayContaining(['2000', '2003']));
        expect(texts.filter((t) => /\d{9,}|\d{4}-\d\d-\d\d/.test(t)), 'no raw timestamps').toEqual([]);
      }
      if (s.name === 'radar-normalized') {
        const texts = await chart.locator('canvas').first().evaluate((c) => ((c as HTMLCanvasElement & { texts?: Array<{ text: string }> }).texts ?? []).map((t) => t.text));
        expect(texts.filter((t) => /^0?\.\d+$|^1$/.test(t)), 'labels read values, not shares').toEqual([]);
        expect(texts.filter((t) => /^[\d.]+[kM]$/.test(t)).length, 'labels read values').toBe(3);
      }
      if (s.name === 'funnel-legend-left') {
        // The legend's names sit left of the funnel's stages.
        const texts = await chart.locator('canvas').first().evaluate((c) => ((c as HTMLCanvasElement & { texts?: Array<{ text: string; left: number }> }).texts ?? []).filter((t) => t.text === 'CA'));
        expect(texts.length, 'CA in the legend and on its stage').toBe(2);
        expect(Math.abs(texts[0]!.left - texts[1]!.left)).toBeGreaterThan(100);
      }
      if (s.viz_type === 'heatmap_v2') {
        // 'Sort X Axis' by the metric, descending: the state with the most births ('other') first, then CA (alphabetically
        // CA came before 'other').
        const texts = await chart.locator('canvas').first().evaluate((c) => ((c as HTMLCanvasElement & { texts?: Array<{ text: string; left: number }> }).texts ?? []).filter((t) => t.text === 'other' || t.text === 'CA'));
        const at = (name: string) => texts.find((t) => t.text === name)?.left ?? NaN;
        expect(at('other')).toBeLessThan(at('CA'));
      }
      expect(shapes, `${s.name}: the countries' shapes fetched`).toEqual(s.name === 'country_map-france' ? ['france'] : []);
      await screenshot(page, `gallery-${s.name}-${scheme}`);
      if (s.name === 'country_map-france' && scheme === 'light') {
        // Another country chosen in Explore draws once its own shapes have come (the rows' French codes leave it grey).
        const controls = page.getByRole('region', { name: 'Chart controls' });
        await controls.getByRole('combobox', { name: 'Country' }).click();
        await page.getByRole('option', { name: 'Germany', exact: true }).click();
        await page.getByRole('button', { name: 'Update chart' }).click();
        await expect.poll(() => shapes, { message: "Germany's shapes fetched" }).toEqual(['france', 'germany']);
        await expect.poll(() => chart.getAttribute('data-chart-state'), { message: 'Germany is drawn' }).toBe('rendered');
        await page.waitForTimeout(500);
        await screenshot(page, 'gallery-country_map-germany-light');
      }
      page.off('request', onRequest);
    }
  }

  it('draws every chart type in Explore, in the light theme', { timeout: 300_000 }, async () => {
    expect(slices.length).toBe(CHARTS.length);
    await drawEach('light');
    expect(errors).toEqual([]);
  });

  it('draws every chart type in Explore, in the dark theme', { timeout: 300_000 }, async () => {
    await useScheme(page, 'dark');
    try {
      await drawEach('dark');
    } finally {
      await useScheme(page, 'light');
    }
    expect(errors).toEqual([]);
  });

  // About 2 minutes, but over 5 on a loaded machine; a pass that times out goes on driving the page beside its retry.
  it('saves each chart type from Explore as a new chart, which reopens drawn from the same form data, and overwrites it', { timeout: 600_000 }, async () => {
    const header = page.getByTestId('explore-header');
    const dialog = page.getByRole('dialog', { name: 'Save chart' });
    const chart = page.locator('[data-testid="explore-chart"]');
    for (const [i, s] of slices.entries()) {
      const asked = CHARTS[i]!;
      await page.goto(`${t.url}/explore/?slice_id=${s.id}`);
      await expect.poll(() => chart.getAttribute('data-chart-state'), { message: `${s.viz_type} is drawn`, timeout: 30_000 }).toBe('rendered');
      await header.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.getByRole('radio', { name: 'Save as...' }).check();
      const name = `${s.name} (from Explore)`;
      await dialog.getByLabel('Chart name').fill(name);
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText(`Chart [${name}] has been saved`).waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.get('slice_id'), { message: s.viz_type }).not.toBe(String(s.id));
      const copyId = Number(new URL(page.url()).searchParams.get('slice_id'));
      const copy = (await rest('get', `/api/v1/chart/${copyId}`)).body.result;
      expect(copy.viz_type, s.viz_type).toBe(s.viz_type);
      expect(JSON.parse(copy.params), s.viz_type).toMatchObject(asked.params);

      await page.goto(`${t.url}/explore/?slice_id=${copyId}`);
      await expect.poll(() => chart.getAttribute('data-chart-state'), { message: `${s.viz_type} copy is drawn`, timeout: 30_000 }).toBe('rendered');
      await expect(page.getByLabel('Chart name').inputValue()).resolves.toBe(name);
      await header.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.getByRole('radio', { name: 'Save (Overwrite)' }).check();
      await dialog.getByLabel('Chart name').fill(`${name}, overwritten`);
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText(`Chart [${name}, overwritten] has been overwritten`).waitFor();
      const overwritten = (await rest('get', `/api/v1/chart/${copyId}`)).body.result;
      expect(overwritten.slice_name).toBe(`${name}, overwritten`);
      expect(JSON.parse(overwritten.params), s.viz_type).toMatchObject(asked.params);
    }
    expect(errors).toEqual([]);
  });

  it.skipIf(!!only)('draws every chart type together on one dashboard', { timeout: 120_000 }, async () => {
    const rowsOfThree = Array.from({ length: Math.ceil(slices.length / 3) }, (_, i) => slices.slice(i * 3, i * 3 + 3).map((s) => ({ chartId: s.id, sliceName: s.name })));
    const created = await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Every chart type', position_json: JSON.stringify(positionFromLayout(layoutOfRows('Every chart type', rowsOfThree))) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await page.goto(`${t.url}/superset/dashboard/${created.body.id}/`);
    await page.mouse.move(640, 500);
    const drawn = page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]');
    // Charts below the fold draw when scrolled to; scroll through the page until all are drawn.
    await allDrawn(slices.length);
    await screenshot(page, 'gallery-dashboard');
    expect(errors).toEqual([]);
  });

  /** Scrolls until every chart of the shown tab is drawn; none may fail. */
  async function allDrawn(expected: number): Promise<void> {
    const drawn = page.locator('[data-testid="dashboard-chart"][data-chart-state="rendered"]:visible');
    await page.mouse.move(640, 500);
    const states = () => page.locator('[data-testid="dashboard-chart"]:visible').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-chart-id')}: ${e.getAttribute('data-chart-state')}`));
    // The page itself is scrolled: a wheel under the pointer scrolls a table chart's rows once one lies beneath it, and
    // the page stopped there (the pivot at the bottom of 34 charts never came into view).
    await expect.poll(async () => {
      await page.evaluate(() => window.scrollBy(0, 600));
      return drawn.count();
    }, { timeout: 60_000, interval: 500, message: 'every chart drawn' }).toBe(expected).catch(async (error) => {
      throw new Error(`${(error as Error).message}\n${(await states()).join('\n')}`);
    });
    expect(await page.locator('[data-testid="dashboard-chart"][data-chart-state="failed"]').count()).toBe(0);
    // Back to the top, the pointer off the charts' tooltips. Scrolled by the page, not the wheel: a wheel over a
    // table chart scrolls the table's rows and leaves the page where it was.
    await page.mouse.move(2, 2);
    await page.evaluate(() => {
      window.scrollTo(0, 0);
      for (const el of document.querySelectorAll('*')) if (el.scrollTop > 0 && !el.closest('[data-testid="dashboard-chart"]')) el.scrollTop = 0;
    });
  }

  it.skipIf(!!only)('opens the examples\' dashboards (births, world health with its tabs, sales) with every chart drawn', { timeout: 240_000 }, async () => {
    for (const [slug, tabs] of [['births', [null]], ['world_health', ['Overview', 'Health']], ['sales', [null]]] as const) {
      const dash = (await rest('get', `/api/v1/dashboard/${slug}`)).body.result;
      const position = JSON.parse(dash.position_json);
      await page.goto(`${t.url}/superset/dashboard/${slug}/`);
      await page.getByRole('heading', { name: dash.dashboard_title }).first().waitFor();
      for (const tab of tabs) {
        if (tab) await page.getByRole('tab', { name: tab }).click();
        const tabId = tab ? Object.values<any>(position).find((c) => c?.type === 'TAB' && c.meta?.text === tab).id : null;
        const expected = Object.values<any>(position).filter((c) => c?.type === 'CHART' && (!tabId || c.parents.includes(tabId))).length;
        await allDrawn(expected);
        await screenshot(page, `example-dashboard-${slug}${tab ? `-${tab.toLowerCase()}` : ''}`);
      }
      if (slug === 'births') {
        // The 100-row table puts only the rows in view in the page; scrolled to the end, it shows the last ones.
        const cell = page.locator('[data-testid="dashboard-chart"]').filter({ hasText: 'Most popular names' });
        const table = cell.getByTestId('table-chart');
        const dataRows = table.locator('tbody tr:not([aria-hidden])');
        await cell.scrollIntoViewIfNeeded();
        await expect.poll(() => dataRows.count()).toBeGreaterThan(5);
        expect(await dataRows.count()).toBeLessThan(60);
        const first = await dataRows.first().textContent();
        await table.locator('div').filter({ has: page.locator('table') }).last().evaluate((box) => void (box.scrollTop = box.scrollHeight));
        await expect.poll(async () => dataRows.first().textContent()).not.toBe(first);
        expect(await dataRows.count()).toBeLessThan(60);
        await screenshot(page, 'example-dashboard-births-table-scrolled');
      }
    }
    // A chart on a dashboard says so in Explore's header, with the dashboard in its menu.
    const births = (await rest('get', '/api/v1/dashboard/births/charts')).body.result[0];
    await page.goto(`${t.url}/explore/?slice_id=${births.id}`);
    await page.getByTestId('explore-on-dashboards').filter({ hasText: 'Added to 1 dashboard' }).click();
    await page.getByRole('menuitem', { name: 'USA Births Names' }).click();
    await page.waitForURL(/\/superset\/dashboard\/\d+\/$/);
    expect(errors).toEqual([]);
  });

  it.skipIf(!!only)('imports a Superset dashboard export from the dashboards list, confirms the overwrite, and draws it', { timeout: 120_000 }, async () => {
    const zip = join(dir, 'superset-dashboard-export.zip');
    writeFileSync(zip, supersetDashboardZip());
    const importOnce = async () => {
      await page.goto(`${t.url}/dashboard/list/`);
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Import dashboard' });
      await dialog.locator('input[type="file"]').setInputFiles(zip);
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      return dialog;
    };
    await importOnce();
    await page.getByText('Dashboard imported').waitFor();
    await page.getByRole('link', { name: 'Imported births' }).waitFor();

    // The same export again: the dashboard exists, so the modal asks for a typed confirmation.
    const dialog = await importOnce();
    await dialog.getByText('You are importing one or more dashboards that already exist').waitFor();
    await screenshot(page, 'dashboard-import-overwrite');
    await dialog.getByLabel('Type "OVERWRITE" to confirm').fill('OVERWRITE');
    await dialog.getByRole('button', { name: 'Overwrite' }).click();
    await page.getByText('Dashboard imported').first().waitFor();

    await page.goto(`${t.url}/superset/dashboard/imported-births/`);
    await allDrawn(2);
    await screenshot(page, 'dashboard-imported');
    expect(errors).toEqual([]);
  });
});
