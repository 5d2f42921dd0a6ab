import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { adminHeaders, okBody, report, rssMb, startServer } from './util';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 50);

interface Load {
  requests: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(opts: autocannon.Options): Promise<Load> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  return { requests: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

/** A bare node:http server answering a small JSON body, in its own process: the ceiling of this machine. */
async function bareServer(): Promise<{ url: string; stop: () => void }> {
  const code = `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"result":[]}'); }).listen(0, '127.0.0.1', function () { process.send(this.address().port); })`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(Number(p))));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/**
 * Issue 16's load figures: 50 clients for 30 s (BENCH_LOAD_CONNECTIONS, BENCH_LOAD_SECONDS) against chart data (a
 * grouped query run each time), SQL Lab execute and the charts list, each as requests/s and p99 against a bare
 * node:http server on the same machine; the errors (must be none) and the server's RSS before and after.
 */
export async function loadBench(): Promise<void> {
  const bare = await bareServer();
  const baseline = await load({ url: `${bare.url}/` });
  bare.stop();
  console.log(`bare node:http: ${baseline.requests.toFixed(0)} req/s, p99 ${baseline.p99} ms`);

  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-bench-load-'));
  const server = await startServer({ DATA_DIR: dataDir });
  try {
    const headers = await adminHeaders(server.url);
    const get = async (path: string) => JSON.parse((await okBody(await fetch(`${server.url}${path}`, { headers }))).toString());
    const dataset = (await get('/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).ids[0];
    const database = (await get('/api/v1/database/?q=(filters:!((col:database_name,opr:eq,value:examples)))')).ids[0];
    for (let i = 0; i < 20; i++) {
      await fetch(`${server.url}/api/v1/chart/`, { method: 'POST', headers, body: JSON.stringify({ slice_name: `Load ${i}`, viz_type: 'table', datasource_id: dataset, datasource_type: 'table', params: '{}' }) });
    }
    const pid = server.child.pid!;
    const startRss = rssMb(pid);
    const cases: Array<[string, autocannon.Options]> = [
      [
        'chart data (grouped query, never cached)',
        {
          url: `${server.url}/api/v1/chart/data`,
          method: 'POST',
          headers,
          body: JSON.stringify({ datasource: { id: dataset, type: 'table' }, queries: [{ columns: ['state'], metrics: ['sum__num'], orderby: [['sum__num', false]], row_limit: 50 }], result_format: 'json', result_type: 'full', force: true }),
        },
      ],
      [
        'SQL Lab execute (sync, 10 rows)',
        {
          url: `${server.url}/api/v1/sqllab/execute/`,
          method: 'POST',
          headers,
          // Each query gets its own client id, as each tab's run does.
          requests: [
            {
              setupRequest: (req) => ({ ...req, body: JSON.stringify({ database_id: database, sql: 'SELECT name, num FROM birth_names LIMIT 10', client_id: randomBytes(8).toString('base64url').slice(0, 11), runAsync: false }) }),
            },
          ],
        },
      ],
      ['charts list (GET /api/v1/chart/)', { url: `${server.url}/api/v1/chart/?q=(page_size:25)`, headers }],
    ];
    for (const [name, opts] of cases) {
      const before = rssMb(pid);
      const got = await load(opts);
      const after = rssMb(pid);
      report(`${name}: requests/s`, got.requests, baseline.requests, 'r/s');
      report(`${name}: p99 latency`, got.p99, Math.max(1, baseline.p99), 'ms');
      console.log(`  errors ${got.errors}, non-2xx ${got.non2xx}; server RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after`);
    }
    // Flat: a second run of the list after everything else, against the RSS after the first runs.
    const settled = rssMb(pid);
    await load(cases[2][1]);
    report('server RSS after another list run (flat = 1.00x)', rssMb(pid), settled, 'MB');
    report('server RSS at the end vs before the load', rssMb(pid), startRss, 'MB');
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
