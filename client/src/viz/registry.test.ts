import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allChartTypes, getChartMeta, getChartPlugin, loadChartPlugin } from './registry';

describe('chart type registry', () => {
  const folders = readdirSync(__dirname, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'shared').map((d) => d.name);

  it('knows every folder by its meta before any type code loads; each folder is named by its viz_type', () => {
    expect(allChartTypes().map((m) => m.key).sort()).toEqual([...folders].sort());
    expect(allChartTypes().length).toBeGreaterThanOrEqual(28);
    expect(getChartPlugin('pie')).toBeUndefined();
    expect(getChartMeta('pie')?.name).toBe('Pie Chart');
    expect(getChartMeta('no_such_type')).toBeUndefined();
  });

  it("loads a type's code once, as the plugin its meta describes; an unknown type loads nothing", async () => {
    for (const key of folders) {
      const plugin = await loadChartPlugin(key);
      expect(plugin).toMatchObject(getChartMeta(key)!);
      expect(plugin?.controlPanel.sections.length).toBeGreaterThan(0);
      expect(getChartPlugin(key)).toBe(plugin);
      expect(await loadChartPlugin(key)).toBe(plugin);
    }
    expect(await loadChartPlugin('no_such_type')).toBeUndefined();
  });
});
