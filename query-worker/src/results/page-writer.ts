import type { ResultColumn, ResultMeta } from '../types.ts';
import type { RowSink } from '../engines/engine-spec.ts';
import type { ResultsBackend } from './results-backend.ts';

export interface PageWriterOptions {
  pageRows?: number;
  pageBytes?: number;
}

/**
 * Collects row JSON texts into pages of at most `pageRows` rows / ~`pageBytes` bytes and writes
 * each full page to the results backend, so memory holds one page whatever the result size.
 */
export class PageWriter implements RowSink {
  columns: ResultColumn[] = [];
  rowCount = 0;
  bytes = 0;
  readonly pageRowCounts: number[] = [];
  private rows: string[] = [];
  private pendingBytes = 0;
  private readonly pageRows: number;
  private readonly pageBytes: number;

  constructor(private readonly backend: ResultsBackend, private readonly key: string, options: PageWriterOptions = {}) {
    this.pageRows = options.pageRows ?? 10_000;
    this.pageBytes = options.pageBytes ?? 1024 * 1024;
  }

  setColumns(columns: ResultColumn[]): void {
    this.columns = columns;
  }

  push(rowJson: string): void | Promise<void> {
    this.rows.push(rowJson);
    this.rowCount++;
    this.pendingBytes += rowJson.length + 1;
    if (this.rows.length >= this.pageRows || this.pendingBytes >= this.pageBytes) return this.flush();
  }

  /** Writes the buffered rows as one page (no-op when empty). */
  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const bytes = Buffer.from(this.rows.join('\n'), 'utf8');
    const index = this.pageRowCounts.length;
    this.pageRowCounts.push(this.rows.length);
    this.rows = [];
    this.pendingBytes = 0;
    this.bytes += bytes.length;
    await this.backend.putPage(this.key, index, bytes);
  }

  /** Flushes and writes the meta, making the result readable. */
  async finish(meta: Omit<ResultMeta, 'version' | 'columns' | 'rowCount' | 'pageCount' | 'pageRowCounts' | 'bytes'>): Promise<ResultMeta> {
    await this.flush();
    const full: ResultMeta = { version: 1, ...meta, columns: this.columns, rowCount: this.rowCount, pageCount: this.pageRowCounts.length, pageRowCounts: this.pageRowCounts, bytes: this.bytes };
    await this.backend.putMeta(this.key, full);
    return full;
  }
}
