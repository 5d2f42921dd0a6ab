import { relatedDashboard } from '@meridian/contracts/dashboard/metadata';
import type {
  DatabaseCreate, DatabaseSchemasQuery, DatabaseTableOption, DatabaseTablesQuery, DatabaseTestConnection, DatabaseUpdate, DatabaseValidateParameters, DatabaseView,
  ListQuery, ListResult, TableMetadataQuery,
} from '@meridian/contracts';
import { buildSqlalchemyUri, CONNECT_ENGINES, connectEngineOf, missingParameters, missingParametersMessage, type ConnectEngine, type DatabaseParameters } from '@meridian/contracts/rules/database-parameters';
import { hasPermission, isAdmin } from '@meridian/contracts/rules/permissions';
import { backendFromUri, getEngineSpec, type ConnectionTarget, type MetadataRequest, type MetadataSuccess, type MetadataTask, type TableMetadata, type TaskFailure } from '@meridian/query-worker';
import { Invalid, NotFound, StructuredError, Unprocessable } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { QueryRuntime } from '../results/query-runtime';
import { databasePermName, type DatabaseInsert, type DatabasePatch, type DatabaseRecord, type DatabaseRepository } from './database.repository';
import { humanizedDelta, pythonIsoformat } from '@meridian/contracts/rules/dates';
import { auditPerson } from './humanize';
import type { PasswordCrypto } from './password-crypto';
import { maskedUri, PASSWORD_MASK, passwordOf, uriProblem, withPassword } from './sqlalchemy-uri';
import { ExpiringMap } from '../common/expiring-map';
import { availableEngines, parameterErrors, parametersFromUri, parametersJsonSchema } from './database-connect';

/** A database's `extra` JSON, parsed (unknown keys kept). */
export interface DatabaseExtra {
  disable_data_preview?: boolean;
  disable_drill_to_detail?: boolean;
  schemas_allowed_for_file_upload?: string[];
  engine_params?: Record<string, unknown>;
  metadata_cache_timeout?: { schema_cache_timeout?: number; table_cache_timeout?: number };
  cost_estimate_enabled?: boolean;
  allow_multi_catalog?: boolean;
  [key: string]: unknown;
}

