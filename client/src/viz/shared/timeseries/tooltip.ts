/**
 * Superset's rich tooltip of the time-series charts: at the x value under the pointer, each series' value (largest
 * first with 'Tooltip sort by metric'), its share of the total ('Show percentage') and the total ('Show total').
 */
import { escapeHtml } from '../format';

/** The hidden base series of a 'Stream' stack: no series of the chart, so the tooltip leaves it out. */
export const STREAM_BASE = '__stream_base';

export interface RichTooltipOptions {
  /** A value's text; a series' value is told its series' name (the total is not). */
  numberFormat: (value: number, seriesName?: string) => string;
  /** The x value as the tooltip heads it. */
  heading: (x: unknown) => string;
  total: boolean;
  percentage: boolean;
  sortByMetric: boolean;
  /** A horizontal bar's point is [value, x]. */
  horizontal: boolean;
}

interface AxisParam {
  seriesId?: string;
  seriesName?: string;
  marker?: string;
  value?: unknown;
  axisValue?: unknown;
}

const cell = (text: string, right = false) => `<td style="padding:1px 0 1px ${right ? 12 : 0}px;${right ? 'text-align:right' : ''}">${text}</td>`;

/** The formatter of an axis tooltip (ECharts hands it the points of every series at the x value). */
export function richTooltipFormatter(opts: RichTooltipOptions): (params: AxisParam | AxisParam[]) => string {
  return (params) => {
    // A stream's hidden base is no series of the chart.
    const points = (Array.isArray(params) ? params : [params]).filter((p) => p.seriesId !== STREAM_BASE);
    if (!points.length) return '';
    const valueOf = (p: AxisParam) => {
      const v = Array.isArray(p.value) ? p.value[opts.horizontal ? 0 : 1] : p.value;
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    };
    const rows = points.flatMap((p) => {
      const value = valueOf(p);
      return value === null ? [] : [{ name: p.seriesName ?? '', marker: p.marker ?? '', value }];
    });
    if (opts.sortByMetric) rows.sort((a, b) => b.value - a.value);
    const total = rows.reduce((sum, r) => sum + r.value, 0);
    // Shares and the total only where there is more than one value to weigh (Superset's isMultiSeries).
    const share = (value: number) => (opts.percentage && total && rows.length > 1 ? cell(`${((value / total) * 100).toFixed(2)}%`, true) : '');
    const lines = rows.map((r) => `<tr>${cell(`${r.marker}${escapeHtml(r.name)}`)}${cell(opts.numberFormat(r.value, r.name), true)}${share(r.value)}</tr>`);
    if (opts.total && rows.length > 1) lines.push(`<tr style="font-weight:700">${cell('Total')}${cell(opts.numberFormat(total), true)}${share(total)}</tr>`);
    return `<div style="font-weight:600;margin-bottom:2px">${escapeHtml(opts.heading(points[0]!.axisValue))}</div><table style="border-collapse:collapse">${lines.join('')}</table>`;
  };
}
