import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** A port nothing listens on now (the server is told it through PORT, as an operator would). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

export interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Builds the server into server/dist (scripts/build-server.mjs), as `pnpm start` does before it starts it. */
export function buildServer(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-server.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

/** Spawns node with `args` from the project root, keeps its output, and resolves once `ready()` says so (it fails if the process exits first). */
async function spawnUntil(what: string, args: string[], env: NodeJS.ProcessEnv, ready: (output: string) => Promise<boolean>, limitMs: number): Promise<Omit<Running, 'url'>> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  const start = Date.now();
  while (!(await ready(output))) {
    if (gone) throw new Error(`the ${what} exited before it was ready:\n${output}`);
    if (Date.now() - start > limitMs) {
      child.kill('SIGKILL');
      throw new Error(`gave up waiting for the ${what}:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => output, exited };
}

/**
 * Starts the server and waits until /health answers: `server/src/main.ts` under tsx, or with `built`
 * the bundle `pnpm start` runs (`server/dist/main.js`, see buildServer).
 */
export async function startServer(dataDir: string, env: Record<string, string> = {}, opts: { built?: boolean } = {}): Promise<Running> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const entry = opts.built ? [join(ROOT, 'server/dist/main.js')] : ['--import', 'tsx', join(ROOT, 'server/src/main.ts')];
  const env0 = { NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOAD_EXAMPLES: 'true', EXAMPLES_SALES_ROWS: '2000', LOG_LEVEL: 'warn', WORKER_POOL_SIZE: '1' };
  const healthy = async () => {
    const health = await fetch(`${url}/health`).catch(() => null);
    return health?.status === 200 && (await health.text()) === 'OK';
  };
  return { ...(await spawnUntil('server', entry, { ...process.env, ...env0, ...env }, healthy, 150_000)), url };
}

/** Starts `meridian worker` (server/src/worker-main.ts) under tsx and waits until it takes jobs. */
export function startWorker(env: Record<string, string>): Promise<Omit<Running, 'url'>> {
  const args = ['--import', 'tsx', join(ROOT, 'server/src/worker-main.ts')];
  return spawnUntil('worker', args, { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', WORKER_POOL_SIZE: '2', ...env }, async (output) => output.includes('is taking jobs'), 120_000);
}

export async function login(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/v1/security/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin', provider: 'db' }) });
  expect(res.status).toBe(200);
  const { access_token } = (await res.json()) as { access_token: string };
  return { Authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
}

