/**
 * JSON text of one row value, large-integer safe: bigint → its digits as a bare number token
 * (9007199254740993 stays exact), Date → ISO string, Buffer/Uint8Array → hex string (`\x...`
 * as Postgres prints bytea), NaN/Infinity → null, nested arrays/objects serialised recursively.
 */
export function serializeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    case 'object': {
      if (value === null) return 'null';
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'null' : JSON.stringify(value.toISOString());
      if (value instanceof Uint8Array) return JSON.stringify(`\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`);
      if (Array.isArray(value)) return `[${value.map(serializeValue).join(',')}]`;
      const proto = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) {
        return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}:${serializeValue(v)}`).join(',')}}`;
      }
      return JSON.stringify(String(value));
    }
    default:
      return JSON.stringify(String(value));
  }
}

/** Precomputed `{"name":` / `,"name":` prefixes so a row object is string concatenation only. */
export function rowKeyPrefixes(names: string[]): string[] {
  return names.map((name, i) => `${i === 0 ? '{' : ','}${JSON.stringify(name)}:`);
}

/** Row object JSON from already serialised values. */
export function rowJson(prefixes: string[], values: string[]): string {
  if (prefixes.length === 0) return '{}';
  let out = '';
  for (let i = 0; i < prefixes.length; i++) out += prefixes[i] + values[i];
  return `${out}}`;
}

/** A number token only if `text` is a valid JSON number (e.g. a Postgres numeric), else null. */
export function numberToken(text: string): string {
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return text;
  // Postgres prints NaN / Infinity; numerics may print `.5`-like forms in other drivers.
  const n = Number(text);
  if (Number.isFinite(n) && text.trim() !== '') return String(n);
  return 'null';
}
