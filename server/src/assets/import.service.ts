import type JSZip from 'jszip';
import { chartIdsOf } from '@meridian/contracts/dashboard/layout';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import type { MetadataDb } from '../db/database';
import type { DatabaseService } from '../database/database.service';
import { PASSWORD_MASK, passwordOf } from '../database/sqlalchemy-uri';
import type { DatasetService } from '../dataset/dataset.service';
import { DatasetRepository } from '../dataset/dataset.repository';
import { ChartRepository } from '../chart/chart.repository';
import { DashboardRepository } from '../dashboard/dashboard.repository';
import { NUL_TEXT, nulTextPaths } from '../common/nul-text';
import { Invalid, StructuredError } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { BUNDLE_TYPES, type BundleKind } from './bundle';

type Yaml = Record<string, any>;
export interface ImportOptions {
  overwrite: boolean;
  /** Database passwords by bundle file, e.g. `{ 'databases/examples.yaml': 'secret' }`. */
  passwords: Record<string, string>;
}

/** Superset's model names in its import messages. */
const MODEL_NAMES: Record<BundleKind, string> = { database: 'database', dataset: 'dataset', chart: 'chart', dashboard: 'dashboard', saved_query: 'saved query', assets: 'assets' };
const PREFIX: Record<'database' | 'dataset' | 'chart' | 'dashboard' | 'saved_query', string> = { database: 'databases/', dataset: 'datasets/', chart: 'charts/', dashboard: 'dashboards/', saved_query: 'queries/' };
const REQUIRED: Record<keyof typeof PREFIX, string[]> = {
  database: ['database_name', 'sqlalchemy_uri', 'uuid'],
  saved_query: ['label', 'sql', 'uuid', 'database_uuid'],
  dataset: ['table_name', 'uuid', 'database_uuid'],
  chart: ['slice_name', 'uuid'],
  dashboard: ['uuid'],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const text = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** 422 with Superset's import envelope: one error whose `extra` maps each file to its problems. */
function importError(kind: BundleKind, problems: Record<string, unknown>): StructuredError {
  return new StructuredError(422, [
    {
      message: `Error importing ${MODEL_NAMES[kind]}`,
      error_type: 'GENERIC_COMMAND_ERROR',
      level: 'warning',
      extra: { ...problems, issue_codes: [{ code: 1010, message: 'Issue 1010 - Superset encountered an error while running a command.' }] },
    },
  ]);
}

/**
 * Imports Superset's ImportExport v1 bundles (a dashboard, chart, dataset or database export, or a whole
 * instance's `assets` export): objects are matched by uuid, and referenced ones are created when missing.
 * Everything is checked before anything is written: the metadata type, each file's required fields,
 * existing top-level objects without `overwrite`, and a password for each new database whose URI has a
 * masked one. Ids are remapped on the way in: charts to their datasets, dashboard layouts and metadata
 * to the imported charts and datasets.
 */
export class AssetImportService {
  constructor(private readonly deps: { db: MetadataDb; security: SecurityService; databases: DatabaseService; datasets: DatasetService }) {}

  /** The bundle's files by path below its root folder, YAML parsed. */
  private async read(kind: BundleKind, zip: Buffer): Promise<Map<string, Yaml>> {
    // Loaded on the first import: a start does not pay for them.
    const [{ default: Zip }, { parse: parseYaml }] = await Promise.all([import('jszip'), import('yaml')]);
    let archive: JSZip;
    try {
      archive = await Zip.loadAsync(zip);
    } catch {
      throw new Invalid({ formData: ['Not a ZIP file'] });
    }
    const files = new Map<string, Yaml>();
    const problems: Record<string, unknown> = {};
    for (const entry of Object.values(archive.files)) {
      if (entry.dir || !/\.ya?ml$/i.test(entry.name)) continue;
      const path = entry.name.split('/').slice(1).join('/');
      if (!path) continue;
      try {
        const value = parseYaml(await entry.async('string'));
        // A NUL character ("\0" in YAML) cannot be stored in PostgreSQL text: refused before anything is written.
        const nul = nulTextPaths(value);
        if (nul.length) problems[path] = Object.fromEntries(nul.map((field) => [field || '_schema', [NUL_TEXT]]));
        else if (value && typeof value === 'object') files.set(path, value as Yaml);
        else problems[path] = 'Not a YAML mapping';
      } catch (error) {
        problems[path] = `Not valid YAML: ${(error as Error).message}`;
      }
    }
    const metadata = files.get('metadata.yaml');
    if (!metadata) problems['metadata.yaml'] = 'Missing data for required field.';
    else if (metadata.type !== BUNDLE_TYPES[kind]) problems['metadata.yaml'] = { type: [`Must be equal to ${BUNDLE_TYPES[kind]}.`] };
    if (Object.keys(problems).length) throw importError(kind, problems);
    return files;
  }

  async importBundle(actor: Actor | null, kind: BundleKind, zip: Buffer, opts: ImportOptions): Promise<void> {
    const write = { database: 'Database', dataset: 'Dataset', chart: 'Chart', dashboard: 'Dashboard', saved_query: 'SavedQuery', assets: 'Dashboard' }[kind];
    this.deps.security.require(actor, 'can_write', write);
    const files = await this.read(kind, zip);
    const of = (type: keyof typeof PREFIX) => [...files].filter(([path]) => path.startsWith(PREFIX[type]));
    const db = this.deps.db;
    const problems: Record<string, unknown> = {};

    for (const type of Object.keys(PREFIX) as Array<keyof typeof PREFIX>) {
      for (const [path, value] of of(type)) {
        const missing = REQUIRED[type].filter((field) => value[field] === undefined || value[field] === null || value[field] === '');
        const badUuids = ['uuid', 'database_uuid', 'dataset_uuid'].filter((field) => value[field] && !UUID.test(String(value[field])));
        if (missing.length || badUuids.length) problems[path] = Object.fromEntries([...missing.map((m) => [m, ['Missing data for required field.']]), ...badUuids.map((f) => [f, ['Not a valid UUID.']])]);
      }
    }
    const existing = async (table: 'dbs' | 'tables' | 'slices' | 'dashboards' | 'saved_query', uuid: string) =>
      (await db.selectFrom(table).select('id').where('uuid', '=', String(uuid)).executeTakeFirst())?.id ?? null;

    // Top-level objects that exist are only replaced with overwrite (Superset's ImportModelsCommand).
    const top = kind === 'assets' ? null : (kind as keyof typeof PREFIX);
    if (top && !opts.overwrite) {
      const table = ({ database: 'dbs', dataset: 'tables', chart: 'slices', dashboard: 'dashboards', saved_query: 'saved_query' } as const)[top];
      for (const [path, value] of of(top)) {
        if (!problems[path] && value.uuid && (await existing(table, value.uuid)) !== null) problems[path] = `${MODEL_NAMES[top][0]!.toUpperCase()}${MODEL_NAMES[top].slice(1)} already exists and \`overwrite=true\` was not passed`;
      }
    }
    // A new database needs its password when the export masked it.
    const newDatabases: Array<[string, Yaml]> = [];
    for (const [path, value] of of('database')) {
      if (problems[path] || (await existing('dbs', value.uuid)) !== null || (await db.selectFrom('dbs').select('id').where('database_name', '=', String(value.database_name)).executeTakeFirst())) continue;
      newDatabases.push([path, value]);
      if (passwordOf(String(value.sqlalchemy_uri)) === PASSWORD_MASK && !opts.passwords[path]) problems[path] = { _schema: ['Must provide a password for the database'] };
    }
    if (newDatabases.length && !hasWrite(actor, 'Database')) problems['databases/'] = 'You do not have permission to create databases';
    if (Object.keys(problems).length) throw importError(kind, problems);

    await this.write(actor, kind, files, opts);
  }

  private async write(actor: Actor, kind: BundleKind, files: Map<string, Yaml>, opts: ImportOptions): Promise<void> {
    const db = this.deps.db;
    const of = (type: keyof typeof PREFIX) => [...files].filter(([path]) => path.startsWith(PREFIX[type]));
    const replace = (type: BundleKind) => opts.overwrite && (kind === type || kind === 'assets' || (kind === 'dashboard' && type === 'chart'));
    const datasetsRepo = new DatasetRepository(db);
    const chartsRepo = new ChartRepository(db);
    const dashboardsRepo = new DashboardRepository(db);

    const databaseIds = new Map<string, number>();
    for (const [path, d] of of('database')) {
      const byUuid = await db.selectFrom('dbs').select('id').where('uuid', '=', String(d.uuid)).executeTakeFirst();
      const byName = byUuid ?? (await db.selectFrom('dbs').select('id').where('database_name', '=', String(d.database_name)).executeTakeFirst());
      const fields = {
        database_name: String(d.database_name),
        cache_timeout: d.cache_timeout ?? null,
        expose_in_sqllab: d.expose_in_sqllab ?? true,
        allow_run_async: !!d.allow_run_async,
        allow_ctas: !!d.allow_ctas,
        allow_cvas: !!d.allow_cvas,
        allow_dml: !!d.allow_dml,
        allow_file_upload: !!d.allow_file_upload,
        extra: text(d.extra) ?? '{}',
      };
      if (byName && !(replace('database') && byUuid)) {
        databaseIds.set(String(d.uuid), byName.id);
        continue;
      }
      const stored = this.deps.databases.storedConnection(String(d.sqlalchemy_uri), opts.passwords[path] ?? null);
      if (byUuid) {
        await db.updateTable('dbs').set({ ...fields, ...(passwordOf(String(d.sqlalchemy_uri)) === PASSWORD_MASK && !opts.passwords[path] ? {} : stored), changed_by_fk: actor.userId, changed_on: new Date() }).where('id', '=', byUuid.id).execute();
        databaseIds.set(String(d.uuid), byUuid.id);
      } else {
        const { id } = await db.insertInto('dbs').values({ ...fields, ...stored, uuid: String(d.uuid), created_by_fk: actor.userId, changed_by_fk: actor.userId }).returning('id').executeTakeFirstOrThrow();
        databaseIds.set(String(d.uuid), id);
      }
    }

    const datasetIds = new Map<string, number>();
    const touchedDatasets: number[] = [];
    for (const [path, t] of of('dataset')) {
      const databaseId = databaseIds.get(String(t.database_uuid)) ?? (await db.selectFrom('dbs').select('id').where('uuid', '=', String(t.database_uuid)).executeTakeFirst())?.id;
      if (databaseId === undefined) throw importError(kind, { [path]: `Database ${t.database_uuid} is not in the bundle and does not exist` });
      const values = {
        database_id: databaseId,
        table_name: String(t.table_name),
        catalog: t.catalog ?? null,
        schema: t.schema ?? null,
        sql: t.sql ?? null,
        description: t.description ?? null,
        main_dttm_col: t.main_dttm_col ?? null,
        default_endpoint: t.default_endpoint ?? null,
        offset: Number(t.offset ?? 0),
        cache_timeout: t.cache_timeout ?? null,
        filter_select_enabled: t.filter_select_enabled ?? true,
        fetch_values_predicate: t.fetch_values_predicate ?? null,
        template_params: text(t.template_params),
        extra: text(t.extra),
        normalize_columns: !!t.normalize_columns,
        always_filter_main_dttm: !!t.always_filter_main_dttm,
      };
      const columns = ((t.columns ?? []) as Yaml[]).map((c) => ({
        column_name: String(c.column_name), verbose_name: c.verbose_name ?? null, type: c.type ?? null, advanced_data_type: c.advanced_data_type ?? null, is_dttm: !!c.is_dttm,
        is_active: c.is_active ?? true, groupby: c.groupby ?? true, filterable: c.filterable ?? true, expression: c.expression ?? null, description: c.description ?? null,
        python_date_format: c.python_date_format ?? null, extra: text(c.extra),
      }));
      const metrics = ((t.metrics ?? []) as Yaml[]).map((m) => ({
        metric_name: String(m.metric_name), verbose_name: m.verbose_name ?? null, metric_type: m.metric_type ?? null, expression: String(m.expression ?? ''), description: m.description ?? null,
        d3format: m.d3format ?? null, currency: text(m.currency), extra: text(m.extra), warning_text: m.warning_text ?? null,
      }));
      // By uuid, else by name: a table is registered once per database (the examples' birth_names, say).
      const found = (await db.selectFrom('tables').select('id').where('uuid', '=', String(t.uuid)).executeTakeFirst()) ?? (await datasetsRepo.findByName(databaseId, values.catalog, values.schema, values.table_name));
      if (found && !replace('dataset')) {
        datasetIds.set(String(t.uuid), found.id);
        continue;
      }
      if (found) {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('tables').set({ ...values, changed_by_fk: actor.userId, changed_on: new Date() }).where('id', '=', found.id).execute();
          await trx.deleteFrom('table_columns').where('table_id', '=', found.id).execute();
          await trx.deleteFrom('sql_metrics').where('table_id', '=', found.id).execute();
          if (columns.length) await trx.insertInto('table_columns').values(columns.map((c) => ({ ...c, table_id: found.id }))).execute();
          if (metrics.length) await trx.insertInto('sql_metrics').values(metrics.map((m) => ({ ...m, table_id: found.id }))).execute();
        });
        datasetIds.set(String(t.uuid), found.id);
        touchedDatasets.push(found.id);
      } else {
        if (!hasWrite(actor, 'Dataset')) throw importError(kind, { [path]: 'You do not have permission to create datasets' });
        const id = await datasetsRepo.create({ ...values, uuid: String(t.uuid), created_by_fk: actor.userId, changed_by_fk: actor.userId }, columns, metrics, [actor.userId]);
        datasetIds.set(String(t.uuid), id);
      }
    }
    if (touchedDatasets.length) this.deps.datasets.invalidate(touchedDatasets);

    for (const [path, q] of of('saved_query')) {
      const databaseId = databaseIds.get(String(q.database_uuid)) ?? (await db.selectFrom('dbs').select('id').where('uuid', '=', String(q.database_uuid)).executeTakeFirst())?.id;
      if (databaseId === undefined) throw importError(kind, { [path]: `Database ${q.database_uuid} is not in the bundle and does not exist` });
      const values = { db_id: databaseId, label: String(q.label), description: q.description ?? null, catalog: q.catalog ?? null, schema: q.schema ?? null, sql: String(q.sql), template_parameters: text(q.template_parameters) };
      const found = await db.selectFrom('saved_query').select('id').where('uuid', '=', String(q.uuid)).executeTakeFirst();
      if (found && replace('saved_query')) await db.updateTable('saved_query').set({ ...values, changed_by_fk: actor.userId, changed_on: new Date() }).where('id', '=', found.id).execute();
      else if (!found) await db.insertInto('saved_query').values({ ...values, uuid: String(q.uuid), user_id: actor.userId, created_by_fk: actor.userId, changed_by_fk: actor.userId }).execute();
    }

    const chartIds = new Map<string, number>();
    for (const [path, c] of of('chart')) {
      const datasetId = c.dataset_uuid ? (datasetIds.get(String(c.dataset_uuid)) ?? (await db.selectFrom('tables').select('id').where('uuid', '=', String(c.dataset_uuid)).executeTakeFirst())?.id) : null;
      if (c.dataset_uuid && datasetId === undefined) throw importError(kind, { [path]: `Dataset ${c.dataset_uuid} is not in the bundle and does not exist` });
      const params = { ...((c.params ?? {}) as Yaml), ...(datasetId ? { datasource: `${datasetId}__table` } : {}) };
      let queryContext = text(c.query_context);
      if (queryContext && datasetId) {
        try {
          const parsed = JSON.parse(queryContext);
          parsed.datasource = { id: datasetId, type: 'table' };
          if (parsed.form_data) parsed.form_data.datasource = `${datasetId}__table`;
          queryContext = JSON.stringify(parsed);
        } catch {
          queryContext = null;
        }
      }
      const values = {
        slice_name: String(c.slice_name),
        viz_type: c.viz_type ?? null,
        datasource_id: datasetId ?? null,
        datasource_type: datasetId ? 'table' : null,
        params: JSON.stringify(params),
        query_context: queryContext,
        description: c.description ?? null,
        cache_timeout: c.cache_timeout ?? null,
        certified_by: c.certified_by ?? null,
        certification_details: c.certification_details ?? null,
      };
      const found = await db.selectFrom('slices').select('id').where('uuid', '=', String(c.uuid)).executeTakeFirst();
      if (found && replace('chart')) await chartsRepo.update(found.id, { ...values, changed_by_fk: actor.userId }, {});
      const id = found ? found.id : await chartsRepo.create({ ...values, uuid: String(c.uuid), created_by_fk: actor.userId, changed_by_fk: actor.userId }, [actor.userId], []);
      chartIds.set(String(c.uuid), id);
    }

    for (const [path, d] of of('dashboard')) {
      const position = structuredClone((d.position ?? {}) as Record<string, any>);
      const oldToNew = new Map<number, number>();
      for (const component of Object.values(position)) {
        if (!component || typeof component !== 'object' || component.type !== 'CHART') continue;
        const uuid = component.meta?.uuid && UUID.test(String(component.meta.uuid)) ? String(component.meta.uuid) : null;
        const id = uuid ? (chartIds.get(uuid) ?? (await db.selectFrom('slices').select('id').where('uuid', '=', uuid).executeTakeFirst())?.id) : undefined;
        if (id === undefined) throw importError(kind, { [path]: `Chart ${uuid ?? component.meta?.chartId} of the layout is not in the bundle and does not exist` });
        if (component.meta.chartId !== undefined) oldToNew.set(Number(component.meta.chartId), id);
        component.meta.chartId = id;
      }
      const metadata = remapMetadata((d.metadata ?? {}) as Yaml, oldToNew, datasetIds);
      const values = {
        dashboard_title: d.dashboard_title ?? null,
        description: d.description ?? null,
        css: d.css ?? null,
        slug: d.slug ?? null,
        certified_by: d.certified_by ?? null,
        certification_details: d.certification_details ?? null,
        published: !!d.published,
        position_json: JSON.stringify(position),
        json_metadata: JSON.stringify(metadata),
      };
      const charts = chartIdsOf(position);
      const found = await db.selectFrom('dashboards').select('id').where('uuid', '=', String(d.uuid)).executeTakeFirst();
      // A slug taken by another dashboard is dropped rather than failing the import.
      if (values.slug && (await db.selectFrom('dashboards').select('id').where('slug', '=', values.slug).$if(!!found, (q) => q.where('id', '!=', found!.id)).executeTakeFirst())) values.slug = null;
      if (found && replace('dashboard')) await dashboardsRepo.update(found.id, { ...values, changed_by_fk: actor.userId }, { charts });
      else if (!found) await dashboardsRepo.create({ ...values, uuid: String(d.uuid), created_by_fk: actor.userId, changed_by_fk: actor.userId }, { owners: [actor.userId], roles: [], charts });
    }
  }
}

