import { describe, it, expect } from 'vitest';
import { HTTP_STATUS_TEXT, httpStatusText } from './http-status';

describe('HTTP status text map (spec 01 §8)', () => {
  it.each([
    [400, 'Bad request'],
    [403, 'Forbidden'],
    [418, "I'm a teapot"],
    [500, 'Server error'],
    [511, 'Network authentication required'],
    [599, 'Network error'],
  ])('%i gives %s', (status, text) => {
    expect(httpStatusText(status)).toBe(text);
  });

  it("'anything else gives Unknown error'", () => {
    expect(httpStatusText(200)).toBe('Unknown error');
    expect(httpStatusText(509)).toBe('Unknown error');
  });

  it('holds the 31 documented codes', () => {
    expect(Object.keys(HTTP_STATUS_TEXT)).toHaveLength(31);
  });
});
