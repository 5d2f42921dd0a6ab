/**
 * Serialises `value` with some properties given as ready JSON text (result rows read from the
 * results backend), so rows are never parsed and re-serialised: big integers keep every digit.
 *
 * @example jsonWithRaw({ status: 'success' }, { data: '[{"id":9007199254740993}]' })
 * // '{"status":"success","data":[{"id":9007199254740993}]}'
 */
export function jsonWithRaw(value: Record<string, unknown>, raw: Record<string, string>): string {
  const rest = Object.fromEntries(Object.entries(value).filter(([key]) => !(key in raw)));
  let text = JSON.stringify(rest);
  const extra = Object.entries(raw).map(([key, json]) => `${JSON.stringify(key)}:${json}`).join(',');
  if (!extra) return text;
  text = text === '{}' ? `{${extra}}` : `${text.slice(0, -1)},${extra}}`;
  return text;
}

/** A JSON body as byte chunks, sent as they are (see {@link sendJson}). */
export interface JsonChunks {
  chunks: Buffer[];
  bytes: number;
  /** Called once the chunks have been sent (or the request ended): their buffers are lent. */
  release?: () => void;
}

/**
 * Like {@link jsonWithRaw} with one property given as ready JSON bytes (result rows read as byte
 * chunks from the results backend): the rows are never decoded into a string, and the body goes
 * out chunk by chunk, so a large result costs no big string and no long synchronous step.
 *
 * @example jsonWithRawChunks({ status: 'success' }, 'data', { chunks: [Buffer.from('[{"id":1}]')], bytes: 10 })
 * // chunks of '{"status":"success","data":[{"id":1}]}'
 */
export function jsonWithRawChunks(value: Record<string, unknown>, key: string, raw: JsonChunks): JsonChunks {
  const rest = Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));
  const text = JSON.stringify(rest);
  const head = Buffer.from(`${text === '{}' ? '{' : `${text.slice(0, -1)},`}${JSON.stringify(key)}:`, 'utf8');
  const tail = Buffer.from('}');
  return { chunks: [head, ...raw.chunks, tail], bytes: head.length + raw.bytes + tail.length, release: raw.release };
}
