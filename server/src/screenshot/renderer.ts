import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Unprocessable } from '../errors/domain-errors';

/** The message when no browser can draw pictures. */
export const NO_BROWSER = (path: string) => `No browser to render screenshots with: ${path} is missing (set CHROMIUM_PATH).`;

/** Chromium's flags for rendering without a display, sandbox or network chatter (the browser tests use them too). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Pages drawn at once by one process's browser. */
const MAX_PARALLEL = 2;
/** A user's browser context is closed after this long without a picture. */
const CONTEXT_IDLE_MS = 10 * 60 * 1000;

export interface RenderRequest {
  /** The page to draw, on this server. */
  url: string;
  /** The executor's session cookie for that page. */
  cookie: { name: string; value: string };
  /** Who the picture is drawn as (pictures of one user share a browser context). */
  user: number;
  /** What to picture (a chart's box, or the dashboard grid); the whole page when not found. */
  selector: string;
  /** Every `[data-chart-state]` on the page must reach one of these before the picture is taken. */
  done: string[];
  viewport: { width: number; height: number };
  timeoutMs: number;
  /** PNG of the selector (default), or the whole page printed as one PDF page. */
  format?: 'png' | 'pdf';
  /**
   * Only what the viewport shows (a dashboard's thumbnail, as Superset's: its top): the page is not grown to its
   * height, only the charts in view are waited for, and the picture is cut at the viewport's bottom.
   */
  viewportOnly?: boolean;
  /** Aborting it closes the page, so the drawing ends with an error at once (a report past its working timeout). */
  signal?: AbortSignal;
}

/** The tallest viewport a page is drawn in (Chromium draws at most 16,384 pixels in one go). */
const MAX_VIEWPORT_HEIGHT = 16_000;

/**
 * Makes the viewport as tall as the page's content (never shorter than asked, at most MAX_VIEWPORT_HEIGHT). A page
 * taller still is scrolled through to its end and back, so that what draws only near the viewport is drawn; once
 * for each content height (`seen`, the height last fitted), as this is asked again while the page settles.
 */
