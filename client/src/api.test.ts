import { LosslessNumber, parse as parseLossless } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseJsonLosslessly, parseNumberLosslessly, unsafeNumberIn } from './api';

const lossless = (text: string) => parseLossless(text, null, parseNumberLosslessly);

describe('unsafeNumberIn', () => {
  it('finds the number tokens a double cannot hold, and nothing in ids or safe long floats', () => {
    expect(unsafeNumberIn('{"resultsKey":"75a8c68a-96b1-424e-b69d-c51e3146602b","startDttm":1795468748864.083,"rows":10000}')).toBeNull();
    expect(unsafeNumberIn('{"data":[{"id":1},{"id":9007199254740993}]}')).toBe('9007199254740993');
    expect(unsafeNumberIn('[1,\n -12345678901234567890 ]')).toBe('-12345678901234567890');
    expect(unsafeNumberIn('[1e400]')).toBe('1e400');
    expect(unsafeNumberIn('9007199254740993')).toBe('9007199254740993');
    // Inside a string it still counts: the slower parser then gives the same values.
    expect(unsafeNumberIn('{"s":"x 12345678901234567890 y"}')).toBe('12345678901234567890');
  });
});

describe('parseJsonLosslessly', () => {
  it('keeps every digit of numbers a double cannot hold (spec: 9007199254740993 shows with all its digits)', () => {
    const rows = parseJsonLosslessly('{"data":[{"id":9007199254740993,"n":1},{"id":-12345678901234567890,"n":2.5}]}') as { data: { id: unknown; n: number }[] };
    expect(rows.data[0].id).toEqual(new LosslessNumber('9007199254740993'));
    expect(rows.data[1].id).toEqual(new LosslessNumber('-12345678901234567890'));
    expect(rows.data[1].n).toBe(2.5);
    expect(parseJsonLosslessly('[1e400, 1.5e-400, 0.12345678901234567890123]')).toEqual([new LosslessNumber('1e400'), new LosslessNumber('1.5e-400'), new LosslessNumber('0.12345678901234567890123')]);
  });

  it('gives exactly what the lossless parser gives, for safe long numbers, digits in strings and everything else', () => {
    const texts = [
      '{"startDttm":1795467746701.8381,"rows":[{"price":3754.2400000000002,"big":100000000000000000000}]}',
      '{"s":"order 12345678901234567890","t":"2024-01-02T03:04:05.123456","n":-0.000000000000000123}',
      '[9007199254740991, 9007199254740992, 1.7976931348623157e308, 5e-324, 0, -0, 1E+2]',
      '{"a":"1.2.3.4.5.6.7.8.9.0","b":[true,false,null,{"c":[]}],"d":"\\u00e9"}',
      '{"key":"75a8c68a-96b1-424e-b69d-c51e3146602b","n":[-9007199254740993,1e400]}',
    ];
    for (const text of texts) expect(parseJsonLosslessly(text)).toEqual(lossless(text));
    const random = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? `${i}${'7'.repeat(i % 20)}` : (Math.random() * 10 ** (i % 30)).toString()));
    const text = `[${random.join(',')}]`;
    expect(parseJsonLosslessly(text)).toEqual(lossless(text));
  });
});
