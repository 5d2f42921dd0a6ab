import { getEngineSpec } from '../engines/registry.ts';
import { supersetError, taskFailure } from '../engines/errors.ts';
import type { UploadMetadataResult, UploadMetadataTask, UploadResult, UploadTask } from '../types.ts';
import { rm } from 'node:fs/promises';
import { describeUploadFile, duckdbPlan, exportCsv, readUploadFile, UploadFileError } from './file-reader.ts';
import { TableWriter } from './table-writer.ts';

/** DuckDB's complaints about reading a CSV or Parquet file: the file's problems, not the database's. */
const isFileProblem = (error: unknown) => /CSV Error|Conversion Error|Could not convert|parquet|Invalid Input Error/i.test(error instanceof Error ? error.message : String(error));

/** Superset's words when the table exists and the upload says `fail`. */
export const TABLE_EXISTS = "Table already exists. You can change your 'if table already exists' strategy to append or replace or provide a different Table Name to use.";

const fileProblem = (error: unknown) => taskFailure(supersetError('GENERIC_COMMAND_ERROR', `Parsing error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, null));

/**
 * Loads an uploaded file into a table, streaming it in batches. A new or replaced table is written under a
 * staging name and renamed at the end, so a file that fails half way leaves the old table as it was; an
 * append runs in one transaction.
 */
export async function uploadFile(task: UploadTask): Promise<UploadResult> {
  const spec = getEngineSpec(task.uri);
  const o = task.options;
  let connection;
  try {
    connection = await spec.connect({ uri: task.uri, catalog: task.catalog });
  } catch (error) {
    return taskFailure(spec.mapError(error, 'connect', task));
  }
  const staging = `${o.tableName}__upload_${process.pid}_${Date.now().toString(36)}`;
  let phase: 'file' | 'database' = 'database';
  let writer: TableWriter | null = null;
  let began = false;
  try {
    const exists = (await connection.listTables(o.schema)).some((t) => t.name === o.tableName);
    if (exists && o.alreadyExists === 'fail') return taskFailure(supersetError('GENERIC_COMMAND_ERROR', TABLE_EXISTS, spec.engineName));
    const append = exists && o.alreadyExists === 'append';
    writer = new TableWriter(spec, connection, { schema: o.schema, name: append ? o.tableName : staging }, append ? 'append' : 'create');
    if (append) {
      await connection.execute('BEGIN');
      began = true;
    }
    const columns: string[] = [];
    phase = 'file';
    if (spec.backend === 'duckdb' && o.type !== 'excel') {
      // DuckDB reads the file into the table itself: no rows pass through JavaScript.
      const plan = await duckdbPlan(task.file, o);
      phase = 'database';
      columns.push(...plan.columns.map((c) => c.name));
      try {
        writer.rows = await writer.fill(plan.columns, plan.select(false));
      } catch (error) {
        if (isFileProblem(error)) phase = 'file';
        throw error;
      }
    } else if (spec.backend === 'postgresql' && o.type !== 'excel') {
      // DuckDB writes the rows the table takes as CSV, which COPY streams in: no rows through JavaScript.
      const csv = `${task.file}.rows.csv`;
      try {
        const written = await exportCsv(task.file, o, csv);
        columns.push(...written.columns.map((c) => c.name));
        writer.rows = written.rows;
        phase = 'database';
        await writer.fillFromCsv(written.columns, csv);
      } finally {
        await rm(csv, { force: true });
      }
    } else await readUploadFile(task.file, o, {
      columns: async (cols) => {
        phase = 'database';
        columns.push(...cols.map((c) => c.name));
        await writer!.start(cols);
        phase = 'file';
      },
      rows: async (batch) => {
        phase = 'database';
        await writer!.insert(batch);
        phase = 'file';
      },
    });
    phase = 'database';
    await writer.finish();
    const q = spec.quoteIdentifier;
    if (append) await connection.execute('COMMIT');
    else {
      if (exists) await connection.execute(`DROP TABLE ${o.schema ? `${q(o.schema)}.` : ''}${q(o.tableName)}`);
      await connection.execute(`ALTER TABLE ${o.schema ? `${q(o.schema)}.` : ''}${q(staging)} RENAME TO ${q(o.tableName)}`);
    }
    return { ok: true, rows: writer.rows, columns };
  } catch (error) {
    await writer?.abort();
    if (began) await connection.execute('ROLLBACK').catch(() => undefined);
    else if (writer) await connection.execute(`DROP TABLE IF EXISTS ${o.schema ? `${spec.quoteIdentifier(o.schema)}.` : ''}${spec.quoteIdentifier(staging)}`).catch(() => undefined);
    if (error instanceof UploadFileError || phase === 'file') return fileProblem(error);
    return taskFailure(spec.mapError(error, 'query', task));
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** `upload_metadata/`: the file's column names (per sheet for a workbook). */
export async function uploadMetadata(task: UploadMetadataTask): Promise<UploadMetadataResult> {
  try {
    return { ok: true, items: await describeUploadFile(task.file, task.options) };
  } catch (error) {
    return fileProblem(error);
  }
}