async function fitViewportToPage(page: Page, viewport: { width: number; height: number }, seen: number): Promise<number> {
  const content = await page.evaluate(() => document.documentElement.scrollHeight);
  if (content === seen) return content;
  const height = Math.min(Math.max(content, viewport.height), MAX_VIEWPORT_HEIGHT);
  if (height !== page.viewportSize()?.height) await page.setViewportSize({ width: viewport.width, height });
  if (content <= height) return content;
  // Each position is held for two frames, so that the page's IntersectionObservers see it.
  for (let top = height; top < content; top += height) {
    await page.evaluate((y) => new Promise<void>((done) => {
      window.scrollTo(0, y);
      requestAnimationFrame(() => requestAnimationFrame(() => done()));
    }), top);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return content;
}

/**
 * Draws Meridian's own pages in headless Chromium (playwright-core) and pictures them as PNG, signed in as
 * the executor: one browser per process, started on first use, a fresh context per picture.
 */
export class ScreenshotRenderer {
  private browser: Promise<Browser> | null = null;
  /** Pictures being drawn, and those waiting their turn: a list of cards asks for many at once. */
  private drawing = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly contexts = new Map<string, { context: Promise<BrowserContext>; timer: NodeJS.Timeout | null }>();

  constructor(readonly executablePath: string) {}

  /** Whether a browser is there to render with (CHROMIUM_PATH). */
  available(): boolean {
    return existsSync(this.executablePath);
  }

  private async launch(): Promise<Browser> {
    if (!this.available()) throw new Unprocessable(NO_BROWSER(this.executablePath));
    this.browser ??= import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath: this.executablePath, args: CHROMIUM_ARGS }));
    try {
      return await this.browser;
    } catch (error) {
      this.browser = null;
      throw error;
    }
  }

  /** At most MAX_PARALLEL pictures at a time, so a list of cards does not starve the machine. */
  async render(request: RenderRequest): Promise<Buffer> {
    // A finished picture hands its slot straight to the next waiting one.
    if (this.drawing >= MAX_PARALLEL) await new Promise<void>((turn) => this.waiting.push(turn));
    else this.drawing++;
    try {
      return await this.draw(request);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.drawing--;
    }
  }

  /**
   * The executor's browser context, kept while it is used (its HTTP cache and compiled scripts make the next
   * picture of the same user quicker); closed after CONTEXT_IDLE_MS without use.
   */
  private async contextFor(browser: Browser, request: RenderRequest): Promise<BrowserContext> {
    const key = `${request.cookie.name}:${new URL(request.url).origin}:${request.user}`;
    let entry = this.contexts.get(key);
    if (!entry) {
      entry = { context: browser.newContext({ deviceScaleFactor: 1, reducedMotion: 'reduce' }), timer: null };
      this.contexts.set(key, entry);
    }
    if (entry.timer) clearTimeout(entry.timer);
    const current = entry;
    current.timer = setTimeout(() => {
      this.contexts.delete(key);
      void current.context.then((c) => c.close()).catch(() => undefined);
    }, CONTEXT_IDLE_MS);
    current.timer.unref();
    const context = await current.context;
    // The session is signed afresh for each picture.
    await context.addCookies([{ ...request.cookie, url: new URL(request.url).origin }]);
    return context;
  }

  private async draw(request: RenderRequest): Promise<Buffer> {
    const browser = await this.launch();
    const context = await this.contextFor(browser, request);
    request.signal?.throwIfAborted();
    const page = await context.newPage();
    const abandon = () => void page.close().catch(() => undefined);
    request.signal?.addEventListener('abort', abandon, { once: true });
    try {
      page.setDefaultTimeout(request.timeoutMs);
      await page.setViewportSize(request.viewport);
      // No scrollbar: when the viewport grows to the page (below) the page keeps its width, so charts already
      // drawn are not laid out again (a force-directed graph would be pictured mid-layout).
      await page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const style = document.createElement('style');
          style.textContent = 'html { scrollbar-width: none; }';
          document.head.append(style);
        });
      });
      await page.goto(request.url, { waitUntil: 'load' });
      await page.locator(`${request.selector}, [data-chart-state]`).first().waitFor();
      // Every chart on the page drawn (or failed): as soon as the charts are there and done, or, for a page with
      // no chart at all, once its requests have settled.
      const allDone = (atLeastOne: boolean) =>
        page.waitForFunction(
          ({ done, atLeastOne, viewportOnly }) => {
            const charts = [...document.querySelectorAll('[data-chart-state]')].filter((el) => !viewportOnly || el.getBoundingClientRect().top < window.innerHeight);
            return (!atLeastOne || charts.length > 0) && charts.every((el) => done.includes(el.getAttribute('data-chart-state') ?? ''));
          },
          { done: request.done, atLeastOne, viewportOnly: !!request.viewportOnly },
          { timeout: request.timeoutMs, polling: 50 },
        );
      const settled = Promise.race([allDone(true), page.waitForLoadState('networkidle').then(() => allDone(false))]);
      // A dashboard draws a chart only once it comes near the viewport, so the viewport grows to the whole page
      // while it settles (its height is known once its layout is drawn): every chart below the fold is drawn, and
      // the picture is taken without Chromium widening the viewport under the page as it captures.
      let over = false;
      settled.then(() => void (over = true), () => void (over = true));
      let fitted = 0;
      while (!over && !request.viewportOnly) {
        fitted = await fitViewportToPage(page, request.viewport, fitted);
        await Promise.race([settled, new Promise((r) => setTimeout(r, 200))]);
      }
      await settled;
      if (request.format === 'pdf') {
        // One page as tall as the content, so a dashboard is not cut across sheets.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.emulateMedia({ media: 'screen' });
        return await page.pdf({ width: `${request.viewport.width}px`, height: `${Math.max(height, request.viewport.height)}px`, printBackground: true, pageRanges: '1' });
      }
      const target = page.locator(request.selector).first();
      if (request.viewportOnly) {
        const box = (await target.count()) ? await target.boundingBox() : null;
        const top = box ? Math.max(box.y, 0) : 0;
        const clip = box ? { x: box.x, y: top, width: box.width, height: Math.min(box.y + box.height, request.viewport.height) - top } : { x: 0, y: 0, ...request.viewport };
        return await page.screenshot({ type: 'png', clip, animations: 'disabled' });
      }
      return (await target.count()) ? await target.screenshot({ type: 'png', animations: 'disabled' }) : await page.screenshot({ type: 'png', fullPage: true, animations: 'disabled' });
    } finally {
      request.signal?.removeEventListener('abort', abandon);
      await page.close();
    }
  }

  async close(): Promise<void> {
    for (const entry of this.contexts.values()) if (entry.timer) clearTimeout(entry.timer);
    this.contexts.clear();
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close();
  }
}
