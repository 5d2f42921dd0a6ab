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

  it('in the dark theme a one-way scheme runs from the dark page to light (the largest values stand out), a diverging one keeps its order', () => {
    expect(getSequentialColors('white_black', 3, 'dark')).toEqual(['#000000', '#808080', '#ffffff']);
    expect(getSequentialColors('superset_seq_1', 2, 'dark')).toEqual(['#08232b', '#ecf7fa']);
    expect(getSequentialColors('red_yellow_blue', 2, 'dark')).toEqual(getSequentialColors('red_yellow_blue', 2, 'light'));
  });
});

describe("'color_picker' values (Superset's {r, g, b, a})", () => {
  it('reads a stored colour as CSS and CSS back as the stored colour; anything else is the fallback', async () => {
    const { pickerColor, toPickerValue, PRIMARY_RGBA } = await import('./colors');
    expect(pickerColor({ r: 255, g: 0, b: 10, a: 0.5 }, '')).toBe('rgba(255, 0, 10, 0.5)');
    expect(pickerColor(undefined, pickerColor(PRIMARY_RGBA, ''))).toBe('rgba(31, 168, 201, 1)');
    expect(pickerColor({ r: 1, g: 2, b: 3 }, '')).toBe('rgba(1, 2, 3, 1)');
    expect(toPickerValue('rgba(255, 0, 10, 0.5)')).toEqual({ r: 255, g: 0, b: 10, a: 0.5 });
    expect(toPickerValue('rgb(1,2,3)')).toEqual({ r: 1, g: 2, b: 3, a: 1 });
  });
});
