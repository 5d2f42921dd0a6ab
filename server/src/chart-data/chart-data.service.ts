import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ChartDataRequestSchema, filterOptionsQuery, hasPermission, queryContextModified, targetDataset, type NativeFilter, type StoredChartDefinition, type AsyncJobMetadata, type ChartDataQueryResult, type ChartDataRequest } from '@meridian/contracts';
import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { applyPostProcessing, joinTimeOffset, PostProcessingError } from '@meridian/contracts/chart-data/post-processing';
import { DTTM_ALIAS, getColumnLabel, getMetricLabel, normaliseQueryObject, type QueryObject, type QueryFilter } from '@meridian/contracts/chart-data/query-object';
import { allColumnsQuery, buildCountSql, buildQuerySql, countRowsSql, QueryBuildError, type DatasetForQuery } from '@meridian/contracts/chart-data/sql-builder';
import { addUnits, parseTimeDelta, resolveTimeOffset, shiftRange, TimeRangeError } from '@meridian/contracts/chart-data/time-range';
import { compareNatural } from '@meridian/contracts/rules/natural-order';
import { genericTypeOf, getEngineSpec, TIME_GRAIN_NAMES, type ResultColumn, type TimeGrain } from '@meridian/query-worker';
import { isSafeNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import type { Config } from '../config';
import type { CacheStore } from '../cache/cache-store';
import type { DashboardService } from '../dashboard/dashboard.service';
import type { AsyncEventService } from '../async-event/async-event.service';
import type { MeridianJobQueue } from '../jobs/jobs';
import type { DatabaseService } from '../database/database.service';
import { Forbidden, NotFound, StructuredError } from '../errors/domain-errors';
import type { DatasetRecord } from '../dataset/dataset.repository';
import type { RlsService } from '../rls/rls.service';
import type { DatasetService } from '../dataset/dataset.service';
import type { Logger } from '../logger';
import type { QueryRuntime } from '../results/query-runtime';
import type { Actor } from '../security/actor';
import { hasTemplate, renderSqlTemplate } from '../templates/sql-template';
import type { SecurityService } from '../security/security.service';
import type { AnnotationData } from './annotation-data';
import { dialectFor } from './query-dialect';

/** Chart results up to this many characters of row JSON come back from the worker inline (bigger ones are paged). */
const INLINE_MAX_BYTES = 16 * 1024 * 1024;

/** Rows cap of samples and drill detail (Superset's SAMPLES_ROW_LIMIT). */
export const SAMPLES_ROW_LIMIT = 1000;

/** The answer of the chart data door: JSON, or a file for csv/xlsx, or a 202 job. */
export type ChartDataAnswer =
  | { kind: 'json'; status: 200; body: string }
  | { kind: 'async'; status: 202; body: AsyncJobMetadata }
  | { kind: 'file'; status: 200; contentType: string; filename: string; body: Buffer | string };

/** What chart data needs of a saved chart to query it. */
export interface SavedChart { id: number; datasource_id: number | null; params: string | null; query_context: string | null }

/** An async chart data job in the job queue: the request as its user made it, and where its answer goes. */
export interface ChartDataJob {
  actor: Actor;
  request: ChartDataRequest;
  sliceId: number | null;
  job: AsyncJobMetadata;
  resultKey: string;
}

/** Who ran an asynchronous chart data job, stored at the head of its result. */
interface AsyncResultOwner {
  user_id: number;
  datasource_id: number | null;
}

interface Executed {
  sql: string;
  columns: ResultColumn[];
  rows: Record<string, unknown>[];
  rowcount: number;
}

/** Distinct values a filter picker lists at most (Superset's FILTER_SELECT_ROW_LIMIT). */
const COLUMN_VALUES_LIMIT = 10000;

/** Generic type of a JS value, for columns made by post-processing. */
function genericOfValue(value: unknown): number {
  if (typeof value === 'number' || typeof value === 'bigint') return 0;
  if (typeof value === 'boolean') return 3;
  return 1;
}

function parseNumber(text: string): number | bigint {
  if (/^-?\d+$/.test(text) && !isSafeNumber(text)) return BigInt(text);
  return Number(text);
}

/**
 * Row or payload JSON, big integers kept as BigInt. The lossless parser is several times slower
 * than JSON.parse, so it runs only when some run of 16 digits could be an integer beyond 2^53.
 */
function parseJson(text: string): unknown {
  return /\d{16}/.test(text) ? parseLossless(text, undefined, parseNumber) : JSON.parse(text);
}

/**
 * JSON of a payload whose big integers are BigInt. The lossless serialiser is several times slower
 * than JSON.stringify, so it runs only when JSON.stringify meets a BigInt (and refuses it).
 */
function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return stringifyLossless(value) ?? 'null';
  }
}

/** A temporal value as epoch milliseconds (Superset sends chart times that way). */
function toEpochMs(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  const iso = /[zZ]|[+-]\d\d(:?\d\d)?$/.test(text) ? text : `${text.replace(' ', 'T')}Z`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? value : ms;
}

export function datasetForQuery(record: DatasetRecord): DatasetForQuery {
  return {
    table_name: record.table_name,
    schema: record.schema,
    catalog: record.catalog,
    sql: record.sql,
    main_dttm_col: record.main_dttm_col,
    columns: record.columns.map((c) => ({ column_name: c.column_name, expression: c.expression, type: c.type, is_dttm: c.is_dttm, python_date_format: c.python_date_format, filterable: c.filterable, groupby: c.groupby })),
    metrics: record.metrics.map((m) => ({ metric_name: m.metric_name, expression: m.expression })),
    rls: record.rls,
  };
}

