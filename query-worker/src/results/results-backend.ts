import type { ResultMeta, ResultsBackendOptions } from '../types.ts';
import { DiskResultsStore } from './disk-store.ts';
import { RedisResultsStore } from './redis-store.ts';
import type { PageBuffers } from './page-buffers.ts';

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

/** A slice of a stored result as bytes: the chunks, concatenated, are the JSON array of the rows. */
export interface RowsChunks {
  /** `[`, the rows of each page joined by `,`, `]`: send them as they are (no string is ever built). */
  chunks: Buffer[];
  /** Total bytes of `chunks`. */
  bytes: number;
  rowCount: number;
  meta: ResultMeta;
}

const NEWLINE = 0x0a;
const COMMA = 0x2c;
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const SEPARATOR = Buffer.from(',');

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

/**
 * Reads rows `[offset, offset + limit)` of a stored result as byte chunks of one JSON array,
 * without decoding or parsing anything: pages are read as bytes and cut at row boundaries (found by
 * their newlines). Pages already separate rows with `,\n`, so no per-row work remains: the web
 * process sends these chunks as they are, and a large page costs no big string and no long
 * synchronous step. With `buffers`, pages are read into buffers lent for the request (release them once the
 * chunks are sent). Null when the key is unknown or expired (or a page went missing).
 */
export async function readRowsChunks(backend: ResultsBackend, key: string, offset = 0, limit: number | null = null, buffers?: PageBuffers): Promise<RowsChunks | null> {
  const meta = await backend.getMeta(key);
  if (!meta) return null;
  // Version 1 pages separated rows by a bare newline, which becomes a comma here.
  const separatorBytes = meta.version === 1 ? 1 : 2;
  const end = limit == null ? meta.rowCount : Math.min(meta.rowCount, offset + Math.max(0, limit));
  const chunks: Buffer[] = [OPEN];
  let bytes = 2;
  let pageStart = 0;
  let taken = 0;
  for (let page = 0; page < meta.pageCount && pageStart < end; page++) {
    const pageRows = meta.pageRowCounts[page];
    const pageEnd = pageStart + pageRows;
    if (pageEnd > offset) {
      const stored = buffers && backend.readPage ? await backend.readPage(key, page, buffers) : await backend.getPage(key, page);
      if (!stored) return null;
      const from = Math.max(0, offset - pageStart);
      const to = Math.min(pageRows, end - pageStart);
      if (to > from) {
        const startByte = rowStart(stored, from);
        // The last row of a page has no separator after it; a cut before it ends where that row's separator starts.
        const endByte = to === pageRows ? stored.length : startByte + rowStart(stored.subarray(startByte), to - from) - separatorBytes;
        const rows = stored.subarray(startByte, endByte);
        if (separatorBytes === 1) for (let nl = rows.indexOf(NEWLINE); nl >= 0; nl = rows.indexOf(NEWLINE, nl + 1)) rows[nl] = COMMA;
        if (taken > 0) {
          chunks.push(SEPARATOR);
          bytes += 1;
        }
        chunks.push(rows);
        bytes += rows.length;
        taken += to - from;
      }
    }
    pageStart = pageEnd;
  }
  chunks.push(CLOSE);
  return { chunks, bytes, rowCount: taken, meta };
}

/**
 * Reads rows `[offset, offset + limit)` of a stored result across pages, returning JSON text
 * without parsing rows. Null when the key is unknown or expired.
 */
export async function readRows(backend: ResultsBackend, key: string, offset = 0, limit: number | null = null): Promise<RowsSlice | null> {
  const slice = await readRowsChunks(backend, key, offset, limit);
  if (!slice) return null;
  return { json: Buffer.concat(slice.chunks, slice.bytes).toString('utf8'), rowCount: slice.rowCount, meta: slice.meta };
}
