import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from '../rest/sqllab.helpers';
import { closeDialog, ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

// Issue 10, datasets: the editor never saves over a copy it did not see, types calculated columns from their
// expression, edits a virtual dataset's SQL in SQL Lab's Ace editor and keeps one size across its tabs.
describe('dataset editor in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let admin: string;
  let people: number;
  let adults: number;

  const stored = async (id: number) => {
    const res = await t.http.get(`/api/v1/dataset/${id}`).set(bearer(admin));
    expect(res.status, res.text).toBe(200);
    return res.body.result;
  };
  const list = async () => {
    await page.goto(`${t.url}/tablemodelview/list/`);
    await page.getByRole('link', { name: 'people', exact: true }).waitFor();
  };
  /** Opens a dataset's editor from its row of the list already on screen, once its stored copy is in the form. */
  const openEditor = async (name: string): Promise<Locator> => {
    await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`^Edit dataset (main\\.)?${name}$`) });
    await dialog.getByRole('tab', { name: 'Settings' }).waitFor();
    return dialog;
  };
  const saveAndWait = async (dialog: Locator) => {
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
  };
  const setTheme = async (theme: 'light' | 'dark') => {
    if ((await page.locator('html').getAttribute('data-mantine-color-scheme')) === theme) return;
    await page.getByRole('button', { name: `Switch to ${theme} theme` }).click();
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(theme);
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-ds-editor-'));
    const db = await registerDatabase(t, admin, { database_name: 'scratch', sqlalchemy_uri: `duckdb:///${join(dir, 'scratch.duckdb')}`, allow_dml: true });
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({
      database_id: db,
      client_id: clientId(),
      sql: `CREATE TABLE people (born TIMESTAMP, name VARCHAR, age INTEGER, city VARCHAR);
            INSERT INTO people VALUES ('1990-01-01', 'ada', 34, 'Oslo'), ('2010-05-01', 'bo', 14, 'Rome');`,
    });
    expect(res.status, res.text).toBe(200);
    people = (await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: db, schema: 'main', table_name: 'people' })).body.id;
    const virtual = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: db, schema: 'main', table_name: 'adults', sql: 'SELECT name, age FROM people WHERE age >= 18' });
    expect(virtual.status, virtual.text).toBe(201);
    adults = virtual.body.id;
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

  it('reopened without a reload, shows what was just saved, and a description-only save keeps the new metric and calculated column', { timeout: 120_000 }, async () => {
    await list();
    let dialog = await openEditor('people');
    await expect(dialog.getByRole('tab', { name: 'Metrics (1)' }).count()).resolves.toBe(1);
    await expect(dialog.getByRole('tab', { name: 'Calculated columns (0)' }).count()).resolves.toBe(1);

    // Add a metric and a calculated column, and save.
    await dialog.getByRole('tab', { name: /^Metrics/ }).click();
    await dialog.getByRole('button', { name: 'Add metric' }).click();
    const metrics = dialog.getByRole('table', { name: 'Metrics' });
    await metrics.getByRole('textbox', { name: 'Metric key' }).last().fill('avg_age');
    await metrics.getByRole('textbox', { name: 'SQL expression' }).last().fill('AVG(age)');
    await dialog.getByRole('tab', { name: /^Calculated columns/ }).click();
    await dialog.getByRole('button', { name: 'Add calculated column' }).click();
    const calculated = dialog.getByRole('table', { name: 'Calculated columns' });
    await calculated.getByRole('textbox', { name: 'Column name' }).last().fill('city_upper');
    await calculated.getByRole('textbox', { name: 'SQL expression' }).last().fill('UPPER(city)');
    // No type is made up for it: the database tells it on save.
    await expect(calculated.getByRole('textbox', { name: 'Type' }).last().inputValue()).resolves.toBe('');
    await saveAndWait(dialog);

    // Reopened on the same page, without a reload: the stored copy, not the one cached when it first opened.
    dialog = await openEditor('people');
    await dialog.getByRole('tab', { name: 'Metrics (2)' }).waitFor();
    await dialog.getByRole('tab', { name: 'Calculated columns (1)' }).click();
    const calculatedAgain = dialog.getByRole('table', { name: 'Calculated columns' });
    await expect(calculatedAgain.getByRole('textbox', { name: 'Column name' }).inputValue()).resolves.toBe('city_upper');
    // The calculated column's type came from its expression.
    await expect(calculatedAgain.getByRole('textbox', { name: 'Type' }).inputValue()).resolves.toBe('VARCHAR');
    await screenshot(page, 'datasets-editor-reopened-fresh');

    // Change only the description and save: nothing saved a moment ago is lost.
    await dialog.getByRole('tab', { name: 'Settings' }).click();
    await dialog.getByLabel('Description').fill('People and where they live');
    await saveAndWait(dialog);
    const ds = await stored(people);
    expect(ds.description).toBe('People and where they live');
    expect(ds.metrics.map((m: any) => m.metric_name)).toEqual(['count', 'avg_age']);
    expect(ds.columns.find((c: any) => c.column_name === 'city_upper')).toMatchObject({ expression: 'UPPER(city)', type: 'VARCHAR' });
  });

  it('refuses a save over a copy that changed since the editor opened, and Reload brings the stored copy (light and dark)', { timeout: 120_000 }, async () => {
    for (const theme of ['light', 'dark'] as const) {
      await list();
      await setTheme(theme);
      const dialog = await openEditor('people');
      // Someone else saves while the editor is open.
      const other = await t.http.put(`/api/v1/dataset/${people}`).set(bearer(admin)).send({ description: `Changed elsewhere (${theme})` });
      expect(other.status, other.text).toBe(200);
      const before = await stored(people);

      await dialog.getByRole('tab', { name: /^Metrics/ }).click();
      await dialog.getByRole('button', { name: `Remove avg_age` }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      const alert = dialog.getByRole('alert').filter({ hasText: 'This dataset changed since you opened it' });
      await alert.getByText('This dataset was changed by another save since it was opened.', { exact: false }).waitFor();
      await screenshot(page, `datasets-editor-stale-${theme}`);
      // Nothing was written: the metric the old copy dropped is still stored.
      const after = await stored(people);
      for (const key of ['changed_on', 'description', 'metrics', 'columns']) expect(after[key], key).toEqual(before[key]);

      await alert.getByRole('button', { name: 'Reload' }).click();
      await alert.waitFor({ state: 'detached' });
      await dialog.getByRole('tab', { name: 'Metrics (2)' }).waitFor();
      await dialog.getByRole('tab', { name: 'Settings' }).click();
      await expect(dialog.getByLabel('Description').inputValue()).resolves.toBe(`Changed elsewhere (${theme})`);
      // From the reloaded copy, the save goes through.
      await dialog.getByLabel('Description').fill(`Saved after reload (${theme})`);
      await saveAndWait(dialog);
      expect((await stored(people)).description).toBe(`Saved after reload (${theme})`);
    }
    await setTheme('light');
  });

  it("edits a virtual dataset's SQL in the Ace SQL editor and saves it (light and dark)", { timeout: 120_000 }, async () => {
    await list();
    const dialog = await openEditor('adults');
    const editor = dialog.getByTestId('dataset-sql-editor').locator('.ace_editor');
    await editor.waitFor();
    await expect(dialog.getByTestId('dataset-sql-editor').locator('.ace_content').innerText()).resolves.toContain('SELECT name, age FROM people WHERE age >= 18');
    // No plain text box holds the SQL any more.
    await expect(dialog.getByRole('textbox', { name: 'SQL' }).count()).resolves.toBe(0);
    await screenshot(page, 'datasets-editor-sql-light');

    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('SELECT name, age, city FROM people WHERE age < 18');
    await saveAndWait(dialog);
    const ds = await stored(adults);
    expect(ds.sql).toBe('SELECT name, age, city FROM people WHERE age < 18');
    // The columns follow the new SQL.
    expect(ds.columns.map((c: any) => c.column_name)).toEqual(['name', 'age', 'city']);

    // In the dark theme the editor takes SQL Lab's dark Ace theme, with the stored SQL.
    await setTheme('dark');
    const again = await openEditor('adults');
    await again.getByTestId('dataset-sql-editor').locator('.ace_editor.ace-tomorrow-night').waitFor();
    await expect(again.getByTestId('dataset-sql-editor').locator('.ace_content').innerText()).resolves.toContain('WHERE age < 18');
    await screenshot(page, 'datasets-editor-sql-dark');
    await closeDialog(page);
    await setTheme('light');
  });

  it('keeps one size across its tabs', { timeout: 60_000 }, async () => {
    // Many columns make the column tab the tallest; the settings of a virtual dataset hold the SQL editor.
    for (const name of ['people', 'adults']) {
      await list();
      const dialog = await openEditor(name);
      const content = page.locator('.mantine-Modal-content');
      const sizes: string[] = [];
      for (const tab of [/^Settings/, /^Metrics/, /^Columns/, /^Calculated columns/]) {
        await dialog.getByRole('tab', { name: tab }).click();
        await expect.poll(() => dialog.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true');
        const box = await content.boundingBox();
        sizes.push(`${Math.round(box!.width)}x${Math.round(box!.height)}`);
      }
      expect(new Set(sizes).size, sizes.join(', ')).toBe(1);
      await closeDialog(page);
    }
  });
});
