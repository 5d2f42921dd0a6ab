import { describe, expect, it } from 'vitest';
import { dashboardColors } from '../dashboard/layout/dashboard-colors';
import { withDashboardColors } from './dashboard-context';

describe("Explore in a dashboard's context (opened with dashboard_id)", () => {
  it("reads the dashboard's colour scheme and its label colours, label_colors over shared_label_colors", () => {
    expect(dashboardColors({ color_scheme: 'd3Category10', shared_label_colors: { boy: '#00ff00', girl: '#0000ff' }, label_colors: { boy: '#ff0000' } })).toEqual({
      colorScheme: 'd3Category10',
      labelColors: { boy: '#ff0000', girl: '#0000ff' },
    });
  });

  it("passes over Superset's older shared_label_colors (a list of labels, naming no colour) and an empty scheme", () => {
    expect(dashboardColors({ color_scheme: '', shared_label_colors: ['boy', 'girl'] })).toEqual({ colorScheme: null, labelColors: {} });
  });

  it("draws the chart with the dashboard's scheme over its own, and its label colours", () => {
    const formData = { viz_type: 'pie', color_scheme: 'supersetColors' };
    expect(withDashboardColors(formData, { colorScheme: 'd3Category10', labelColors: { boy: '#ff0000' } }, 7)).toEqual({ viz_type: 'pie', color_scheme: 'd3Category10', label_colors: { boy: '#ff0000' }, dashboardId: 7 });
  });

  it('keeps the chart’s own scheme when the dashboard has none, and the form data as it is without a dashboard', () => {
    const formData = { viz_type: 'pie', color_scheme: 'bnbColors' };
    expect(withDashboardColors(formData, { colorScheme: null, labelColors: {} }, 7).color_scheme).toBe('bnbColors');
    expect(withDashboardColors(formData, null, null)).toBe(formData);
  });
});
