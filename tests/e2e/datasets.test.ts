import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureExamplesDatabase } from '../../server/src/database/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

// The Datasets list and editor in a real Chromium against the real server and the examples.
describe('datasets screen in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-ds-'));
    await ensureExamplesDatabase(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 2000 });
    await ensureExampleDatasets(t.services);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await login(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the example datasets and filters by name', async () => {
    await page.goto(`${t.url}/tablemodelview/list/`);
    await page.getByRole('link', { name: 'birth_names' }).waitFor();
    await expect(page.getByRole('link', { name: 'wb_health_population' }).count()).resolves.toBe(1);
    await screenshot(page, 'datasets-list');
    await page.getByPlaceholder('Search name').fill('birth');
    await page.getByRole('link', { name: 'wb_health_population' }).waitFor({ state: 'detached' });
    await expect(page.getByRole('link', { name: 'birth_names' }).count()).resolves.toBe(1);
  });

  it('edits a metric label and a column label in the editor', async () => {
    await page.getByRole('button', { name: 'Edit birth_names' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: /Metrics/ }).click();
    await screenshot(page, 'datasets-editor-metrics');
    const labels = dialog.getByRole('textbox', { name: 'Label' });
    await labels.nth(1).fill('Total births');
    await dialog.getByRole('tab', { name: /^Columns/ }).click();
    await dialog.getByRole('textbox', { name: 'Label of gender' }).fill('Gender');
    await screenshot(page, 'datasets-editor-columns');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set('Authorization', `Bearer ${await t.token()}`);
    const ds = (await t.http.get(`/api/v1/dataset/${list.body.ids[0]}`).set('Authorization', `Bearer ${await t.token()}`)).body.result;
    expect(ds.metrics.find((m: any) => m.metric_name === 'sum__num').verbose_name).toBe('Total births');
    expect(ds.columns.find((c: any) => c.column_name === 'gender').verbose_name).toBe('Gender');
  });
});
