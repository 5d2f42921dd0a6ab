import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { adminHeaders, okBody, report, startServer } from './util';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);

/** Writes a CSV of about `mb` megabytes (id, name, amount, day) without holding it in memory. */
async function writeCsv(path: string, mb: number): Promise<number> {
  const out = createWriteStream(path);
  out.write('id,name,amount,day\n');
  let rows = 0;
  while (out.bytesWritten + out.writableLength < mb * MB) {
    let chunk = '';
    for (let i = 0; i < 5000; i++, rows++) chunk += `${rows},customer ${rows % 9973},${(rows % 100000) / 100},2024-${String((rows % 12) + 1).padStart(2, '0')}-${String((rows % 28) + 1).padStart(2, '0')}\n`;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  return rows;
}

/** The process's resident memory now and at its peak since the last reset, in MB (Linux /proc). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * Issue 14's upload figures: a ~200 MB CSV through POST /api/v1/database/{pk}/upload/ into a DuckDB
 * database, streamed from disk by the client. The server's peak memory growth during the upload is set
 * against the file's size (streaming keeps it far below 1x), and the upload's time against DuckDB reading
 * the same file into a table directly in this process.
 */
export async function uploadBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-bench-upload-'));
  try {
    const file = join(dir, 'big.csv');
    const rows = await writeCsv(file, SIZE_MB);
    const fileMb = statSync(file).size / MB;
    console.log(`CSV of ${fileMb.toFixed(0)} MB, ${rows} rows`);

    // Baseline: DuckDB reads the file into a table in this process.
    const instance = await DuckDBInstance.create(join(dir, 'direct.duckdb'));
    const connection = await instance.connect();
    let t = performance.now();
    await connection.run(`CREATE TABLE direct AS SELECT * FROM read_csv('${file}')`);
    const directMs = performance.now() - t;
    connection.closeSync();
    instance.closeSync();

    const server = await startServer({ DATA_DIR: join(dir, 'data'), LOAD_EXAMPLES: 'false' });
    try {
      const headers = await adminHeaders(server.url);
      const db = JSON.parse((await okBody(await fetch(`${server.url}/api/v1/database/`, { method: 'POST', headers, body: JSON.stringify({ database_name: 'uploads', sqlalchemy_uri: `duckdb:///${join(dir, 'uploads.duckdb')}`, allow_file_upload: true }) }))).toString()).id;
      const pid = server.child.pid!;
      // Taking the file in (upload_metadata/ receives it whole, then reads only its header): what the server
      // holds of the file itself. Each peak (VmHWM) is reset first so it measures that call alone.
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      const idle = memory(pid);
      const meta = new FormData();
      meta.append('type', 'csv');
      meta.append('file', await openAsBlob(file), 'big.csv');
      await okBody(await fetch(`${server.url}/api/v1/database/upload_metadata/`, { method: 'POST', headers: { authorization: headers.authorization }, body: meta }));
      report('take a CSV in (upload_metadata/): server peak memory growth vs file size', Math.max(0, memory(pid).peak - idle.rss), fileMb, 'MB', '<< 1x (streamed to disk)');
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      const before = memory(pid);
      const form = new FormData();
      form.append('type', 'csv');
      form.append('table_name', 'big');
      form.append('file', await openAsBlob(file), 'big.csv');
      t = performance.now();
      await okBody(await fetch(`${server.url}/api/v1/database/${db}/upload/`, { method: 'POST', headers: { authorization: headers.authorization }, body: form }));
      const uploadMs = performance.now() - t;
      const after = memory(pid);
      // DuckDB builds the new table in the server's process: its buffers count here, not the file.
      report('upload a CSV into DuckDB: server peak memory growth vs file size', Math.max(0, after.peak - before.rss), fileMb, 'MB');
      report('upload a CSV: time vs DuckDB read_csv into a table', uploadMs, directMs, 'ms');

      // Into PostgreSQL (COPY FROM STDIN fed from DuckDB's reading of the file), against psql's \copy of the
      // same file into the same table by the raw driver.
      const adminUrl = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
      const name = `meridian_bench_upload_${process.pid}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name}`);
      const pgUrl = adminUrl.replace(/\/[^/]*$/, `/${name}`);
      try {
        const raw = new pg.Client({ connectionString: pgUrl });
        await raw.connect();
        await raw.query('CREATE TABLE direct (id BIGINT, name TEXT, amount DOUBLE PRECISION, day DATE)');
        await raw.end();
        t = performance.now();
        const copied = spawnSync('psql', [pgUrl, '-v', 'ON_ERROR_STOP=1', '-c', `\\copy direct FROM '${file}' (FORMAT csv, HEADER true)`], { encoding: 'utf8' });
        const rawMs = performance.now() - t;
        if (copied.status !== 0) throw new Error(`psql: ${copied.stderr}`);
        const pgDb = JSON.parse((await okBody(await fetch(`${server.url}/api/v1/database/`, { method: 'POST', headers, body: JSON.stringify({ database_name: 'pg uploads', sqlalchemy_uri: pgUrl, allow_file_upload: true }) }))).toString()).id;
        const toPg = new FormData();
        toPg.append('type', 'csv');
        toPg.append('table_name', 'big');
        toPg.append('schema', 'public');
        toPg.append('file', await openAsBlob(file), 'big.csv');
        t = performance.now();
        await okBody(await fetch(`${server.url}/api/v1/database/${pgDb}/upload/`, { method: 'POST', headers: { authorization: headers.authorization }, body: toPg }));
        report('upload a CSV into PostgreSQL: time vs raw COPY of the file', performance.now() - t, rawMs, 'ms');
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
