import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { EngineConnection, EngineSpec } from '../engines/engine-spec.ts';
import { isPostgresConnection } from '../engines/postgres.ts';
import type { ColumnKind, FileColumn } from './file-reader.ts';

/** Each engine's column type for an uploaded column kind. */
const TYPES: Record<string, Record<ColumnKind, string>> = {
  postgresql: { integer: 'BIGINT', float: 'DOUBLE PRECISION', boolean: 'BOOLEAN', date: 'DATE', timestamp: 'TIMESTAMP', text: 'TEXT' },
  mysql: { integer: 'BIGINT', float: 'DOUBLE', boolean: 'BOOLEAN', date: 'DATE', timestamp: 'DATETIME(6)', text: 'TEXT' },
  duckdb: { integer: 'BIGINT', float: 'DOUBLE', boolean: 'BOOLEAN', date: 'DATE', timestamp: 'TIMESTAMP', text: 'VARCHAR' },
  sqlite: { integer: 'INTEGER', float: 'REAL', boolean: 'BOOLEAN', date: 'DATE', timestamp: 'TIMESTAMP', text: 'TEXT' },
};

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** One value as a SQL literal of its column's kind (a value that does not fit its kind is NULL, as pandas' coercion). */
export function sqlLiteral(value: string | null, kind: ColumnKind, backend: string): string {
  if (value === null) return 'NULL';
  switch (kind) {
    case 'integer':
    case 'float':
      return NUMBER.test(value.trim()) ? value.trim() : 'NULL';
    case 'boolean': {
      const v = value.trim().toLowerCase();
      const truth = v === 'true' || v === '1' || v === 't' || v === 'yes';
      if (!truth && !(v === 'false' || v === '0' || v === 'f' || v === 'no')) return 'NULL';
      return backend === 'sqlite' ? (truth ? '1' : '0') : truth ? 'TRUE' : 'FALSE';
    }
    default: {
      let text = value;
      if (kind === 'timestamp' || kind === 'date') text = text.replace('T', ' ').replace(/Z$/, '');
      if (backend === 'mysql') text = text.replaceAll('\\', '\\\\');
      return `'${text.replaceAll("'", "''")}'`;
    }
  }
}

/** One value in PostgreSQL's COPY text format, coerced to its column's kind as `sqlLiteral` does. */
export function copyValue(value: string | null, kind: ColumnKind): string {
  if (value === null) return '\\N';
  switch (kind) {
    case 'integer':
    case 'float':
      return NUMBER.test(value.trim()) ? value.trim() : '\\N';
    case 'boolean': {
      const literal = sqlLiteral(value, kind, 'postgresql');
      return literal === 'TRUE' ? 't' : literal === 'FALSE' ? 'f' : '\\N';
    }
    default: {
      const text = kind === 'timestamp' || kind === 'date' ? value.replace('T', ' ').replace(/Z$/, '') : value;
      return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
    }
  }
}

/**
 * Creates (or replaces, or appends to) the upload's table and writes row batches: through COPY FROM STDIN on
 * PostgreSQL, as multi-row INSERTs elsewhere. `finish()` ends a COPY.
 */
export class TableWriter {
  private columns: FileColumn[] = [];
  private copy: Writable | null = null;
  private copyError: Error | null = null;
  rows = 0;

  constructor(
    private readonly spec: EngineSpec,
    private readonly connection: EngineConnection,
    private readonly table: { schema: string | null; name: string },
    private readonly mode: 'create' | 'replace' | 'append',
  ) {}

  private get qualified(): string {
    const q = this.spec.quoteIdentifier;
    return this.table.schema ? `${q(this.table.schema)}.${q(this.table.name)}` : q(this.table.name);
  }

