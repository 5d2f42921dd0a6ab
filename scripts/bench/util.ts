import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../server/src/screenshot/renderer';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** One printed figure: the measured value, its baseline from the same run, and the ratio between them. */
export function report(name: string, value: number, baseline: number, unit: string, target?: string): void {
  const ratio = value / baseline;
  console.log(`${name.padEnd(58)} ${value.toFixed(unit === 'KB' ? 1 : 0).padStart(9)} ${unit.padEnd(3)} vs ${baseline.toFixed(unit === 'KB' ? 1 : 0).padStart(9)} ${unit.padEnd(3)} = ${ratio.toFixed(2)}x${target ? `   (target ${target})` : ''}`);
}

/** A process's resident memory in MB (Linux /proc). */
export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

let built = false;

/**
 * Starts the real server as `pnpm start` does (the built `server/dist/main.js`, built once per bench run)
 * on a port with its own data dir; resolves once /health answers. BENCH_SERVER_NODE_ARGS adds node flags
 * (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`).
 */
export async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; startedMs: number; stop: () => Promise<void> }> {
  const port = env.PORT ?? String(19000 + Math.floor(Math.random() * 900));
  if (!built) {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-server.mjs')], { cwd: ROOT, stdio: 'inherit' });
    built = true;
  }
  const t0 = performance.now();
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), join(ROOT, 'server/dist/main.js')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'production', SECRET_KEY: 'bench', ...env, PORT: port },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const startedMs = performance.now() - t0;
  return {
    child,
    url,
    startedMs,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The body of a successful answer as bytes; a failed one throws with its status and the start of its body. */
export async function okBody(res: Response): Promise<Buffer> {
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${res.status} ${bytes.subarray(0, 300).toString()}`);
  return bytes;
}

/** Logs in as admin over REST; resolves with the JSON + bearer headers for later calls. */
export async function adminHeaders(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/v1/security/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin', provider: 'db' }) });
  const { access_token } = JSON.parse((await okBody(res)).toString()) as { access_token: string };
  return { 'content-type': 'application/json', authorization: `Bearer ${access_token}` };
}

/** Debian's Chromium with the flags the report renderer uses (headless, no GPU, no background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** A browser context signed in as admin (the session cookie set through the login form's POST). */
export async function signedIn(browser: Browser, url: string, viewport = { width: 1440, height: 900 }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  const login = await context.request.post(`${url}/login/`, { data: { username: 'admin', password: 'admin' } });
  if (login.status() !== 200) throw new Error(`login failed: ${login.status()}`);
  return context;
}

/** The id of the examples' saved line chart "Births by gender over time", which the Explore figures open. */
export async function examplesLineChartId(url: string, headers: Record<string, string>): Promise<number> {
  const q = encodeURIComponent("(filters:!((col:slice_name,opr:eq,value:'Births by gender over time')))");
  const line = JSON.parse((await okBody(await fetch(`${url}/api/v1/chart/?q=${q}`, { headers }))).toString()).result[0];
  if (!line) throw new Error('the examples have no line chart "Births by gender over time"');
  return line.id;
}

/**
 * For the tools that look into one page: a server on a fresh data directory with small examples (1,000 sales rows),
 * Chromium, a page signed in as admin (1440×900 unless given), and the examples' line chart's id; `close` stops them all.
 */
export async function examplesPage(viewport?: { width: number; height: number }): Promise<{ url: string; browser: Browser; page: Page; lineChartId: number; close: () => Promise<void> }> {
  const server = await startServer({ DATA_DIR: mkdtempSync(join(tmpdir(), 'mb-')), EXAMPLES_SALES_ROWS: '1000' });
  const browser = await launchChromium();
  const close = async () => {
    await browser.close();
    await server.stop();
  };
  try {
    const lineChartId = await examplesLineChartId(server.url, await adminHeaders(server.url));
    const page = await (await signedIn(browser, server.url, viewport)).newPage();
    return { url: server.url, browser, page, lineChartId, close };
  } catch (error) {
    await close();
    throw error;
  }
}
