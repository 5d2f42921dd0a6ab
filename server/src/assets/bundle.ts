/**
 * Superset's ImportExport v1 bundle: a zip holding `metadata.yaml` and one YAML file per object under
 * `databases/`, `datasets/<database>/`, `charts/` and `dashboards/`, objects linked by uuid (a chart's
 * `dataset_uuid`, a dataset's `database_uuid`, a dashboard position's chart `uuid`). JSON text fields
 * (params, extra, json_metadata...) are written as YAML mappings; passwords never leave: URIs are masked.
 */
import { maskedUri } from '../database/sqlalchemy-uri';
import { toYaml, zipFiles } from '../common/zip';
import type { DatasetRecord } from '../dataset/dataset.repository';

export const BUNDLE_VERSION = '1.0.0';
/** metadata.yaml `type` per export kind, as Superset writes it. */
export const BUNDLE_TYPES = { database: 'Database', dataset: 'SqlaTable', chart: 'Slice', dashboard: 'Dashboard', saved_query: 'SavedQuery', assets: 'assets' } as const;
export type BundleKind = keyof typeof BUNDLE_TYPES;

/** A file name part from an object's name, as Superset's secure_filename. */
export const safeName = (name: string) => name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '') || 'untitled';

/** Superset exports its JSON text fields as YAML mappings; unparsable text stays text. */
export function jsonField(value: string | null | undefined): unknown {
  if (value === null || value === undefined || value === '') return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export interface BundleChart {
  id: number;
  uuid: string;
  slice_name: string;
  viz_type: string | null;
  params: string | null;
  query_context: string | null;
  description: string | null;
  cache_timeout: number | null;
  certified_by: string | null;
  certification_details: string | null;
  datasource_id: number | null;
}

export interface BundleDatabase {
  uuid: string;
  database_name: string;
  sqlalchemy_uri: string;
  cache_timeout: number | null;
  expose_in_sqllab: boolean;
  allow_run_async: boolean;
  allow_ctas: boolean;
  allow_cvas: boolean;
  allow_dml: boolean;
  allow_file_upload: boolean;
  extra: string;
}

export interface BundleDashboard {
  id: number;
  uuid: string;
  dashboard_title: string | null;
  slug: string | null;
  description: string | null;
  css: string | null;
  published: boolean;
  certified_by: string | null;
  certification_details: string | null;
  position_json: string | null;
  json_metadata: string | null;
}

/** The files of one bundle, keyed by path under its root folder. */
export class Bundle {
  readonly files: Record<string, string> = {};
  private readonly root: string;

  constructor(
    private readonly kind: BundleKind,
    private readonly now = new Date(),
  ) {
    this.root = `${kind === 'assets' ? 'assets' : kind}_export_${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}`;
    this.put('metadata.yaml', { version: BUNDLE_VERSION, type: BUNDLE_TYPES[kind], timestamp: now.toISOString() });
  }

  get fileName(): string {
    return `${this.root}.zip`;
  }

  private put(path: string, value: unknown): void {
    this.files[`${this.root}/${path}`] = toYaml(value);
  }

  /** A dataset and its database. */
  addDataset(r: DatasetRecord): void {
    // A database already added whole (addDatabase) keeps its full settings.
    if (!this.files[`${this.root}/databases/${safeName(r.database_name)}.yaml`]) this.put(`databases/${safeName(r.database_name)}.yaml`, {
      database_name: r.database_name,
      sqlalchemy_uri: maskedUri(r.sqlalchemy_uri),
      cache_timeout: r.database_cache_timeout,
      extra: jsonField(r.database_extra),
      uuid: r.database_uuid,
      version: BUNDLE_VERSION,
    });
    this.put(`datasets/${safeName(r.database_name)}/${safeName(r.table_name)}_${r.id}.yaml`, {
      table_name: r.table_name,
      main_dttm_col: r.main_dttm_col,
      description: r.description,
      default_endpoint: r.default_endpoint,
      offset: r.offset,
      cache_timeout: r.cache_timeout,
      catalog: r.catalog,
      schema: r.schema,
      sql: r.sql,
      params: null,
      template_params: jsonField(r.template_params),
      filter_select_enabled: r.filter_select_enabled,
      fetch_values_predicate: r.fetch_values_predicate,
      extra: jsonField(r.extra),
      normalize_columns: r.normalize_columns,
      always_filter_main_dttm: r.always_filter_main_dttm,
      uuid: r.uuid,
      metrics: r.metrics.map((m) => ({
        metric_name: m.metric_name, verbose_name: m.verbose_name, metric_type: m.metric_type, expression: m.expression, description: m.description,
        d3format: m.d3format, currency: jsonField(m.currency), extra: jsonField(m.extra), warning_text: m.warning_text,
      })),
      columns: r.columns.map((c) => ({
        column_name: c.column_name, verbose_name: c.verbose_name, is_dttm: c.is_dttm, is_active: c.is_active, type: c.type, advanced_data_type: c.advanced_data_type,
        groupby: c.groupby, filterable: c.filterable, expression: c.expression, description: c.description, python_date_format: c.python_date_format, extra: jsonField(c.extra),
      })),
      version: BUNDLE_VERSION,
      database_uuid: r.database_uuid,
    });
  }

  /** A database with its settings, its URI's password masked. */
  addDatabase(d: BundleDatabase): void {
    this.put(`databases/${safeName(d.database_name)}.yaml`, {
      database_name: d.database_name,
      sqlalchemy_uri: maskedUri(d.sqlalchemy_uri),
      cache_timeout: d.cache_timeout,
      expose_in_sqllab: d.expose_in_sqllab,
      allow_run_async: d.allow_run_async,
      allow_ctas: d.allow_ctas,
      allow_cvas: d.allow_cvas,
      allow_dml: d.allow_dml,
      allow_file_upload: d.allow_file_upload,
      extra: jsonField(d.extra),
      uuid: d.uuid,
      version: BUNDLE_VERSION,
    });
  }

  /** A saved query, linked to its database by uuid (the database is added separately). */
  addSavedQuery(q: { id: number; uuid: string; label: string; description: string | null; catalog: string | null; schema: string | null; sql: string | null; template_parameters: string | null }, database: { database_name: string; uuid: string }): void {
    this.put(`queries/${safeName(database.database_name)}/${safeName(q.label)}_${q.id}.yaml`, {
      catalog: q.catalog,
      schema: q.schema,
      label: q.label,
      description: q.description,
      sql: q.sql,
      template_parameters: jsonField(q.template_parameters),
      uuid: q.uuid,
      version: BUNDLE_VERSION,
      database_uuid: database.uuid,
    });
  }

  /** A chart, linked to its dataset by uuid (the dataset is added separately). */
  addChart(c: BundleChart, datasetUuid: string | null): void {
    this.put(`charts/${safeName(c.slice_name)}_${c.id}.yaml`, {
      slice_name: c.slice_name,
      description: c.description,
      certified_by: c.certified_by,
      certification_details: c.certification_details,
      viz_type: c.viz_type,
      params: jsonField(c.params) ?? {},
      query_context: c.query_context,
      cache_timeout: c.cache_timeout,
      uuid: c.uuid,
      version: BUNDLE_VERSION,
      dataset_uuid: datasetUuid,
    });
  }

  /** A dashboard: its position's chart components carry their chart's uuid, as Superset's export adds. */
  addDashboard(d: BundleDashboard, chartUuids: Map<number, string>, datasetUuids: Map<number, string>): void {
    const position = (jsonField(d.position_json) ?? {}) as Record<string, any>;
    const metadata = (jsonField(d.json_metadata) ?? {}) as Record<string, any>;
    // Native filters name their datasets by uuid in a bundle (the importer's ids differ).
    if (Array.isArray(metadata.native_filter_configuration)) {
      metadata.native_filter_configuration = metadata.native_filter_configuration.map((f: any) => ({
        ...f,
        targets: Array.isArray(f.targets)
          ? f.targets.map((t: any) => {
              const uuid = t?.datasetId !== undefined ? datasetUuids.get(Number(t.datasetId)) : undefined;
              if (!uuid) return t;
              const { datasetId: _id, ...rest } = t;
              return { ...rest, datasetUuid: uuid };
            })
          : f.targets,
      }));
    }
    for (const component of Object.values(position)) {
      if (component && typeof component === 'object' && component.type === 'CHART' && component.meta?.chartId !== undefined) {
        const uuid = chartUuids.get(Number(component.meta.chartId));
        if (uuid) component.meta.uuid = uuid;
      }
    }
    this.put(`dashboards/${safeName(d.dashboard_title ?? 'untitled')}_${d.id}.yaml`, {
      dashboard_title: d.dashboard_title,
      description: d.description,
      css: d.css ?? '',
      slug: d.slug,
      certified_by: d.certified_by,
      certification_details: d.certification_details,
      published: d.published,
      uuid: d.uuid,
      position,
      metadata,
      version: BUNDLE_VERSION,
    });
  }

  zip(): Buffer {
    return zipFiles(this.files, this.now);
  }
}

/** Superset's dataset export bundle: its datasets with their databases. */
export function exportDatasetsZip(records: DatasetRecord[], now = new Date()): Buffer {
  const bundle = new Bundle('dataset', now);
  for (const r of records) bundle.addDataset(r);
  return bundle.zip();
}
