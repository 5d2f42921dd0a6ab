import type { ResultMeta, ResultsBackendOptions } from '../types.ts';
import { DiskResultsStore } from './disk-store.ts';
import { RedisResultsStore } from './redis-store.ts';
import { FRESH_PAGES, type PageBufferSource, type PageBuffers } from './page-buffers.ts';

/**
 * Where result pages live between the worker that wrote them and the web process that serves
 * them. A page is the UTF-8 text of its rows, each a JSON object, separated by `,\n` (JSON text
 * never holds a raw newline), so ranges are cut at newlines and never re-parsed.
 */
export interface ResultsBackend {
  putPage(key: string, pageIndex: number, bytes: Buffer): Promise<void>;
  /** Written last: a result is readable once its meta exists. */
  putMeta(key: string, meta: ResultMeta): Promise<void>;
  /** A fresh buffer the caller owns (readers may change it in place). */
  getPage(key: string, pageIndex: number): Promise<Buffer | null>;
  /** The same into a buffer from `buffers` (a subarray of it), where the store can read into one. */
  readPage?(key: string, pageIndex: number, buffers: PageBuffers): Promise<Buffer | null>;
  getMeta(key: string): Promise<ResultMeta | null>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Results backend from options: Redis when `redisUrl` is set, else the bounded on-disk store.
 *
 * @example createResultsBackend({ dir: '.data/results', maxBytes: 1 << 30, ttlSeconds: 86400 })
 */
export function createResultsBackend(options: ResultsBackendOptions): ResultsBackend {
  if (options.redisUrl) return new RedisResultsStore({ url: options.redisUrl, keyPrefix: options.keyPrefix ?? 'meridian:results:', ttlSeconds: options.ttlSeconds });
  return new DiskResultsStore({ dir: options.dir, maxBytes: options.maxBytes, ttlSeconds: options.ttlSeconds });
}

/** A slice of a stored result. */
export interface RowsSlice {
  /** JSON array text of the row objects, e.g. `[{"a":1},{"a":2}]`, ready to splice into a response. */
  json: string;
  rowCount: number;
  meta: ResultMeta;
}

/**
 * A slice of a stored result, ready to be sent: `pipe` writes the JSON array of its rows page by
 * page, so whatever the slice's size, a request holds at most two pages in memory.
 */
export interface RowsStream {
  rowCount: number;
  meta: ResultMeta;
  /**
   * Writes `[`, the rows of each page joined by `,`, then `]` through `write`, the stored bytes as
   * they are (nothing decoded or parsed). A page's buffer goes back to the pool, to be read into
   * again, once the promise `write` returned for it resolves: resolve it only when the bytes have
   * left (a socket write's callback). Rejects if `write` does, or if a page went missing meanwhile.
   */
  pipe(write: (chunk: Buffer) => Promise<void>): Promise<void>;
}

const NEWLINE = 0x0a;
const COMMA = 0x2c;
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const SEPARATOR = Buffer.from(',');

/** The JSON text of each row of a stored page (rows end at a newline, version 2's `,` before it dropped). */
export function pageRowTexts(page: Buffer): string[] {
  return page
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (line.endsWith(',') ? line.slice(0, -1) : line));
}

/** Byte offset where row `index` of a page starts (`index` newlines skipped), or the page length. */
function rowStart(page: Buffer, index: number): number {
  let at = 0;
  for (let i = 0; i < index; i++) {
    const nl = page.indexOf(NEWLINE, at);
    if (nl < 0) return page.length;
    at = nl + 1;
  }
  return at;
}

/** Rows `from..to` of one stored page, the bytes it was read into, and the lease to give back. */
interface PagePart {
  rows: Buffer;
  buffers: PageBuffers;
}

/**
 * Opens rows `[offset, offset + limit)` of a stored result for sending. Pages are read as bytes and
 * cut at row boundaries (found by their newlines); pages already separate rows with `,\n`, so no
 * per-row work remains. The first page is read here, so an unknown or expired key (or a missing
 * page) gives null before anything is sent.
 */
export async function openRows(backend: ResultsBackend, key: string, offset = 0, limit: number | null = null, pages: PageBufferSource = FRESH_PAGES): Promise<RowsStream | null> {
  const meta = await backend.getMeta(key);
  if (!meta) return null;
  // Version 1 pages separated rows by a bare newline, which becomes a comma here.
  const separatorBytes = meta.version === 1 ? 1 : 2;
  const start = Math.max(0, offset);
  const end = limit == null ? meta.rowCount : Math.min(meta.rowCount, start + Math.max(0, limit));
  const wanted: { page: number; from: number; to: number; rowsInPage: number }[] = [];
  for (let page = 0, pageStart = 0; page < meta.pageCount && pageStart < end; page++) {
    const rowsInPage = meta.pageRowCounts[page];
    const from = Math.max(0, start - pageStart);
    const to = Math.min(rowsInPage, end - pageStart);
    if (to > from) wanted.push({ page, from, to, rowsInPage });
    pageStart += rowsInPage;
  }

  const read = async ({ page, from, to, rowsInPage }: (typeof wanted)[number]): Promise<PagePart | null> => {
    const buffers = pages.lease();
    try {
      const stored = backend.readPage ? await backend.readPage(key, page, buffers) : await backend.getPage(key, page);
      if (!stored) {
        buffers.release();
        return null;
      }
      const startByte = rowStart(stored, from);
      // The last row of a page has no separator after it; a cut before it ends where that row's separator starts.
      const endByte = to === rowsInPage ? stored.length : startByte + rowStart(stored.subarray(startByte), to - from) - separatorBytes;
      const rows = stored.subarray(startByte, endByte);
      if (separatorBytes === 1) for (let nl = rows.indexOf(NEWLINE); nl >= 0; nl = rows.indexOf(NEWLINE, nl + 1)) rows[nl] = COMMA;
      return { rows, buffers };
    } catch (error) {
      buffers.release();
      throw error;
    }
  };
  const missing = (page: number) => new Error(`Page ${page} of result ${key} is missing: it expired or was evicted while being read`);

  const first = wanted.length ? await read(wanted[0]) : null;
  if (wanted.length && !first) return null;
  return {
    rowCount: wanted.reduce((n, part) => n + part.to - part.from, 0),
    meta,
    async pipe(write) {
      let current = first;
      let next: Promise<PagePart | null> | undefined;
      try {
        await write(OPEN);
        for (let i = 0; i < wanted.length; i++) {
          if (!current) throw missing(wanted[i].page);
          // The next page is read while this one is written: two pages in memory at most.
          next = i + 1 < wanted.length ? read(wanted[i + 1]) : undefined;
          if (i > 0) await write(SEPARATOR);
          await write(current.rows);
          current.buffers.release();
          current = null;
          const pending = next;
          next = undefined;
          if (pending) current = await pending;
        }
        await write(CLOSE);
      } finally {
        current?.buffers.release();
        if (next) void next.then((part) => part?.buffers.release(), () => undefined);
      }
    },
  };
}

/**
 * Reads rows `[offset, offset + limit)` of a stored result across pages, returning JSON text
 * without parsing rows. Null when the key is unknown or expired.
 */
export async function readRows(backend: ResultsBackend, key: string, offset = 0, limit: number | null = null): Promise<RowsSlice | null> {
  const rows = await openRows(backend, key, offset, limit);
  if (!rows) return null;
  const chunks: Buffer[] = [];
  await rows.pipe(async (chunk) => void chunks.push(chunk));
  return { json: Buffer.concat(chunks).toString('utf8'), rowCount: rows.rowCount, meta: rows.meta };
}
