import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Audit = {
  created_on: Timestamp;
  changed_on: Timestamp;
  created_by_fk: number | null;
  changed_by_fk: number | null;
};

/** The metadata store's tables as kysely sees them; names follow Superset's so its REST shapes map one to one. */
export interface UserTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  username: string;
  password: string | null;
  active: Generated<boolean>;
  email: string;
  last_login: Date | null;
  login_count: Generated<number>;
  fail_login_count: Generated<number>;
  created_on: Timestamp;
  changed_on: Timestamp;
  created_by_fk: number | null;
  changed_by_fk: number | null;
}
export interface RoleTable { id: Generated<number>; name: string }
export interface PermissionTable { id: Generated<number>; name: string }
export interface ViewMenuTable { id: Generated<number>; name: string }
export interface PermissionViewTable { id: Generated<number>; permission_id: number; view_menu_id: number }
export interface PermissionViewRoleTable { id: Generated<number>; permission_view_id: number; role_id: number }
export interface UserRoleTable { id: Generated<number>; user_id: number; role_id: number }

export interface DatabaseTable extends Audit {
  id: Generated<number>;
  uuid: Generated<string>;
  database_name: string;
  sqlalchemy_uri: string;
  password_encrypted: string | null;
  extra: Generated<string>;
  expose_in_sqllab: Generated<boolean>;
  allow_run_async: Generated<boolean>;
  allow_dml: Generated<boolean>;
  allow_ctas: Generated<boolean>;
  allow_cvas: Generated<boolean>;
  allow_file_upload: Generated<boolean>;
  cache_timeout: number | null;
  force_ctas_schema: string | null;
  impersonate_user: Generated<boolean>;
  is_managed_externally: Generated<boolean>;
  external_url: string | null;
}

export interface DatasetTable extends Audit {
  id: Generated<number>;
  uuid: Generated<string>;
  database_id: number;
  catalog: string | null;
  schema: string | null;
  table_name: string;
  sql: string | null;
  description: string | null;
  main_dttm_col: string | null;
  default_endpoint: string | null;
  offset: Generated<number>;
  cache_timeout: number | null;
  filter_select_enabled: Generated<boolean>;
  fetch_values_predicate: string | null;
  template_params: string | null;
  extra: string | null;
  normalize_columns: Generated<boolean>;
  always_filter_main_dttm: Generated<boolean>;
  is_sqllab_view: Generated<boolean>;
  is_managed_externally: Generated<boolean>;
  external_url: string | null;
}

export interface TableColumnTable extends Audit {
  id: Generated<number>;
  uuid: Generated<string>;
  table_id: number;
  column_name: string;
  verbose_name: string | null;
  type: string | null;
  advanced_data_type: string | null;
  is_dttm: Generated<boolean>;
  is_active: Generated<boolean>;
  groupby: Generated<boolean>;
  filterable: Generated<boolean>;
  expression: string | null;
  description: string | null;
  python_date_format: string | null;
  extra: string | null;
}

export interface SqlMetricTable extends Audit {
  id: Generated<number>;
  uuid: Generated<string>;
  table_id: number;
  metric_name: string;
  verbose_name: string | null;
  metric_type: string | null;
  expression: string;
  description: string | null;
  d3format: string | null;
  currency: string | null;
  warning_text: string | null;
  extra: string | null;
}

export interface QueryTable {
  id: Generated<number>;
  client_id: string;
  database_id: number;
  user_id: number | null;
  tmp_table_name: string | null;
  tmp_schema_name: string | null;
  status: Generated<string>;
  tab_name: string | null;
  sql_editor_id: string | null;
  catalog: string | null;
  schema: string | null;
  sql: string | null;
  select_sql: string | null;
  executed_sql: string | null;
  limit: number | null;
  limiting_factor: Generated<string>;
  select_as_cta: Generated<boolean>;
  select_as_cta_used: Generated<boolean>;
  ctas_method: string | null;
  progress: Generated<number>;
  rows: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  error_message: string | null;
  results_key: string | null;
  tracking_url: string | null;
  extra_json: string | null;
  start_time: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  start_running_time: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  end_time: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  end_result_backend_time: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  changed_on: Timestamp;
}

