import { DuckDBInstance } from '@duckdb/node-api';
import type { UploadOptions } from '../types.ts';

/** The storage kind of an uploaded column, mapped to each engine's type by the table writer. */
export type ColumnKind = 'integer' | 'float' | 'boolean' | 'date' | 'timestamp' | 'text';

export interface FileColumn {
  name: string;
  kind: ColumnKind;
}

/** Receives a file's columns once, then its rows in batches (values as text or null); awaited for back-pressure. */
export interface RowHandler {
  columns(columns: FileColumn[]): Promise<void>;
  rows(batch: Array<Array<string | null>>): Promise<void>;
}

/** What `upload_metadata/` tells of a file: its column names, per sheet for a workbook. */
export interface FileMetadataItem {
  column_names: string[];
  sheet_name?: string;
}

const BATCH = 1000;
const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Pandas-style type names (`int`, `float64`, `str`, `datetime64[ns]`...) of `column_data_types`, as DuckDB types. */
function duckdbTypeOf(pandas: string): string {
  const t = pandas.toLowerCase();
  if (/^u?int/.test(t)) return 'BIGINT';
  if (/^float|^double|^decimal/.test(t)) return 'DOUBLE';
  if (/^bool/.test(t)) return 'BOOLEAN';
  if (/^datetime|^timestamp/.test(t)) return 'TIMESTAMP';
  if (/^date$/.test(t)) return 'DATE';
  return 'VARCHAR';
}

function kindOf(duckdbType: string): ColumnKind {
  const t = duckdbType.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/.test(t)) return 'integer';
  if (/^(FLOAT|DOUBLE|REAL)$|^DECIMAL/.test(t)) return 'float';
  if (t === 'BOOLEAN') return 'boolean';
  if (t === 'DATE') return 'date';
  if (/^TIMESTAMP/.test(t)) return 'timestamp';
  return 'text';
}

/**
 * The DuckDB table expression reading a CSV or columnar (Parquet) file with the upload's options, in
 * Superset's (pandas') terms: header_row counts the lines before the header, skip_rows lines before that,
 * an empty header_row means no header; null values, decimal character, day-first dates and column types.
 */
function sourceOf(path: string, o: UploadOptions): string {
  if (o.type === 'columnar') return `read_parquet(${literal(path)})`;
  const args = [`delim=${literal(o.delimiter ?? ',')}`, `header=${o.headerRow === null ? 'false' : 'true'}`, `skip=${(o.skipRows ?? 0) + (o.headerRow ?? 0)}`, 'sample_size=20480', 'strict_mode=false'];
  if (o.nullValues?.length) args.push(`nullstr=[${o.nullValues.map(literal).join(', ')}]`);
  if (o.decimalCharacter && o.decimalCharacter !== '.') args.push(`decimal_separator=${literal(o.decimalCharacter)}`);
  if (o.dayFirst) args.push(`dateformat='%d/%m/%Y'`);
  const types: Record<string, string> = {};
  for (const [column, type] of Object.entries(o.columnDataTypes ?? {})) types[column] = duckdbTypeOf(type);
  // Day-first date columns are read as text and parsed in the select (with or without a time of day).
  for (const column of o.columnDates ?? []) types[column] = o.dayFirst ? 'VARCHAR' : 'TIMESTAMP';
  if (Object.keys(types).length) args.push(`types={${Object.entries(types).map(([c, t]) => `${literal(c)}: ${literal(t)}`).join(', ')}}`);
  return `read_csv(${literal(path)}, ${args.join(', ')})`;
}

type Run = (sql: string) => Promise<{ names: string[]; rows: AsyncGenerator<Array<Array<string | null>>> }>;
type Plan = { columns: FileColumn[]; select: (asText: boolean) => string };

