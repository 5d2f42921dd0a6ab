/**
 * Explore's form data rules (spec 01 §4, §5): what happens to form data when the dataset or the chart
 * type changes, and when a metric is renamed. Pure, shared by the Explore screen and its tests.
 */

export type ExploreFormData = Record<string, any> & { viz_type: string };

export interface DatasourceFields {
  columns: ReadonlyArray<{ column_name: string }>;
  metrics: ReadonlyArray<{ metric_name: string }>;
}

/** Keys every chart keeps whatever its type (they are not controls of any one type). */
export const PERSISTENT_KEYS = new Set(['datasource', 'viz_type', 'slice_id', 'url_params', 'dashboards', 'adhoc_filters', 'time_range', 'extra_form_data', 'force']);

export const SQL_ADHOC_KEPT_WARNING = 'SQL expressions are kept as written; check that they still apply to this dataset.';

type Entry = string | { expressionType?: string; column?: { column_name?: string } | null; sqlExpression?: string; label?: string };

function keepMetric(entry: Entry, ds: DatasourceFields): 'keep' | 'drop' | 'sql' {
  if (typeof entry === 'string') return ds.metrics.some((m) => m.metric_name === entry) ? 'keep' : 'drop';
  if (entry.expressionType === 'SQL') return 'sql';
  return entry.column?.column_name && ds.columns.some((c) => c.column_name === entry.column!.column_name) ? 'keep' : 'drop';
}

function keepColumn(entry: Entry, ds: DatasourceFields): 'keep' | 'drop' | 'sql' {
  if (typeof entry === 'string') return ds.columns.some((c) => c.column_name === entry) ? 'keep' : 'drop';
  return entry.sqlExpression ? 'sql' : 'drop';
}

/**
 * Saved metrics and columns the dataset does not have are dropped, falling back to the control's default;
 * SQL adhoc expressions are kept, with a warning (spec 01 §5).
 */
export function dropMissingDatasourceValues(
  formData: ExploreFormData,
  controls: ReadonlyArray<{ name: string; type: string; default?: unknown }>,
  ds: DatasourceFields,
): { formData: ExploreFormData; warnings: string[] } {
  const next: ExploreFormData = { ...formData };
  let sqlKept = false;
  for (const control of controls) {
    const check = control.type === 'MetricsControl' ? keepMetric : control.type === 'GroupByControl' ? keepColumn : null;
    const value = next[control.name];
    if (!check || value === undefined || value === null) continue;
    const list: Entry[] = Array.isArray(value) ? value : [value];
    const kept = list.filter((entry) => {
      const verdict = check(entry, ds);
      if (verdict === 'sql') sqlKept = true;
      return verdict !== 'drop';
    });
    if (kept.length === list.length) continue;
    if (Array.isArray(value)) next[control.name] = kept.length || control.default === undefined ? kept : control.default;
    else next[control.name] = kept[0] ?? control.default ?? null;
  }
  return { formData: next, warnings: sqlKept ? [SQL_ADHOC_KEPT_WARNING] : [] };
}

/**
 * Controls that hold the query's metrics or its dimensions under different names per chart type (Superset's
 * standardized form data): a chart type switch hands what one type chose to the other's controls of the same kind.
 * Lists take every value; single ones one each, in order.
 */
const METRIC_LISTS = ['metrics', 'percent_metrics'];
const METRIC_SINGLES = ['metric', 'x', 'y', 'size', 'metric_2', 'secondary_metric'];
const COLUMN_LISTS = ['groupby', 'groupbyRows', 'groupbyColumns', 'columns', 'all_columns'];
const COLUMN_SINGLES = ['entity', 'series'];

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The values a form data holds in some controls, in the controls' order, each once. */
function pool(formData: ExploreFormData, keys: readonly string[]): unknown[] {
  const out: unknown[] = [];
  for (const key of keys) for (const value of Array.isArray(formData[key]) ? (formData[key] as unknown[]) : [formData[key]]) if (!isEmpty(value) && !out.some((v) => same(v, value))) out.push(value);
  return out;
}