export interface SavedQueryTable extends Audit {
  id: Generated<number>;
  uuid: Generated<string>;
  user_id: number | null;
  db_id: number | null;
  catalog: string | null;
  schema: string | null;
  label: string;
  description: string | null;
  sql: string | null;
  template_parameters: string | null;
  extra_json: string | null;
  rows: number | null;
  last_run: Date | null;
}

export interface TabStateTable {
  id: Generated<number>;
  user_id: number;
  label: string | null;
  active: Generated<boolean>;
  database_id: number | null;
  catalog: string | null;
  schema: string | null;
  sql: string | null;
  query_limit: number | null;
  latest_query_id: string | null;
  autorun: Generated<boolean>;
  template_params: string | null;
  hide_left_bar: Generated<boolean>;
  saved_query_id: number | null;
  extra_json: string | null;
  created_on: Timestamp;
  changed_on: Timestamp;
}

export interface TableSchemaTable {
  id: Generated<number>;
  tab_state_id: number;
  database_id: number;
  catalog: string | null;
  schema: string | null;
  table: string | null;
  description: string | null;
  expanded: Generated<boolean>;
  created_on: Timestamp;
  changed_on: Timestamp;
}

export interface SliceTable extends Audit {
  id: Generated<number>;
  uuid: Generated<string>;
  slice_name: string;
  datasource_id: number | null;
  datasource_type: string | null;
  viz_type: string | null;
  params: string | null;
  query_context: string | null;
  description: string | null;
  cache_timeout: number | null;
  certified_by: string | null;
  certification_details: string | null;
  is_managed_externally: Generated<boolean>;
  external_url: string | null;
  last_saved_at: Date | null;
  last_saved_by_fk: number | null;
}

export interface CssTemplateTable extends Audit {
  id: Generated<number>;
  uuid: Generated<string>;
  template_name: string;
  css: Generated<string>;
}

export interface RlsFilterTable extends Audit {
  id: Generated<number>;
  name: string;
  description: string | null;
  filter_type: string;
  clause: string;
  group_key: string | null;
}
export interface RlsFilterRoleTable { id: Generated<number>; role_id: number; rls_filter_id: number }
export interface RlsFilterTableTable { id: Generated<number>; table_id: number; rls_filter_id: number }

export interface TagTable extends Audit {
  id: Generated<number>;
  name: string;
  type: Generated<number>;
  description: string | null;
}
export interface TaggedObjectTable {
  id: Generated<number>;
  tag_id: number;
  object_id: number;
  object_type: string;
  created_on: Generated<Date>;
  created_by_fk: number | null;
}
export interface UserFavoriteTagTable {
  user_id: number;
  tag_id: number;
}

export interface EmbeddedDashboardTable extends Audit {
  uuid: Generated<string>;
  dashboard_id: number;
  allowed_domains: Generated<string>;
}

export interface DashboardTable extends Audit {
  id: Generated<number>;
  uuid: Generated<string>;
  dashboard_title: string | null;
  slug: string | null;
  position_json: string | null;
  json_metadata: string | null;
  css: string | null;
  description: string | null;
  published: Generated<boolean>;
  certified_by: string | null;
  certification_details: string | null;
  is_managed_externally: Generated<boolean>;
  external_url: string | null;
}

interface LinkTable { id: Generated<number> }
export interface DashboardSliceTable extends LinkTable { dashboard_id: number; slice_id: number }
export interface DashboardUserTable extends LinkTable { dashboard_id: number; user_id: number }
export interface DashboardRoleTable extends LinkTable { dashboard_id: number; role_id: number }
export interface SliceUserTable extends LinkTable { slice_id: number; user_id: number }
export interface DatabaseUserTable extends LinkTable { database_id: number; user_id: number }
export interface DatasetUserTable extends LinkTable { table_id: number; user_id: number }

export interface FavStarTable { id: Generated<number>; user_id: number; class_name: string; obj_id: number; dttm: Timestamp }

