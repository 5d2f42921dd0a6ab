import { ANNOTATION_OVERRIDE_KEYS, ChartAnnotationLayerSchema, ChartDataRequestSchema, type ChartAnnotationLayer, type ChartDataQueryResult, type ChartDataRequest } from '@meridian/contracts';
import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { QueryObject } from '@meridian/contracts/chart-data/query-object';
import type { AnnotationLayerService } from '../annotation-layer/annotation-layer.service';
import type { ChartRecord } from '../chart/chart.repository';
import type { ChartService } from '../chart/chart.service';
import { NotFound, StructuredError } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { ChartDataService } from './chart-data.service';

/** The columns of a NATIVE layer's answer, in Superset's order. */
export const NATIVE_ANNOTATION_COLUMNS = ['start_dttm', 'end_dttm', 'short_descr', 'long_descr', 'json_metadata'] as const;

export const ANNOTATION_LAYER_NOT_FOUND = 'Annotation layer not found.';
export const ANNOTATION_CHART_NOT_FOUND = 'The chart does not exist';
export const ANNOTATION_QUERY_CONTEXT_NOT_FOUND = 'The chart query context does not exist';
export const ANNOTATION_LAYERS_INVALID = 'Annotation layers are invalid';

const invalid = (message: string, extra: Record<string, unknown> = {}) => new StructuredError(400, [{ message, error_type: 'INVALID_PAYLOAD_SCHEMA_ERROR', level: 'error', extra }]);

type RawQuery = Record<string, any>;

/** The annotated query's time range as its own query resolves it (time_range, else its TEMPORAL_RANGE filter). */
function currentTimeRange(query: QueryObject): string | null {
  const temporal = query.filters.find((f) => f.op === 'TEMPORAL_RANGE' && typeof f.val === 'string');
  if (query.timeRange && (query.granularity || !temporal)) return query.timeRange;
  return (temporal?.val as string | undefined) ?? query.timeRange;
}

function currentTimeGrain(query: QueryObject): string | null {
  if (query.extras.time_grain_sqla) return query.extras.time_grain_sqla;
  const axis = query.columns.find((c) => typeof c === 'object' && c.columnType === 'BASE_AXIS');
  return axis && typeof axis === 'object' ? (axis.timeGrain ?? null) : null;
}

const isTemporalRange = (op: unknown) => String(op ?? '').toUpperCase() === 'TEMPORAL_RANGE';

/**
 * One query object of an annotation source chart with the layer's overrides applied, as Superset's
 * explore client does: for each of time_range, granularity and time_grain_sqla named in `overrides`,
 * a null value takes the annotated query's value, any other value is used as is. A key whose value
 * ends up null leaves the source chart's own setting. The source's own annotation layers are dropped
 * (they are not part of the answer, and a chart annotating itself would never end).
 *
 * @example applyAnnotationOverrides({ time_range: 'Last year' }, { time_range: null }, current) // { time_range: <current's range>, annotation_layers: [] }
 */
export function applyAnnotationOverrides(raw: RawQuery, overrides: Record<string, unknown> | null | undefined, current: QueryObject): RawQuery {
  const out: RawQuery = { ...raw, annotation_layers: [] };
  for (const key of ANNOTATION_OVERRIDE_KEYS) {
    if (!overrides || !(key in overrides)) continue;
    const fromCurrent = key === 'time_range' ? currentTimeRange(current) : key === 'granularity' ? current.granularity : currentTimeGrain(current);
    const value = overrides[key] ?? fromCurrent;
    if (value === null || value === undefined) continue;
    if (key === 'time_range') {
      // The range may live in time_range or in TEMPORAL_RANGE filters (simple or adhoc): all of them move.
      out.time_range = value;
      if (Array.isArray(out.filters)) out.filters = out.filters.map((f: RawQuery) => (isTemporalRange(f?.op) ? { ...f, val: value } : f));
      if (Array.isArray(out.adhoc_filters)) {
        out.adhoc_filters = out.adhoc_filters.map((f: RawQuery) => (isTemporalRange(f?.operator ?? f?.operatorId) ? { ...f, comparator: value } : f));
      }
    } else if (key === 'granularity') {
      // Only a legacy time series has a granularity column to swap; an x-axis chart would gain a second time filter.
      if (out.granularity || out.granularity_sqla) {
        out.granularity = value;
        delete out.granularity_sqla;
      }
    } else {
      // The grain is read from extras, but an x-axis column's own grain wins over it: set both.
      out.extras = { ...(out.extras ?? {}), time_grain_sqla: value };
      if (Array.isArray(out.columns)) out.columns = out.columns.map((c: unknown) => (c && typeof c === 'object' && (c as RawQuery).columnType === 'BASE_AXIS' ? { ...(c as RawQuery), timeGrain: value } : c));
    }
  }
  return out;
}

