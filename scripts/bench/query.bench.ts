import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { createPgDatabase } from '../../tests/helpers/pg';
import { median, percentile, report, startServer } from './util';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PAGE = 100_000;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text.slice(0, 300)}`);
  return text;
}

/** Rows in a results body, counted without parsing it: every row of `wide` is an object that starts with its id. */
function countRows(body: string): number {
  let n = 0;
  for (let i = body.indexOf('{"id":'); i >= 0; i = body.indexOf('{"id":', i + 6)) n++;
  return n;
}

/**
 * Issue 3's figures: (a) a 1M x 10 SELECT on PostgreSQL through execute + every results page,
 * against raw `pg` reading the same rows (medians of BENCH_RUNS runs each, the two alternating); (b) the server's peak
 * RSS during (a) against idle; (c) p99 of /health while 4 such queries run, against idle.
 *
 * Fair by construction: the server's query is not limited (queryLimit = SQL_MAX_ROW = the row
 * count), the first DISPLAY_MAX_ROW rows come with execute and every later page is fetched once,
 * and after timing the stored pages are read again and parsed to check that exactly the table's
 * rows (every id once) came back.
 */
export async function queryBench(): Promise<void> {
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
  const target = await createPgDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-bench-'));
  const setup = new pg.Client({ connectionString: target.url });
  await setup.connect();
  await setup.query(`CREATE TABLE wide AS SELECT g AS id, g * 2 AS a, (g % 1000)::float8 / 7 AS b, 'row ' || g AS c, md5(g::text) AS d,
    now() - (g || ' seconds')::interval AS e, g % 2 = 0 AS f, (g % 97)::numeric(10,2) AS h, 'x' || (g % 13) AS i, g::bigint * 1000003 AS j
    FROM generate_series(1, ${ROWS}) g`);
  await setup.query('VACUUM ANALYZE wide');
  await setup.end();
  const sql = 'SELECT * FROM wide';

  const server = await startServer({ DATA_DIR: dataDir, SQL_MAX_ROW: String(ROWS), DISPLAY_MAX_ROW: String(PAGE), SQLLAB_TIMEOUT: '600', LOAD_EXAMPLES: 'false' });
  try {
    const login = JSON.parse(await json(await fetch(`${server.url}/api/v1/security/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin', provider: 'db' }) })));
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` };
    const db = JSON.parse(await json(await fetch(`${server.url}/api/v1/database/`, { method: 'POST', headers, body: JSON.stringify({ database_name: 'bench', sqlalchemy_uri: target.url, expose_in_sqllab: true }) })));
    const page = (key: string, offset: number) => fetch(`${server.url}/api/v1/sqllab/results/?q=(key:'${key}',offset:${offset},rows:${PAGE})`, { headers }).then(json);

    /** Execute, then every page after the rows execute returned; resolves with the results key and the rows received. */
    const runOnce = async (clientId: string) => {
      const res = JSON.parse(await json(await fetch(`${server.url}/api/v1/sqllab/execute/`, { method: 'POST', headers, body: JSON.stringify({ client_id: clientId, database_id: db.id, sql, queryLimit: ROWS, runAsync: false }) })));
      if (res.status !== 'success' || res.query.limitingFactor !== 'NOT_LIMITED') throw new Error(`execute: status ${res.status}, limitingFactor ${res.query.limitingFactor}`);
      const key: string = res.query.resultsKey;
      const total: number = res.query.rows;
      let fetched: number = res.data.length;
      while (fetched < total) {
        const n = countRows(await page(key, fetched));
        if (n === 0) throw new Error(`empty page at offset ${fetched}`);
        fetched += n;
      }
      return { key, fetched };
    };

    // /health latency, sampled from a thread of its own so the load generator's work (reading and
    // counting 100k-row pages) never delays the samples: only the server's latency is measured.
    const healthTimes = async (until: Promise<unknown> | number) => {
      const sampler = new Worker(
        `const { parentPort, workerData } = require('node:worker_threads');
        let stop = false;
        parentPort.on('message', () => (stop = true));
        (async () => {
          const times = [];
          while (!stop && times.length < workerData.max) {
            const s = performance.now();
            await (await fetch(workerData.url)).text();
            times.push(performance.now() - s);
            await new Promise((r) => setTimeout(r, 10));
          }
          parentPort.postMessage(times);
        })();`,
        { eval: true, workerData: { url: `${server.url}/health`, max: typeof until === 'number' ? until : Infinity } },
      );
      const times = new Promise<number[]>((resolve, reject) => {
        sampler.once('message', resolve);
        sampler.once('error', reject);
      });
      if (typeof until !== 'number') until.then(() => sampler.postMessage('stop'), () => sampler.postMessage('stop'));
      const out = await times;
      await sampler.terminate();
      return out;
    };
    const idleHealth = await healthTimes(200);
    const idleRss = rssMb(server.child.pid!);

    // (a) + (b): raw driver and server runs alternate, so a noisy machine weighs on both alike.
    let peak = idleRss;
    const rawTimes: number[] = [];
    const meridianTimes: number[] = [];
    let firstKey = '';
    for (let i = 0; i < runs; i++) {
      const raw = new pg.Client({ connectionString: target.url });
      await raw.connect();
      const t0 = performance.now();
      const rawRows = (await raw.query(sql)).rowCount ?? 0;
      rawTimes.push(performance.now() - t0);
      await raw.end();
      if (rawRows !== ROWS) throw new Error(`raw driver read ${rawRows} rows, expected ${ROWS}`);

      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.child.pid!))), 25);
      const t1 = performance.now();
      const { key, fetched } = await runOnce(`bench${i}${Date.now() % 1e5}`.slice(0, 11));
      meridianTimes.push(performance.now() - t1);
      clearInterval(sampler);
      if (fetched !== ROWS) throw new Error(`fetched ${fetched} rows, raw driver ${rawRows}`);
      firstKey ||= key;
    }

    // Untimed check that the rows are the table's: every id exactly once.
    const seen = new Uint8Array(ROWS + 1);
    for (let offset = 0; offset < ROWS; ) {
      const rows = JSON.parse(await page(firstKey, offset)).data as { id: number }[];
      if (rows.length === 0) throw new Error(`no rows at offset ${offset}`);
      for (const row of rows) {
        if (!(row.id >= 1 && row.id <= ROWS) || seen[row.id]) throw new Error(`unexpected or repeated id ${row.id}`);
        seen[row.id] = 1;
      }
      offset += rows.length;
    }

    // (c) 4 such queries at once, /health sampled meanwhile.
    const busy = Promise.all([0, 1, 2, 3].map((i) => runOnce(`busy${i}${Date.now() % 1e5}`.slice(0, 11))));
    const busyHealth = await healthTimes(busy);
    for (const { fetched } of await busy) if (fetched !== ROWS) throw new Error(`busy query fetched ${fetched} rows`);

    const runsNote = runs > 1 ? `, median of ${runs}` : '';
    report(`(a) ${ROWS} x 10 SELECT, execute + every page${runsNote}`, median(meridianTimes), median(rawTimes), 'ms', '<= 1.5x');
    report('(b) server peak RSS during (a) vs idle', peak, idleRss, 'MB', `growth < 200 MB; growth was ${(peak - idleRss).toFixed(0)} MB`);
    report('(c) /health p99 while 4 such queries run vs idle', percentile(busyHealth, 99), percentile(idleHealth, 99), 'ms', '<= 3x');
  } finally {
    await server.stop();
    await target.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
