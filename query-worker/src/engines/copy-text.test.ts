import { describe, expect, it } from 'vitest';
import { CopyTextTranscoder, type CopyColumnKind } from './copy-text.ts';

/** The row object a COPY text line becomes. */
function row(line: string, columns: [string, CopyColumnKind][]): unknown {
  const transcoder = new CopyTextTranscoder(columns.map(([name]) => name), columns.map(([, kind]) => kind));
  const src = Buffer.from(`garbage\n${line}\nmore`, 'utf8');
  const start = src.indexOf(10) + 1;
  const length = transcoder.transcode(src, start, src.indexOf(10, start));
  return JSON.parse(transcoder.row.toString('utf8', 0, length));
}

describe('COPY text to JSON rows', () => {
  it('keeps numbers as written, every digit of big integers included, and turns NaN and Infinity into null', () => {
    const text = row('9007199254740993\t-0.5\t1e+20\t1.5e-07\tNaN\t-Infinity\t0', [
      ['big', 'number'], ['neg', 'number'], ['exp', 'number'], ['small', 'number'], ['nan', 'number'], ['inf', 'number'], ['zero', 'number'],
    ]);
    expect(text).toEqual({ big: 9007199254740993, neg: -0.5, exp: 1e20, small: 1.5e-7, nan: null, inf: null, zero: 0 });
    const transcoder = new CopyTextTranscoder(['big'], ['number']);
    const src = Buffer.from('9007199254740993');
    expect(transcoder.row.toString('utf8', 0, transcoder.transcode(src, 0, src.length))).toBe('{"big":9007199254740993}');
  });

  it('reads \\N as null in every kind of column, and t/f as booleans', () => {
    expect(row('\\N\t\\N\t\\N\t\\N\tt\tf', [['a', 'number'], ['b', 'text'], ['c', 'timestamp'], ['d', 'boolean'], ['e', 'boolean'], ['f', 'boolean']])).toEqual({
      a: null, b: null, c: null, d: null, e: true, f: false,
    });
  });

  it("writes timestamps in ISO form: the first space becomes 'T'", () => {
    expect(row('2024-01-02 03:04:05\t2024-01-02 03:04:05.123+00\t0044-03-15 12:00:00 BC', [['t', 'timestamp'], ['tz', 'timestamp'], ['bc', 'timestamp']])).toEqual({
      t: '2024-01-02T03:04:05', tz: '2024-01-02T03:04:05.123+00', bc: '0044-03-15T12:00:00 BC',
    });
  });

  it("decodes COPY's escapes and adds JSON's: tabs, newlines, backslashes, quotes, control bytes, octal and hex", () => {
    const line = 'tab\\there\\nline \\\\ back\t"quoted"\t\x01\x1f\t\\101\\x41\\x4a\\b\\f\\r\\v\tend\\';
    expect(row(line, [['a', 'text'], ['b', 'text'], ['c', 'text'], ['d', 'text'], ['e', 'text']])).toEqual({
      a: 'tab\there\nline \\ back', b: '"quoted"', c: '\x01\x1f', d: 'AAJ\b\f\r\v', e: 'end\\',
    });
  });

  it('passes UTF-8 through untouched and keeps empty strings', () => {
    expect(row('Zürich 東京 🚀\t\t ', [['city', 'text'], ['empty', 'text'], ['space', 'text']])).toEqual({ city: 'Zürich 東京 🚀', empty: '', space: ' ' });
  });

  it('quotes column names as JSON keys, odd ones too', () => {
    expect(row('1\t2', [['we"ird', 'number'], ['tab\tname', 'number']])).toEqual({ 'we"ird': 1, 'tab\tname': 2 });
  });

  it('grows its row buffer for a value larger than it', () => {
    const long = 'x"'.repeat(100_000);
    expect(row(long, [['long', 'text']])).toEqual({ long });
  });

  it('gives {} for a line of a result without columns', () => {
    expect(row('', [])).toEqual({});
  });
});