/** Label of the time axis of a query: the BASE_AXIS column, or __timestamp of a legacy time series. */
function xAxisLabel(query: QueryObject): string | null {
  const axis = query.columns.find((c) => typeof c === 'object' && c.columnType === 'BASE_AXIS');
  if (axis) return getColumnLabel(axis);
  if (query.isTimeseries && query.granularity) return DTTM_ALIAS;
  return null;
}

/** A `results` query's answer: the rows and their shape, without the full payload's metadata. */
const resultsOnly = (p: ChartDataQueryResult) => ({ data: p.data, colnames: p.colnames, coltypes: p.coltypes, rowcount: p.rowcount, sql_rowcount: p.sql_rowcount });

/**
 * Chart data (Superset's query context → `{result: [...]}`): SQL per engine, run through the
 * query pool, temporal columns as epoch ms, time offsets joined, post-processing applied, results
 * cached by a key of the normalised query, csv/xlsx exports, and the asynchronous path.
 */
export class ChartDataService {
  constructor(
    private readonly deps: {
      config: Config;
      logger: Logger;
      security: SecurityService;
      datasets: DatasetService;
      databases: DatabaseService;
      runtime: QueryRuntime;
      cache: CacheStore;
      events: AsyncEventService;
      chartCacheTimeout: (chartId: number) => Promise<number | null>;
      /** A saved chart, whoever asks (the caller has checked access). */
      savedChart: (chartId: number) => Promise<SavedChart | undefined>;
      /** Dashboards that grant their charts' data: a guest's embedded ones, and with DASHBOARD_RBAC their roles'. */
      dashboards: () => Pick<DashboardService, 'grantingData'>;
      annotationData: AnnotationData;
      rls: RlsService;
      /** Where async chart data jobs go: run in this process, or by whichever process takes them from the queue. */
      jobs: () => Pick<MeridianJobQueue, 'submit'>;
      now?: () => Date;
    },
  ) {}

  /**
   * Uncached queries being run, by cache key: an identical request that comes meanwhile (a second viewer of the
   * dashboard, Explore's own call after `prefetch`) waits for that run instead of running the query again.
   */
  private readonly running = new Map<string, Promise<ChartDataQueryResult>>();

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The dataset of a datasource reference the actor may query. */
  async datasource(actor: Actor, ref: { id: number; type: string } | null | undefined): Promise<DatasetRecord> {
    if (!ref) throw new StructuredError(400, [{ message: 'Datasource is required', error_type: 'INVALID_PAYLOAD_SCHEMA_ERROR', level: 'error', extra: {} }]);
    if (ref.type !== 'table' && ref.type !== 'dataset') {
      throw new StructuredError(400, [{ message: `Datasource type ${ref.type} is not supported`, error_type: 'UNKNOWN_DATASOURCE_TYPE_ERROR', level: 'error', extra: {} }]);
    }
    try {
      const record = await this.deps.datasets.getAccessible(actor, ref.id);
      const rls = await this.deps.rls.clausesFor(actor, record.id);
      return rls.length ? { ...record, rls } : record;
    } catch (error) {
      if (error instanceof NotFound) {
        throw new StructuredError(404, [{ message: 'The dataset does not exist or you do not have access to it', error_type: 'DATASOURCE_SECURITY_ACCESS_ERROR', level: 'error', extra: {} }]);
      }
      throw error;
    }
  }

  /**
   * The dataset a chart data request reads: one the actor may query, or one a dashboard grants through the request's
   * `dashboardId` (a guest's embedded dashboard; with DASHBOARD_RBAC, one whose roles the actor holds — Superset's
   * raise_for_access): for a chart of that dashboard asking only what it shows, or for a native filter of it.
   */
  private async requestDatasource(actor: Actor, request: ChartDataRequest, sliceId: number | null): Promise<DatasetRecord> {
    try {
      return await this.datasource(actor, request.datasource);
    } catch (refused) {
      const record = await this.grantedByDashboard(actor, request, sliceId).catch(() => undefined);
      if (!record) throw refused;
      const rls = await this.deps.rls.clausesFor(actor, record.id);
      return rls.length ? { ...record, rls } : record;
    }
  }

  private async grantedByDashboard(actor: Actor, request: ChartDataRequest, sliceId: number | null): Promise<DatasetRecord | undefined> {
    const dashboardId = Number(request.form_data?.dashboardId);
    if (!dashboardId || (!actor.guest && !this.deps.config.featureFlags.DASHBOARD_RBAC)) return undefined;
    const dashboard = await this.deps.dashboards().grantingData(actor, dashboardId);
    return dashboard && (await this.asksOnlyWhatItShows(request, sliceId, dashboard)) ? this.deps.datasets.getGranted(Number(request.datasource?.id)) : undefined;
  }