  async start(columns: FileColumn[], openCopy = true): Promise<void> {
    if (!columns.length) throw new Error('The file has no columns');
    this.columns = columns;
    if (this.mode !== 'append') {
      if (this.mode === 'replace') await this.connection.execute(`DROP TABLE IF EXISTS ${this.qualified}`);
      const types = TYPES[this.spec.backend] ?? TYPES.postgresql!;
      const defs = columns.map((c) => `${this.spec.quoteIdentifier(c.name)} ${types[c.kind]}`);
      await this.connection.execute(`CREATE TABLE ${this.qualified} (${defs.join(', ')})`);
    }
    if (openCopy && isPostgresConnection(this.connection)) {
      this.copy = await this.connection.copyFrom(`${this.qualified} (${columns.map((c) => this.spec.quoteIdentifier(c.name)).join(', ')})`);
      // Kept until the next write or finish, which throw it: an 'error' nobody listens to would end the thread.
      this.copy.on('error', (error) => (this.copyError = error));
    }
  }

  /**
   * PostgreSQL only: makes (or appends to) the table and streams a headerless CSV file (nulls as \\N) into it
   * with COPY, so no row passes through JavaScript.
   */
  async fillFromCsv(columns: FileColumn[], csvPath: string): Promise<void> {
    await this.start(columns, false);
    if (!isPostgresConnection(this.connection)) throw new Error('COPY needs PostgreSQL');
    const copy = await this.connection.copyFrom(`${this.qualified} (${columns.map((c) => this.spec.quoteIdentifier(c.name)).join(', ')})`, "(FORMAT csv, NULL '\\N')");
    await pipeline(createReadStream(csvPath), copy);
  }

  /** Gives up a COPY under way (the server drops its rows), so the connection can run the clean-up. */
  async abort(): Promise<void> {
    const copy = this.copy;
    this.copy = null;
    if (!copy || copy.destroyed) return;
    const closed = once(copy, 'close').catch(() => undefined);
    copy.destroy(new Error('The upload was given up'));
    await closed;
  }

  /** Ends a COPY and waits for the server to have taken every row. */
  async finish(): Promise<void> {
    if (!this.copy) return;
    const copy = this.copy;
    this.copy = null;
    if (this.copyError) throw this.copyError;
    const done = once(copy, 'finish');
    copy.end();
    await done;
  }

  /** DuckDB only: makes (or appends to) the table from a SELECT over the file; answers how many rows it holds now from it. */
  async fill(columns: FileColumn[], select: string): Promise<number> {
    this.columns = columns;
    const names = columns.map((c) => this.spec.quoteIdentifier(c.name)).join(', ');
    const before = this.mode === 'append' ? await this.count() : 0;
    if (this.mode === 'append') await this.connection.execute(`INSERT INTO ${this.qualified} (${names}) ${select}`);
    else {
      if (this.mode === 'replace') await this.connection.execute(`DROP TABLE IF EXISTS ${this.qualified}`);
      await this.connection.execute(`CREATE TABLE ${this.qualified} AS ${select}`);
    }
    return (await this.count()) - before;
  }

  private async count(): Promise<number> {
    let n = 0;
    await this.connection.stream(`SELECT count(*) AS n FROM ${this.qualified}`, { setColumns: () => undefined, push: (row) => void (n = Number(JSON.parse(row).n)) }, 1);
    return n;
  }

  async insert(batch: Array<Array<string | null>>): Promise<void> {
    if (!batch.length) return;
    if (this.copy) {
      if (this.copyError) throw this.copyError;
      const lines = batch.map((row) => this.columns.map((c, j) => copyValue(row[j] ?? null, c.kind)).join('\t')).join('\n');
      if (!this.copy.write(`${lines}\n`)) await once(this.copy, 'drain');
      this.rows += batch.length;
      return;
    }
    const names = this.columns.map((c) => this.spec.quoteIdentifier(c.name)).join(', ');
    // At most 500 rows a statement: engines cap statement size (MySQL's max_allowed_packet) and parameters.
    for (let i = 0; i < batch.length; i += 500) {
      const values = batch.slice(i, i + 500).map((row) => `(${this.columns.map((c, j) => sqlLiteral(row[j] ?? null, c.kind, this.spec.backend)).join(', ')})`);
      await this.connection.execute(`INSERT INTO ${this.qualified} (${names}) VALUES ${values.join(', ')}`);
    }
    this.rows += batch.length;
  }
}
