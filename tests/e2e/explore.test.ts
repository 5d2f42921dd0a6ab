import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureExamplesDatabase } from '../../server/src/database/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
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

  const rest = (method: 'get' | 'post' | 'put', path: string, body?: unknown) => {
    const req = t.http[method](path).set('Authorization', `Bearer ${admin}`);
    return body === undefined ? req : req.send(body as object);
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-explore-'));
    await ensureExamplesDatabase(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
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

    await page.goto(`${t.url}/explore/?slice_id=${sliceId}`);
    await rendered(page);
    await expect(page.getByLabel('Chart name').inputValue()).resolves.toBe('Births by gender (pie)');
    await page.getByRole('tab', { name: 'Customize' }).click();
    await page.getByRole('checkbox', { name: 'Donut' }).check();
    await page.getByTestId('explore-header').getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('radio', { name: 'Save (Overwrite)' }).check();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Chart [Births by gender (pie)] has been overwritten').waitFor();
    await expect.poll(async () => JSON.parse((await rest('get', `/api/v1/chart/${sliceId}`)).body.result.params).donut).toBe(true);
    await screenshot(page, 'explore-pie-donut');
  });
});
