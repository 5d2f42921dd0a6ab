#!/usr/bin/env node
// Starts Meridian on the embedded default: builds the client and the server when their sources changed,
// then runs the built server (which migrates, seeds roles and the admin, loads the examples on first start
// and serves). `node scripts/start.mjs worker` (`pnpm worker`) runs a worker process instead.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'client/dist/index.html');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const worker = process.argv[2] === 'worker';
const args = process.argv.slice(worker ? 3 : 2);
const { buildServer, serverBuildStale } = await import('./build-server.mjs');
if (serverBuildStale()) {
  console.log('Building the server...');
  await buildServer();
}

const clientSources = [join(root, 'client/src'), join(root, 'contracts/src')];
const stale = !existsSync(dist) || Math.max(...clientSources.map(newest), statSync(join(root, 'client/index.html')).mtimeMs) > statSync(dist).mtimeMs;
if (stale && !worker) {
  console.log('Building the client...');
  const built = spawnSync('pnpm', ['--filter', '@meridian/client', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (built.status !== 0) {
    // pnpm may not be on PATH when started through npx; fall back to the local vite binary.
    const viaVite = spawnSync(join(root, 'client/node_modules/.bin/vite'), ['build'], { cwd: join(root, 'client'), stdio: 'inherit' });
    if (viaVite.status !== 0) process.exit(viaVite.status ?? 1);
  }
}

const server = spawn(process.execPath, ['--enable-source-maps', join(root, worker ? 'server/dist/worker-main.js' : 'server/dist/main.js'), ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
