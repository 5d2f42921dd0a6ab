import { maskedUri } from '../database/sqlalchemy-uri';
import { zipFiles, toYaml } from '../common/zip';
import type { DatasetRecord } from './dataset.repository';

const safe = (name: string) => name.replace(/[^A-Za-z0-9_.-]+/g, '_');

/** Superset exports its JSON text fields (extra, params, template_params) as YAML mappings; unparsable text stays text. */
function json(value: string | null | undefined): unknown {
  if (value === null || value === undefined || value === '') return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * Superset's dataset export bundle (ImportExport v1): `metadata.yaml`, one `databases/<name>.yaml` per
 * database (its URI with the password masked, never the password) and `datasets/<database>/<table>_<id>.yaml`
 * per dataset with its columns and metrics, linked to its database by `database_uuid`.
 */
export function exportDatasetsZip(records: DatasetRecord[], now = new Date()): Buffer {
  const root = `dataset_export_${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}`;
  const files: Record<string, string> = {
    [`${root}/metadata.yaml`]: toYaml({ version: '1.0.0', type: 'SqlaTable', timestamp: now.toISOString() }),
  };
  for (const r of records) {
    files[`${root}/databases/${safe(r.database_name)}.yaml`] = toYaml({
      database_name: r.database_name,
      sqlalchemy_uri: maskedUri(r.sqlalchemy_uri),
      cache_timeout: r.database_cache_timeout,
      extra: json(r.database_extra),
      uuid: r.database_uuid,
      version: '1.0.0',
    });
    files[`${root}/datasets/${safe(r.database_name)}/${safe(r.table_name)}_${r.id}.yaml`] = toYaml({
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
      template_params: json(r.template_params),
      filter_select_enabled: r.filter_select_enabled,
      fetch_values_predicate: r.fetch_values_predicate,
      extra: json(r.extra),
      normalize_columns: r.normalize_columns,
      always_filter_main_dttm: r.always_filter_main_dttm,
      uuid: r.uuid,
      metrics: r.metrics.map((m) => ({
        metric_name: m.metric_name, verbose_name: m.verbose_name, metric_type: m.metric_type, expression: m.expression, description: m.description,
        d3format: m.d3format, currency: json(m.currency), extra: json(m.extra), warning_text: m.warning_text,
      })),
      columns: r.columns.map((c) => ({
        column_name: c.column_name, verbose_name: c.verbose_name, is_dttm: c.is_dttm, is_active: c.is_active, type: c.type, advanced_data_type: c.advanced_data_type,
        groupby: c.groupby, filterable: c.filterable, expression: c.expression, description: c.description, python_date_format: c.python_date_format, extra: json(c.extra),
      })),
      version: '1.0.0',
      database_uuid: r.database_uuid,
    });
  }
  return zipFiles(files, now);
}
