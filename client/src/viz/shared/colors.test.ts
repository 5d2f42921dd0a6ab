import { describe, expect, it } from 'vitest';
import { categoricalScheme, getCategoricalColor, getSequentialColors, interpolate } from './colors';

describe('colour schemes', () => {
  it('falls back to supersetColors and keeps a label on its colour', () => {
    expect(categoricalScheme('nope').id).toBe('supersetColors');
    const boy = getCategoricalColor('d3Category10', 'boy');
    const girl = getCategoricalColor('d3Category10', 'girl');
    expect(boy).not.toBe(girl);
    expect(getCategoricalColor('d3Category10', 'boy')).toBe(boy);
  });

  it('interpolates sequential schemes', () => {
    expect(interpolate(['#000000', '#ffffff'], 0.5)).toBe('#808080');
    const colors = getSequentialColors('white_black', 3);
    expect(colors).toEqual(['#ffffff', '#808080', '#000000']);
  });
});