  /**
   * Whether the request is one of the dashboard's: for a chart of it on that chart's dataset, asking only what the
   * chart shows; or, marked NATIVE_FILTER, for a filter of it on its target, asking only the filter's options query.
   */
  private async asksOnlyWhatItShows(request: ChartDataRequest, sliceId: number | null, dashboard: { chart_ids: number[]; json_metadata: string | null }): Promise<boolean> {
    const fd = (request.form_data ?? {}) as Record<string, unknown>;
    const datasetId = Number(request.datasource?.id);
    if (fd.type === 'NATIVE_FILTER') {
      const metadata = JSON.parse(dashboard.json_metadata || '{}') as { native_filter_configuration?: unknown };
      const filter = ((metadata.native_filter_configuration ?? []) as NativeFilter[]).find((f) => f.id === fd.native_filter_id);
      return !!filter && targetDataset(filter) === datasetId && !queryContextModified(request, { id: 0, params: {}, queries: [filterOptionsQuery(filter, { cascade: {} })] });
    }
    const chart = sliceId !== null && dashboard.chart_ids.includes(sliceId) ? await this.deps.savedChart(sliceId) : undefined;
    return !!chart && chart.datasource_id === datasetId && !queryContextModified(request, this.storedDefinition(chart));
  }

  /**
   * Runs SQL through the pool and reads the rows back (temporal values as epoch ms). Columns the
   * query made time values (`temporalLabels`) count as temporal whatever type the driver reports,
   * and an untyped column (SQLite types expressions as nothing) takes the type of its values.
   */
  private async execute(record: DatasetRecord, sql: string, aliasToLabel: Record<string, string> = {}, temporalLabels: string[] = []): Promise<Executed> {
    // Access was checked on the dataset (datasource access does not require database access); the
    // dataset record carries its database's connection, so no second metadata read per query.
    const db = { sqlalchemy_uri: record.sqlalchemy_uri, password_encrypted: record.database_password_encrypted };
    const timeoutSeconds = this.deps.config.chartQueryTimeoutSeconds;
    const { result, rowsJson } = await this.deps.runtime.runAndRead({
      ...this.deps.databases.target(db, record.catalog, record.schema),
      sql, limit: null, allowDml: false, timeoutMs: timeoutSeconds * 1000,
      // Chart results are read once: small ones come back with the task instead of through the results backend.
      inlineMaxBytes: INLINE_MAX_BYTES,
    });
    if (!result.ok) {
      throw new StructuredError(400, result.errors.map((e) => ({ ...e, message: e.message })), { cause: result });
    }
    const rows = parseJson(rowsJson) as Record<string, unknown>[];
    const renames = Object.entries(aliasToLabel);
    if (renames.length) {
      for (const row of rows) {
        for (const [alias, label] of renames) {
          row[label] = row[alias];
          delete row[alias];
        }
      }
    }
    const columns = result.columns.map((c): ResultColumn => {
      const label = aliasToLabel[c.column_name] ?? c.column_name;
      const named = label === c.column_name ? c : { ...c, column_name: label, name: label };
      if (c.type_generic !== 2 && temporalLabels.includes(label)) return { ...named, type_generic: 2, is_dttm: true };
      if (!c.type) {
        const sample = rows.find((r) => r[label] !== null && r[label] !== undefined)?.[label];
        if (sample !== undefined) return { ...named, type_generic: genericOfValue(sample) as ResultColumn['type_generic'] };
      }
      return named;
    });
    const temporal = columns.filter((c) => c.type_generic === 2).map((c) => c.column_name);
    if (temporal.length) for (const row of rows) for (const name of temporal) row[name] = toEpochMs(row[name]);
    return { sql, columns, rows, rowcount: result.rowCount };
  }

  private build(query: QueryObject, record: DatasetRecord) {
    try {
      return buildQuerySql(query, datasetForQuery(record), dialectFor(record.sqlalchemy_uri), { now: this.now(), allowAdhocSubquery: this.deps.config.featureFlags.ALLOW_ADHOC_SUBQUERY });
    } catch (error) {
      throw this.toStructured(error);
    }
  }

  private toStructured(error: unknown): unknown {
    if (error instanceof QueryBuildError) return new StructuredError(error.status, [{ message: error.message, error_type: error.errorType, level: 'error', extra: {} }]);
    if (error instanceof TimeRangeError || error instanceof PostProcessingError) return new StructuredError(400, [{ message: error.message, error_type: 'INVALID_PAYLOAD_SCHEMA_ERROR', level: 'error', extra: {} }]);
    if (error instanceof SyntaxError && /orderby/.test(error.message)) return new StructuredError(400, [{ message: 'Found invalid orderby options', error_type: 'INVALID_PAYLOAD_SCHEMA_ERROR', level: 'error', extra: {} }]);
    return error;
  }

  private normalise(raw: Record<string, unknown>, request: ChartDataRequest): QueryObject & { havingFilters: QueryFilter[] } {
    try {
      return normaliseQueryObject(raw, { now: this.now(), formData: request.form_data ?? null, maxRowLimit: this.deps.config.sqlMaxRow });
    } catch (error) {
      throw this.toStructured(error);
    }
  }

  /**
   * The dataset's cache generation: part of every chart data cache key, so `POST /api/v1/cachekey/invalidate`
   * drops all of a dataset's cached answers (in memory or Redis) by starting a new generation.
   */
  private async generation(record: DatasetRecord): Promise<string> {
    return (await this.deps.cache.get(`chart-data-gen:${record.id}`)) ?? '0';
  }

  /** Starts a new cache generation for each dataset: their cached chart data is no longer read. */
  async invalidateCache(datasetIds: number[]): Promise<void> {
    for (const id of new Set(datasetIds)) await this.deps.cache.set(`chart-data-gen:${id}`, randomUUID(), null);
  }

