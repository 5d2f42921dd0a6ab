import type { RowsStream } from '@meridian/query-worker';

/**
 * A JSON body written piece by piece (see `sendJson` in sqllab.rest.ts): result rows go out as the
 * stored bytes, page by page, so a large answer never becomes one string or one buffer.
 */
export interface JsonStream {
  /** Writes the body's bytes through `write`; a chunk's buffer may be reused once its promise resolves. */
  pipe(write: (chunk: Buffer) => Promise<void>): Promise<void>;
}

/**
 * `value` serialised with `key` set to the rows of `rows`, spliced in as stored: rows are never
 * parsed and re-serialised, so big integers keep every digit.
 *
 * @example jsonWithRows({ status: 'success' }, 'data', rows) // writes {"status":"success","data":[{"id":9007199254740993}]}
 */
export function jsonWithRows(value: Record<string, unknown>, key: string, rows: RowsStream): JsonStream {
  const text = JSON.stringify(Object.fromEntries(Object.entries(value).filter(([k]) => k !== key)));
  const head = Buffer.from(`${text === '{}' ? '{' : `${text.slice(0, -1)},`}${JSON.stringify(key)}:`, 'utf8');
  const tail = Buffer.from('}');
  return {
    async pipe(write) {
      await write(head);
      await rows.pipe(write);
      await write(tail);
    },
  };
}
