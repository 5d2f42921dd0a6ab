import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureTestExamples } from '../helpers/examples';
import { afterFailure, ensureClientBuilt, launchBrowser, screenshot, signedInPage } from './browser';

const rendered = (page: Page) => page.locator('[data-testid="explore-chart"][data-chart-state="rendered"]').waitFor();

/** The text and computed alignment of each drawn cell of the table's nth column (1-based). */
const cellsOf = (page: Page, nth: number) =>
  page.locator(`[data-testid="explore-chart"] [data-testid="table-chart"] tbody tr td:nth-child(${nth})`).evaluateAll((tds) => tds.map((td) => ({ text: td.textContent ?? '', align: getComputedStyle(td).textAlign })));
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
});
