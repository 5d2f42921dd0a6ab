import { describe, expect, it } from 'vitest';
import { frameFromRows, frameToRows } from './frame';
import {
  aggregate, applyPostProcessing, boxplot, compare, contribution, cum, diff, flatten, histogram, joinTimeOffset, percentile, pivot, PostProcessingError,
  rename, resample, rolling, select, sort,
} from './post-processing';

const DAY = 86_400_000;
const t0 = Date.UTC(2024, 0, 1);
// Births by day and gender: hand-made so every answer below can be checked by eye.
const births = [
  { ds: t0, gender: 'boy', num: 10 },
  { ds: t0, gender: 'girl', num: 20 },
  { ds: t0 + DAY, gender: 'boy', num: 30 },
  { ds: t0 + DAY, gender: 'girl', num: 40 },
  { ds: t0 + 2 * DAY, gender: 'boy', num: 50 },
  { ds: t0 + 3 * DAY, gender: 'girl', num: 60 },
];
const frame = (rows: Record<string, unknown>[]) => frameFromRows(Object.keys(rows[0]), rows);
const out = (f: ReturnType<typeof frame>) => frameToRows(flatten(f)).rows;

describe('aggregate', () => {
  it('groups and applies numpy operators (std is the population std)', () => {
    const result = aggregate(frame(births), {
      groupby: ['gender'],
      aggregates: { total: { column: 'num', operator: 'sum' }, avg: { column: 'num', operator: 'mean' }, sd: { column: 'num', operator: 'std' }, p: { column: 'num', operator: 'percentile', options: { q: 50 } }, n: { column: 'num', operator: 'count' } },
    });
    expect(out(result)).toEqual([
      { gender: 'boy', total: 90, avg: 30, sd: Math.sqrt(800 / 3), p: 30, n: 3 },
      { gender: 'girl', total: 120, avg: 40, sd: Math.sqrt(800 / 3), p: 40, n: 3 },
    ]);
  });
  it('refuses unknown operators', () => {
    expect(() => aggregate(frame(births), { groupby: [], aggregates: { x: { column: 'num', operator: 'eval' } } })).toThrow('Invalid numpy function: eval');
  });
});

describe('pivot + flatten + rename (the timeseries chart pipeline)', () => {
  const pivoted = () => pivot(frame(births), { index: ['ds'], columns: ['gender'], aggregates: { num: { operator: 'mean' } }, drop_missing_columns: false });
  it('spreads one column per series, null where a series has no row', () => {
    expect(out(pivoted())).toEqual([
      { ds: t0, 'num, boy': 10, 'num, girl': 20 },
      { ds: t0 + DAY, 'num, boy': 30, 'num, girl': 40 },
      { ds: t0 + 2 * DAY, 'num, boy': 50, 'num, girl': null },
      { ds: t0 + 3 * DAY, 'num, boy': null, 'num, girl': 60 },
    ]);
  });
  it('renaming the metric level to null leaves bare series names', () => {
    const result = frameToRows(flatten(rename(pivoted(), { columns: { num: null }, level: 0 })));
    expect(result.colnames).toEqual(['ds', 'boy', 'girl']);
  });
  it('without columns keeps the metric name; marginal distributions add All totals', () => {
    const p = pivot(frame(births), { index: ['gender'], aggregates: { num: { operator: 'sum' } } });
    expect(out(p)).toEqual([{ gender: 'boy', num: 90 }, { gender: 'girl', num: 120 }]);
    const m = pivot(frame(births), { index: ['gender'], columns: ['ds'], aggregates: { num: { operator: 'sum' } }, marginal_distributions: true });
    const rows = out(m);
    expect(rows[2]).toMatchObject({ gender: 'All', 'num, All': 210 });
    expect(rows[0]['num, All']).toBe(90);
  });
  it('fills a null series value with <NULL> and requires an index', () => {
    const p = pivot(frame([{ x: 1, g: null, v: 5 }]), { index: ['x'], columns: ['g'], aggregates: { v: { operator: 'sum' } } });
    expect(frameToRows(flatten(p)).colnames).toEqual(['x', 'v, <NULL>']);
    expect(() => pivot(frame(births), { index: [], aggregates: { num: { operator: 'sum' } } })).toThrow('Pivot operation requires at least one index');
  });
});