export interface ReportScheduleTable extends Audit {
  id: Generated<number>;
  type: string;
  name: string;
  description: string | null;
  context_markdown: string | null;
  active: Generated<boolean>;
  crontab: string;
  timezone: Generated<string>;
  creation_method: string | null;
  report_format: string | null;
  sql: string | null;
  chart_id: number | null;
  dashboard_id: number | null;
  database_id: number | null;
  last_eval_dttm: Date | null;
  last_state: string | null;
  last_value: number | null;
  last_value_row_json: string | null;
  validator_type: string | null;
  validator_config_json: string | null;
  log_retention: number | null;
  grace_period: number | null;
  working_timeout: number | null;
  force_screenshot: Generated<boolean>;
  extra_json: Generated<string>;
  custom_width: number | null;
  email_subject: string | null;
}
export interface ReportRecipientTable { id: Generated<number>; type: string; recipient_config_json: string | null; report_schedule_id: number }
export interface ReportExecutionLogTable {
  id: Generated<number>;
  uuid: Generated<string>;
  scheduled_dttm: Timestamp;
  start_dttm: Date | null;
  end_dttm: Date | null;
  value: number | null;
  value_row_json: string | null;
  state: string;
  error_message: string | null;
  report_schedule_id: number;
}
export interface ReportScheduleUserTable extends LinkTable { user_id: number; report_schedule_id: number }
export interface ReportScheduleRunTable { report_schedule_id: number; scheduled_dttm: Date; claimed_by: string; claimed_on: Generated<Date> }

export interface KeyValueTable {
  id: Generated<number>;
  uuid: Generated<string>;
  resource: string;
  value: string;
  created_on: Timestamp;
  created_by_fk: number | null;
  changed_on: Date | null;
  changed_by_fk: number | null;
  expires_on: Date | null;
}

export interface LogTable {
  id: Generated<number>;
  action: string | null;
  user_id: number | null;
  json: string | null;
  dttm: Timestamp;
  dashboard_id: number | null;
  slice_id: number | null;
  duration_ms: number | null;
  referrer: string | null;
}

export interface AnnotationLayerTable extends Audit {
  id: Generated<number>;
  name: string;
  descr: string | null;
}

export interface AnnotationTable extends Audit {
  id: Generated<number>;
  layer_id: number;
  short_descr: string | null;
  long_descr: string | null;
  start_dttm: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  end_dttm: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  json_metadata: string | null;
}

export interface DB {
  ab_user: UserTable;
  ab_role: RoleTable;
  ab_permission: PermissionTable;
  ab_view_menu: ViewMenuTable;
  ab_permission_view: PermissionViewTable;
  ab_permission_view_role: PermissionViewRoleTable;
  ab_user_role: UserRoleTable;
  dbs: DatabaseTable;
  database_user: DatabaseUserTable;
  tables: DatasetTable;
  sqlatable_user: DatasetUserTable;
  table_columns: TableColumnTable;
  sql_metrics: SqlMetricTable;
  query: QueryTable;
  saved_query: SavedQueryTable;
  tab_state: TabStateTable;
  table_schema: TableSchemaTable;
  slices: SliceTable;
  dashboards: DashboardTable;
  css_templates: CssTemplateTable;
  row_level_security_filters: RlsFilterTable;
  rls_filter_roles: RlsFilterRoleTable;
  rls_filter_tables: RlsFilterTableTable;
  embedded_dashboards: EmbeddedDashboardTable;
  dashboard_slices: DashboardSliceTable;
  dashboard_user: DashboardUserTable;
  dashboard_roles: DashboardRoleTable;
  slice_user: SliceUserTable;
  favstar: FavStarTable;
  report_schedule: ReportScheduleTable;
  report_recipient: ReportRecipientTable;
  report_execution_log: ReportExecutionLogTable;
  report_schedule_user: ReportScheduleUserTable;
  report_schedule_run: ReportScheduleRunTable;
  key_value: KeyValueTable;
  logs: LogTable;
  tag: TagTable;
  tagged_object: TaggedObjectTable;
  user_favorite_tag: UserFavoriteTagTable;
  annotation_layer: AnnotationLayerTable;
  annotation: AnnotationTable;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type DatabaseRow = Selectable<DatabaseTable>;
export type QueryRow = Selectable<QueryTable>;
