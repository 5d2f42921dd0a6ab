import { describe, expect, it } from 'vitest';
import { loadPart, partsOf } from './optional-parts';

describe('optional ECharts parts of a time-series option', () => {
  it('asks only for what the option uses: series types, zoom, annotation markers', () => {
    expect(partsOf({ series: [{ type: 'line' }, { type: 'line' }] })).toEqual([]);
    expect(partsOf({ series: [{ type: 'bar' }, { type: 'line', markLine: { data: [] } }], dataZoom: [{ type: 'inside' }] })).toEqual(['bar', 'markers', 'zoom']);
    // Value labels that may overlap are laid out by ECharts' label layout.
    expect(partsOf({ series: [{ type: 'line', labelLayout: { hideOverlap: true } }] })).toEqual(['labels']);
    expect(partsOf({ series: [{ type: 'scatter', markArea: { data: [] } }] })).toEqual(['markers', 'scatter']);
  });

  it('loads each part as the ECharts installers it names', async () => {
    for (const part of ['bar', 'scatter', 'zoom', 'markers'] as const) {
      const installers = await loadPart(part);
      expect(installers.length).toBeGreaterThan(0);
      for (const install of installers) expect(typeof install).toBe('function');
    }
  });
});