/** A chart's saved query context, else one built from its form data (params); null when it has neither. */
function chartQueryContext(chart: ChartRecord): RawQuery | null {
  const parse = (text: string | null) => {
    if (!text) return null;
    try {
      const value = JSON.parse(text);
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as RawQuery) : null;
    } catch {
      return null;
    }
  };
  const saved = parse(chart.query_context);
  if (saved && Array.isArray(saved.queries) && saved.queries.length) return { ...saved, datasource: saved.datasource ?? { id: chart.datasource_id, type: 'table' } };
  const params = parse(chart.params);
  if (!params) return null;
  try {
    return queryContextFromFormData({ ...params, datasource: params.datasource ?? `${chart.datasource_id}__table` });
  } catch {
    return null;
  }
}

/**
 * `annotation_data` of one chart data query, keyed by layer name (Superset's
 * QueryContextProcessor.get_annotation_data): NATIVE layers give their annotations, a chart as
 * source gives the first query's rows of that chart run with the layer's overrides. FORMULA layers
 * (computed by the client) and hidden layers are skipped.
 */
export class AnnotationData {
  constructor(
    private readonly deps: {
      annotationLayers: AnnotationLayerService;
      /** Lazy: the chart and chart data services are built after this one (chart data depends on it). */
      charts: () => ChartService;
      chartData: () => ChartDataService;
    },
  ) {}

  async get(actor: Actor, rawLayers: unknown[], query: QueryObject, opts: { force: boolean }): Promise<Record<string, unknown>> {
    const layers = rawLayers.map((raw, index) => {
      const parsed = ChartAnnotationLayerSchema.safeParse(raw);
      if (!parsed.success) throw invalid(ANNOTATION_LAYERS_INVALID, { annotation_layers: { [index]: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) } });
      return parsed.data;
    });
    const shown = layers.filter((l) => l.show !== false && l.annotationType !== 'FORMULA' && l.sourceType && l.sourceType !== 'FORMULA');
    const data: Record<string, unknown> = {};
    const native = shown.filter((l) => l.sourceType === 'NATIVE');
    if (native.length) {
      const ids = native.map((l) => this.layerId(l));
      const byLayer = await this.deps.annotationLayers.nativeAnnotations(ids);
      native.forEach((layer, i) => {
        const records = byLayer.get(ids[i]);
        if (!records) throw invalid(ANNOTATION_LAYER_NOT_FOUND, { layer: layer.name });
        data[layer.name] = { columns: [...NATIVE_ANNOTATION_COLUMNS], records };
      });
    }
    for (const layer of shown) {
      if (layer.sourceType === 'NATIVE') continue;
      data[layer.name] = await this.chartRecords(actor, layer, query, opts.force);
    }
    return data;
  }

  /**
   * Refuses a cached payload to an actor who may not read a chart its annotation layers draw on:
   * the cache key is the query's, not the user's, so the layers' charts are checked on every hit.
   */
  async authorize(actor: Actor, rawLayers: unknown[]): Promise<void> {
    for (const raw of rawLayers) {
      const parsed = ChartAnnotationLayerSchema.safeParse(raw);
      if (!parsed.success || parsed.data.show === false || !parsed.data.sourceType || ['NATIVE', 'FORMULA'].includes(parsed.data.sourceType)) continue;
      const chartId = Number(parsed.data.value);
      try {
        await this.deps.charts().record(actor, chartId);
      } catch (error) {
        if (error instanceof NotFound) throw invalid(ANNOTATION_CHART_NOT_FOUND, { layer: parsed.data.name });
        throw error;
      }
    }
  }

  private layerId(layer: ChartAnnotationLayer): number {
    const id = Number(layer.value);
    if (!Number.isInteger(id)) throw invalid(ANNOTATION_LAYER_NOT_FOUND, { layer: layer.name });
    return id;
  }

  /** The chart's data with the overrides applied: `{records: <its first query's rows>}`. */
  private async chartRecords(actor: Actor, layer: ChartAnnotationLayer, current: QueryObject, force: boolean): Promise<{ records: unknown[] }> {
    const chartId = Number(layer.value);
    if (!Number.isInteger(chartId)) throw invalid(ANNOTATION_CHART_NOT_FOUND, { layer: layer.name });
    let chart: ChartRecord;
    try {
      // Readable charts only: a chart on a dataset the actor may not query is as absent as a missing one.
      chart = await this.deps.charts().record(actor, chartId);
    } catch (error) {
      if (error instanceof NotFound) throw invalid(ANNOTATION_CHART_NOT_FOUND, { layer: layer.name });
      throw error;
    }
    const context = chartQueryContext(chart);
    if (!context) throw invalid(ANNOTATION_QUERY_CONTEXT_NOT_FOUND, { layer: layer.name });
    const parsed = ChartDataRequestSchema.safeParse({
      ...context,
      // Rows are what the layer needs, whatever the source's queries were saved to answer.
      queries: (context.queries as RawQuery[]).map((q) => ({ ...applyAnnotationOverrides(q, layer.overrides, current), result_type: 'full' })),
      result_type: 'full',
      result_format: 'json',
      force,
    });
    if (!parsed.success) throw invalid(ANNOTATION_QUERY_CONTEXT_NOT_FOUND, { layer: layer.name });
    const request: ChartDataRequest = parsed.data;
    const [first] = await this.deps.chartData().results(actor, request, chart.id);
    return { records: (first as ChartDataQueryResult | undefined)?.data ?? [] };
  }
}