export function parseExtra(extra: string | null | undefined): DatabaseExtra {
  if (!extra) return {};
  try {
    const value = JSON.parse(extra);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * Whether SQL Lab may estimate query costs on a database (Superset's `allows_cost_estimate`): every
 * Meridian engine can EXPLAIN, so only `extra.cost_estimate_enabled: false` turns it off.
 */
export function allowsCostEstimate(extra: DatabaseExtra): boolean {
  return extra.cost_estimate_enabled !== false;
}

/**
 * A database as a datasource's `database` (Superset's `Database.data`, less its connection `parameters`, which Explore
 * blanks): its name as both `name` (Superset) and `database_name` (Meridian's client), and what Explore may do on it.
 */
export function databaseData(db: { id: number; database_name: string; backend: string; extra: string | null }) {
  const extra = parseExtra(db.extra);
  return {
    id: db.id,
    name: db.database_name,
    database_name: db.database_name,
    backend: db.backend,
    configuration_method: 'sqlalchemy_form',
    allows_subquery: true,
    allows_cost_estimate: allowsCostEstimate(extra),
    allows_virtual_table_explore: extra.allows_virtual_table_explore !== false,
    explore_database_id: typeof extra.explore_database_id === 'number' ? extra.explore_database_id : db.id,
    schema_options: (extra.schema_options && typeof extra.schema_options === 'object' ? extra.schema_options : {}) as Record<string, unknown>,
    disable_data_preview: extra.disable_data_preview === true,
    disable_drill_to_detail: extra.disable_drill_to_detail === true,
    allow_multi_catalog: Boolean(extra.allow_multi_catalog),
  };
}

const DRIVERS: Record<string, string> = { postgresql: 'psycopg2', mysql: 'mysqldb', duckdb: 'duckdb_engine', sqlite: 'pysqlite' };
const METADATA_CACHE_SECONDS = 300;

/** The failure of a worker task as a structured error. */
export function taskError(failure: TaskFailure, status = 422): StructuredError {
  return new StructuredError(status, failure.errors.map((e) => ({ ...e })));
}

/** Databases: CRUD, connection tests, schema/table browsing, and who may use which database. */
export class DatabaseService {
  private readonly metadataCache = new ExpiringMap<string, MetadataSuccess>();
  private readonly changeListeners: ((databaseId: number) => void)[] = [];

  constructor(
    private readonly deps: { databases: DatabaseRepository; security: SecurityService; runtime: QueryRuntime; crypto: PasswordCrypto },
  ) {}

  /** Superset's `can_access_database`: admin, all databases/datasources, or `database_access` on the database. */
  canAccess(actor: Actor, db: Pick<DatabaseRecord, 'id' | 'database_name'>): boolean {
    return (
      isAdmin(actor) ||
      hasPermission(actor, 'all_database_access', 'all_database_access') ||
      hasPermission(actor, 'all_datasource_access', 'all_datasource_access') ||
      hasPermission(actor, 'database_access', databasePermName(db.database_name, db.id))
    );
  }

  /** The database when the actor may use it; 404 otherwise (its existence is not revealed). */
  async getAccessible(actor: Actor, id: number): Promise<DatabaseRecord> {
    const db = await this.deps.databases.get(id);
    if (!db || !this.canAccess(actor, db)) throw new NotFound();
    return db;
  }

  /** Every database the actor may use. */
  async accessible(actor: Actor): Promise<DatabaseRecord[]> {
    return (await this.deps.databases.all()).filter((db) => this.canAccess(actor, db));
  }

  /** Where a task on this database connects: the URI with its real password. */
  target(db: Pick<DatabaseRecord, 'sqlalchemy_uri' | 'password_encrypted'>, catalog?: string | null, schema?: string | null): ConnectionTarget {
    const password = db.password_encrypted ? this.deps.crypto.decrypt(db.password_encrypted) : null;
    return { uri: withPassword(db.sqlalchemy_uri, password), catalog: catalog ?? null, schema: schema ?? null };
  }

  toView(db: DatabaseRecord): DatabaseView {
    const extra = parseExtra(db.extra);
    const backend = backendFromUri(db.sqlalchemy_uri) ?? db.sqlalchemy_uri.split(':')[0];
    return {
      id: db.id,
      uuid: db.uuid,
      database_name: db.database_name,
      backend,
      engine: backend,
      driver: DRIVERS[backend] ?? backend,
      sqlalchemy_uri: maskedUri(db.sqlalchemy_uri),
      expose_in_sqllab: db.expose_in_sqllab,
      allow_run_async: db.allow_run_async,
      allow_dml: db.allow_dml,
      allow_ctas: db.allow_ctas,
      allow_cvas: db.allow_cvas,
      allow_file_upload: db.allow_file_upload,
      allow_multi_catalog: Boolean(extra.allow_multi_catalog),
      allows_cost_estimate: allowsCostEstimate(extra),
      allows_subquery: true,
      allows_virtual_table_explore: true,
      disable_data_preview: Boolean(extra.disable_data_preview),
      disable_drill_to_detail: Boolean(extra.disable_drill_to_detail),
      explore_database_id: db.id,
      cache_timeout: db.cache_timeout,
      force_ctas_schema: db.force_ctas_schema,
      impersonate_user: db.impersonate_user,
      is_managed_externally: db.is_managed_externally,
      external_url: db.external_url,
      extra: db.extra,
      configuration_method: 'sqlalchemy_form',
      parameters: parametersFromUri(db.sqlalchemy_uri),
      engine_information: { supports_file_upload: true, disable_ssh_tunneling: true, supports_dynamic_catalog: false, supports_oauth2: false },
      created_by: auditPerson(db.created_by_fk, db.created_by_first_name, db.created_by_last_name),
      changed_by: auditPerson(db.changed_by_fk, db.changed_by_first_name, db.changed_by_last_name),
      created_on: pythonIsoformat(db.created_on),
      changed_on: pythonIsoformat(db.changed_on),
      changed_on_delta_humanized: humanizedDelta(db.changed_on),
    };
  }

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<DatabaseView>> {
    this.deps.security.require(actor, 'can_read', 'Database');
    const all = isAdmin(actor) || hasPermission(actor, 'all_database_access', 'all_database_access') || hasPermission(actor, 'all_datasource_access', 'all_datasource_access');
    const ids = all ? null : (await this.accessible(actor)).map((d) => d.id);
    const { count, rows } = await this.deps.databases.list(query, ids);
    return { count, ids: rows.map((r) => r.id), result: rows.map((r) => this.toView(r)) };
  }

  async get(actor: Actor | null, id: number): Promise<DatabaseView> {
    this.deps.security.require(actor, 'can_read', 'Database');
    return this.toView(await this.getAccessible(actor, id));
  }

  /**
   * `GET /api/v1/database/{pk}/connection` (Superset's DatabaseConnectionSchema): the database with its engine's
   * `parameters_schema`; Meridian stores no encrypted extra nor server certificate, so those are null.
   */
  async connection(actor: Actor | null, id: number) {
    const view = await this.get(actor, id);
    const engine = (CONNECT_ENGINES as readonly string[]).includes(view.backend) ? (view.backend as ConnectEngine) : null;
    return { ...view, masked_encrypted_extra: null, server_cert: null, parameters_schema: engine ? parametersJsonSchema(engine) : {} };
  }

  /** Splits a URI into what is stored: the masked URI and the encrypted password. */
  private secure(uri: string, keep: DatabaseRecord | null): { sqlalchemy_uri: string; password_encrypted: string | null } {
    const problem = uriProblem(uri);
    if (problem) throw new Unprocessable({ sqlalchemy_uri: [`Invalid connection string, a valid string usually follows: backend+driver://user:password@database-host/database-name. ${problem}`] });
    const password = passwordOf(uri);
    if (password === null) return { sqlalchemy_uri: uri, password_encrypted: null };
    if (password === PASSWORD_MASK && keep) return { sqlalchemy_uri: maskedUri(uri), password_encrypted: keep.password_encrypted };
    return { sqlalchemy_uri: maskedUri(uri), password_encrypted: this.deps.crypto.encrypt(password) };
  }

  /**
   * The stored form of an imported database's URI: masked, with the given password encrypted (an
   * export's URI has its password masked; the importer supplies it). Not connected to, as Superset's import.
   */
  storedConnection(uri: string, password: string | null): { sqlalchemy_uri: string; password_encrypted: string | null } {
    return this.secure(password === null ? uri : withPassword(uri, password), null);
  }

  private async checkConnection(target: ConnectionTarget): Promise<void> {
    const result = await this.deps.runtime.pool.testConnection({ ...target, timeoutMs: 30_000 });
    if (!result.ok) throw new Unprocessable('Connection failed, please check your connection settings', { cause: result });
  }

  async create(actor: Actor | null, input: DatabaseCreate): Promise<DatabaseView> {
    this.deps.security.require(actor, 'can_write', 'Database');
    if (await this.deps.databases.findByName(input.database_name)) {
      throw new Unprocessable({ database_name: ['A database with the same name already exists.'] });
    }
    const uri = input.sqlalchemy_uri ?? this.uriOfParameters(input.engine, input.parameters);
    const stored = this.secure(uri, null);
    await this.checkConnection({ uri });
    const { sqlalchemy_uri: _u, engine: _e, parameters: _p, configuration_method: _c, driver: _d, extra, uuid, masked_encrypted_extra: _m, ...flags } = input;
    const values: DatabaseInsert = {
      ...flags,
      ...stored,
      extra: extra && extra.trim() ? extra : '{}',
      ...(uuid ? { uuid } : {}),
      is_managed_externally: input.is_managed_externally ?? false,
      created_by_fk: actor.userId,
      changed_by_fk: actor.userId,
    };
    const id = await this.deps.databases.create(values);
    return this.toView((await this.deps.databases.get(id))!);
  }

  async update(actor: Actor | null, id: number, input: DatabaseUpdate): Promise<DatabaseView> {
    this.deps.security.require(actor, 'can_write', 'Database');
    const current = await this.getAccessible(actor, id);
    if (input.database_name && input.database_name !== current.database_name) {
      const clash = await this.deps.databases.findByName(input.database_name);
      if (clash && clash.id !== id) throw new Unprocessable({ database_name: ['A database with the same name already exists.'] });
    }
    const { sqlalchemy_uri: uriInput, engine, parameters, configuration_method: _c, driver: _d, extra, uuid: _uuid, masked_encrypted_extra: _m, ...flags } = input;
    // Parameters without a URI rebuild it (a masked password in them keeps the stored one, as a masked URI does).
    const sqlalchemy_uri = uriInput ?? (parameters ? this.uriOfParameters(engine ?? current.sqlalchemy_uri, parameters) : undefined);
    const patch: DatabasePatch = { ...flags, changed_by_fk: actor.userId };
    if (extra !== undefined) patch.extra = extra.trim() ? extra : '{}';
    if (sqlalchemy_uri !== undefined) {
      const stored = this.secure(sqlalchemy_uri, current);
      const password = stored.password_encrypted ? this.deps.crypto.decrypt(stored.password_encrypted) : null;
      await this.checkConnection({ uri: withPassword(stored.sqlalchemy_uri, password) });
      Object.assign(patch, stored);
    }
    await this.deps.databases.update(id, current.database_name, patch);
    this.forget(id);
    return this.toView((await this.deps.databases.get(id))!);
  }

  /** The URI of an engine's parameters (Superset's dynamic form); 422 with the field when the engine or a parameter is missing. */
  private uriOfParameters(engineName: string | undefined, parameters: DatabaseParameters | undefined): string {
    const engine = connectEngineOf(engineName);
    if (!engine) throw new Unprocessable({ engine: [engineName ? `Engine "${engineName}" is not a valid engine.` : 'Missing data for required field.'] });
    if (!parameters) throw new Unprocessable({ parameters: ['Missing data for required field.'] });
    const missing = missingParameters(engine, parameters);
    if (missing.length) throw new Unprocessable({ parameters: [missingParametersMessage(missing)] });
    return buildSqlalchemyUri(engine, parameters);
  }

  /** Superset's `/database/available/`: the engines Meridian connects to, each with its parameters schema. */
  available(actor: Actor | null) {
    this.deps.security.require(actor, 'can_read', 'Database');
    return availableEngines();
  }

  /**
   * Superset's `/database/validate_parameters/`: required parameters present, host resolvable, port open, then a
   * connection tried with them. A masked password of an existing database (by `database_name`) uses the stored one.
   */
  async validateParameters(actor: Actor | null, input: DatabaseValidateParameters): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Database');
    const engine = connectEngineOf(input.engine);
    if (!engine) {
      throw new StructuredError(422, [{ message: `Engine "${input.engine}" is not a valid engine.`, error_type: 'GENERIC_DB_ENGINE_ERROR', level: 'error', extra: { allowed: availableEngines().map((e) => e.engine), provided: input.engine } }]);
    }
    const errors = await parameterErrors(engine, input.parameters);
    if (errors.length) throw new StructuredError(422, errors);
    let uri = buildSqlalchemyUri(engine, input.parameters);
    if (passwordOf(uri) === PASSWORD_MASK && input.database_name) {
      const existing = await this.deps.databases.findByName(input.database_name);
      if (existing?.password_encrypted) uri = withPassword(uri, this.deps.crypto.decrypt(existing.password_encrypted));
    }
    const result = await this.deps.runtime.pool.testConnection({ uri, timeoutMs: 30_000 });
    if (!result.ok) throw taskError(result, 422);
  }

  async delete(actor: Actor | null, id: number): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Database');
    const current = await this.getAccessible(actor, id);
    if ((await this.deps.databases.countDatasets(id)) > 0) throw new Unprocessable('Cannot delete a database that has datasets attached');
    await this.deps.databases.delete(id, current.database_name);
    this.forget(id);
  }

  /**
   * Superset's test connection: a masked URI (or masked password parameter) of an existing database (by name) uses
   * its stored password.
   */
  async testConnection(actor: Actor | null, input: DatabaseTestConnection): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Database');
    let uri = input.sqlalchemy_uri ?? this.uriOfParameters(input.engine ?? undefined, input.parameters);
    const problem = uriProblem(uri);
    if (problem) throw new Unprocessable({ sqlalchemy_uri: [problem] });
    if (passwordOf(uri) === PASSWORD_MASK && input.database_name) {
      const existing = await this.deps.databases.findByName(input.database_name);
      if (existing?.password_encrypted) uri = withPassword(uri, this.deps.crypto.decrypt(existing.password_encrypted));
    }
    const result = await this.deps.runtime.pool.testConnection({ uri, timeoutMs: 30_000 });
    // Superset's TestConnectionDatabaseCommand: the engine's extracted errors with status 400.
    if (!result.ok) throw taskError(result, 400);
  }

  /** Calls `listener` after every change of a database through this service (caches of other domains hold its name and URI). */
  onChange(listener: (databaseId: number) => void): void {
    this.changeListeners.push(listener);
  }

  /** Forgets what was read of a database's tables (after an upload wrote one). */
  tablesChanged(id: number): void {
    this.forget(id);
  }

  private forget(id: number): void {
    for (const key of this.metadataCache.keys()) if (key.startsWith(`${id}:`)) this.metadataCache.delete(key);
    for (const listener of this.changeListeners) listener(id);
  }

  /** Runs a metadata task, cached per database for the schema cache timeout unless `force`. */
  private async metadata<W extends MetadataRequest['what']>(db: DatabaseRecord, request: MetadataRequest & { what: W }, catalog: string | null, force: boolean): Promise<Extract<MetadataSuccess, { what: W }>> {
    const key = `${db.id}:${catalog ?? ''}:${JSON.stringify(request)}`;
    const cached = force ? undefined : this.metadataCache.get(key);
    if (cached) return cached as Extract<MetadataSuccess, { what: W }>;
    const result = await this.deps.runtime.pool.metadata({ ...this.target(db, catalog, null), ...request, timeoutMs: 60_000 });
    if (!result.ok) throw taskError(result, 422);
    const extra = parseExtra(db.extra);
    const ttl = request.what === 'schemas' ? extra.metadata_cache_timeout?.schema_cache_timeout : extra.metadata_cache_timeout?.table_cache_timeout;
    this.metadataCache.set(key, result, Date.now() + (ttl ?? METADATA_CACHE_SECONDS) * 1000);
    return result as Extract<MetadataSuccess, { what: W }>;
  }

  async schemas(actor: Actor | null, id: number, query: DatabaseSchemasQuery): Promise<string[]> {
    this.deps.security.require(actor, 'can_read', 'Database');
    const db = await this.getAccessible(actor, id);
    const result = await this.metadata(db, { what: 'schemas' }, query.catalog ?? null, query.force);
    let schemas = [...result.schemas].sort((a, b) => a.localeCompare(b));
    if (query.upload_allowed) {
      const allowed = parseExtra(db.extra).schemas_allowed_for_file_upload;
      if (!db.allow_file_upload) schemas = [];
      else if (allowed?.length) {
        // Case-insensitive, as Superset: the list is typed by hand, the database may answer in another case.
        const lower = new Set(allowed.map((s) => String(s).toLowerCase()));
        schemas = schemas.filter((s) => lower.has(s.toLowerCase()));
      }
    }
    return schemas;
  }

  /** `sync_permissions/`: the database's and its datasets' access permissions, made to exist under their current names. */
  async syncPermissions(actor: Actor | null, id: number): Promise<string> {
    this.deps.security.require(actor, 'can_write', 'Database');
    const db = await this.getAccessible(actor, id);
    await this.deps.databases.syncPermissions(db.id);
    return 'Permissions successfully synced';
  }

  /** `schemas_access_for_file_upload/`: the schemas a file may be uploaded into (none when uploads are off). */
  async uploadSchemas(actor: Actor | null, id: number): Promise<string[]> {
    return this.schemas(actor, id, { force: false, upload_allowed: true } as DatabaseSchemasQuery);
  }

  /** `function_names/`: the engine's function names, for SQL Lab's completions. */
  async functionNames(actor: Actor | null, id: number): Promise<string[]> {
    this.deps.security.require(actor, 'can_read', 'Database');
    const db = await this.getAccessible(actor, id);
    return (await this.metadata(db, { what: 'functions' }, null, false)).functions;
  }

  /** `related_objects/`: the charts, dashboards and SQL Lab tabs that use the database. */
  async relatedObjects(actor: Actor | null, id: number) {
    this.deps.security.require(actor, 'can_read', 'Database');
    await this.getAccessible(actor, id);
    const { charts, dashboards, tabs } = await this.deps.databases.relatedObjects(id);
    return {
      charts: { count: charts.length, result: charts },
      dashboards: { count: dashboards.length, result: dashboards.map(relatedDashboard) },
      sqllab_tab_states: { count: tabs.length, result: tabs },
    };
  }

  async catalogs(actor: Actor | null, id: number, force = false): Promise<string[]> {
    this.deps.security.require(actor, 'can_read', 'Database');
    const db = await this.getAccessible(actor, id);
    if (!getEngineSpec(db.sqlalchemy_uri).supportsCatalog) return [];
    const result = await this.metadata(db, { what: 'catalogs' }, null, force);
    return [...result.catalogs].sort((a, b) => a.localeCompare(b));
  }

  async tables(actor: Actor | null, id: number, query: DatabaseTablesQuery): Promise<{ count: number; result: DatabaseTableOption[] }> {
    this.deps.security.require(actor, 'can_read', 'Database');
    const db = await this.getAccessible(actor, id);
    const result = await this.metadata(db, { what: 'tables', schema: query.schema_name }, query.catalog_name ?? null, query.force);
    const options = result.tables
      .map((t): DatabaseTableOption => ({ value: t.name, type: t.type, extra: null }))
      .sort((a, b) => (a.type === b.type ? a.value.localeCompare(b.value) : a.type === 'table' ? -1 : 1));
    return { count: options.length, result: options };
  }

  /** One table's metadata from the engine (raw, for datasets and SQL Lab). */
  async table(actor: Actor | null, id: number, query: TableMetadataQuery): Promise<TableMetadata> {
    this.deps.security.require(actor, 'can_read', 'Database');
    const db = await this.getAccessible(actor, id);
    const task: MetadataTask = { ...this.target(db, query.catalog, null), kind: 'metadata', what: 'table', schema: query.schema ?? null, table: query.name, timeoutMs: 60_000 };
    const result = await this.deps.runtime.pool.metadata(task);
    if (!result.ok) {
      if (result.errorType === 'TABLE_DOES_NOT_EXIST_ERROR' || result.errorType === 'OBJECT_DOES_NOT_EXIST_ERROR') throw taskError(result, 404);
      throw taskError(result, 422);
    }
    if (result.what !== 'table') throw new Error('Unexpected metadata answer');
    return result.table;
  }

  /** Superset's `/table_metadata/` answer: columns with long types and keys, selectStar, primary and foreign keys, indexes. */
  async tableMetadata(actor: Actor | null, id: number, query: TableMetadataQuery) {
    const table = await this.table(actor, id, query);
    const pk = table.primaryKey && table.primaryKey.constrained_columns.length ? { ...table.primaryKey, column_names: table.primaryKey.constrained_columns, type: 'pk' } : null;
    const foreignKeys = table.foreignKeys.map((fk) => ({ ...fk, column_names: fk.constrained_columns, type: 'fk' }));
    const indexes = table.indexes.map((ix) => ({ ...ix, type: 'index' }));
    const keys = [...indexes, ...(pk ? [pk] : []), ...foreignKeys];
    return {
      name: table.name,
      columns: table.columns.map((c) => ({
        name: c.name,
        type: c.type.includes('(') ? c.type.slice(0, c.type.indexOf('(')) : c.type,
        longType: c.type,
        type_generic: c.type_generic,
        is_dttm: c.is_dttm,
        keys: keys.filter((k) => k.column_names.includes(c.name)),
        comment: c.comment,
      })),
      selectStar: table.selectStar,
      primaryKey: pk,
      foreignKeys,
      indexes,
      comment: table.comment,
    };
  }

  /** `/table_metadata/extra/`: partitions and clustering, which none of the shipped engines have. */
  async tableMetadataExtra(actor: Actor | null, id: number, query: TableMetadataQuery): Promise<Record<string, unknown>> {
    await this.table(actor, id, query);
    return {};
  }

  async selectStar(actor: Actor | null, id: number, table: string, schema: string | null): Promise<string> {
    if (!table) throw new Invalid({ table_name: ['Missing data for required field.'] });
    return (await this.table(actor, id, { name: table, schema })).selectStar;
  }
}