/** Runs `work` with a private in-memory DuckDB, the reader of CSV and Parquet files (it streams from disk). */
async function withDuckdb<T>(work: (run: Run) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const connection = await instance.connect();
  try {
    return await work(async (sql) => {
      const result = await connection.stream(sql);
      const names = result.columnNames();
      async function* chunks() {
        for (;;) {
          const chunk = await result.fetchChunk();
          if (!chunk || chunk.rowCount === 0) return;
          yield chunk.getRows().map((row) => row.map((v) => (v === null || v === undefined ? null : String(v))));
        }
      }
      return { names, rows: chunks() };
    });
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * How DuckDB reads a CSV or Parquet file for an upload: the columns that go into the table, and the SELECT
 * giving them (as text for other engines' INSERTs, or in their own types for a DuckDB table made from it).
 */
async function planWith(run: Run, path: string, o: UploadOptions): Promise<Plan> {
  const source = sourceOf(path, o);
  const described = await run(`DESCRIBE SELECT * FROM ${source}`);
  const all: FileColumn[] = [];
  for await (const batch of described.rows) for (const row of batch) all.push({ name: row[0]!, kind: kindOf(row[1]!) });
  const dates = new Set(o.columnDates ?? []);
  const columns = (o.columnsRead?.length ? o.columnsRead.map((name) => all.find((c) => c.name === name) ?? missingColumn(name)) : all).map((c) => (dates.has(c.name) ? { ...c, kind: 'timestamp' as const } : c));
  const select = (asText: boolean) => {
    const list = columns.map((c) => {
      const ref = `"${c.name.replaceAll('"', '""')}"`;
      const value = o.dayFirst && dates.has(c.name) ? `try_strptime(${ref}, ['%d/%m/%Y %H:%M:%S', '%d/%m/%Y %H:%M', '%d/%m/%Y'])` : ref;
      return `${asText ? `CAST(${value} AS VARCHAR)` : value} AS ${ref}`;
    });
    return `SELECT ${list.join(', ')} FROM ${source}${o.rowsToRead ? ` LIMIT ${o.rowsToRead}` : ''}`;
  };
  return { columns, select };
}

/** The plan alone, for a DuckDB database that reads the file itself. */
export function duckdbPlan(path: string, o: UploadOptions): Promise<Plan> {
  return withDuckdb((run) => planWith(run, path, o));
}

/** Writes the rows the table takes as a headerless CSV (nulls as \\N) with DuckDB; answers the columns and how many rows it wrote. */
export function exportCsv(path: string, o: UploadOptions, out: string): Promise<{ columns: FileColumn[]; rows: number }> {
  return withDuckdb(async (run) => {
    const plan = await planWith(run, path, o);
    const result = await run(`COPY (${plan.select(false)}) TO ${literal(out)} (FORMAT csv, HEADER false, NULLSTR '\\N')`);
    let rows = 0;
    for await (const batch of result.rows) rows = Number(batch[0]?.[0] ?? 0);
    return { columns: plan.columns, rows };
  });
}

async function readWithDuckdb(path: string, o: UploadOptions, handler: RowHandler): Promise<void> {
  await withDuckdb(async (run) => {
    const plan = await planWith(run, path, o);
    await handler.columns(plan.columns);
    const data = await run(plan.select(true));
    for await (const batch of data.rows) await handler.rows(batch);
  });
}

function missingColumn(name: string): never {
  throw new UploadFileError(`Column "${name}" is not in the file`);
}

/** A problem with the file itself (not the database): answered as the upload's 400/422 message. */
export class UploadFileError extends Error {}

/** An Excel cell as text: dates as `YYYY-MM-DD HH:MM:SS`, formulas by their result, rich text joined. */
function cellText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace(/\.000Z$|Z$/, '');
  if (typeof value === 'object') {
    const v = value as { result?: unknown; richText?: Array<{ text: string }>; text?: string; error?: string };
    if ('result' in v) return cellText(v.result);
    if (v.richText) return v.richText.map((r) => r.text).join('');
    if (v.text !== undefined) return String(v.text);
    if (v.error) return null;
  }
  return String(value);
}

/** The kind that holds every sampled value of a column (text when they disagree). */
function inferKind(values: Array<unknown>): ColumnKind {
  const present = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (!present.length) return 'text';
  if (present.every((v) => v instanceof Date)) return 'timestamp';
  if (present.every((v) => typeof v === 'boolean')) return 'boolean';
  if (present.every((v) => typeof v === 'number')) return present.every((v) => Number.isInteger(v)) ? 'integer' : 'float';
  return 'text';
}

const SAMPLE = 1000;

/** Reads a workbook's sheet row by row (exceljs' streaming reader); column kinds from the first rows. */
async function readExcel(path: string, o: UploadOptions, handler: RowHandler): Promise<void> {
  const ExcelJS = (await import('exceljs')).default;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit' });
  let sheetIndex = 0;
  let found = false;
  for await (const worksheet of reader) {
    const name = (worksheet as unknown as { name: string }).name;
    sheetIndex++;
    if (o.sheetName ? name !== o.sheetName : sheetIndex > 1) continue;
    found = true;
    let line = 0;
    let header: string[] | null = null;
    let columns: FileColumn[] | null = null;
    let picked: number[] = [];
    const sample: unknown[][] = [];
    let batch: Array<Array<string | null>> = [];
    let count = 0;
    const headerAt = (o.skipRows ?? 0) + (o.headerRow ?? 0);
    const start = async () => {
      const width = Math.max(header?.length ?? 0, ...sample.map((r) => r.length));
      const names = Array.from({ length: width }, (_, i) => header?.[i] || `column${i}`);
      picked = o.columnsRead?.length ? o.columnsRead.map((n) => (names.includes(n) ? names.indexOf(n) : missingColumn(n))) : names.map((_, i) => i);
      columns = picked.map((i) => ({ name: names[i]!, kind: o.columnDates?.includes(names[i]!) ? 'timestamp' : inferKind(sample.map((r) => r[i])) }));
      await handler.columns(columns);
      for (const row of sample) batch.push(picked.map((i) => cellText(row[i])));
      sample.length = 0;
    };
    for await (const row of worksheet as AsyncIterable<{ number: number; values: unknown[] }>) {
      // exceljs skips empty rows: count by the row's own number.
      line = row.number - 1;
      const values = (row.values as unknown[]).slice(1).map((v) => (v && typeof v === 'object' && !(v instanceof Date) && 'result' in (v as object) ? (v as { result: unknown }).result : v));
      if (line < headerAt) continue;
      if (o.headerRow !== null && line === headerAt) {
        header = values.map((v) => cellText(v) ?? '');
        continue;
      }
      if (o.rowsToRead && count >= o.rowsToRead) break;
      count++;
      if (!columns) {
        sample.push(values);
        if (sample.length >= SAMPLE) await start();
        continue;
      }
      batch.push(picked.map((i) => cellText(values[i])));
      if (batch.length >= BATCH) {
        await handler.rows(batch);
        batch = [];
      }
    }
    if (!columns) await start();
    if (batch.length) await handler.rows(batch);
    break;
  }
  if (!found) throw new UploadFileError(o.sheetName ? `Sheet "${o.sheetName}" is not in the workbook` : 'The workbook has no sheet');
}

/** Reads an uploaded file (CSV, Excel or Parquet) into the handler, streaming: the file is never held whole. */
export async function readUploadFile(path: string, o: UploadOptions, handler: RowHandler): Promise<void> {
  if (o.type === 'excel') return readExcel(path, o, handler);
  return readWithDuckdb(path, o, handler);
}

/** The column names of a file (each sheet's, for a workbook), for `upload_metadata/`. */
export async function describeUploadFile(path: string, o: Pick<UploadOptions, 'type' | 'delimiter' | 'headerRow'>): Promise<FileMetadataItem[]> {
  if (o.type === 'excel') {
    const ExcelJS = (await import('exceljs')).default;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', worksheets: 'emit' });
    const items: FileMetadataItem[] = [];
    for await (const worksheet of reader) {
      let names: string[] = [];
      for await (const row of worksheet as AsyncIterable<{ number: number; values: unknown[] }>) {
        if (row.number - 1 < (o.headerRow ?? 0)) continue;
        names = (row.values as unknown[]).slice(1).map((v, i) => cellText(v) ?? `column${i}`);
        break;
      }
      items.push({ sheet_name: (worksheet as unknown as { name: string }).name, column_names: names });
    }
    return items;
  }
  return withDuckdb(async (run) => {
    const described = await run(`DESCRIBE SELECT * FROM ${sourceOf(path, { ...o, skipRows: 0 } as UploadOptions)}`);
    const names: string[] = [];
    for await (const batch of described.rows) for (const row of batch) names.push(row[0]!);
    return [{ column_names: names }];
  });
}