  /**
   * Jinja templates in a virtual dataset's SQL and in the WHERE / HAVING extras, rendered as Superset's chart
   * queries render them: `url_param` reads the form data's url_params (a dashboard's address), and
   * `filter_values` / `get_filters` see the query's filters, native filters included.
   */
  private templated<Q extends QueryObject>(actor: Actor, record: DatasetRecord, query: Q, request: ChartDataRequest): { record: DatasetRecord; query: Q } {
    if (!this.deps.config.featureFlags.ENABLE_TEMPLATE_PROCESSING) return { record, query };
    const urlParams = request.form_data?.url_params && typeof request.form_data.url_params === 'object' ? (request.form_data.url_params as Record<string, unknown>) : {};
    const context = { username: actor.username, userId: actor.userId, urlParams, filters: query.filters.map((f) => ({ col: String(f.col), op: f.op, val: f.val })) };
    const render = (sql: string | null | undefined) => (sql && hasTemplate(sql) ? renderSqlTemplate(sql, {}, context) : sql);
    const extras = { ...query.extras, where: render(query.extras.where) ?? query.extras.where, having: render(query.extras.having) ?? query.extras.having };
    return { record: record.sql ? { ...record, sql: render(record.sql) ?? record.sql } : record, query: { ...query, extras } };
  }

  private cacheKey(record: DatasetRecord, query: QueryObject, resultType: string, generation: string): string {
    const payload = JSON.stringify({
      datasource: `${record.id}__table`,
      // A virtual dataset's SQL as rendered (its templates may read url_params).
      sql: record.sql ?? null,
      // Users under different row-level security see different rows: never one another's cached answer.
      rls: record.rls ?? [],
      generation,
      changed_on: new Date(record.changed_on).toISOString(),
      database: record.database_id,
      query: { ...query, fromDttm: query.fromDttm?.getTime() ?? null, toDttm: query.toDttm?.getTime() ?? null },
      resultType,
    });
    return createHash('sha256').update(payload).digest('hex').slice(0, 32);
  }

  private async timeoutFor(record: DatasetRecord, request: ChartDataRequest, sliceId: number | null): Promise<number> {
    if (request.custom_cache_timeout !== null && request.custom_cache_timeout !== undefined) return request.custom_cache_timeout;
    const chart = sliceId ? await this.deps.chartCacheTimeout(sliceId) : null;
    return chart ?? record.cache_timeout ?? record.database_cache_timeout ?? this.deps.config.cacheDefaultTimeoutSeconds;
  }

  /** The data of one query object, applying time offsets and post-processing. */
  private async runQuery(record: DatasetRecord, query: QueryObject & { havingFilters: QueryFilter[] }, resultType: string) {
    if (resultType === 'samples' || resultType === 'drill_detail') {
      const all = allColumnsQuery(query, datasetForQuery(record));
      const sampled: QueryObject & { havingFilters: QueryFilter[] } = {
        ...all,
        havingFilters: [],
        fromDttm: resultType === 'samples' ? null : query.fromDttm,
        toDttm: resultType === 'samples' ? null : query.toDttm,
        filters: resultType === 'samples' ? query.filters.filter((f) => f.op !== 'TEMPORAL_RANGE') : query.filters,
        rowLimit: Math.min(query.rowLimit ?? SAMPLES_ROW_LIMIT, SAMPLES_ROW_LIMIT),
        rowOffset: query.rowOffset,
        extras: { ...query.extras, having: null },
      };
      const built = this.build(sampled, record);
      const executed = await this.execute(record, built.sql, built.aliasToLabel, built.temporalLabels);
      let totalCount: number | undefined;
      if (resultType === 'drill_detail') {
        const countSql = buildCountSql(sampled, datasetForQuery(record), dialectFor(record.sqlalchemy_uri), { now: this.now(), allowAdhocSubquery: this.deps.config.featureFlags.ALLOW_ADHOC_SUBQUERY });
        const counted = await this.execute(record, countSql);
        totalCount = Number(counted.rows[0]?.rowcount ?? 0);
      }
      return { built, executed, colnames: executed.columns.map((c) => c.column_name), rows: executed.rows, totalCount };
    }
    if (query.isRowcount) {
      // Superset's is_rowcount: how many rows the query gives within its row limit and offset (a server-paginated
      // table's total), as one row `{rowcount}`; its order changes no count, so none is asked for.
      const built = this.build({ ...query, orderby: [], timeOffsets: [], postProcessing: [] }, record);
      const executed = await this.execute(record, countRowsSql(built.sql, dialectFor(record.sqlalchemy_uri)));
      return { built, executed, colnames: ['rowcount'], rows: [{ rowcount: Number(executed.rows[0]?.rowcount ?? 0) }] as Record<string, unknown>[] };
    }
    const built = this.build(query, record);
    const executed = await this.execute(record, built.sql, built.aliasToLabel, built.temporalLabels);
    let colnames = built.labels.filter((l) => executed.columns.some((c) => c.column_name === l));
    if (!colnames.length) colnames = executed.columns.map((c) => c.column_name);
    let rows = executed.rows;
    const labelMap: Record<string, string[]> = Object.fromEntries(colnames.map((c) => [c, [c]]));

    if (query.timeOffsets.length) {
      // Without a time axis (a table's time comparison) each offset's rows are the query's over the shifted time
      // range, joined on the group-bys; that needs a time range with both ends, as Superset says.
      const xAxis = xAxisLabel(query);
      const temporalFilter = query.filters.find((f) => f.op === 'TEMPORAL_RANGE');
      if (!xAxis && (!query.fromDttm || !query.toDttm)) {
        throw new StructuredError(400, [{ message: 'An enclosed time range (both start and end) must be specified when using a Time Comparison.', error_type: 'INVALID_PAYLOAD_SCHEMA_ERROR', level: 'error', extra: {} }]);
      }
      const metricLabels = query.metrics.map(getMetricLabel);
      const joinColumns = colnames.filter((c) => c !== xAxis && !metricLabels.includes(c));
      for (const offset of query.timeOffsets) {
        // 'inherit' and a custom start date shift by whole days from the time range; the columns keep the offset's name.
        const shift = resolveTimeOffset(offset, { since: query.fromDttm, until: query.toDttm });
        let delta;
        try {
          delta = parseTimeDelta(shift);
        } catch (error) {
          throw this.toStructured(error);
        }
        const range = shiftRange({ since: query.fromDttm, until: query.toDttm }, shift);
        const axisColumn = query.columns.find((c) => typeof c === 'object' && c.columnType === 'BASE_AXIS');
        const granularity = query.granularity ?? (axisColumn && typeof axisColumn === 'object' ? axisColumn.sqlExpression : null) ?? (temporalFilter ? getColumnLabel(temporalFilter.col) : null);
        const shifted = this.build({
          ...query,
          granularity,
          fromDttm: range.since,
          toDttm: range.until,
          filters: query.filters.filter((f) => f.op !== 'TEMPORAL_RANGE'),
          postProcessing: [],
          timeOffsets: [],
          // Limited or paged main rows join with the shifted period's rows up to the most a chart reads, from the first
          // (Superset's offset query): limited the same way, rows in another order would miss their match.
          rowLimit: query.rowLimit || query.rowOffset ? this.deps.config.sqlMaxRow : query.rowLimit,
          rowOffset: 0,
        }, record);
        const offsetRows = await this.execute(record, shifted.sql, shifted.aliasToLabel, shifted.temporalLabels);
        const joined = joinTimeOffset({ colnames, rows }, offsetRows.rows, {
          offset,
          timeColumn: xAxis,
          joinColumns,
          metrics: metricLabels,
          shiftMs: (t) => addUnits(new Date(t), -delta.n, delta.unit).getTime(),
        });
        colnames = joined.colnames;
        rows = joined.rows;
        for (const m of metricLabels) labelMap[`${m}__${offset}`] = [m, offset];
      }
    }

    if (query.postProcessing.some(Boolean)) {
      try {
        const processed = applyPostProcessing(colnames, rows, query.postProcessing);
        colnames = processed.colnames;
        rows = processed.rows;
      } catch (error) {
        throw this.toStructured(error);
      }
    }
    return { built, executed, colnames, rows, labelMap };
  }

