// Builds the examples DuckDB file in its own process: `tsx build-examples.ts <target> [salesRows]` (built: `node build-examples.js`).
// Run apart from the server so no thread of the server keeps the file open while the pool's
// workers use it. The file is built under a temporary name, checkpointed and closed, then renamed.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildExamplesDuckDb } from '@meridian/query-worker/examples/index';
import { ROOT_DIR } from '../config';

// DuckDB is the query worker's dependency: resolved from its package (also from the built server).
const workerRequire = createRequire(join(ROOT_DIR, 'query-worker/package.json'));
const { DuckDBInstance } = workerRequire('@duckdb/node-api') as typeof import('@duckdb/node-api');

const [target, salesRows] = process.argv.slice(2);
const tmp = `${target}.building`;
rmSync(tmp, { force: true });
rmSync(`${tmp}.wal`, { force: true });
const result = await buildExamplesDuckDb(tmp, salesRows ? { salesRows: Number(salesRows) } : {});
const instance = await DuckDBInstance.fromCache(tmp);
const connection = await instance.connect();
await connection.run('CHECKPOINT');
connection.closeSync();
instance.closeSync();
if (existsSync(`${tmp}.wal`)) throw new Error('The examples database still has a write-ahead log after CHECKPOINT');
renameSync(tmp, target);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
