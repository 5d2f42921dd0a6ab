#!/usr/bin/env node
// Builds the server into server/dist with esbuild: one ES module per entry point (the web process, the
// worker process, the query threads, the isolated query child and the examples builder), with Meridian's
// own packages inlined, and with them the plain-JavaScript libraries made of many small modules (loading
// kysely's or zod's hundreds of files costs more of a start than reading them from one bundle). Every other
// package stays external (native code, files read at run time, worker threads, or a class another external
// package checks), imported by the absolute path it resolves to from the file that imports it: pnpm gives
// each workspace package its own node_modules, so a bundle in server/dist could not find them by name.
import { build } from 'esbuild';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'server/dist');
const entries = {
  main: 'server/src/main.ts',
  'worker-main': 'server/src/worker-main.ts',
  worker: 'query-worker/src/worker.ts',
  'isolated-child': 'query-worker/src/isolated-child.ts',
  'build-examples': 'server/src/database/build-examples.ts',
};
const sources = ['server/src', 'query-worker/src', 'contracts/src', 'migrations', 'pnpm-lock.yaml'].map((p) => join(root, p));

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) t = Math.max(t, newest(join(path, entry.name)));
  return t;
}

/** True when a bundle is missing or older than a source it is built from. */
export function serverBuildStale() {
  const built = Object.keys(entries).map((name) => join(outdir, `${name}.js`));
  if (!built.every(existsSync)) return true;
  const oldest = Math.min(...built.map((f) => statSync(f).mtimeMs));
  return Math.max(...sources.map(newest)) > oldest;
}

/** Inlined into the bundles: pure JavaScript, no files read beside their modules, no instance checked by an external package. */
const INLINED = new Set(['zod', 'kysely', 'kysely-pglite-dialect', 'jose', 'yaml', 'cron-parser', 'cronstrue', 'rison', 'lossless-json', 'ipaddr.js', '@trpc/server', 'jszip', 'csv-stringify', 'nodemailer']);
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

const externalByPath = {
  name: 'external-by-path',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('node:') || args.path.startsWith('@meridian/') || args.pluginData === 'resolving') return undefined;
      // A library inlined stays inlined with everything it imports (its own dependencies included).
      if (INLINED.has(packageOf(args.path)) || args.importer.includes('/node_modules/')) return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
      if (resolved.errors.length) return { errors: resolved.errors };
      // Node built-ins come back unresolved (no path on disk): keep them by name.
      if (!resolved.path.startsWith('/')) return { path: args.path, external: true };
      return { path: pathToFileURL(resolved.path).href, external: true };
    });
  },
};

export async function buildServer() {
  await build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [externalByPath],
    // ESM output of CommonJS-style code that calls require() (createRequire is the way in ESM).
    banner: { js: "import { createRequire as __meridianCreateRequire } from 'node:module'; const require = __meridianCreateRequire(import.meta.url);" },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = Date.now();
  await buildServer();
  console.log(`server built into server/dist in ${Date.now() - t0} ms`);
}
