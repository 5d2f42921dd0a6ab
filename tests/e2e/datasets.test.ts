import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from '../rest/sqllab.helpers';
import { closeDialog, ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

/** A field of the dialog by its label; a required field's label ends with Mantine's asterisk. */
const field = (dialog: Locator, label: string) => dialog.getByLabel(new RegExp(`^${label}( \\*)?$`));

/** Opens a Mantine select of the dialog by its label, optionally types to search, and clicks the option. */
async function pick(page: Page, dialog: Locator, label: string, option: string | RegExp, search?: string): Promise<void> {
  const input = field(dialog, label);
  await input.click();
  if (search !== undefined) await input.fill(search);
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

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
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 2000 });
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
    // Owners as the charts and dashboards lists show them: nobody owns the examples, so '—' (the cell was blank).
    const owners = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'birth_names' }) }).getByTestId('owners');
    await expect(owners.textContent()).resolves.toBe('—');
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

  describe('+ Dataset', () => {
    const apiGet = async (path: string) => t.http.get(path).set(bearer(await t.token()));
    const datasetCount = async () => (await apiGet('/api/v1/dataset/')).body.count as number;

    beforeAll(async () => {
      // Every example table is a dataset already: a scratch DuckDB database gets a fresh table, a view and an empty schema.
      const admin = await t.token();
      const scratch = await registerDatabase(t, admin, { database_name: 'scratch', sqlalchemy_uri: `duckdb:///${join(dir, 'scratch.duckdb')}`, allow_dml: true });
      const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({
        database_id: scratch,
        client_id: clientId(),
        sql: `CREATE TABLE visits (visited_at TIMESTAMP, page VARCHAR, seconds INTEGER);
              CREATE VIEW visits_by_page AS SELECT page, COUNT(*) AS n FROM visits GROUP BY page;
              CREATE SCHEMA staging;`,
      });
      expect(res.status, res.text).toBe(200);
    });

    it('adds a table of a picked database and schema, lists it with its columns and opens its editor', { timeout: 120_000 }, async () => {
      const before = await datasetCount();
      await page.goto(`${t.url}/tablemodelview/list/`);
      await page.getByRole('link', { name: 'birth_names' }).waitFor();
      await page.getByRole('button', { name: 'Dataset', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add dataset' });
      const create = dialog.getByRole('button', { name: 'Create dataset' });
      await dialog.waitFor();
      await expect(create.isDisabled()).resolves.toBe(true);
      await expect(field(dialog, 'Schema').isDisabled()).resolves.toBe(true);

      // The examples database starts on schema main and lists its tables.
      await pick(page, dialog, 'Database', 'examples', 'exa');
      await expect.poll(() => field(dialog, 'Schema').inputValue(), { timeout: 30_000 }).toBe('main');
      await field(dialog, 'Table').click();
      await page.getByRole('option', { name: 'birth_names' }).waitFor();
      await expect(page.getByRole('option', { name: 'wb_health_population' }).count()).resolves.toBe(1);

      // Another database: its schemas and tables replace the first one's; an empty schema says so.
      await pick(page, dialog, 'Database', 'scratch');
      await expect.poll(() => field(dialog, 'Schema').inputValue(), { timeout: 30_000 }).toBe('main');
      await pick(page, dialog, 'Schema', 'staging');
      await dialog.getByPlaceholder('No tables in this schema').waitFor();
      await expect(field(dialog, 'Table').isDisabled()).resolves.toBe(true);
      await expect(create.isDisabled()).resolves.toBe(true);
      await screenshot(page, 'datasets-add-empty-schema');

      // Back to main: the table and the view (marked as one) are offered, searchable.
      await pick(page, dialog, 'Schema', 'main');
      const table = field(dialog, 'Table');
      await table.click();
      await page.getByRole('option', { name: /^visits_by_page/ }).getByText('view').waitFor();
      await table.fill('visi');
      await expect(page.getByRole('option').count()).resolves.toBe(2);
      await screenshot(page, 'datasets-add-tables');
      await page.getByRole('option', { name: 'visits', exact: true }).click();
      await expect(table.inputValue()).resolves.toBe('visits');
      // The table's columns are previewed with their types before anything is created.
      const preview = dialog.getByRole('table', { name: 'Columns of visits' });
      await preview.getByRole('row', { name: 'seconds INTEGER' }).waitFor();
      const cells = await preview.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...(r as HTMLTableRowElement).cells].map((c) => c.textContent)));
      expect(cells).toEqual([
        ['visited_at', 'TIMESTAMP'],
        ['page', 'VARCHAR'],
        ['seconds', 'INTEGER'],
      ]);
      await expect(dialog.getByText('This table already has a dataset associated with it', { exact: false }).count()).resolves.toBe(0);
      await expect(create.isEnabled()).resolves.toBe(true);
      await screenshot(page, 'datasets-add');

      await create.click();
      await page.getByText('Dataset visits created').waitFor();
      // The new dataset's editor takes over, with the columns read from the table.
      const editor = page.getByRole('dialog', { name: /Edit dataset/ });
      await editor.getByRole('tab', { name: /^Columns/ }).click();
      for (const column of ['visited_at', 'page', 'seconds']) await editor.getByRole('table', { name: 'Columns' }).getByText(column, { exact: true }).waitFor();
      await expect(page.getByRole('dialog', { name: 'Add dataset' }).count()).resolves.toBe(0);
      await screenshot(page, 'datasets-add-editor');
      await closeDialog(page);

      await page.getByRole('link', { name: 'visits', exact: true }).waitFor();
      expect(await datasetCount()).toBe(before + 1);
      const found = (await apiGet('/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:visits)))')).body.result;
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ table_name: 'visits', schema: 'main', kind: 'physical', database: { database_name: 'scratch' } });
      const ds = (await apiGet(`/api/v1/dataset/${found[0].id}`)).body.result;
      expect(ds.columns.map((c: any) => [c.column_name, c.type, c.is_dttm])).toEqual([
        ['visited_at', 'TIMESTAMP', true],
        ['page', 'VARCHAR', false],
        ['seconds', 'INTEGER', false],
      ]);
    });

    it('warns before submit that the table has a dataset already, offers to open it, and adds nothing', async () => {
      const before = await datasetCount();
      await page.getByRole('button', { name: 'Dataset', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add dataset' });
      await pick(page, dialog, 'Database', 'scratch');
      await expect.poll(() => field(dialog, 'Schema').inputValue(), { timeout: 30_000 }).toBe('main');
      await pick(page, dialog, 'Table', 'visits', 'visits');
      const warning = dialog.getByRole('alert').filter({ hasText: 'A dataset exists for this table' });
      await warning.getByText('This table already has a dataset associated with it. You can only associate one dataset with a table.').waitFor();
      await expect(dialog.getByRole('button', { name: 'Create dataset' }).isDisabled()).resolves.toBe(true);
      await screenshot(page, 'datasets-add-exists');
      // Picking another table clears the warning.
      await pick(page, dialog, 'Table', /^visits_by_page/, 'by_page');
      await dialog.getByRole('table', { name: 'Columns of visits_by_page' }).getByRole('row', { name: 'n BIGINT' }).waitFor();
      await expect(warning.count()).resolves.toBe(0);
      await expect(dialog.getByRole('button', { name: 'Create dataset' }).isEnabled()).resolves.toBe(true);
      // Back on the table with a dataset, "View dataset" opens that dataset's editor instead.
      await pick(page, dialog, 'Table', 'visits', 'visits');
      await warning.getByRole('button', { name: 'View dataset' }).click();
      const editor = page.getByRole('dialog', { name: 'Edit dataset main.visits' });
      await editor.getByRole('tab', { name: 'Settings' }).waitFor();
      await expect(page.getByRole('dialog', { name: 'Add dataset' }).count()).resolves.toBe(0);
      await closeDialog(page);
      expect(await datasetCount()).toBe(before);
    });

    it('looks right in the dark theme', async () => {
      await page.goto(`${t.url}/tablemodelview/list/`);
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
      await page.getByRole('link', { name: 'visits', exact: true }).waitFor();
      await screenshot(page, 'datasets-list-dark');
      await page.getByRole('button', { name: 'Dataset', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add dataset' });
      await pick(page, dialog, 'Database', 'scratch');
      await expect.poll(() => field(dialog, 'Schema').inputValue(), { timeout: 30_000 }).toBe('main');
      await field(dialog, 'Table').click();
      await page.getByRole('option', { name: /^visits_by_page/ }).waitFor();
      await screenshot(page, 'datasets-add-tables-dark');
      await page.getByRole('option', { name: 'visits', exact: true }).click();
      await dialog.getByRole('alert').getByText('A dataset exists for this table').waitFor();
      await dialog.getByRole('table', { name: 'Columns of visits' }).getByRole('row', { name: 'seconds INTEGER' }).waitFor();
      await screenshot(page, 'datasets-add-exists-dark');
      await closeDialog(page);
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
    });

    it('is not offered to a Gamma user, who may not write datasets', async () => {
      await t.userWithRoles('gamma_ds', ['Gamma']);
      const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, reducedMotion: 'reduce' });
      try {
        const gamma = await context.newPage();
        gamma.setDefaultTimeout(15_000);
        await login(gamma, t.url, 'gamma_ds', 'pw');
        await gamma.goto(`${t.url}/tablemodelview/list/`);
        await gamma.getByRole('heading', { name: 'Datasets' }).waitFor();
        await gamma.getByText('Datasets shared with you will show here.').waitFor();
        await expect(gamma.getByRole('button', { name: 'Dataset', exact: true }).count()).resolves.toBe(0);
        await screenshot(gamma, 'datasets-list-gamma');
      } finally {
        await context.close();
      }
    });
  });

  describe('editor: calculated columns, metrics and settings round trip', () => {
    const apiGet = async (path: string) => t.http.get(path).set(bearer(await t.token()));
    let id: number;
    const stored = async () => (await apiGet(`/api/v1/dataset/${id}`)).body.result;
    const openEditor = async (reload = true) => {
      if (reload) await page.goto(`${t.url}/tablemodelview/list/`);
      await page.getByRole('button', { name: 'Edit birth_names' }).click();
      const dialog = page.getByRole('dialog', { name: /Edit dataset/ });
      await dialog.getByRole('tab', { name: 'Settings' }).waitFor();
      return dialog;
    };

    beforeAll(async () => {
      id = (await apiGet('/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    });

    it('adds a calculated column and a metric with format and warning, saves, and finds them on reopening', { timeout: 120_000 }, async () => {
      let dialog = await openEditor();
      await dialog.getByRole('tab', { name: /^Calculated columns/ }).click();
      await dialog.getByRole('button', { name: 'Add calculated column' }).click();
      const calculatedTable = dialog.getByRole('table', { name: 'Calculated columns' });
      await calculatedTable.getByRole('textbox', { name: 'Column name' }).last().fill('num_x2');
      await calculatedTable.getByRole('textbox', { name: 'SQL expression' }).last().fill('num * 2');
      // Clearing an expression keeps the row where it is (it used to jump to the source columns tab).
      await calculatedTable.getByRole('textbox', { name: 'SQL expression' }).last().fill('');
      await expect(calculatedTable.getByRole('textbox', { name: 'Column name' }).last().inputValue()).resolves.toBe('num_x2');
      await calculatedTable.getByRole('textbox', { name: 'SQL expression' }).last().fill('num * 2');

      await dialog.getByRole('tab', { name: /^Metrics/ }).click();
      await dialog.getByRole('button', { name: 'Add metric' }).click();
      const metricsTable = dialog.getByRole('table', { name: 'Metrics' });
      await metricsTable.getByRole('textbox', { name: 'Metric key' }).last().fill('avg_num');
      await metricsTable.getByRole('textbox', { name: 'SQL expression' }).last().fill('AVG(num)');
      await metricsTable.getByRole('textbox', { name: 'D3 format' }).last().fill(',.1f');
      await metricsTable.getByRole('textbox', { name: 'Warning' }).last().fill('Averages over all years');
      await screenshot(page, 'datasets-editor-new-metric');

      await dialog.getByRole('tab', { name: 'Settings' }).click();
      await dialog.getByLabel('Description').fill('Names given to babies');
      await dialog.getByLabel('Cache timeout (seconds)').fill('600');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });

      let ds = await stored();
      expect(ds.columns.find((c: any) => c.column_name === 'num_x2')).toMatchObject({ expression: 'num * 2' });
      expect(ds.metrics.find((m: any) => m.metric_name === 'avg_num')).toMatchObject({ expression: 'AVG(num)', d3format: ',.1f', warning_text: 'Averages over all years' });
      expect(ds).toMatchObject({ description: 'Names given to babies', cache_timeout: 600 });

      // Reopened, the editor shows what was stored.
      dialog = await openEditor();
      await expect(dialog.getByLabel('Description').inputValue()).resolves.toBe('Names given to babies');
      await expect(dialog.getByLabel('Cache timeout (seconds)').inputValue()).resolves.toBe('600');
      await dialog.getByRole('tab', { name: /^Calculated columns \(1\)/ }).click();
      await expect(dialog.getByRole('table', { name: 'Calculated columns' }).getByRole('textbox', { name: 'SQL expression' }).inputValue()).resolves.toBe('num * 2');
      await dialog.getByRole('tab', { name: /^Metrics/ }).click();
      const metricsAgain = dialog.getByRole('table', { name: 'Metrics' });
      await expect(metricsAgain.getByRole('textbox', { name: 'Metric key' }).last().inputValue()).resolves.toBe('avg_num');
      await expect(metricsAgain.getByRole('textbox', { name: 'D3 format' }).last().inputValue()).resolves.toBe(',.1f');
      await screenshot(page, 'datasets-editor-reopened');

      // Delete the metric and change the cache timeout: both persist.
      await dialog.getByRole('button', { name: 'Remove avg_num' }).click();
      await dialog.getByRole('tab', { name: 'Settings' }).click();
      await dialog.getByLabel('Cache timeout (seconds)').fill('300');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      ds = await stored();
      expect(ds.metrics.map((m: any) => m.metric_name)).not.toContain('avg_num');
      expect(ds.cache_timeout).toBe(300);
      expect(ds.columns.find((c: any) => c.column_name === 'num_x2')).toMatchObject({ expression: 'num * 2' });
    });

    it("refuses a metric holding a subquery or two statements with the server's message, storing nothing (light and dark)", { timeout: 120_000 }, async () => {
      const before = await stored();
      for (const theme of ['light', 'dark'] as const) {
        if (theme === 'dark') {
          await page.getByRole('button', { name: 'Switch to dark theme' }).click();
          await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
        }
        const dialog = await openEditor(theme === 'light');
        await dialog.getByRole('tab', { name: /^Metrics/ }).click();
        await dialog.getByRole('button', { name: 'Add metric' }).click();
        const metrics = dialog.getByRole('table', { name: 'Metrics' });
        await metrics.getByRole('textbox', { name: 'Metric key' }).last().fill('sneaky');
        await metrics.getByRole('textbox', { name: 'SQL expression' }).last().fill('(SELECT COUNT(*) FROM birth_names)');
        await dialog.getByRole('button', { name: 'Save' }).click();
        await dialog.getByRole('alert').getByText('Custom SQL fields cannot contain sub-queries.').waitFor();
        await screenshot(page, `datasets-editor-metric-refused-${theme}`);
        await metrics.getByRole('textbox', { name: 'SQL expression' }).last().fill('COUNT(*); DROP TABLE birth_names');
        await dialog.getByRole('button', { name: 'Save' }).click();
        await dialog.getByRole('alert').getByText('Custom SQL fields cannot contain multiple statements.').waitFor();
        // The modal stays open with the edit, and nothing was stored.
        await expect(metrics.getByRole('textbox', { name: 'Metric key' }).last().inputValue()).resolves.toBe('sneaky');
        const after = await stored();
        expect(after.metrics.map((m: any) => m.metric_name)).toEqual(before.metrics.map((m: any) => m.metric_name));
        expect(after.changed_on).toBe(before.changed_on);
        await closeDialog(page);
      }
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
    });
  });
});
