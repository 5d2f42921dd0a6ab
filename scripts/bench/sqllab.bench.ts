import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { median, report, startServer } from './util';

const SQL = 'SELECT * FROM cleaned_sales_data';
const ROWS = 100_000;

/**
 * Issue 4's figure: time from pressing Run to the first result rows shown in SQL Lab's grid, for a
 * 100k-row result, against the same execute call made with `fetch` (and parsed) in the same page.
 */
export async function sqllabBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-bench-'));
  const server = await startServer({ DATA_DIR: dataDir, SQL_MAX_ROW: String(ROWS), DEFAULT_SQLLAB_LIMIT: String(ROWS), FEATURE_SQLLAB_BACKEND_PERSISTENCE: 'false' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const login = await context.request.post(`${server.url}/login/`, { data: { username: 'admin', password: 'admin' } });
    if (login.status() !== 200) throw new Error(`login failed: ${login.status()}`);
    const page = await context.newPage();
    await page.goto(`${server.url}/sqllab/`);
    await page.locator('[data-testid=sql-editor] .ace_content').first().waitFor({ timeout: 60_000 });
    const shown: number[] = [];
    const fetched: number[] = [];
    for (let i = 0; i < 4; i++) {
      await page.locator('[data-testid=sql-editor] .ace_content').first().click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(`${SQL} -- run ${i}`);
      const firstRow = page.locator('[data-testid=results-grid] [aria-rowindex="1"]');
      const t0 = Date.now();
      await page.getByTestId('run-query').click();
      await firstRow.getByRole('gridcell').first().waitFor({ timeout: 120_000 });
      const ms = Date.now() - t0;
      const count = (await page.getByTestId('row-count').textContent()) ?? '';
      if (!count.replace(/\D/g, '').startsWith(String(ROWS))) throw new Error(`expected ${ROWS} rows, the page says "${count}"`);
      // The same execute call from the page with fetch, parsed as JSON.
      const baseline = await page.evaluate(async ({ sql, rows, run }) => {
        const csrf = (await (await fetch('/api/v1/security/csrf_token/')).json()).result;
        const dbs = await (await fetch('/api/v1/database/')).json();
        const id = dbs.result.find((d: { database_name: string }) => d.database_name === 'examples').id;
        const t = performance.now();
        const res = await fetch('/api/v1/sqllab/execute/', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrftoken': csrf },
          body: JSON.stringify({ client_id: `bf${run}${Date.now() % 1e6}`.slice(0, 11), database_id: id, sql, queryLimit: rows, runAsync: false, schema: 'main' }),
        });
        const body = await res.json();
        if (!body.data?.length) throw new Error(`no data: ${JSON.stringify(body).slice(0, 200)}`);
        return performance.now() - t;
      }, { sql: `${SQL} -- fetch ${i}`, rows: ROWS, run: i });
      if (i > 0) {
        // The first round warms the caches of both paths; it is not counted.
        shown.push(ms);
        fetched.push(baseline);
      }
    }
    report(`time to first rows shown in SQL Lab, ${ROWS}-row result`, median(shown), median(fetched), 'ms', 'ratio to fetch in the page');
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