  /** One query's payload (Superset's `_get_full`), from the cache unless forced. */
  private async queryPayload(actor: Actor, stored: DatasetRecord, raw: Record<string, unknown>, request: ChartDataRequest, sliceId: number | null): Promise<ChartDataQueryResult | Record<string, unknown>> {
    const { record, query } = this.templated(actor, stored, this.normalise(raw, request), request);
    const resultType = (raw.result_type as string | undefined) ?? request.result_type;
    if (resultType === 'query') {
      const built = this.build(query, record);
      return { query: built.sql, language: 'sql' };
    }
    if (resultType === 'columns') {
      return {
        data: record.columns.map((c) => ({ column_name: c.column_name, verbose_name: c.verbose_name, dtype: c.type ? genericTypeOf(c.type) : null })),
      };
    }
    if (resultType === 'timegrains') {
      const spec = getEngineSpec(record.sqlalchemy_uri);
      return { data: (Object.keys(spec.timeGrainExpressions) as TimeGrain[]).map((g) => ({ name: TIME_GRAIN_NAMES[g], function: spec.timeGrainExpressions[g], duration: g })) };
    }
    const cacheTimeout = await this.timeoutFor(record, request, sliceId);
    const key = this.cacheKey(record, query, resultType, await this.generation(record));
    if (!request.force) {
      const hit = await this.deps.cache.get(`chart-data:${key}`);
      if (hit) {
        if (query.annotationLayers.length) await this.deps.annotationData.authorize(actor, query.annotationLayers);
        const payload = parseJson(hit) as ChartDataQueryResult;
        return { ...payload, is_cached: true };
      }
    }
    const joined = request.force ? undefined : this.running.get(key);
    if (joined) {
      const payload = await joined;
      // The run was another user's: the same key means the same rows (row-level security is part of it), the
      // annotation layers are checked for this one as a cached answer's are.
      if (query.annotationLayers.length) await this.deps.annotationData.authorize(actor, query.annotationLayers);
      return resultType === 'results' ? resultsOnly(payload) : payload;
    }
    const run = this.runPayload(actor, record, query, resultType, request, key, cacheTimeout);
    this.running.set(key, run);
    const clear = () => this.running.get(key) === run && this.running.delete(key);
    run.then(clear, clear);
    const payload = await run;
    return resultType === 'results' ? resultsOnly(payload) : payload;
  }

