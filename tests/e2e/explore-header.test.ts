import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { PNG } from 'pngjs';
import { pngFacts } from '../helpers/png';
import { afterFailure, closeDialog, ensureClientBuilt, launchBrowser, SCREENS_DIR, screenshot, signedInPage } from './browser';

const chartOf = (page: Page) => page.locator('[data-testid="explore-chart"]');
const rendered = (page: Page) => page.locator('[data-testid="explore-chart"][data-chart-state="rendered"]').waitFor();
/** The height of the title band a chart's picture starts with (chart-export's TITLE_BAND). */
const TITLE_BAND = 40;
/** Pixels darker than mid grey in the rows [from, to) of a PNG: text on the light theme. */
function darkPixels(png: Buffer, [from, to]: [number, number]): number {
  const image = PNG.sync.read(png);
  let n = 0;
  for (let i = from * image.width * 4; i < Math.min(to, image.height) * image.width * 4; i += 4) if (image.data[i]! + image.data[i + 1]! + image.data[i + 2]! < 3 * 110) n++;
  return n;
}
const saveScreen = (name: string, bytes: Buffer) => {
  mkdirSync(SCREENS_DIR, { recursive: true });
  writeFileSync(join(SCREENS_DIR, `${name}.png`), bytes);
};

// Explore's header in a real Chromium: embed code, downloads, a failed star, the chart type gallery and the colour scheme.
describe("Explore's header and customizing in the browser", () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;
  let admin: string;
  let sliceId: number;
  let datasourceKey: string;

  const rest = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown) => {
    const req = t.http[method](path).set('Authorization', `Bearer ${admin}`);
    return body === undefined ? req : req.send(body as object);
  };
  const menu = async (item: string) => {
    await page.getByRole('button', { name: 'More chart actions' }).click();
    await page.getByRole('menuitem', { name: item }).click();
  };
  const download = async (item: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), menu(item)]);
    return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-explore-header-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    const birthNames = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    datasourceKey = `${birthNames}__table`;
    const params = { viz_type: 'pie', datasource: `${birthNames}__table`, groupby: ['gender'], metric: 'sum__num', time_range: 'No filter', color_scheme: 'supersetColors' };
    sliceId = (await rest('post', '/api/v1/chart/', { slice_name: 'Births by gender', viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify(params) })).body.id;
    browser = await launchBrowser();
    page = await signedInPage(browser, t.url, { width: 1440, height: 900 }, { acceptDownloads: true });
    context = page.context();
  });
  afterEach((ctx) => afterFailure(page, 'explore-header', ctx.task));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('downloads the chart as CSV, JSON, Excel and a PNG image of the chart', { timeout: 90_000 }, async () => {
    await page.goto(`${t.url}/explore/?slice_id=${sliceId}`);
    await rendered(page);
    const csv = await download('Export to .CSV');
    expect(csv.name).toMatch(/\.csv$/);
    const lines = csv.bytes.toString('utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('gender,sum__num');
    expect(lines.slice(1).map((l) => l.split(',')[0]).sort()).toEqual(['boy', 'girl']);
    const json = await download('Export to .JSON');
    expect(json.name).toMatch(/\.json$/);
    const rows = JSON.parse(json.bytes.toString('utf8'));
    expect(JSON.stringify(rows)).toContain('"gender":"boy"');
    const xlsx = await download('Export to Excel');
    expect(xlsx.name).toMatch(/\.xlsx$/);
    expect(xlsx.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const png = await download('Download as image');
    expect(png.name).toMatch(/\.png$/);
    const facts = pngFacts(png.bytes);
    expect(facts.width).toBeGreaterThan(300);
    expect(facts.height).toBeGreaterThan(200);
    // Superset's picture of a chart has its header: the title in a band above the chart.
    const box = (await chartOf(page).boundingBox())!;
    expect(facts.height).toBe(Math.round(box.height) + TITLE_BAND);
    expect(darkPixels(png.bytes, [0, TITLE_BAND])).toBeGreaterThan(100);
    saveScreen('image-pie', png.bytes);
  });

  it('pictures a scrolled table as shown: its header over the rows in view, whole rows only, under the title', { timeout: 90_000 }, async () => {
    const params = { viz_type: 'table', datasource: datasourceKey, query_mode: 'aggregate', groupby: ['name'], metrics: ['sum__num'], row_limit: 1000, time_range: 'No filter' };
    const id = (await rest('post', '/api/v1/chart/', { slice_name: 'Births by name', viz_type: 'table', datasource_id: Number(datasourceKey.split('__')[0]), datasource_type: 'table', params: JSON.stringify(params) })).body.id;
    await page.goto(`${t.url}/explore/?slice_id=${id}`);
    await rendered(page);
    const table = chartOf(page).getByTestId('table-chart');
    const scroller = table.locator('div').filter({ has: page.locator('table') }).last();
    await scroller.evaluate((e) => (e.scrollTop = 2000));
    // The rows drawn for the new scroll position.
    await expect.poll(() => table.locator('tbody tr[data-index]').first().getAttribute('data-index').then(Number)).toBeGreaterThan(30);
    const png = await download('Download as image');
    saveScreen('image-table-scrolled', png.bytes);
    const box = (await chartOf(page).boundingBox())!;
    expect(pngFacts(png.bytes).height).toBe(Math.round(box.height) + TITLE_BAND);
    expect(darkPixels(png.bytes, [0, TITLE_BAND])).toBeGreaterThan(100);
    // The header row right under the title, then rows of text all the way down (no blank spacer in their place).
    const header = (await table.locator('thead').boundingBox())!;
    const top = Math.round(header.y - box.y) + TITLE_BAND;
    expect(darkPixels(png.bytes, [top, top + Math.round(header.height)])).toBeGreaterThan(50);
    for (let y = top + 60; y < top + 300; y += 60) expect(darkPixels(png.bytes, [y, y + 30])).toBeGreaterThan(20);
    // The row the table's bottom edge cuts on screen is left out of the picture, the rows above it kept.
    const cut = await scroller.evaluate((e) => {
      const bottom = e.getBoundingClientRect().bottom;
      const rows = [...e.querySelectorAll('tbody tr')].map((r) => r.getBoundingClientRect());
      const row = rows.find((r) => r.top < bottom && r.bottom > bottom + 0.5);
      return row ? { top: row.top, bottom } : null;
    });
    expect(cut).not.toBeNull();
    const cutTop = Math.round(cut!.top - box.y) + TITLE_BAND;
    expect(darkPixels(png.bytes, [cutTop + 1, Math.round(cut!.bottom - box.y) + TITLE_BAND])).toBe(0);
    expect(darkPixels(png.bytes, [cutTop - 28, cutTop])).toBeGreaterThan(20);
  });

  it('gives embed code whose frame shows the chart alone (standalone=1)', { timeout: 90_000 }, async () => {
    await page.goto(`${t.url}/explore/?slice_id=${sliceId}`);
    await rendered(page);
    await menu('Embed code');
    const dialog = page.getByRole('dialog', { name: 'Embed code' });
    const code = (await dialog.locator('pre, code').first().textContent())!;
    const src = /src="([^"]+)"/.exec(code)?.[1];
    expect(code).toContain('<iframe');
    expect(src).toMatch(/\/superset\/explore\/p\/[^/]+\/\?standalone=1&height=400$/);
    await closeDialog(page);
    const frame = await context.newPage();
    try {
      await frame.goto(src!);
      await frame.locator('[data-chart-state="rendered"]').first().waitFor();
      // Alone: no app bar, no chart header, no controls.
      expect(await frame.getByTestId('explore-header').count()).toBe(0);
      expect(await frame.getByRole('region', { name: 'Chart controls' }).count()).toBe(0);
      expect(await frame.getByRole('link', { name: 'Dashboards' }).count()).toBe(0);
      await screenshot(frame, 'explore-standalone-embed');
      // Any flag value but 'false' or '0' reads as true (spec 01 §2's params): 'True' too.
      await frame.goto(`${t.url}/explore/?slice_id=${sliceId}&standalone=True`);
      await frame.locator('[data-chart-state="rendered"]').first().waitFor();
      expect(await frame.getByTestId('explore-header').count()).toBe(0);
      await frame.goto(`${t.url}/explore/?slice_id=${sliceId}&standalone=0`);
      await frame.getByTestId('explore-header').waitFor();
    } finally {
      await frame.close();
    }
  });

  it("a chart saved without a query context gets its opening run's; reopened, its query starts as the page is sent", { timeout: 90_000 }, async () => {
    const params = { viz_type: 'pie', datasource: datasourceKey, groupby: ['state'], metric: 'count', time_range: 'No filter', color_scheme: 'supersetColors' };
    const id = (await rest('post', '/api/v1/chart/', { slice_name: 'Births by state (script)', viz_type: 'pie', datasource_id: Number(datasourceKey.split('__')[0]), datasource_type: 'table', params: JSON.stringify(params) })).body.id;
    const storedContext = async () => (await rest('get', `/api/v1/chart/${id}`)).body.result.query_context as string | null;
    expect(await storedContext()).toBeNull();
    /** The chart data requests the page sends, in order, each with the number of query runs the server had begun by then. */
    const sent: Array<{ body: any; runsBefore: number }> = [];
    const runs = vi.spyOn(t.services.queryRuntime, 'runAndRead');
    const onRequest = (r: import('playwright-core').Request) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/chart/data') sent.push({ body: r.postDataJSON(), runsBefore: runs.mock.calls.length });
    };
    page.on('request', onRequest);
    try {
      // Drawn alone (a screenshot, an embed) it stays as saved: the picture must not change what it pictures.
      await page.goto(`${t.url}/explore/?slice_id=${id}&standalone=1`);
      await rendered(page);
      await page.waitForTimeout(500);
      expect(await storedContext()).toBeNull();
      sent.length = 0;
      await page.goto(`${t.url}/explore/?slice_id=${id}`);
      await rendered(page);
      await expect.poll(storedContext).not.toBeNull();
      expect(JSON.parse((await storedContext())!).queries).toEqual(sent[0]!.body.queries);

      // Its cached answer dropped, the chart is opened again: the server began its query before the page asked.
      await rest('post', '/api/v1/cachekey/invalidate', { datasource_uids: [datasourceKey] });
      sent.length = 0;
      runs.mockClear();
      await page.goto(`${t.url}/explore/?slice_id=${id}`);
      await rendered(page);
      expect(sent[0]!.runsBefore).toBe(1);
      expect(runs.mock.calls.length).toBe(1);
    } finally {
      page.off('request', onRequest);
      runs.mockRestore();
    }
  });

  it("a star that fails to save is put back and says 'An error occurred while starring this chart'", { timeout: 60_000 }, async () => {
    await page.goto(`${t.url}/explore/?slice_id=${sliceId}`);
    await rendered(page);
    await page.route('**/api/v1/chart/*/favorites/', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Fatal error"}' }));
    try {
      const star = page.getByRole('button', { name: 'Add Births by gender to favorites' });
      await star.click();
      await page.getByText('An error occurred while starring this chart').waitFor();
      await expect.poll(() => star.getAttribute('aria-pressed')).toBe('false');
      expect((await rest('get', `/api/v1/chart/favorite_status/?q=!(${sliceId})`)).body.result[0].value).toBe(false);
    } finally {
      await page.unroute('**/api/v1/chart/*/favorites/');
    }
  });

  it('the chart type gallery searches, browses by category, and lists the types used last first', { timeout: 90_000 }, async () => {
    await page.goto(`${t.url}/explore/?slice_id=${sliceId}`);
    await rendered(page);
    const open = () => page.getByRole('button', { name: /^Chart type: .*\. Change$/ }).click();
    const gallery = page.getByRole('dialog', { name: 'Select a visualization type' });
    await open();
    await gallery.getByLabel('Search all charts').fill('funnel');
    await expect.poll(() => gallery.getByRole('radio').allInnerTexts()).toEqual([expect.stringMatching(/Funnel/)]);
    await gallery.getByLabel('Search all charts').fill('');
    await gallery.getByText('Map', { exact: true }).click();
    const maps = await gallery.getByRole('radio').evaluateAll((tiles) => tiles.map((e) => e.getAttribute('aria-label')));
    expect(maps).toEqual(expect.arrayContaining(['World Map', 'Country Map']));
    expect(maps).not.toContain('Pie Chart');
    await gallery.getByText('Part of a Whole', { exact: true }).click();
    await gallery.getByRole('radio', { name: 'Funnel Chart' }).click();
    await gallery.getByRole('button', { name: 'Select', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: /^Chart type: .*\. Change$/ }).getAttribute('aria-label')).toMatch(/Funnel/);
    await open();
    await gallery.getByText('Recently used first').waitFor();
    expect(await gallery.getByRole('radio').first().getAttribute('aria-label')).toMatch(/Funnel/);
    await screenshot(page, 'explore-viz-gallery-recent');
    await closeDialog(page);
  });

  it('a new colour scheme redraws the chart in its colours without asking the server again, and is saved with it', { timeout: 90_000 }, async () => {
    await page.goto(`${t.url}/explore/?slice_id=${sliceId}`);
    await rendered(page);
    const canvas = chartOf(page).locator('canvas').first();
    const before = await canvas.evaluate((c) => (c as HTMLCanvasElement).toDataURL());
    await page.getByRole('tab', { name: 'Customize' }).click();
    let asked = 0;
    const count = (req: import('playwright-core').Request) => void (new URL(req.url()).pathname === '/api/v1/chart/data' && asked++);
    page.on('request', count);
    await page.getByLabel('Color scheme').click();
    await page.getByRole('option', { name: /Google/ }).first().click();
    await expect.poll(() => canvas.evaluate((c) => (c as HTMLCanvasElement).toDataURL())).not.toBe(before);
    page.off('request', count);
    expect(asked, 'a render-only control does not run the query').toBe(0);
    await screenshot(page, 'explore-colour-scheme');
    await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save chart' });
    await dialog.getByRole('radio', { name: 'Save (Overwrite)' }).check();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('has been overwritten').waitFor();
    expect(JSON.parse((await rest('get', `/api/v1/chart/${sliceId}`)).body.result.params).color_scheme).toMatch(/google/i);
  });
});
