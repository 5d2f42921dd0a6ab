#!/usr/bin/env node
// Runs the whole suite: builds the client for the browser tests, runs vitest over every package,
// and ends with one plain summary line ("N passed, N failed, N skipped") that CI reads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules/.bin', name);

if (!existsSync('/usr/bin/chromium')) {
  console.error('Chromium is missing: browser tests need Debian\'s chromium (apt-get install -y chromium). They will fail.');
}
const build = spawnSync(join(root, 'client/node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: join(root, 'client'), stdio: 'inherit' });
if (build.status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// Type errors anywhere in the workspace fail the run (counted as one failure; the tests still run).
const typecheck = spawnSync(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
console.log(typecheck.status === 0 ? 'typecheck: no errors' : 'typecheck: FAILED');

mkdirSync(join(root, 'test-results'), { recursive: true });

/** One vitest run with a JSON report; returns its counts (a file that fails to load counts as one failure). */
function vitest(name, files, env = {}) {
  const report = join(root, `test-results/${name}.json`);
  const args = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...files];
  const run = spawnSync(bin('vitest'), args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', ...env } });
  const counts = { passed: 0, failed: 0, skipped: 0 };
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    const brokenFiles = (json.testResults ?? []).filter((file) => file.status === 'failed' && !(file.assertionResults ?? []).length).length;
    counts.passed = json.numPassedTests;
    counts.failed = json.numFailedTests + brokenFiles;
    counts.skipped = json.numPendingTests + json.numTodoTests;
  }
  if (run.status !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

const runs = [vitest('vitest', process.argv.slice(2))];
// The SQL Lab and database REST suites run a second time with the metadata store on the real PostgreSQL
// (the foundation suite covers both stores in one run).
if (process.argv.length <= 2) {
  runs.push(vitest('vitest-metadata-postgres', ['tests/rest/sqllab.test.ts', 'tests/rest/database.test.ts', 'tests/rest/sqllab.lifecycle.test.ts'], { SQLLAB_METADATA: 'postgres' }));
}
let passed = 0, failed = 0, skipped = 0;
for (const r of runs) {
  passed += r.passed;
  failed += r.failed;
  skipped += r.skipped;
}
if (typecheck.status !== 0) failed += 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
