/**
 * Drilling from a data point (spec: drill to detail and drill by): the filters that select the point,
 * with a time point widened to its whole time grain period, and the form data of a drill by.
 */
import type { DataPointClick, FormData } from '../viz/types';

export type PointFilter = DataPointClick['filters'][number];

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** The end (exclusive) of the time grain period that starts at `ms` (ISO 8601 grains as Superset's). */
export function grainEnd(ms: number, grain: string | null | undefined): number {
  const d = new Date(ms);
  const add = (f: (x: Date) => void) => {
    const e = new Date(ms);
    f(e);
    return e.getTime();
  };
  switch (grain) {
    case 'PT1S': return ms + 1000;
    case 'PT1M': return ms + 60_000;
    case 'PT1H': return ms + 3_600_000;
    case 'P1W': return ms + 7 * 86_400_000;
    case 'P1M': return add((e) => e.setUTCMonth(d.getUTCMonth() + 1));
    case 'P3M': return add((e) => e.setUTCMonth(d.getUTCMonth() + 3));
    case 'P1Y': return add((e) => e.setUTCFullYear(d.getUTCFullYear() + 1));
    default: return ms + 86_400_000;
  }
}

/** Filters of a clicked point as the chart data API takes them: a time point becomes its period's range. */
export function drillFilters(filters: readonly PointFilter[], formData: FormData): Array<{ col: string; op: string; val: unknown }> {
  return filters
    .filter((f) => f.col)
    .map((f) => {
      if (f.op !== 'TEMPORAL_RANGE') return { col: f.col, op: f.val === null || f.val === 'NULL' ? 'IS NULL' : '==', val: f.val };
      const start = typeof f.val === 'number' ? f.val : new Date(String(f.val)).getTime();
      return { col: f.col, op: 'TEMPORAL_RANGE', val: `${iso(new Date(start))} : ${iso(new Date(grainEnd(start, formData.time_grain_sqla)))}` };
    });
}

/** How a point's filters read in menus and breadcrumbs: `gender = boy, state = CA`. */
export function describeFilters(filters: ReadonlyArray<{ col: string; op: string; val: unknown }>): string {
  return filters.map((f) => (f.op === 'TEMPORAL_RANGE' ? `${f.col}: ${String(f.val).replace(' : ', ' ≤ x < ')}` : `${f.col} = ${String(f.val)}`)).join(', ');
}

/**
 * The form data of a drill by: the point's filters added as adhoc filters, and the chart's dimension
 * (group-by, or else the x-axis) replaced by the chosen column.
 */
export function drillByFormData(formData: FormData, filters: ReadonlyArray<{ col: string; op: string; val: unknown }>, column: string): FormData {
  const adhoc = filters.map((f) => (f.op === 'TEMPORAL_RANGE' ? { expressionType: 'SIMPLE', clause: 'WHERE', subject: f.col, operator: 'TEMPORAL_RANGE', comparator: f.val } : { expressionType: 'SIMPLE', clause: 'WHERE', subject: f.col, operator: f.op, comparator: f.val }));
  const next: FormData = { ...formData, adhoc_filters: [...(Array.isArray(formData.adhoc_filters) ? formData.adhoc_filters : []), ...adhoc] };
  const groupby = Array.isArray(formData.groupby) ? formData.groupby : [];
  if (groupby.length) next.groupby = [column];
  else if (formData.x_axis) {
    next.x_axis = column;
    // A category x-axis has no time grain.
    next.time_grain_sqla = null;
  } else next.groupby = [column];
  return next;
}