/**
 * Hands one kind (metrics or dimensions) to the new type when it holds none of that kind yet (a same-named control
 * carried over or restored from the stash holds its own): its first list control takes them all, or else its
 * single ones take one each.
 */
function fillFrom(next: ExploreFormData, values: unknown[], lists: readonly string[], singles: readonly string[], names: ReadonlySet<string>): void {
  if (!values.length || [...lists, ...singles].some((key) => names.has(key) && !isEmpty(next[key]))) return;
  const list = lists.find((key) => names.has(key));
  if (list) {
    next[list] = values;
    return;
  }
  const left = [...values];
  for (const key of singles) if (names.has(key) && left.length) next[key] = left.shift();
}

/** Where a type's own control (see `switchVizType`) keeps its value in the stash: apart from other types' same-named ones. */
const ownStashKey = (vizType: string, key: string) => `${vizType}:${key}`;

/**
 * A change of chart type: values of controls the new type does not have move to the stash, and stashed
 * values of controls it has come back; then its empty metric and dimension controls take what the old type
 * chose under other names (a pie's groupby becomes a pivot table's rows, a line's metrics a bubble's x).
 *
 * A type's own controls (`own.from` of the old type, `own.to` of the new) share a name with other types' controls
 * but not their meaning, so their values never pass between types: each is stashed for, and restored to, its own
 * type. The table's 'Time shift' needs an enclosed time range, a line's does not: a line's time shifts would make
 * the table fail, so they wait in the stash for the line.
 */
export function switchVizType(
  formData: ExploreFormData,
  stash: Record<string, unknown>,
  vizType: string,
  newControlNames: ReadonlySet<string>,
  newDefaults: Record<string, unknown> = {},
  own: { from?: ReadonlySet<string>; to?: ReadonlySet<string> } = {},
): { formData: ExploreFormData; stash: Record<string, unknown> } {
  const next: ExploreFormData = { ...formData, viz_type: vizType };
  const nextStash: Record<string, unknown> = { ...stash };
  const metrics = pool(formData, [...METRIC_LISTS, ...METRIC_SINGLES]);
  const columns = pool(formData, [...COLUMN_LISTS, ...COLUMN_SINGLES]);
  for (const key of Object.keys(next)) {
    if (PERSISTENT_KEYS.has(key)) continue;
    const fromOwn = own.from?.has(key) ?? false;
    if (newControlNames.has(key) && !fromOwn && !own.to?.has(key)) continue;
    nextStash[fromOwn ? ownStashKey(formData.viz_type, key) : key] = next[key];
    delete next[key];
  }
  for (const key of newControlNames) {
    const stashed = own.to?.has(key) ? ownStashKey(vizType, key) : key;
    if (stashed in nextStash && next[key] === undefined) {
      next[key] = nextStash[stashed];
      delete nextStash[stashed];
    }
  }
  fillFrom(next, metrics, METRIC_LISTS, METRIC_SINGLES, newControlNames);
  fillFrom(next, columns, COLUMN_LISTS, COLUMN_SINGLES, newControlNames);
  for (const [key, value] of Object.entries(newDefaults)) if (next[key] === undefined && newControlNames.has(key)) next[key] = value;
  return { formData: next, stash: nextStash };
}

/** A renamed metric keeps its column config (table formatting, widths) under its new label. */
export function renameMetricConfig(formData: ExploreFormData, oldLabel: string, newLabel: string): ExploreFormData {
  const config = formData.column_config as Record<string, unknown> | undefined;
  if (!config || !(oldLabel in config) || oldLabel === newLabel) return formData;
  const { [oldLabel]: moved, ...rest } = config;
  return { ...formData, column_config: { ...rest, [newLabel]: moved } };
}