describe('rolling, cum, diff', () => {
  const series = frame([{ x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 4 }, { x: 4, y: 8 }, { x: 5, y: null }]);
  it("rolling mean/sum/std over a window (spec 01 §5 rolling types: mean, sum, std, cumsum)", () => {
    expect(out(rolling(series, { rolling_type: 'sum', window: 2, columns: { y: 'y' } })).map((r) => r.y)).toEqual([null, 3, 6, 12, null]);
    expect(out(rolling(series, { rolling_type: 'mean', window: 3, min_periods: 1, columns: { y: 'm' } })).map((r) => r.m)).toEqual([1, 1.5, 7 / 3, 14 / 3, 6]);
    const std = out(rolling(series, { rolling_type: 'std', window: 2, columns: { y: 's' } })).map((r) => r.s);
    expect(std[1]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(std[3]).toBeCloseTo(Math.sqrt(8), 12);
  });
  it('min_periods drops the min_periods - 1 leading rows that cannot reach it, as Superset does (df[min_periods - 1:])', () => {
    expect(out(rolling(series, { rolling_type: 'sum', window: 2, min_periods: 2, columns: { y: 'y' } })).map((r) => [r.x, r.y])).toEqual([[2, 3], [3, 6], [4, 12], [5, null]]);
    expect(out(rolling(series, { rolling_type: 'sum', window: 2, min_periods: 1, columns: { y: 'y' } })).map((r) => r.y)).toEqual([1, 3, 6, 12, 8]);
  });
  it('refuses a missing or zero window and unknown types', () => {
    expect(() => rolling(series, { rolling_type: 'sum' })).toThrow('Undefined window for rolling operation');
    expect(() => rolling(series, { rolling_type: 'sum', window: 0 })).toThrow('Window must be > 0');
    expect(() => rolling(series, { rolling_type: 'apply', window: 2 })).toThrow('Invalid rolling_type: apply');
  });
  it('cumsum skips nulls and keeps their place; diff subtracts the previous row', () => {
    expect(out(cum(series, { operator: 'sum', columns: { y: 'c' } })).map((r) => r.c)).toEqual([1, 3, 7, 15, null]);
    expect(out(cum(series, { operator: 'max', columns: { y: 'y' } })).map((r) => r.y)).toEqual([1, 2, 4, 8, null]);
    expect(out(diff(series, { columns: { y: 'd' } })).map((r) => r.d)).toEqual([null, 1, 2, 4, null]);
    expect(out(diff(series, { columns: { y: 'd' }, periods: 2 })).map((r) => r.d)).toEqual([null, null, 3, 6, null]);
  });
});

describe('contribution and compare', () => {
  it('column orientation divides by the column total (nulls count as 0)', () => {
    const f = frame([{ g: 'a', v: 1, w: 2 }, { g: 'b', v: 3, w: null }]);
    expect(out(contribution(f, {}))).toEqual([{ g: 'a', v: 0.25, w: 1 }, { g: 'b', v: 0.75, w: 0 }]);
    const byRow = out(contribution(f, { orientation: 'row', columns: ['v', 'w'], rename_columns: ['v%', 'w%'] }));
    expect(byRow[0]).toEqual({ g: 'a', v: 1, w: 2, 'v%': 1 / 3, 'w%': 2 / 3 });
    // row orientation divides the frame's own cells: a null stays null and the total skips it
    expect(byRow[1]).toEqual({ g: 'b', v: 3, w: null, 'v%': 1, 'w%': null });
  });
  it('compare: difference, percentage and ratio named type__source__compare (spec 01 §5 comparison types)', () => {
    const f = frame([{ x: 1, m: 12, 'm__1 year ago': 10 }, { x: 2, m: 5, 'm__1 year ago': 0 }]);
    const opts = { source_columns: ['m'], compare_columns: ['m__1 year ago'] };
    expect(out(compare(f, { ...opts, compare_type: 'difference' })).map((r) => r['difference__m__m__1 year ago'])).toEqual([2, 5]);
    expect(out(compare(f, { ...opts, compare_type: 'percentage' })).map((r) => r['percentage__m__m__1 year ago'])).toEqual([0.2, null]);
    expect(out(compare(f, { ...opts, compare_type: 'ratio', drop_original_columns: true }))).toEqual([{ x: 1, 'ratio__m__m__1 year ago': 1.2 }, { x: 2, 'ratio__m__m__1 year ago': null }]);
    // numpy rounds halves to even: 1/32 = 0.03125 -> 0.0312, 3/32 = 0.09375 -> 0.0938
    const halves = frame([{ a: 1, b: 32 }, { a: 3, b: 32 }]);
    expect(out(compare(halves, { source_columns: ['a'], compare_columns: ['b'], compare_type: 'ratio' })).map((r) => r.ratio__a__b)).toEqual([0.0312, 0.0938]);
    expect(() => compare(f, { ...opts, compare_type: 'values' })).toThrow('`compare_type` must be `difference`, `percentage` or `ratio`');
  });

  it("on a pivoted frame (the time-series charts' advanced analytics) rolls every column and compares each group with its own shift", () => {
    // Births with last year's births beside them, by day and gender, as the time-offset join adds them.
    const shifted = births.map((r) => ({ ...r, 'num__1 year ago': r.num / 2 }));
    const pivoted = pivot(frame(shifted), { index: ['ds'], columns: ['gender'], aggregates: { num: { operator: 'mean' }, 'num__1 year ago': { operator: 'mean' } } });
    // is_pivot_df: the columns mapping names the first level only; every (metric, gender) column rolls in place.
    const rolled = out(rolling(pivoted, { rolling_type: 'sum', window: 2, min_periods: 0, columns: { num: 'num', 'num__1 year ago': 'num__1 year ago' }, is_pivot_df: true }));
    expect(rolled.map((r) => r['num, boy'])).toEqual([10, 40, 80, 50]);
    expect(out(cum(pivoted, { operator: 'sum', columns: { num: 'num' }, is_pivot_df: true })).map((r) => r['num, girl'])).toEqual([20, 60, null, 120]);
    const diff = out(compare(pivoted, { source_columns: ['num'], compare_columns: ['num__1 year ago'], compare_type: 'difference', drop_original_columns: true }));
    expect(diff[0]).toEqual({ ds: t0, 'difference__num__num__1 year ago, boy': 5, 'difference__num__num__1 year ago, girl': 10 });
    expect(() => compare(pivoted, { source_columns: ['nope'], compare_columns: ['num'], compare_type: 'ratio' })).toThrow('Referenced columns not available in DataFrame: nope');
  });
});

describe('resample', () => {
  const gappy = () => pivot(frame([{ ds: t0, v: 1 }, { ds: t0 + 3 * DAY, v: 4 }]), { index: ['ds'], aggregates: { v: { operator: 'sum' } } });
  it('asfreq with fill_value 0 fills missing days (zero fill)', () => {
    expect(out(resample(gappy(), { rule: '1D', method: 'asfreq', fill_value: 0 })).map((r) => r.v)).toEqual([1, 0, 0, 4]);
  });
  it('zero fill spans the whole queried time range', () => {
    const rows = out(resample(gappy(), { rule: '1D', method: 'asfreq', fill_value: 0, time_range_start: '2023-12-30T00:00:00', time_range_end: '2024-01-06T00:00:00' }));
    expect(rows.map((r) => r.v)).toEqual([0, 0, 1, 0, 0, 4, 0]);
  });
  it('ffill, bfill and linear', () => {
    expect(out(resample(gappy(), { rule: '1D', method: 'ffill' })).map((r) => r.v)).toEqual([1, 1, 1, 4]);
    expect(out(resample(gappy(), { rule: '1D', method: 'bfill' })).map((r) => r.v)).toEqual([1, 4, 4, 4]);
    expect(out(resample(gappy(), { rule: '1D', method: 'linear' })).map((r) => r.v)).toEqual([1, 2, 3, 4]);
    // pandas interpolates month starts by position, not by days: Feb is halfway between Jan and Mar
    const months = pivot(frame([{ ds: t0, v: 100 }, { ds: Date.UTC(2024, 2, 1), v: 80 }]), { index: ['ds'], aggregates: { v: { operator: 'sum' } } });
    expect(out(resample(months, { rule: 'MS', method: 'linear' })).map((r) => r.v)).toEqual([100, 90, 80]);
  });
  it('sum into weeks ending Sunday and month starts', () => {
    const daily = pivot(frame(Array.from({ length: 10 }, (_, i) => ({ ds: t0 + i * DAY, v: 1 }))), { index: ['ds'], aggregates: { v: { operator: 'sum' } } });
    // 2024-01-01 is a Monday: 7 days fall in the week ending Sun 7 Jan, 3 in the next
    expect(out(resample(daily, { rule: 'W', method: 'sum' }))).toEqual([{ ds: Date.UTC(2024, 0, 7), v: 7 }, { ds: Date.UTC(2024, 0, 14), v: 3 }]);
    expect(out(resample(daily, { rule: 'MS', method: 'sum' }))).toEqual([{ ds: t0, v: 10 }]);
  });
  it('requires a temporal index and a known method', () => {
    expect(() => resample(frame([{ a: 1 }]), { rule: '1D', method: 'asfreq' })).toThrow('Resample operation requires DatetimeIndex');
    expect(() => resample(gappy(), { rule: '1D', method: 'nearest' })).toThrow('Resample method should be in');
  });
});

describe('sort, select, boxplot, histogram', () => {
  it('sorts by columns, nulls last', () => {
    const f = frame([{ a: 2 }, { a: null }, { a: 3 }, { a: 1 }]);
    expect(out(sort(f, { by: 'a', ascending: false })).map((r) => r.a)).toEqual([3, 2, 1, null]);
    expect(out(sort(f, { columns: { a: true } })).map((r) => r.a)).toEqual([1, 2, 3, null]);
  });
  it('select keeps, excludes and renames', () => {
    expect(out(select(frame(births.slice(0, 1)), { columns: ['gender', 'num'], exclude: ['gender'], rename: { num: 'n' } }))).toEqual([{ n: 10 }]);
  });
  it('boxplot with Tukey whiskers finds the outlier', () => {
    const f = frame([1, 2, 3, 4, 100].map((v) => ({ g: 'a', v })));
    const [row] = out(boxplot(f, { groupby: ['g'], metrics: ['v'], whisker_type: 'tukey' }));
    expect(row).toMatchObject({ g: 'a', v__mean: 22, v__median: 3, v__q1: 2, v__q3: 4, v__min: 1, v__max: 4, v__count: 5, v__outliers: [100] });
  });
  it('boxplot with percentile or min/max whiskers; outliers above first, then below, in row order', () => {
    const f = frame([-50, 5, 1, 9, 3, 7, 60, -40].map((v) => ({ g: 'a', v })));
    const [row] = out(boxplot(f, { groupby: ['g'], metrics: ['v'], whisker_type: 'percentile', percentiles: [10, 90] }));
    // numpy: np.percentile([-50,5,1,9,3,7,60,-40], [10, 90]) == [-43.0, 24.3]
    expect(row!.v__min).toBeCloseTo(-43);
    expect(row!.v__max).toBeCloseTo(24.3);
    expect(row!.v__outliers).toEqual([60, -50]);
    const [minmax] = out(boxplot(f, { groupby: ['g'], metrics: ['v'], whisker_type: 'min/max' }));
    expect(minmax).toMatchObject({ v__min: -50, v__max: 60, v__outliers: [] });
    expect(() => boxplot(f, { metrics: ['v'], whisker_type: 'percentile', percentiles: [90, 10] })).toThrow('percentiles must be a list or tuple');
  });
  it('boxplot of many rows gives the statistics the definition does (Tukey: furthest values within 1.5 IQR)', () => {
    let seed = 7;
    const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 100 - 50;
    const values = Array.from({ length: 3000 }, (_, i) => (i % 97 === 0 ? next() * 20 : next()));
    const [row] = out(boxplot(frame(values.map((v) => ({ g: 'a', v }))), { groupby: ['g'], metrics: ['v'] }));
    const [q1, q3] = [percentile(values, 25, 'midpoint')!, percentile(values, 75, 'midpoint')!];
    const high = Math.max(...values.filter((x) => x <= q3 + 1.5 * (q3 - q1)));
    const low = Math.min(...values.filter((x) => x >= q1 - 1.5 * (q3 - q1)));
    expect(row).toMatchObject({ v__q1: q1, v__q3: q3, v__max: high, v__min: low, v__median: percentile(values, 50), v__count: 3000 });
    expect(row!.v__outliers).toEqual([...values.filter((x) => x > high), ...values.filter((x) => x < low)]);
    expect((row!.v__outliers as number[]).length).toBeGreaterThan(0);
  });
  it('histogram bins counts between min and max, labelled like Python floats', () => {
    const f = frame([0, 1, 2, 3, 4, 10].map((v) => ({ v })));
    expect(out(histogram(f, { column: 'v', bins: 2 }))).toEqual([{ '0.0 - 5.0': 5, '5.0 - 10.0': 1 }]);
    expect(out(histogram(f, { column: 'v', bins: 2, cumulative: true, normalize: true }))).toEqual([{ '0.0 - 5.0': 5 / 11, '5.0 - 10.0': 6 / 11 }]);
    expect(() => histogram(f, { column: 'v', bins: 0 })).toThrow('`bins` must be an integer between 1 and 1000');
  });
});

describe('applyPostProcessing and time offsets', () => {
  it('runs a pipeline and returns flat rows', () => {
    const result = applyPostProcessing(['ds', 'gender', 'num'], births, [
      { operation: 'pivot', options: { index: ['ds'], columns: ['gender'], aggregates: { num: { operator: 'mean' } } } },
      { operation: 'cum', options: { operator: 'sum' } },
      { operation: 'flatten' },
    ]);
    expect(result.colnames).toEqual(['ds', 'num, boy', 'num, girl']);
    expect(result.rows.map((r) => r['num, boy'])).toEqual([10, 40, 90, null]);
  });
  it('refuses unknown operations', () => {
    expect(() => applyPostProcessing(['a'], [{ a: 1 }], [{ operation: '__import__' }])).toThrow(PostProcessingError);
  });
  it('joins the shifted query onto the main time axis', () => {
    const main = { colnames: ['ds', 'm'], rows: [{ ds: Date.UTC(2024, 0, 1), m: 12 }, { ds: Date.UTC(2024, 1, 1), m: 7 }] };
    const lastYear = [{ ds: Date.UTC(2023, 0, 1), m: 10 }];
    const joined = joinTimeOffset(main, lastYear, { offset: '1 year ago', timeColumn: 'ds', joinColumns: [], metrics: ['m'], shiftMs: (t) => { const d = new Date(t); d.setUTCFullYear(d.getUTCFullYear() + 1); return d.getTime(); } });
    expect(joined.rows).toEqual([{ ds: Date.UTC(2024, 0, 1), m: 12, 'm__1 year ago': 10 }, { ds: Date.UTC(2024, 1, 1), m: 7, 'm__1 year ago': null }]);
  });
});
