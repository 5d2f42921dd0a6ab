import { relatedDashboard } from '@meridian/contracts/dashboard/metadata';
import type {
  DatasetColumnView, DatasetCreate, DatasetDuplicate, DatasetGetOrCreate, DatasetMetricView, DatasetUpdate, DatasetView, ListQuery, ListResult,
} from '@meridian/contracts';
import { SqlExpressionError, validateSqlExpression } from '@meridian/contracts/chart-data/sql-expression';
import { hasPermission, isAdmin, isOwner, ownersToStore } from '@meridian/contracts/rules/permissions';
import { genericTypeOf, getEngineSpec, isMutating, splitStatements, TIME_GRAIN_NAMES, type ResultColumn, type TableColumn, type TimeGrain } from '@meridian/query-worker';
import { isStaleCopy, lastModifiedTimeOf, staleCopyMessage } from '@meridian/contracts/rules/last-modified';
import { Conflict, Forbidden, NotFound, StructuredError, Unprocessable } from '../errors/domain-errors';
import type { DatabaseService } from '../database/database.service';
import { databaseData, parseExtra } from '../database/database.service';
import { humanizedDelta, pythonIsoformat, utcStamp } from '@meridian/contracts/rules/dates';
import type { QueryRuntime } from '../results/query-runtime';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { databasePermName } from '../database/database.repository';
import { datasetPermName, type DATASET_DISTINCT_COLUMNS, type ColumnInsert, type ColumnRow, type DatasetAccessScope, type DatasetRecord, type DatasetRepository, type MetricInsert, type MetricRow } from './dataset.repository';
import { ExpiringMap } from '../common/expiring-map';
import { patchOf } from '../common/patch';

/** A column read from the source (table metadata or a query's result). */
export interface SourceColumn {
  name: string;
  type: string;
  is_dttm: boolean;
}


function columnView(c: ColumnRow): DatasetColumnView {
  return {
    id: c.id,
    uuid: c.uuid,
    column_name: c.column_name,
    verbose_name: c.verbose_name,
    type: c.type,
    type_generic: c.type ? genericTypeOf(c.type) : null,
    advanced_data_type: c.advanced_data_type,
    is_dttm: c.is_dttm,
    is_active: c.is_active,
    groupby: c.groupby,
    filterable: c.filterable,
    expression: c.expression,
    description: c.description,
    python_date_format: c.python_date_format,
    extra: c.extra,
    created_on: pythonIsoformat(c.created_on),
    changed_on: pythonIsoformat(c.changed_on),
  };
}

function metricView(m: MetricRow): DatasetMetricView {
  return {
    id: m.id,
    uuid: m.uuid,
    metric_name: m.metric_name,
    verbose_name: m.verbose_name,
    metric_type: m.metric_type,
    expression: m.expression,
    description: m.description,
    d3format: m.d3format,
    currency: m.currency,
    warning_text: m.warning_text,
    extra: m.extra,
    created_on: pythonIsoformat(m.created_on),
    changed_on: pythonIsoformat(m.changed_on),
  };
}

/** A quoted, qualified name as Superset prints it in `select_star`. */
function selectStar(record: DatasetRecord): string {
  const spec = getEngineSpec(record.sqlalchemy_uri);
  if (record.sql) return `SELECT\n  *\nFROM (\n${record.sql.trim()}\n) AS virtual_table\nLIMIT 100`;
  const name = [record.schema, record.table_name].filter(Boolean).map((p) => spec.quoteIdentifier(p!)).join('.');
  const cols = record.columns.filter((c) => !c.expression).map((c) => spec.quoteIdentifier(c.column_name));
  return `SELECT\n  ${cols.length ? cols.join(',\n  ') : '*'}\nFROM ${name}\nLIMIT 100`;
}

/** Time grains of the dataset's engine, as `[grain, name]` pairs. */
export function timeGrainChoices(uri: string): Array<[string, string]> {
  const spec = getEngineSpec(uri);
  return (Object.keys(spec.timeGrainExpressions) as TimeGrain[]).map((g) => [g, TIME_GRAIN_NAMES[g] ?? g]);
}