  /** Runs one query and caches its payload. */
  private async runPayload(actor: Actor, record: DatasetRecord, query: QueryObject & { havingFilters: QueryFilter[] }, resultType: string, request: ChartDataRequest, key: string, cacheTimeout: number): Promise<ChartDataQueryResult> {
    const ran = await this.runQuery(record, query, resultType);
    const coltypes = ran.colnames.map((name) => {
      const column = ran.executed.columns.find((c) => c.column_name === name);
      if (column) return column.type_generic;
      const sample = ran.rows.find((r) => r[name] !== null && r[name] !== undefined)?.[name];
      return genericOfValue(sample);
    });
    const payload: ChartDataQueryResult = {
      cache_key: key,
      cached_dttm: this.now().toISOString().replace(/\.\d{3}Z$/, ''),
      cache_timeout: cacheTimeout,
      applied_filters: ran.built.appliedFilterColumns.map((column) => ({ column })),
      rejected_filters: ran.built.rejectedFilterColumns,
      annotation_data: await this.deps.annotationData.get(actor, query.annotationLayers, query, { force: request.force }),
      error: null,
      is_cached: false,
      query: ran.executed.sql,
      status: 'success',
      stacktrace: null,
      rowcount: ran.rows.length,
      sql_rowcount: ran.executed.rowcount,
      from_dttm: query.fromDttm?.getTime() ?? null,
      to_dttm: query.toDttm?.getTime() ?? null,
      label_map: ('labelMap' in ran && ran.labelMap) || Object.fromEntries(ran.colnames.map((c) => [c, [c]])),
      colnames: ran.colnames,
      indexnames: ran.rows.map((_, i) => i),
      coltypes,
      data: ran.rows,
      ...('totalCount' in ran && ran.totalCount !== undefined ? { total_count: ran.totalCount } : {}),
    };
    // Superset's convention: a timeout of -1 disables caching, 0 keeps the entry until evicted.
    if (cacheTimeout >= 0) await this.deps.cache.set(`chart-data:${key}`, stringifyJson(payload), cacheTimeout || null);
    return payload;
  }

  /** Every query of a request, in order. */
  async results(actor: Actor, request: ChartDataRequest, sliceId: number | null): Promise<Array<ChartDataQueryResult | Record<string, unknown>>> {
    const record = await this.requestDatasource(actor, request, sliceId);
    if (!request.queries.length) throw new StructuredError(400, [{ message: 'Missing data for required field.', error_type: 'INVALID_PAYLOAD_SCHEMA_ERROR', level: 'error', extra: { queries: ['Missing data for required field.'] } }]);
    const out = [];
    for (const raw of request.queries) out.push(await this.queryPayload(actor, record, raw, request, sliceId));
    return out;
  }

  /**
   * `PUT /api/v1/chart/warm_up_cache`: runs a saved chart's query (its stored query context, else one
   * built from its form data, as the legacy path does) so that its answer is cached; a failure is
   * reported per chart, as Superset's `viz_error`, not raised.
   */
  /** The chart data request a saved chart makes: its stored query context, else one built from its form data. */
  chartRequest(chart: SavedChart, opts: { extraFilters?: unknown[]; resultFormat?: 'json' | 'csv'; force?: boolean } = {}): ChartDataRequest {
    const stored = chart.query_context ? (JSON.parse(chart.query_context) as Record<string, any>) : null;
    const context = stored?.queries ? stored : queryContextFromFormData({ ...(JSON.parse(chart.params ?? '{}') as object), datasource: `${chart.datasource_id}__table`, slice_id: chart.id });
    if (opts.extraFilters?.length) for (const q of context.queries) q.filters = [...(q.filters ?? []), ...opts.extraFilters];
    return ChartDataRequestSchema.parse({ ...context, force: opts.force ?? false, result_format: opts.resultFormat ?? 'json', result_type: 'full' });
  }

  /** What a saved chart shows, for `queryContextModified`: its params and the queries it makes. */
  private storedDefinition(chart: SavedChart): StoredChartDefinition {
    try {
      return { id: chart.id, params: JSON.parse(chart.params ?? '{}') as Record<string, unknown>, queries: this.chartRequest(chart).queries as Array<Record<string, unknown>> };
    } catch {
      // A definition that does not read shows nothing.
      return { id: chart.id, params: {}, queries: [] };
    }
  }

  async warmUp(actor: Actor, chart: SavedChart, extraFilters: unknown[] = []): Promise<{ chart_id: number; viz_error: string | null; viz_status: string | null }> {
    try {
      const request = this.chartRequest(chart, { extraFilters });
      const payloads = await this.results(actor, request, chart.id);
      const failed = payloads.find((p) => (p as { error?: string }).error);
      return { chart_id: chart.id, viz_error: failed ? String((failed as { error: string }).error) : null, viz_status: failed ? 'failed' : 'success' };
    } catch (error) {
      const message = error instanceof StructuredError ? error.errors.map((e) => e.message).join('; ') : (error as Error).message;
      return { chart_id: chart.id, viz_error: message, viz_status: 'failed' };
    }
  }

  /**
   * Explore's page for a saved chart is being sent: the chart's stored query starts now, while the page loads its
   * scripts, and the page's own identical request joins the run or reads the cache instead of waiting for a query
   * started only once the chart's code has loaded. Only a stored query context: that is what the page will ask for.
   */
  prefetch(actor: Actor, chart: SavedChart): void {
    if (!chart.query_context || actor.guest || !hasPermission(actor, 'can_read', 'Chart')) return;
    void this.warmUp(actor, chart);
  }

