import type { Migration } from 'kysely';
import * as m0001 from './0001_create_users_and_roles';
import * as m0002 from './0002_create_databases_and_datasets';
import * as m0003 from './0003_create_sqllab_tables';
import * as m0004 from './0004_create_charts_and_dashboards';
import * as m0005 from './0005_create_reports_kv_and_logs';
import * as m0006 from './0006_create_annotation_layers';
import * as m0007 from './0007_create_query_runner';
import * as m0008 from './0008_index_query_results_key';
import * as m0009 from './0009_create_css_templates';
import * as m0010 from './0010_create_embedded_dashboards';
import * as m0011 from './0011_create_tags';
import * as m0012 from './0012_report_runs';
import * as m0013 from './0013_create_row_level_security';

/** Every migration in order; forward-only, each run once. kysely's Migrator runs all pending ones of a run in one transaction. */
export const migrations: Record<string, Migration> = {
  '0001_create_users_and_roles': m0001,
  '0002_create_databases_and_datasets': m0002,
  '0003_create_sqllab_tables': m0003,
  '0004_create_charts_and_dashboards': m0004,
  '0005_create_reports_kv_and_logs': m0005,
  '0006_create_annotation_layers': m0006,
  '0007_create_query_runner': m0007,
  '0008_index_query_results_key': m0008,
  '0009_create_css_templates': m0009,
  '0010_create_embedded_dashboards': m0010,
  '0011_create_tags': m0011,
  '0012_report_runs': m0012,
  '0013_create_row_level_security': m0013,
};
