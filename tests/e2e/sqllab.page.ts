import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, type TestContext } from 'vitest';
import { closeDialog, launchBrowser, screenshot } from './browser';

// Steps the SQL Lab browser suites share: open a signed-in page, clean up after a failure, read and replace the
// editor's SQL, run and wait, pick a limit.

/** Signs the context in as admin through the login form's endpoint (sets the session cookie). */
export async function signIn(context: BrowserContext, url: string): Promise<void> {
  const res = await context.request.post(`${url}/login/`, { data: { username: 'admin', password: 'admin' } });
  if (res.status() !== 200) throw new Error(`login failed: ${res.status()}`);
}

/** Chromium with one page signed in as admin on SQL Lab's 1440×900 screen (the clipboard granted when asked). */
export async function openSqlLabBrowser(url: string, options: { clipboard?: boolean; acceptDownloads?: boolean } = {}): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: options.acceptDownloads });
  if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  await signIn(context, url);
  return { browser, context, page: await context.newPage() };
}

/** After a failed test: a screenshot named `<prefix>-failed-<test>`, and no dialog left open to block the next test or the retry. */
export async function afterFailedTest(ctx: TestContext, page: Page, prefix: string): Promise<void> {
  if (ctx.task.result?.state !== 'fail') return;
  await screenshot(page, `${prefix}-failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  await closeDialog(page, 5_000).catch(() => undefined);
}

/** The active tab's SQL as Ace holds it, or null before the editor is there. */
export function editorValue(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.querySelector('[data-testid=sql-editor] .ace_editor') as (HTMLElement & { env?: { editor: { getValue(): string } } }) | null;
    return el?.env ? el.env.editor.getValue() : null;
  });
}

/** Replaces the active tab's SQL (inserted as one text: no auto-closed brackets) and leaves the focus in the editor. */
export async function typeSql(page: Page, sql: string): Promise<void> {
  // A modal still fading out (one just saved) can take the click, and the keys then go nowhere: check and type again.
  for (let attempt = 0; ; attempt++) {
    await page.locator('[data-testid=sql-editor] .ace_content').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(sql);
    if ((await editorValue(page)) === sql || attempt === 2) break;
    await page.waitForTimeout(250);
  }
  await expect.poll(() => editorValue(page)).toBe(sql);
}

/** Runs the tab, waits for its execute answer and the new result's row count, and returns that count's text. */
export async function runAndWait(page: Page): Promise<string> {
  const done = page.waitForResponse((res) => res.url().includes('/api/v1/sqllab/execute/'), { timeout: 90_000 });
  await page.getByTestId('run-query').click();
  await done;
  await page.getByTestId('row-count').waitFor({ timeout: 90_000 });
  return (await page.getByTestId('row-count').textContent()) ?? '';
}

/** Picks a row limit from the toolbar's dropdown by its label ('Limit 1,000'). */
export async function setLimit(page: Page, label: string): Promise<void> {
  await page.getByTestId('row-limit').click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** Drags the editor/results split handle by `dy` pixels (down is positive) and returns the new north percent. */
export async function dragSplit(page: Page, dy: number): Promise<number> {
  const handle = page.getByTestId('split-handle');
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + dy, { steps: 8 });
  await page.mouse.up();
  return Number(await handle.getAttribute('aria-valuenow'));
}