  /** `POST /api/v1/chart/data`: JSON, csv or xlsx, or a 202 job when asynchronous queries are on. */
  async data(actor: Actor | null, request: ChartDataRequest, opts: { sliceId?: number | null; allowAsync?: boolean } = {}): Promise<ChartDataAnswer> {
    this.deps.security.require(actor, 'can_read', 'Chart');
    if (request.result_format !== 'json') this.deps.security.require(actor, 'can_csv', 'Superset');
    const sliceId = opts.sliceId ?? (request.form_data?.slice_id ? Number(request.form_data.slice_id) : null);
    // A guest queries only for a chart of its embedded dashboards, on that chart's dataset, and only what the chart
    // shows (Superset's query_context_modified).
    // A filter's options are asked for in the name of its dashboard (Superset's native filter form data).
    if (actor.guest) {
      const filterOf = request.form_data?.type === 'NATIVE_FILTER' ? await this.deps.dashboards().grantingData(actor, Number(request.form_data.dashboardId)) : null;
      const chart = !filterOf && sliceId !== null && actor.guest.chartIds.includes(sliceId) && actor.guest.datasetIds.includes(Number(request.datasource?.id)) ? await this.deps.savedChart(sliceId) : null;
      const allowed = filterOf ? await this.asksOnlyWhatItShows(request, null, filterOf) : !!chart && chart.datasource_id === Number(request.datasource?.id) && !queryContextModified(request, this.storedDefinition(chart));
      if (!allowed) throw new Forbidden('Guest user cannot modify chart payload');
    }
    if (this.deps.config.featureFlags.GLOBAL_ASYNC_QUERIES && opts.allowAsync !== false && request.result_format === 'json' && ['full', 'results'].includes(request.result_type)) {
      const record = await this.requestDatasource(actor, request, sliceId);
      const cached = request.force ? null : await this.cachedResponse(actor, record, request);
      if (cached) return { kind: 'json', status: 200, body: cached };
      return { kind: 'async', status: 202, body: await this.submitAsync(actor, request, sliceId) };
    }
    const results = await this.results(actor, request, sliceId);
    if (request.result_format === 'json') return { kind: 'json', status: 200, body: stringifyJson({ result: results }) };
    return this.exportFile(results as ChartDataQueryResult[], request.result_format);
  }

