import type { ResultColumn, ResultMeta } from '../types.ts';
import type { RowSink } from '../engines/engine-spec.ts';
import type { ResultsBackend } from './results-backend.ts';

export interface PageWriterOptions {
  pageRows?: number;
  pageBytes?: number;
}

/**
 * Collects rows (JSON texts, or their UTF-8 bytes) into pages of at most `pageRows` rows / ~`pageBytes` bytes,
 * encoded straight into the page's buffer, and writes each full page to the results backend, so memory holds
 * one page whatever the result size. Rows are separated by `,\n`: a page between `[` and `]` is already a JSON
 * array (the newline is JSON whitespace), so a reader sends pages as they are, and still finds row boundaries by
 * their newlines (a newline byte never occurs inside JSON text).
 */
export class PageWriter implements RowSink {
  columns: ResultColumn[] = [];
  rowCount = 0;
  bytes = 0;
  readonly pageRowCounts: number[] = [];
  private page: Buffer = Buffer.alloc(0);
  private used = 0;
  private pageRowsBuffered = 0;
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
    // UTF-8 takes at most three bytes per UTF-16 unit.
    this.reserve(rowJson.length * 3);
    this.used += this.page.write(rowJson, this.used, 'utf8');
    return this.added();
  }

  pushBytes(row: Buffer, length: number): void | Promise<void> {
    this.reserve(length);
    this.used += row.copy(this.page, this.used, 0, length);
    return this.added();
  }

  /** Room for a separator and `bytes` more in the page buffer, made when the page's first row comes (and grown for an outsized row). */
  private reserve(bytes: number): void {
    const separator = this.pageRowsBuffered > 0 ? 2 : 0;
    if (this.used + separator + bytes > this.page.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.used + separator + bytes, this.pageBytes + 64 * 1024, this.page.length * 2));
      this.page.copy(bigger, 0, 0, this.used);
      this.page = bigger;
    }
    if (separator) {
      this.page[this.used++] = 44; // ,
      this.page[this.used++] = 10; // \n
    }
  }

  private added(): void | Promise<void> {
    this.pageRowsBuffered++;
    this.rowCount++;
    if (this.pageRowsBuffered >= this.pageRows || this.used >= this.pageBytes) return this.flush();
  }

  /** Writes the buffered rows as one page (no-op when empty). */
  async flush(): Promise<void> {
    if (this.pageRowsBuffered === 0) return;
    const bytes = this.page.subarray(0, this.used);
    const index = this.pageRowCounts.length;
    this.pageRowCounts.push(this.pageRowsBuffered);
    this.bytes += bytes.length;
    // The backend may still hold the written page: the next one gets a buffer of its own.
    this.page = Buffer.alloc(0);
    this.used = 0;
    this.pageRowsBuffered = 0;
    await this.backend.putPage(this.key, index, bytes);
  }

  /** Flushes and writes the meta, making the result readable. */
  async finish(meta: Omit<ResultMeta, 'version' | 'columns' | 'rowCount' | 'pageCount' | 'pageRowCounts' | 'bytes'>): Promise<ResultMeta> {
    await this.flush();
    const full: ResultMeta = { version: 2, ...meta, columns: this.columns, rowCount: this.rowCount, pageCount: this.pageRowCounts.length, pageRowCounts: this.pageRowCounts, bytes: this.bytes };
    await this.backend.putMeta(this.key, full);
    return full;
  }
}
