import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../server/src/screenshot/renderer';

const ROOT = resolve(import.meta.dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENS_DIR = join(ROOT, 'test-results/screens');

/** Debian's Chromium, headless, with the flags that keep it quiet and offline. */
export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // As a person's browser (navigator.webdriver false): an automated one shows error details inline (spec 01 §6),
    // which the test that checks it asks for in its own context.
    args: [...CHROMIUM_ARGS, '--disable-blink-features=AutomationControlled'],
  });
}

/** Builds the client once when client/dist is missing, so the server has something to serve. */
export function ensureClientBuilt(): void {
  if (existsSync(join(ROOT, 'client/dist/index.html'))) return;
  execFileSync('pnpm', ['--filter', '@meridian/client', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/** A new page in its own browser context (a desktop viewport, reduced motion), signed in as admin. */
export async function signedInPage(browser: Browser, baseUrl: string, viewport = { width: 1366, height: 860 }, opts: { acceptDownloads?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce', ...opts });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await login(page, baseUrl);
  return page;
}

/**
 * After a test of a file that shares one page: when it failed, a screenshot named for it, and any dialog it left
 * open closed, so that the next test starts on a clear page.
 */
export async function afterFailure(page: Page | undefined, prefix: string, task: { name: string; result?: { state?: string } }): Promise<void> {
  if (!page || task.result?.state !== 'fail') return;
  await screenshot(page, `failed-${prefix}-${task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  await closeDialog(page, 5_000).catch(() => undefined);
}

/** Signs in through the login form and waits for the signed-in shell (the main navigation). */
export async function login(page: Page, baseUrl: string, user = 'admin', pass = 'admin'): Promise<void> {
  await page.goto(`${baseUrl}/login/`);
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(pass);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

const twoFrames = (page: Page) => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

/**
 * Saves the whole page as test-results/screens/<name>.png and returns its path. A page taller than the viewport is
 * pictured as reports picture it: the viewport is made as tall as the page, its charts are let draw (briefly: a
 * stopped or loading chart may be what is pictured), then the viewport is put back. A full-page capture instead
 * left what lay beyond the viewport unpainted (dashboard charts came out blank below the first rows) and, taken
 * while scrolled, drew the sticky header half way down.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const path = join(SCREENS_DIR, `${name}.png`);
  const viewport = page.viewportSize()!;
  // At most what Chromium draws in one go.
  const height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), 16_000);
  const grown = height > viewport.height;
  if (grown) {
    await page.setViewportSize({ width: viewport.width, height });
    await twoFrames(page);
    await page
      .waitForFunction(() => [...document.querySelectorAll('[data-chart-state]')].every((c) => ['rendered', 'failed', 'stopped'].includes(c.getAttribute('data-chart-state') ?? '')), undefined, { timeout: 10_000 })
      .catch(() => undefined);
    // Charts redrawn at the new width (the scrollbar is gone) are painted by the next frames.
    await twoFrames(page);
  }
  try {
    // Transitions finish at once, so a switch just clicked is pictured in its new state, not half way.
    await page.screenshot({ path, animations: 'disabled' });
  } finally {
    if (grown) await page.setViewportSize(viewport);
  }
  return path;
}

/**
 * Closes the open modal or drawer with Escape and waits until no dialog is left. Mantine moves focus into a dialog
 * only after it opens, and Escape is heard from there; on a loaded machine one early press can fall on nothing, so
 * this presses again until the dialog is gone.
 */
export async function closeDialog(page: Page, timeout = 15_000): Promise<void> {
  const dialogs = page.getByRole('dialog');
  const deadline = Date.now() + timeout;
  while ((await dialogs.count()) > 0) {
    if (Date.now() > deadline) throw new Error('a dialog stayed open after Escape');
    await page.keyboard.press('Escape');
    await dialogs.first().waitFor({ state: 'detached', timeout: 1_000 }).catch(() => undefined);
  }
}
