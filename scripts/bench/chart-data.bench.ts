import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { adminHeaders, median, okBody, report, startServer } from './util';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

/** Milliseconds of the server's own time, from its Server-Timing header (`app;dur=12.3`). */
let lastServerMs = 0;

async function call(url: string, init: RequestInit) {
  const res = await fetch(url, init);
  const text = (await okBody(res)).toString();
  lastServerMs = Number(/app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  return JSON.parse(text);
}

/**
 * Issue 5's figures, on the 1M-row cleaned_sales_data examples table: a grouped monthly time
 * series through POST /api/v1/chart/data (force, so never cached), the server's time for it (its
 * Server-Timing header) against the same generated SQL run directly on DuckDB in this process
 * (target ratio <= 1.2), with the client's round trip beside it; and a cache hit against a miss.
 */
export async function chartDataBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-bench-cd-'));
  const t0 = performance.now();
  const server = await startServer({ DATA_DIR: dataDir });
  console.log(`server with examples ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  try {
    const headers = await adminHeaders(server.url);
    const list = await call(`${server.url}/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:cleaned_sales_data)))`, { headers });
    const datasetId = list.ids[0];
    const query = {
      columns: [{ label: 'order_date', sqlExpression: 'order_date', columnType: 'BASE_AXIS', timeGrain: 'P1M' }, 'product_line'],
      metrics: ['sum__sales', 'count'],
      orderby: [[{ label: 'order_date', sqlExpression: 'order_date' }, true]],
      row_limit: 10000,
    };
    const body = (extra: Record<string, unknown>) => JSON.stringify({ datasource: { id: datasetId, type: 'table' }, queries: [query], result_format: 'json', ...extra });
    const sql = (await call(`${server.url}/api/v1/chart/data`, { method: 'POST', headers, body: body({ result_type: 'query' }) })).result[0].query as string;

    // Baseline: the same SQL on a copy of the examples file (the server holds the original), rows read into JS.
    const copy = join(dataDir, 'direct.duckdb');
    copyFileSync(join(dataDir, 'examples.duckdb'), copy);
    const instance = await DuckDBInstance.create(copy);
    const connection = await instance.connect();
    // Direct and served runs alternate, so a noisy machine weighs on both alike; the first two of each warm up.
    const direct: number[] = [];
    const served: number[] = [];
    const serverTime: number[] = [];
    let directRows = 0;
    let servedRows = 0;
    for (let i = 0; i < RUNS + 2; i++) {
      let t = performance.now();
      const reader = await connection.runAndReadAll(sql);
      directRows = reader.getRowObjectsJson().length;
      if (i >= 2) direct.push(performance.now() - t);

      t = performance.now();
      const res = await call(`${server.url}/api/v1/chart/data`, { method: 'POST', headers, body: body({ result_type: 'full', force: true }) });
      servedRows = res.result[0].rowcount;
      if (i >= 2) served.push(performance.now() - t);
      if (i >= 2) serverTime.push(lastServerMs);
    }
    connection.closeSync();
    if (servedRows !== directRows) throw new Error(`row counts differ: server ${servedRows}, direct ${directRows}`);
    // The figure is server time (the Server-Timing header: request in to response out);
    // the round trip adds this client's HTTP (fetch, TCP, JSON parse), printed beside it.
    report(`chart data monthly series (${servedRows} of 1M rows), server time`, median(serverTime), median(direct), 'ms', '<= 1.2');
    report('  the same, HTTP round trip seen by the client', median(served), median(direct), 'ms');

    const misses: number[] = [];
    const hits: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const variant = { ...query, row_limit: 10000 - i - 1 };
      const b = JSON.stringify({ datasource: { id: datasetId, type: 'table' }, queries: [variant], result_format: 'json', force: false });
      let t = performance.now();
      await call(`${server.url}/api/v1/chart/data`, { method: 'POST', headers, body: b });
      misses.push(performance.now() - t);
      t = performance.now();
      const hit = await call(`${server.url}/api/v1/chart/data`, { method: 'POST', headers, body: b });
      if (!hit.result[0].is_cached) throw new Error('expected a cache hit');
      hits.push(performance.now() - t);
    }
    report('chart data cache hit vs miss', median(hits), median(misses), 'ms');
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