/** The Superset view of a dataset (`GET /api/v1/dataset/{pk}`). */
export function datasetView(record: DatasetRecord): DatasetView {
  const backend = record.sqlalchemy_uri.split(/[:+]/)[0].replace('postgres', 'postgresql').replace('postgresqlql', 'postgresql');
  const verboseMap: Record<string, string> = { __timestamp: 'Time' };
  for (const c of record.columns) verboseMap[c.column_name] = c.verbose_name || c.column_name;
  for (const m of record.metrics) verboseMap[m.metric_name] = m.verbose_name || m.metric_name;
  const columnFormats: Record<string, string> = {};
  for (const m of record.metrics) if (m.d3format) columnFormats[m.metric_name] = m.d3format;
  const orderBy: Array<[string, string]> = [];
  for (const c of [...record.columns].sort((a, b) => a.column_name.localeCompare(b.column_name))) {
    orderBy.push([JSON.stringify([c.column_name, true]), `${c.column_name} [asc]`], [JSON.stringify([c.column_name, false]), `${c.column_name} [desc]`]);
  }
  const person = (p: DatasetRecord['created_by']) => p;
  return {
    id: record.id,
    uid: `${record.id}__table`,
    uuid: record.uuid,
    table_name: record.table_name,
    name: record.schema ? `${record.schema}.${record.table_name}` : record.table_name,
    datasource_name: record.table_name,
    datasource_type: 'table',
    kind: record.sql ? 'virtual' : 'physical',
    catalog: record.catalog,
    schema: record.schema,
    sql: record.sql,
    database: { id: record.database_id, database_name: record.database_name, backend, allow_multi_catalog: Boolean(parseExtra(record.database_extra).allow_multi_catalog) },
    description: record.description,
    main_dttm_col: record.main_dttm_col,
    granularity_sqla: record.columns.filter((c) => c.is_dttm).map((c) => [c.column_name, c.column_name]),
    time_grain_sqla: timeGrainChoices(record.sqlalchemy_uri),
    default_endpoint: record.default_endpoint,
    offset: record.offset,
    cache_timeout: record.cache_timeout,
    filter_select_enabled: record.filter_select_enabled,
    fetch_values_predicate: record.fetch_values_predicate,
    template_params: record.template_params,
    extra: record.extra,
    normalize_columns: record.normalize_columns,
    always_filter_main_dttm: record.always_filter_main_dttm,
    is_sqllab_view: record.is_sqllab_view,
    is_managed_externally: record.is_managed_externally,
    external_url: record.external_url,
    owners: record.owners,
    columns: record.columns.map(columnView),
    metrics: record.metrics.map(metricView),
    column_formats: columnFormats,
    verbose_map: verboseMap,
    order_by_choices: orderBy,
    select_star: selectStar(record),
    url: `/tablemodelview/edit/${record.id}`,
    explore_url: `/explore/?datasource_type=table&datasource_id=${record.id}`,
    created_by: person(record.created_by),
    changed_by: person(record.changed_by),
    created_on: pythonIsoformat(record.created_on),
    changed_on: pythonIsoformat(record.changed_on),
    created_on_humanized: humanizedDelta(record.created_on),
    changed_on_humanized: humanizedDelta(record.changed_on),
    changed_on_delta_humanized: humanizedDelta(record.changed_on),
    changed_on_utc: utcStamp(record.changed_on),
    changed_by_name: record.changed_by ? `${record.changed_by.first_name} ${record.changed_by.last_name}`.trim() : '',
    last_modified_time: lastModifiedTimeOf(record.changed_on),
  };
}

/**
 * A dataset as Superset's `SqlaTable.data` gives it (Explore's `dataset`, `GET /api/v1/dashboard/{id}/datasets`): the
 * dataset view with `type`, `filter_select`, `params`, `perm`, `currency_formats`, `edit_url`, and its database as
 * `Database.data`.
 */
export function datasourceData(record: DatasetRecord) {
  const view = datasetView(record);
  const currencyFormats: Record<string, unknown> = {};
  for (const m of record.metrics) {
    const currency = parseJsonObject(m.currency);
    if (currency) currencyFormats[m.metric_name] = currency;
  }
  return {
    ...view,
    type: 'table' as const,
    datasource_name: view.table_name,
    database: databaseData({ id: record.database_id, database_name: record.database_name, backend: view.database.backend, extra: record.database_extra }),
    filter_select: record.filter_select_enabled,
    // Meridian keeps no dataset `params`; Superset's column is empty unless an import set it.
    params: null,
    perm: datasetPermName(record.database_name, record.table_name, record.id),
    currency_formats: currencyFormats,
    edit_url: `/tablemodelview/edit/${record.id}`,
  };
}

