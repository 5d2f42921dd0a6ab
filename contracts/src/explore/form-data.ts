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
 * A change of chart type: values of controls the new type does not have move to the stash, and stashed
 * values of controls it has come back; `metric` and `metrics` carry over to each other.
 */
export function switchVizType(
  formData: ExploreFormData,
  stash: Record<string, unknown>,
  vizType: string,
  newControlNames: ReadonlySet<string>,
  newDefaults: Record<string, unknown> = {},
): { formData: ExploreFormData; stash: Record<string, unknown> } {
  const next: ExploreFormData = { ...formData, viz_type: vizType };
  const nextStash: Record<string, unknown> = { ...stash };
  if (newControlNames.has('metric') && !newControlNames.has('metrics') && Array.isArray(formData.metrics) && formData.metrics.length && !formData.metric) next.metric = formData.metrics[0];
  if (newControlNames.has('metrics') && !newControlNames.has('metric') && formData.metric && !(Array.isArray(formData.metrics) && formData.metrics.length)) next.metrics = [formData.metric];
  for (const key of Object.keys(next)) {
    if (PERSISTENT_KEYS.has(key) || newControlNames.has(key)) continue;
    nextStash[key] = next[key];
    delete next[key];
  }
  for (const key of newControlNames) {
    if (key in nextStash && next[key] === undefined) {
      next[key] = nextStash[key];
      delete nextStash[key];
    }
  }
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
