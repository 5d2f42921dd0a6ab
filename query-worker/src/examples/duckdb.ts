// Builds the `examples` DuckDB database file.

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance, timestampValue } from '@duckdb/node-api';
import { generateBigIds } from './bigIds';
import { generateBirthNames } from './birthNames';
import { type BuildExamplesOptions, type ExampleCell, type ExampleColumn, type ExamplesBuildResult, type GeneratedTable, quoteIdent } from './model';
import { DEFAULT_SALES_ROWS, SALES_COLUMNS, SALES_TABLE, salesSelectSql } from './sales';
import { generateWorldBank } from './worldBank';

function duckType(c: ExampleColumn): string {
  return c.type; // BIGINT, DOUBLE, VARCHAR, TIMESTAMP are native DuckDB names
}

function createTableSql(name: string, columns: ExampleColumn[]): string {
  return `CREATE OR REPLACE TABLE ${quoteIdent(name)} (${columns.map((c) => `${quoteIdent(c.name)} ${duckType(c)}`).join(', ')})`;
}

function appendCell(appender: DuckDBAppender, column: ExampleColumn, v: ExampleCell): void {
  if (v === null) return appender.appendNull();
  switch (column.type) {
    case 'BIGINT':
      return appender.appendBigInt(typeof v === 'bigint' ? v : BigInt(v as number));
    case 'DOUBLE':
      return appender.appendDouble(v as number);
    case 'VARCHAR':
      return appender.appendVarchar(String(v));
    case 'TIMESTAMP':
      return appender.appendTimestamp(timestampValue(BigInt(v as number) * 1000n));
  }
}

async function loadGenerated(conn: DuckDBConnection, table: GeneratedTable): Promise<void> {
  await conn.run(createTableSql(table.name, table.columns));
  const appender = await conn.createAppender(table.name);
  try {
    for (const row of table.rows) {
      for (let c = 0; c < table.columns.length; c++) appendCell(appender, table.columns[c], row[c]);
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

async function count(conn: DuckDBConnection, table: string): Promise<number> {
  const reader = await conn.runAndReadAll(`SELECT count(*) AS n FROM ${quoteIdent(table)}`);
  return Number(reader.getRows()[0][0]);
}

/**
 * Creates (or replaces) the example tables in the DuckDB file at `path`. Idempotent: each table is
 * re-created with identical content on every run; other tables in the file are left alone.
 * The instance is obtained through DuckDB's in-process instance cache, so it is shared with any
 * other user of the same file in this process and is not closed here.
 */
export async function buildExamplesDuckDb(path: string, opts: BuildExamplesOptions = {}): Promise<ExamplesBuildResult> {
  const salesRows = opts.salesRows ?? DEFAULT_SALES_ROWS;
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const instance = await DuckDBInstance.fromCache(path);
  const conn = await instance.connect();
  try {
    await conn.run('SET autoinstall_known_extensions = false');
    await conn.run('SET autoload_known_extensions = false');

    const tables: { name: string; rows: number }[] = [];
    const step = async (name: string, load: () => Promise<void>) => {
      await conn.run('BEGIN TRANSACTION');
      try {
        await load();
        await conn.run('COMMIT');
      } catch (e) {
        await conn.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
      tables.push({ name, rows: await count(conn, name) });
    };
    for (const table of [generateBirthNames(), generateWorldBank()]) await step(table.name, () => loadGenerated(conn, table));
    await step(SALES_TABLE, async () => {
      await conn.run(createTableSql(SALES_TABLE, SALES_COLUMNS));
      await conn.run(`INSERT INTO ${quoteIdent(SALES_TABLE)} ${salesSelectSql('duckdb', salesRows)}`);
    });
    const bigIds = generateBigIds();
    await step(bigIds.name, () => loadGenerated(conn, bigIds));

    // Fold the WAL into the database file so other processes opening it see everything.
    await conn.run('CHECKPOINT');
    return { tables };
  } finally {
    conn.disconnectSync();
  }
}