/** A JSON object stored as text (a metric's `currency`), or null when empty or not an object (Superset's `currency_json`). */
function parseJsonObject(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** How long a dataset record read for access is reused (milliseconds). */
const RECORD_TTL_MS = 5_000;
/** Bound of the record cache (cleared when reached). */
const MAX_CACHED_RECORDS = 1_000;

function columnFromSource(c: SourceColumn, mainDttm: string | null): ColumnInsert {
  return { column_name: c.name, type: c.type, is_dttm: c.is_dttm || c.name === mainDttm, groupby: true, filterable: true, is_active: true };
}

type ColumnSync = Array<ColumnInsert & { id?: number }>;

/**
 * The dataset's columns after reading its source: new columns added, gone physical columns
 * removed, types refreshed; user-set attributes and calculated columns kept.
 */
function syncColumns(record: DatasetRecord, source: SourceColumn[], userId: number): ColumnSync {
  return [
    ...source.map((c) => {
      const current = record.columns.find((e) => e.column_name === c.name);
      if (!current) return { ...columnFromSource(c, record.main_dttm_col), created_by_fk: userId, changed_by_fk: userId };
      return { id: current.id, column_name: c.name, type: c.type, is_dttm: current.is_dttm || c.is_dttm, changed_by_fk: userId };
    }),
    ...record.columns.filter((e) => e.expression && !source.some((c) => c.name === e.column_name)).map((e) => ({ id: e.id, column_name: e.column_name })),
  ];
}

/** Datasets: CRUD, columns synced from the source, duplicate, export, and who may use or edit which. */
export class DatasetService {
  /**
   * Dataset records read in the last few seconds, by id: every chart data request reads its
   * dataset (row, database, owners, columns, metrics), and those are metadata reads a request need
   * not repeat. Every write through this service forgets the entry at once (see `invalidate`);
   * other changes (another process, the database or a user renamed) count within `recordTtlMs`.
   * Each caller gets its own copy, so nothing a request does to its record reaches the next one.
   */
  private readonly records = new ExpiringMap<number, DatasetRecord>(MAX_CACHED_RECORDS);
  private generation = 0;

  constructor(
    private readonly deps: {
      datasets: DatasetRepository;
      databases: DatabaseService;
      security: SecurityService;
      runtime: QueryRuntime;
    },
    private readonly recordTtlMs = RECORD_TTL_MS,
  ) {}

  /** The dataset record by id, from the short-lived cache when fresh. */
  private async cachedRecord(id: number): Promise<DatasetRecord | undefined> {
    const now = Date.now();
    const hit = this.records.get(id, now);
    if (hit) return structuredClone(hit);
    const generation = this.generation;
    const record = await this.deps.datasets.get(id);
    // A write made while reading (see invalidate) must not be hidden by this older read; a missing dataset is not remembered.
    if (record && this.recordTtlMs > 0 && generation === this.generation) {
      this.records.set(id, structuredClone(record), now + this.recordTtlMs);
    }
    return record;
  }

  /**
   * Forgets cached records (some ids, or all): called around every dataset write here, and meant
   * for writes elsewhere that a record carries (a database renamed or pointed at another engine).
   */
  invalidate(ids?: number[]): void {
    this.generation++;
    if (ids === undefined) this.records.clear();
    else for (const id of ids) this.records.delete(id);
  }

  /** Runs a write, then forgets the cached records it may have changed (also when it fails part-way). */
  private async writing<T>(ids: number[] | undefined, write: () => Promise<T>): Promise<T> {
    this.invalidate(ids);
    try {
      return await write();
    } finally {
      this.invalidate(ids);
    }
  }

  /** All-datasource access: admin, all_datasource_access or all_database_access. */
  private seesAll(actor: Actor): boolean {
    return isAdmin(actor) || hasPermission(actor, 'all_datasource_access', 'all_datasource_access') || hasPermission(actor, 'all_database_access', 'all_database_access');
  }

  /**
   * Superset's datasource access, as a scope: everything (admin, all_datasource_access,
   * all_database_access), else the databases of the actor's `database_access` views, the datasets
   * of its `datasource_access` views, and the datasets it owns.
   */
  accessScope(actor: Actor): DatasetAccessScope {
    if (this.seesAll(actor)) return { all: true };
    const views = (permission: string) => [...new Set(Object.values(actor.roles ?? {}).flatMap((pairs) => pairs.filter(([p]) => p === permission).map(([, v]) => v)))];
    return { all: false, databasePerms: views('database_access'), datasourcePerms: views('datasource_access'), userId: actor.userId };
  }

  /** Whether the actor may use the dataset: the same scope the lists apply in SQL (`datasetAccessSql`). */
  canAccess(actor: Actor, record: DatasetRecord): boolean {
    const scope = this.accessScope(actor);
    return (
      scope.all ||
      scope.databasePerms.includes(databasePermName(record.database_name, record.database_id)) ||
      scope.datasourcePerms.includes(datasetPermName(record.database_name, record.table_name, record.id)) ||
      isOwner(actor, record)
    );
  }

  /** The dataset when the actor may read it; 404 otherwise. */
  /** Dataset ids from Superset's datasource references: `datasource_uids` ('7__table') and named datasources. */
  async idsOf(refs: { datasource_uids?: string[]; datasources?: Array<{ datasource_name: string; database_name: string; schema?: string | null; datasource_type?: string }> }): Promise<number[]> {
    const byUid = (refs.datasource_uids ?? []).map((uid) => /^(\d+)__table$/.exec(uid)).filter((m): m is RegExpExecArray => !!m).map((m) => Number(m[1]));
    const named = (refs.datasources ?? []).filter((d) => (d.datasource_type ?? 'table') === 'table').map((d) => ({ database_name: d.database_name, schema: d.schema, table_name: d.datasource_name }));
    return [...byUid, ...(named.length ? await this.deps.datasets.idsByName(named) : [])];
  }

  /** The dataset for a caller granted it another way (a dashboard's roles); undefined when there is none. */
  async getGranted(id: number): Promise<DatasetRecord | undefined> {
    return (await this.cachedRecord(id)) ?? undefined;
  }

  async getAccessible(actor: Actor, id: number): Promise<DatasetRecord> {
    const record = await this.cachedRecord(id);
    if (!record || !this.canAccess(actor, record)) throw new NotFound();
    return record;
  }

  /** Owners (or admins) with can_write on Dataset may change a dataset; writes start from a fresh read. */
  private async getEditable(actor: Actor | null, id: number): Promise<DatasetRecord> {
    this.deps.security.require(actor, 'can_write', 'Dataset');
    const record = await this.deps.datasets.get(id);
    if (!record || !this.canAccess(actor, record)) throw new NotFound();
    if (!isAdmin(actor) && !isOwner(actor, record)) throw new Forbidden('Changing this Dataset is forbidden');
    return record;
  }

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<Record<string, unknown>>> {
    this.deps.security.require(actor, 'can_read', 'Dataset');
    const { count, rows } = await this.deps.datasets.list(query, this.accessScope(actor));
    return {
      count,
      ids: rows.map((r) => r.id),
      result: rows.map((r) => {
        const view = datasetView(r);
        return {
          id: view.id,
          uuid: view.uuid,
          table_name: view.table_name,
          schema: view.schema,
          catalog: view.catalog,
          sql: view.sql,
          kind: view.kind,
          datasource_type: 'table',
          database: { id: r.database_id, database_name: r.database_name },
          description: view.description,
          default_endpoint: view.default_endpoint,
          explore_url: view.explore_url,
          extra: view.extra,
          owners: view.owners,
          changed_by: view.changed_by,
          changed_by_name: view.changed_by_name,
          changed_on_delta_humanized: view.changed_on_delta_humanized,
          changed_on_utc: view.changed_on_utc,
        };
      }),
    };
  }

  async get(actor: Actor | null, id: number): Promise<DatasetView> {
    this.deps.security.require(actor, 'can_read', 'Dataset');
    return datasetView(await this.getAccessible(actor, id));
  }

  /** Columns of a physical table from the engine. */
  private async physicalColumns(actor: Actor, databaseId: number, catalog: string | null, schema: string | null, table: string): Promise<SourceColumn[]> {
    try {
      const metadata = await this.deps.databases.table(actor, databaseId, { name: table, schema, catalog } as never);
      return metadata.columns.map((c: TableColumn) => ({ name: c.name, type: c.type, is_dttm: c.is_dttm }));
    } catch (error) {
      if (error instanceof StructuredError && error.status === 404) {
        throw new Unprocessable({ table_name: [`Dataset ${[schema, table].filter(Boolean).join('.')} does not exist`] });
      }
      throw error;
    }
  }

  /**
   * Columns of a virtual dataset: its SQL run for one row through the pool (never on the event
   * loop). The SQL must be one read-only statement, as Superset's `get_virtual_table_metadata`.
   */
  async virtualColumns(actor: Actor, databaseId: number, catalog: string | null, schema: string | null, sqlText: string): Promise<SourceColumn[]> {
    const db = await this.deps.databases.getAccessible(actor, databaseId);
    const dialect = getEngineSpec(db.sqlalchemy_uri).dialect;
    if (isMutating(sqlText, dialect)) {
      throw new StructuredError(422, [{ message: 'Only `SELECT` statements are allowed', error_type: 'DATASOURCE_SECURITY_ACCESS_ERROR', level: 'error', extra: {} }]);
    }
    if (splitStatements(sqlText, dialect).length !== 1) throw new Unprocessable({ sql: ['Only single queries supported'] });
    const { result } = await this.deps.runtime.runAndRead({ ...this.deps.databases.target(db, catalog, schema), sql: sqlText, limit: 1, allowDml: false, timeoutMs: 60_000, inlineMaxBytes: 1_000_000 });
    if (!result.ok) throw new StructuredError(422, result.errors.map((e) => ({ ...e })));
    if (result.statementCount !== 1) throw new Unprocessable({ sql: ['Only single queries supported'] });
    return result.columns.map((c: ResultColumn) => ({ name: c.column_name, type: c.type, is_dttm: c.is_dttm }));
  }

  /**
   * Types of calculated columns as the database reads their expressions, by column name: one
   * `SELECT <expressions> FROM <source> WHERE 1 = 0`, which reads no rows; when the database refuses
   * it, each expression alone, so one bad expression leaves only its own type unknown. Best effort:
   * the save never depends on it.
   */
  private async expressionTypes(record: DatasetRecord, columns: Array<{ column_name: string; expression: string }>): Promise<Map<string, string>> {
    const types = new Map<string, string>();
    if (!columns.length) return types;
    const spec = getEngineSpec(record.sqlalchemy_uri);
    const source = record.sql
      ? `(${record.sql.trim().replace(/;+\s*$/, '')}) AS virtual_table`
      : [record.schema, record.table_name].filter(Boolean).map((p) => spec.quoteIdentifier(p!)).join('.');
    const target = this.deps.databases.target({ sqlalchemy_uri: record.sqlalchemy_uri, password_encrypted: record.database_password_encrypted }, record.catalog, record.schema);
    const probe = async (batch: typeof columns): Promise<boolean> => {
      const aliases = batch.map((_, i) => `expr_${i}`);
      const select = batch.map((c, i) => `${c.expression} AS ${spec.quoteIdentifier(aliases[i])}`).join(', ');
      try {
        const { result } = await this.deps.runtime.runAndRead({
          ...target, sql: `SELECT ${select} FROM ${source} WHERE 1 = 0`, limit: 1, allowDml: false, timeoutMs: 10_000, inlineMaxBytes: 1_000_000,
        });
        if (!result.ok) return false;
        for (const col of result.columns) {
          const i = aliases.indexOf(col.column_name);
          if (i >= 0 && col.type) types.set(batch[i].column_name, col.type);
        }
        return true;
      } catch {
        return false;
      }
    };
    if (!(await probe(columns)) && columns.length > 1) for (const column of columns) await probe([column]);
    return types;
  }

  private async checkOwners(ids: number[] | undefined): Promise<void> {
    if (!ids?.length) return;
    const existing = await this.deps.datasets.existingUserIds(ids);
    const missing = ids.filter((i) => !existing.includes(i));
    if (missing.length) throw new Unprocessable({ owners: ['Owners are invalid'] });
  }

  /** `POST /api/v1/dataset/`: physical (columns from the table) or virtual (columns from running the SQL). */
  async create(actor: Actor | null, input: DatasetCreate): Promise<DatasetView> {
    this.deps.security.require(actor, 'can_write', 'Dataset');
    const db = await this.deps.databases.getAccessible(actor, input.database).catch(() => {
      throw new Unprocessable({ database: ['Database does not exist'] });
    });
    const catalog = input.catalog ?? null;
    const schema = input.schema || null;
    if (await this.deps.datasets.findByName(db.id, catalog, schema, input.table_name)) {
      throw new Unprocessable({ table_name: [`Dataset ${[schema, input.table_name].filter(Boolean).join('.')} already exists`] });
    }
    await this.checkOwners(input.owners);
    const sqlText = input.sql?.trim() ? input.sql : null;
    const source = sqlText
      ? await this.virtualColumns(actor, db.id, catalog, schema, sqlText)
      : await this.physicalColumns(actor, db.id, catalog, schema, input.table_name);
    const mainDttm = source.find((c) => c.is_dttm)?.name ?? null;
    const owners = input.owners?.length ? input.owners : [actor.userId];
    const id = await this.writing(undefined, () => this.deps.datasets.create(
      {
        database_id: db.id,
        catalog,
        schema,
        table_name: input.table_name,
        sql: sqlText,
        main_dttm_col: mainDttm,
        is_sqllab_view: !!sqlText,
        is_managed_externally: input.is_managed_externally ?? false,
        external_url: input.external_url ?? null,
        normalize_columns: input.normalize_columns ?? false,
        always_filter_main_dttm: input.always_filter_main_dttm ?? false,
        template_params: input.template_params ?? null,
        created_by_fk: actor.userId,
        changed_by_fk: actor.userId,
      },
      source.map((c) => ({ ...columnFromSource(c, mainDttm), created_by_fk: actor.userId, changed_by_fk: actor.userId })),
      [{ metric_name: 'count', verbose_name: 'COUNT(*)', metric_type: 'count', expression: 'COUNT(*)', created_by_fk: actor.userId, changed_by_fk: actor.userId }],
      owners,
    ));
    return datasetView((await this.deps.datasets.get(id))!);
  }

  /** `POST /api/v1/dataset/get_or_create/`: the dataset of a table, created when missing. */
  async getOrCreate(actor: Actor | null, input: DatasetGetOrCreate): Promise<{ table_id: number }> {
    this.deps.security.require(actor, 'can_read', 'Dataset');
    const existing = await this.deps.datasets.findByName(input.database_id, input.catalog ?? null, input.schema || null, input.table_name);
    if (existing && this.canAccess(actor, existing)) return { table_id: existing.id };
    const created = await this.create(actor, {
      database: input.database_id,
      catalog: input.catalog,
      schema: input.schema,
      table_name: input.table_name,
      template_params: input.template_params,
      always_filter_main_dttm: input.always_filter_main_dttm,
      normalize_columns: input.normalize_columns,
    });
    return { table_id: created.id };
  }

  async update(actor: Actor | null, id: number, input: DatasetUpdate, opts: { override_columns?: boolean } = {}): Promise<DatasetView> {
    this.deps.security.require(actor, 'can_write', 'Dataset');
    const record = await this.getEditable(actor, id);
    // A save from an older copy would delete what it never saw: refused before any work, and again
    // inside the write's transaction, where no other save can slip in between.
    const refuseStale = (stored: { changed_on: Date | string }) => {
      if (isStaleCopy(input.last_modified_time, stored.changed_on)) throw new Conflict(staleCopyMessage('dataset'));
    };
    refuseStale(record);
    await this.checkOwners(input.owners);
    const errors: Record<string, string[]> = {};
    if (input.columns) {
      const names = input.columns.map((c) => c.column_name);
      if (new Set(names).size !== names.length) errors.columns = ['One or more columns are duplicated'];
      const ids = input.columns.map((c) => c.id).filter((x): x is number => x !== undefined);
      if (!opts.override_columns && ids.some((cid) => !record.columns.some((c) => c.id === cid))) errors.columns = ['One or more columns do not exist'];
    }
    // Saved metric and calculated column SQL goes into every chart query: one expression, no statements, no subquery.
    const backend = getEngineSpec(record.sqlalchemy_uri).backend;
    const expressionProblem = (expression: string) => {
      try {
        validateSqlExpression(expression, 'select', { backend });
        return null;
      } catch (error) {
        if (error instanceof SqlExpressionError) return error.message;
        throw error;
      }
    };
    const badColumn = input.columns?.map((c) => (c.expression ? expressionProblem(c.expression) : null)).find(Boolean);
    if (badColumn) errors.columns = [badColumn];
    const badMetric = input.metrics?.map((m) => expressionProblem(m.expression)).find(Boolean);
    if (badMetric) errors.metrics = [badMetric];
    if (input.metrics) {
      const names = input.metrics.map((m) => m.metric_name);
      if (new Set(names).size !== names.length) errors.metrics = ['One or more metrics are duplicated'];
      const ids = input.metrics.map((m) => m.id).filter((x): x is number => x !== undefined);
      if (ids.some((mid) => !record.metrics.some((m) => m.id === mid))) errors.metrics = ['One or more metrics do not exist'];
    }
    // Moved to another database: it must exist and be the actor's to use (Superset's DatabaseNotFoundValidationError).
    if (input.database_id !== undefined && input.database_id !== record.database_id && !(await this.deps.databases.getAccessible(actor, input.database_id).then(() => true, () => false))) {
      errors.database = ['Database does not exist'];
    }
    const tableName = input.table_name ?? record.table_name;
    const schema = input.schema !== undefined ? input.schema || null : record.schema;
    const databaseId = input.database_id ?? record.database_id;
    if (tableName !== record.table_name || schema !== record.schema || databaseId !== record.database_id) {
      const clash = await this.deps.datasets.findByName(databaseId, input.catalog ?? record.catalog, schema, tableName);
      if (clash && clash.id !== id) errors.table_name = [`Dataset ${[schema, tableName].filter(Boolean).join('.')} already exists`];
    }
    if (Object.keys(errors).length) throw new Unprocessable(errors);
    const { columns, metrics, owners, folders: _folders, last_modified_time: _copyTime, database_id, ...fields } = input;
    const patch = patchOf({ ...fields, database_id });
    if (typeof patch.sql === 'string' && !patch.sql.trim()) patch.sql = null;
    // New SQL for a virtual dataset is checked by running it (one read-only statement), and unless
    // the request sets the columns itself, the columns follow the new SQL as a refresh would.
    let synced: ColumnSync | undefined;
    if (typeof patch.sql === 'string' && patch.sql !== record.sql) {
      const source = await this.virtualColumns(actor, databaseId, (patch.catalog as string | null | undefined) ?? record.catalog, schema, patch.sql);
      if (!columns) synced = syncColumns(record, source, actor.userId);
    }
    // A calculated column saved without a type takes the one its expression has in the database.
    const untyped = columns?.filter((c): c is typeof c & { expression: string } => !!c.expression?.trim() && !c.type?.trim()) ?? [];
    const inferred = await this.expressionTypes({ ...record, sql: 'sql' in patch ? (patch.sql as string | null) : record.sql }, untyped);
    const written = await this.writing([id], () => this.deps.datasets.update(
      id,
      { ...patch, changed_by_fk: actor.userId },
      {
        columns: synced ?? columns?.map(({ uuid: _u, ...c }) => ({ ...c, type: c.type?.trim() ? c.type : (inferred.get(c.column_name) ?? null), is_dttm: c.is_dttm ?? false, groupby: c.groupby ?? true, filterable: c.filterable ?? true, is_active: c.is_active ?? true, changed_by_fk: actor.userId })),
        metrics: metrics?.map(({ uuid: _u, currency, ...m }) => ({ ...m, currency: currency && typeof currency === 'object' ? JSON.stringify(currency) : (currency ?? null), changed_by_fk: actor.userId })) as MetricInsert[] | undefined,
        owners: ownersToStore(actor, owners),
      },
      refuseStale,
    ));
    if (!written) throw new NotFound();
    return datasetView((await this.deps.datasets.get(id))!);
  }

  /**
   * `PUT /api/v1/dataset/{pk}/refresh`: re-reads the columns from the source. New columns are
   * added, gone physical columns removed, types refreshed; user-set attributes and calculated
   * columns are kept.
   */
  async refresh(actor: Actor | null, id: number): Promise<DatasetView> {
    this.deps.security.require(actor, 'can_write', 'Dataset');
    const record = await this.getEditable(actor, id);
    const source = record.sql
      ? await this.virtualColumns(actor, record.database_id, record.catalog, record.schema, record.sql)
      : await this.physicalColumns(actor, record.database_id, record.catalog, record.schema, record.table_name);
    const columns = syncColumns(record, source, actor.userId);
    await this.writing([id], () => this.deps.datasets.update(id, { changed_by_fk: actor.userId }, { columns }));
    return datasetView((await this.deps.datasets.get(id))!);
  }

  async delete(actor: Actor | null, id: number): Promise<void> {
    await this.getEditable(actor, id);
    await this.writing([id], () => this.deps.datasets.delete([id]));
  }

  /** `DELETE /api/v1/dataset/{pk}/column/{id}` and `/metric/{id}`: one column or metric of a dataset the caller may edit. */
  async deleteChild(actor: Actor | null, id: number, kind: 'column' | 'metric', childId: number): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Dataset');
    await this.getEditable(actor, id);
    const deleted = await this.writing([id], () => this.deps.datasets.deleteChild(kind, id, childId));
    if (!deleted) throw new NotFound(kind === 'column' ? 'Dataset column not found.' : 'Dataset metric not found.');
  }

  /** Bulk delete: every dataset must exist and be editable, else nothing is deleted. */
  async bulkDelete(actor: Actor | null, ids: number[]): Promise<number> {
    for (const id of ids) await this.getEditable(actor, id);
    await this.writing(ids, () => this.deps.datasets.delete(ids));
    return ids.length;
  }

  /** `POST /api/v1/dataset/duplicate`: a copy of a virtual dataset, owned by the caller. */
  async duplicate(actor: Actor | null, input: DatasetDuplicate): Promise<DatasetView> {
    this.deps.security.require(actor, 'can_write', 'Dataset');
    const base = await this.getAccessible(actor, input.base_model_id);
    if (!base.sql) throw new Unprocessable({ base_model_id: ['Dataset type is invalid'] });
    if (await this.deps.datasets.findByName(base.database_id, base.catalog, base.schema, input.table_name)) {
      throw new Unprocessable({ table_name: [`Dataset ${[base.schema, input.table_name].filter(Boolean).join('.')} already exists`] });
    }
    const strip = <T extends { id: number; uuid: string; table_id: number; created_on: unknown; changed_on: unknown }>({ id: _i, uuid: _u, table_id: _t, created_on: _c, changed_on: _ch, ...rest }: T) => rest;
    const { id: _id, uuid: _uuid, created_on: _c, changed_on: _ch, database_name: _d, sqlalchemy_uri: _s, database_extra: _e, database_password_encrypted: _pw, database_cache_timeout: _ct, database_uuid: _du, created_by: _cb, changed_by: _mb, owners: _o, columns, metrics, ...fields } = base;
    const id = await this.writing(undefined, () => this.deps.datasets.create(
      { ...fields, table_name: input.table_name, created_by_fk: actor.userId, changed_by_fk: actor.userId },
      columns.map((c) => ({ ...strip(c), created_by_fk: actor.userId, changed_by_fk: actor.userId })),
      metrics.map((m) => ({ ...strip(m), created_by_fk: actor.userId, changed_by_fk: actor.userId })),
      [actor.userId],
    ));
    return datasetView((await this.deps.datasets.get(id))!);
  }

  /** Datasets to export, each readable by the actor. */
  async forExport(actor: Actor | null, ids: number[]): Promise<DatasetRecord[]> {
    this.deps.security.require(actor, 'can_export', 'Dataset');
    const records = await this.deps.datasets.getMany(ids);
    if (records.length !== new Set(ids).size) throw new NotFound();
    for (const r of records) if (!this.canAccess(actor, r)) throw new NotFound();
    return records;
  }

  /** Charts on a dataset and the dashboards holding them (`GET /api/v1/dataset/{pk}/related_objects`). */
  /** `distinct/{schema,catalog}` among the datasets the caller may read. */
  distinct(actor: Actor | null, column: (typeof DATASET_DISTINCT_COLUMNS)[number], page: { filter: string; page: number; pageSize: number }) {
    this.deps.security.require(actor, 'can_read', 'Dataset');
    return this.deps.datasets.distinct(column, this.accessScope(actor), page);
  }

  async relatedObjects(actor: Actor | null, id: number) {
    this.deps.security.require(actor, 'can_read', 'Dataset');
    await this.getAccessible(actor, id);
    const charts = await this.deps.datasets.relatedCharts(id);
    const dashboards = (await this.deps.datasets.relatedDashboards(id)).map(relatedDashboard);
    return { charts: { count: charts.length, result: charts }, dashboards: { count: dashboards.length, result: dashboards } };
  }
}
