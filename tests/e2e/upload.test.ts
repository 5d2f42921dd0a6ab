import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, registerDatabase } from '../rest/sqllab.helpers';
import { ensureClientBuilt, launchBrowser, screenshot, signedInPage } from './browser';

// Issue 14: the upload screens (Datasets → Upload file → CSV / Excel / Columnar) in a real Chromium.
describe('upload screens in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let admin: string;
  let db: number;

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-upload-'));
    db = await registerDatabase(t, admin, { database_name: 'uploads', sqlalchemy_uri: `duckdb:///${join(dir, 'uploads.duckdb')}`, allow_file_upload: true });
    writeFileSync(join(dir, 'city_sales.csv'), 'city;units;sold_on\nLyon;4;02/01/2024\nNantes;N/A;03/01/2024\nLille;9;04/01/2024\n');
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['x']);
    const sheet = workbook.addWorksheet('Budget');
    sheet.addRow(['team', 'amount']);
    sheet.addRow(['Ops', 1200]);
    sheet.addRow(['Data', 3400.5]);
    await workbook.xlsx.writeFile(join(dir, 'budget.xlsx'));
    browser = await launchBrowser();
    page = await signedInPage(browser, t.url, { width: 1366, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const rows = async (sql: string) => (await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, sql, runAsync: false })).body.data;

  it('uploads a CSV with its delimiter, null values and day-first dates, and shows the new dataset', async () => {
    await page.goto(`${t.url}/tablemodelview/list/`);
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByRole('menuitem', { name: 'Upload CSV to database' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload CSV to database' });
    await dialog.getByLabel('Delimiter').fill(';');
    await dialog.locator('input[type="file"]').setInputFiles(join(dir, 'city_sales.csv'));
    await dialog.getByText('Columns: city, units, sold_on').waitFor();
    await expect(dialog.getByLabel(/^Table name/).inputValue()).resolves.toBe('city_sales');
    await dialog.getByRole('button', { name: 'Columns and rows' }).click();
    await dialog.getByLabel('Null values').fill('N/A');
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Columns to be parsed as dates').click();
    await page.getByRole('option', { name: 'sold_on' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByLabel('Dates are day first (DD/MM/YYYY)').check();
    await screenshot(page, 'upload-csv-form');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('CSV uploaded to table city_sales').waitFor();
    await page.getByRole('link', { name: 'city_sales' }).waitFor();
    expect(await rows("SELECT city, units, strftime(sold_on, '%Y-%m-%d') AS d FROM city_sales ORDER BY city")).toEqual([
      { city: 'Lille', units: 9, d: '2024-01-04' },
      { city: 'Lyon', units: 4, d: '2024-01-02' },
      { city: 'Nantes', units: null, d: '2024-01-03' },
    ]);

    // Again without replace: the server's message shows in the form, which stays open.
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByRole('menuitem', { name: 'Upload CSV to database' }).click();
    await dialog.getByLabel('Delimiter').fill(';');
    await dialog.locator('input[type="file"]').setInputFiles(join(dir, 'city_sales.csv'));
    await dialog.getByText('Columns: city, units, sold_on').waitFor();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByText("Table already exists. You can change your 'if table already exists' strategy to append or replace", { exact: false }).waitFor();
    await screenshot(page, 'upload-csv-exists');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('uploads the chosen sheet of an Excel workbook', async () => {
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByRole('menuitem', { name: 'Upload Excel to database' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Excel to database' });
    await dialog.locator('input[type="file"]').setInputFiles(join(dir, 'budget.xlsx'));
    await dialog.getByText('Columns: x').waitFor();
    await dialog.getByLabel('Sheet name').click();
    await page.getByRole('option', { name: 'Budget' }).click();
    await dialog.getByText('Columns: team, amount').waitFor();
    await screenshot(page, 'upload-excel-form');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Excel file uploaded to table budget').waitFor();
    expect(await rows('SELECT team, amount FROM budget ORDER BY team')).toEqual([
      { team: 'Data', amount: 3400.5 },
      { team: 'Ops', amount: 1200 },
    ]);
  });
});