  /**
   * `GET /api/v1/datasource/{type}/{id}/column/{column}/values/`: the distinct values of one filterable column
   * (for filter pickers), through the same query path as chart data, so access rules apply alike.
   */
  async columnValues(actor: Actor | null, ref: { id: number; type: string }, column: string): Promise<unknown[]> {
    this.deps.security.require(actor, 'can_read', 'Dataset');
    const record = await this.datasource(actor!, ref);
    if (!record.columns.some((c) => c.column_name === column)) throw new NotFound();
    const request = { datasource: { id: record.id, type: 'table' }, queries: [], result_format: 'json', result_type: 'full', force: false } as unknown as ChartDataRequest;
    const [result] = (await this.results(actor!, { ...request, queries: [{ columns: [column], metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: '__count' }], row_limit: COLUMN_VALUES_LIMIT, orderby: [] }] } as ChartDataRequest, null)) as ChartDataQueryResult[];
    const values = (result?.data ?? []).map((row) => (row as Record<string, unknown>)[column]);
    return values.sort((a, b) => (a === null ? 1 : b === null ? -1 : compareNatural(String(a), String(b))));
  }

  /** The response when every query is cached (the async path answers those at once, like Superset). */
  private async cachedResponse(actor: Actor, record: DatasetRecord, request: ChartDataRequest): Promise<string | null> {
    const payloads = [];
    const generation = await this.generation(record);
    for (const raw of request.queries) {
      const rendered = this.templated(actor, record, this.normalise(raw, request), request);
      const query = rendered.query;
      const hit = await this.deps.cache.get(`chart-data:${this.cacheKey(rendered.record, query, (raw.result_type as string) ?? request.result_type, generation)}`);
      if (!hit) return null;
      if (query.annotationLayers.length) await this.deps.annotationData.authorize(actor, query.annotationLayers);
      payloads.push({ ...(parseJson(hit) as object), is_cached: true });
    }
    return stringifyJson({ result: payloads });
  }

  /** Queues the request and answers with the job; completion is published as an async event. */
  private async submitAsync(actor: Actor, request: ChartDataRequest, sliceId: number | null): Promise<AsyncJobMetadata> {
    const job: AsyncJobMetadata = { channel_id: this.deps.events.channelFor(actor), job_id: randomUUID(), user_id: actor.userId, status: 'pending', errors: [], result_url: null };
    await this.deps.jobs().submit('chart-data', { actor, request, sliceId, job, resultKey: randomBytes(16).toString('hex') });
    return job;
  }

  /**
   * Runs an async chart data job (in this process or a worker) as the user who submitted it, and
   * stores the answer for that user. It only reads, so a job handed over again is simply run again.
   */
  async runAsyncJob({ actor, request, sliceId, job, resultKey }: ChartDataJob): Promise<void> {
    try {
      const results = await this.results(actor, request, sliceId);
      // The job's owner and dataset head the stored answer: only they may fetch it (see cachedResult).
      const owner: AsyncResultOwner = { user_id: actor.userId, datasource_id: request.datasource?.id ?? null };
      await this.deps.cache.set(`chart-data-result:${resultKey}`, `${JSON.stringify(owner)}\n${stringifyJson({ result: results })}`, Math.max(600, this.deps.config.cacheDefaultTimeoutSeconds));
      await this.deps.events.publish(job.channel_id, { ...job, status: 'done', result_url: `/api/v1/chart/data/${resultKey}` });
    } catch (error) {
      const errors = error instanceof StructuredError ? error.errors : [{ message: (error as Error).message, error_type: 'GENERIC_BACKEND_ERROR', level: 'error', extra: {} }];
      if (!(error instanceof StructuredError)) this.deps.logger.error({ err: error }, 'async chart data failed');
      await this.deps.events.publish(job.channel_id, { ...job, status: 'error', errors });
    }
  }

  /** An async job no process will run again (the processes that took it stopped): its user is told. */
  async abandonAsyncJob({ job }: ChartDataJob): Promise<void> {
    const message = 'The worker running this chart query stopped before it finished. Run it again.';
    await this.deps.events.publish(job.channel_id, { ...job, status: 'error', errors: [{ message, error_type: 'GENERIC_BACKEND_ERROR', level: 'error', extra: {} }] });
  }

  /**
   * `POST /datasource/samples`: a page of unaggregated rows (filters of the body applied) with the
   * total count, Superset's samples / drill-to-detail answer.
   */
  async samples(actor: Actor | null, opts: { datasourceId: number; datasourceType: string; page: number; perPage: number; force: boolean; payload: Record<string, unknown> }) {
    this.deps.security.require(actor, 'can_read', 'Dataset');
    const record = await this.datasource(actor, { id: opts.datasourceId, type: opts.datasourceType });
    const perPage = Math.max(1, Math.min(opts.perPage, SAMPLES_ROW_LIMIT));
    const page = Math.max(1, opts.page);
    const request = { datasource: { id: record.id, type: 'table' }, queries: [], result_format: 'json', result_type: 'drill_detail', force: opts.force } as unknown as ChartDataRequest;
    const query = this.normalise({ ...opts.payload, row_limit: perPage, row_offset: (page - 1) * perPage }, request);
    const hasRange = !!(opts.payload.time_range || (query.filters ?? []).some((f) => f.op === 'TEMPORAL_RANGE'));
    const ran = await this.runQuery(record, { ...query, rowLimit: perPage }, hasRange ? 'drill_detail' : 'samples');
    const total = ran.totalCount ?? (await this.runQuery(record, query, 'drill_detail')).totalCount ?? ran.rows.length;
    return {
      data: ran.rows,
      colnames: ran.colnames,
      coltypes: ran.colnames.map((n) => ran.executed.columns.find((c) => c.column_name === n)?.type_generic ?? 1),
      rowcount: ran.rows.length,
      sql_rowcount: ran.executed.rowcount,
      total_count: total,
      page,
      per_page: perPage,
      query: ran.executed.sql,
      is_cached: false,
      status: 'success',
    };
  }

  /**
   * `GET /api/v1/chart/data/{cache_key}`: the stored result of an asynchronous job, for the user
   * who ran the job (Superset ties the job to its user id) while it may still read the dataset.
   * Anyone else gets the answer of a missing key, so a leaked key reveals nothing.
   */
  async cachedResult(actor: Actor | null, key: string): Promise<string> {
    this.deps.security.require(actor, 'can_read', 'Chart');
    const missing = () => new StructuredError(410, [{ message: 'Cached data not found', error_type: 'RESULTS_BACKEND_ERROR', level: 'error', extra: {} }]);
    const hit = await this.deps.cache.get(`chart-data-result:${key}`);
    const newline = hit?.indexOf('\n') ?? -1;
    if (!hit || newline < 0) throw missing();
    const owner = JSON.parse(hit.slice(0, newline)) as AsyncResultOwner;
    if (owner.user_id !== actor.userId) throw missing();
    if (owner.datasource_id !== null) await this.datasource(actor, { id: owner.datasource_id, type: 'table' });
    return hit.slice(newline + 1);
  }

  /** csv or xlsx of the query results (one file; several queries are separated like Superset's zip would list them). */
  private async exportFile(results: ChartDataQueryResult[], format: 'csv' | 'xlsx'): Promise<ChartDataAnswer> {
    const stamp = this.now().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    if (format === 'csv') {
      const { stringify } = await import('csv-stringify/sync');
      const text = results
        .map((r) => stringify([r.colnames, ...r.data.map((row) => r.colnames.map((c) => csvCell(row[c], r.coltypes[r.colnames.indexOf(c)])))]))
        .join('\n');
      return { kind: 'file', status: 200, contentType: 'text/csv; charset=utf-8', filename: `${stamp}.csv`, body: text };
    }
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    results.forEach((r, i) => {
      const sheet = workbook.addWorksheet(results.length > 1 ? `query_${i + 1}` : 'Sheet1');
      sheet.addRow(r.colnames);
      for (const row of r.data) sheet.addRow(r.colnames.map((c, k) => xlsxCell(row[c], r.coltypes[k])));
    });
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    return { kind: 'file', status: 200, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', filename: `${stamp}.xlsx`, body: buffer };
  }
}

function csvCell(value: unknown, type: number | undefined): unknown {
  if (value === null || value === undefined) return '';
  if (type === 2 && typeof value === 'number') return new Date(value).toISOString().replace('T', ' ').replace(/\.000Z$/, '').replace(/Z$/, '');
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

function xlsxCell(value: unknown, type: number | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (type === 2 && typeof value === 'number') return new Date(value);
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}