const hasWrite = (actor: Actor, view: string) => hasPermission(actor, 'can_write', view);

/**
 * A dashboard's json_metadata with chart ids of the exporting instance replaced by the imported charts'
 * (Superset's update_id_refs), and native filter targets' datasetUuid resolved to the imported dataset ids.
 */
export function remapMetadata(metadata: Yaml, charts: Map<number, number>, datasets: Map<string, number>): Yaml {
  const id = (old: unknown) => charts.get(Number(old)) ?? Number(old);
  const out: Yaml = structuredClone(metadata);
  if (Array.isArray(out.timed_refresh_immune_slices)) out.timed_refresh_immune_slices = out.timed_refresh_immune_slices.map(id);
  for (const key of ['expanded_slices', 'filter_scopes', 'default_filters_by_chart'] as const) {
    if (out[key] && typeof out[key] === 'object') out[key] = Object.fromEntries(Object.entries(out[key] as Yaml).map(([k, v]) => [String(id(k)), v]));
  }
  if (out.chart_configuration && typeof out.chart_configuration === 'object') {
    out.chart_configuration = Object.fromEntries(
      Object.entries(out.chart_configuration as Yaml).map(([k, v]) => {
        const c: Yaml = { ...(v as Yaml), id: id((v as Yaml).id ?? k) };
        if (c.crossFilters?.chartsInScope) c.crossFilters = { ...c.crossFilters, chartsInScope: c.crossFilters.chartsInScope.map(id) };
        if (c.crossFilters?.scope?.excluded) c.crossFilters = { ...c.crossFilters, scope: { ...c.crossFilters.scope, excluded: c.crossFilters.scope.excluded.map(id) } };
        return [String(c.id), c];
      }),
    );
  }
  if (Array.isArray(out.native_filter_configuration)) {
    out.native_filter_configuration = out.native_filter_configuration.map((f: Yaml) => ({
      ...f,
      ...(Array.isArray(f.chartsInScope) ? { chartsInScope: f.chartsInScope.map(id) } : {}),
      ...(f.scope?.excluded ? { scope: { ...f.scope, excluded: f.scope.excluded.map(id) } } : {}),
      ...(Array.isArray(f.targets)
        ? {
            targets: f.targets.map((t: Yaml) => {
              if (!t.datasetUuid) return t;
              const { datasetUuid, ...rest } = t;
              const datasetId = datasets.get(String(datasetUuid));
              return datasetId === undefined ? t : { ...rest, datasetId };
            }),
          }
        : {}),
    }));
  }
  return out;
}
