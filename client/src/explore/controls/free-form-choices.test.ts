import { describe, expect, it } from 'vitest';
import { freeFormChoices, type FreeFormChoice } from './free-form-choices';

const formats: FreeFormChoice[] = [
  { value: 'SMART_NUMBER', label: 'Adaptive formatting', raw: 'SMART_NUMBER' },
  { value: ',d', label: ',d (12345.432 => 12,345)', raw: ',d' },
  { value: '$,.2f', label: '$,.2f (12345.432 => $12,345.43)', raw: '$,.2f' },
];
const limits: FreeFormChoice[] = [10, 100, 1000].map((n) => ({ value: String(n), label: String(n), raw: n }));

describe('freeFormChoices', () => {
  it('offers every choice when nothing is typed', () => {
    expect(freeFormChoices(formats, '', 'SMART_NUMBER')).toEqual(formats);
  });

  it("puts a typed format that is no choice first, so '$,.1f' can be picked (Superset's creatable format select)", () => {
    expect(freeFormChoices(formats, '$,.1f', 'SMART_NUMBER')[0]).toEqual({ value: '$,.1f', label: '$,.1f', raw: '$,.1f' });
    // Typing a choice's value or label adds nothing.
    expect(freeFormChoices(formats, ',d', 'SMART_NUMBER')).toEqual(formats);
    expect(freeFormChoices(formats, 'Adaptive formatting', 'SMART_NUMBER')).toEqual(formats);
  });

  it('keeps a custom current value among the options, so the select shows it', () => {
    expect(freeFormChoices(formats, '', '.4~f').at(-1)).toEqual({ value: '.4~f', label: '.4~f', raw: '.4~f' });
    expect(freeFormChoices(formats, '.4~f', '.4~f')).toHaveLength(formats.length + 1);
  });

  it('stores numbers when the choices are numbers, and offers no text that is not one', () => {
    expect(freeFormChoices(limits, '250', 100)[0]).toEqual({ value: '250', label: '250', raw: 250 });
    expect(freeFormChoices(limits, 'abc', 100)).toEqual(limits);
    // Refused text already stored stays shown, for its validator's message to make sense.
    expect(freeFormChoices(limits, '', 'abc').at(-1)).toEqual({ value: 'abc', label: 'abc', raw: 'abc' });
  });
});
