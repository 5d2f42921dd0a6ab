import { z } from 'zod';
import { jsonText } from './json-text';

/** A dataset column as `PUT /api/v1/dataset/{pk}` takes it (Superset's DatasetColumnsPut). */
export const DatasetColumnInputSchema = z.object({
  id: z.number().int().optional(),
  uuid: z.string().optional(),
  column_name: z.string().min(1).max(255),
  verbose_name: z.string().max(1024).nullish(),
  type: z.string().nullish(),
  advanced_data_type: z.string().max(255).nullish(),
  is_dttm: z.boolean().nullish(),
  is_active: z.boolean().nullish(),
  groupby: z.boolean().nullish(),
  filterable: z.boolean().nullish(),
  expression: z.string().nullish(),
  description: z.string().nullish(),
  python_date_format: z.string().max(255).nullish(),
  extra: jsonText().nullish(),
});
export type DatasetColumnInput = z.infer<typeof DatasetColumnInputSchema>;

/** A metric as `PUT /api/v1/dataset/{pk}` takes it (Superset's DatasetMetricsPut). */
export const DatasetMetricInputSchema = z.object({
  id: z.number().int().optional(),
  uuid: z.string().optional(),
  metric_name: z.string().min(1).max(255),
  expression: z.string().min(1),
  verbose_name: z.string().max(1024).nullish(),
  metric_type: z.string().max(32).nullish(),
  description: z.string().nullish(),
  d3format: z.string().max(128).nullish(),
  currency: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  warning_text: z.string().nullish(),
  extra: jsonText().nullish(),
});
export type DatasetMetricInput = z.infer<typeof DatasetMetricInputSchema>;

/** `POST /api/v1/dataset/`: a physical table (database + schema + table_name) or a virtual one (sql). */
export const DatasetCreateSchema = z.object({
  database: z.coerce.number().int(),
  catalog: z.string().max(250).nullish(),
  schema: z.string().max(250).nullish(),
  table_name: z.string().min(1).max(250),
  sql: z.string().nullish(),
  owners: z.array(z.number().int()).optional(),
  is_managed_externally: z.boolean().nullish(),
  external_url: z.string().nullish(),
  normalize_columns: z.boolean().optional(),
  always_filter_main_dttm: z.boolean().optional(),
  template_params: jsonText().nullish(),
  /** The explore variant (SQL Lab "Save dataset") sends the result's columns. */
  columns: z.array(z.object({ column_name: z.string().optional(), name: z.string().optional(), type: z.string().nullish(), is_dttm: z.boolean().nullish() }).passthrough()).optional(),
});
export type DatasetCreate = z.infer<typeof DatasetCreateSchema>;

/** `PUT /api/v1/dataset/{pk}`. Columns and metrics replace the dataset's lists (kept by id or name). */
export const DatasetUpdateSchema = z.object({
  database_id: z.number().int().optional(),
  catalog: z.string().max(250).nullish(),
  schema: z.string().max(255).nullish(),
  table_name: z.string().min(1).max(250).optional(),
  sql: z.string().nullish(),
  description: z.string().nullish(),
  main_dttm_col: z.string().max(250).nullish(),
  default_endpoint: z.string().nullish(),
  offset: z.number().int().optional(),
  cache_timeout: z.number().int().nullish(),
  filter_select_enabled: z.boolean().optional(),
  fetch_values_predicate: z.string().nullish(),
  template_params: jsonText().nullish(),
  extra: jsonText().nullish(),
  normalize_columns: z.boolean().optional(),
  always_filter_main_dttm: z.boolean().optional(),
  is_sqllab_view: z.boolean().optional(),
  is_managed_externally: z.boolean().nullish(),
  external_url: z.string().nullish(),
  owners: z.array(z.number().int()).optional(),
  columns: z.array(DatasetColumnInputSchema).optional(),
  metrics: z.array(DatasetMetricInputSchema).optional(),
  folders: z.unknown().optional(),
  /**
   * Epoch seconds (with milliseconds) of the copy the screen edited, from the GET's `last_modified_time`:
   * a save from a copy older than the stored one is refused with 409. Scripts leave it out and are not checked.
   */
  last_modified_time: z.number().nullish(),
});
export type DatasetUpdate = z.infer<typeof DatasetUpdateSchema>;

/** `POST /api/v1/dataset/duplicate`: copy a virtual dataset under a new name. */
export const DatasetDuplicateSchema = z.object({
  base_model_id: z.number().int(),
  table_name: z.string().min(1).max(250),
});
export type DatasetDuplicate = z.infer<typeof DatasetDuplicateSchema>;

/** `POST /api/v1/dataset/get_or_create/`. */
export const DatasetGetOrCreateSchema = z.object({
  table_name: z.string().min(1).max(250),
  database_id: z.coerce.number().int(),
  catalog: z.string().max(250).nullish(),
  schema: z.string().nullish(),
  template_params: jsonText().nullish(),
  always_filter_main_dttm: z.boolean().optional(),
  normalize_columns: z.boolean().optional(),
});
export type DatasetGetOrCreate = z.infer<typeof DatasetGetOrCreateSchema>;

export interface DatasetPerson {
  id: number;
  first_name: string;
  last_name: string;
}

export interface DatasetColumnView {
  id: number;
  uuid: string;
  column_name: string;
  verbose_name: string | null;
  type: string | null;
  type_generic: number | null;
  advanced_data_type: string | null;
  is_dttm: boolean;
  is_active: boolean;
  groupby: boolean;
  filterable: boolean;
  expression: string | null;
  description: string | null;
  python_date_format: string | null;
  extra: string | null;
  created_on: string | null;
  changed_on: string | null;
}

export interface DatasetMetricView {
  id: number;
  uuid: string;
  metric_name: string;
  verbose_name: string | null;
  metric_type: string | null;
  expression: string;
  description: string | null;
  d3format: string | null;
  currency: string | null;
  warning_text: string | null;
  extra: string | null;
  created_on: string | null;
  changed_on: string | null;
}

/** `GET /api/v1/dataset/{pk}` result (Superset's DatasetRestApi.get). */
export interface DatasetView {
  id: number;
  uid: string;
  uuid: string;
  table_name: string;
  name: string;
  datasource_name: string;
  datasource_type: 'table';
  kind: 'physical' | 'virtual';
  catalog: string | null;
  schema: string | null;
  sql: string | null;
  database: { id: number; database_name: string; backend: string; allow_multi_catalog: boolean };
  description: string | null;
  main_dttm_col: string | null;
  granularity_sqla: Array<[string, string]>;
  time_grain_sqla: Array<[string, string]>;
  default_endpoint: string | null;
  offset: number;
  cache_timeout: number | null;
  filter_select_enabled: boolean;
  fetch_values_predicate: string | null;
  template_params: string | null;
  extra: string | null;
  normalize_columns: boolean;
  always_filter_main_dttm: boolean;
  is_sqllab_view: boolean;
  is_managed_externally: boolean;
  external_url: string | null;
  owners: DatasetPerson[];
  columns: DatasetColumnView[];
  metrics: DatasetMetricView[];
  column_formats: Record<string, string>;
  verbose_map: Record<string, string>;
  order_by_choices: Array<[string, string]>;
  select_star: string;
  url: string;
  explore_url: string;
  created_by: DatasetPerson | null;
  changed_by: DatasetPerson | null;
  created_on: string | null;
  changed_on: string | null;
  created_on_humanized: string | null;
  changed_on_humanized: string | null;
  changed_on_delta_humanized: string | null;
  changed_on_utc: string | null;
  changed_by_name: string;
  /** Epoch seconds with milliseconds of `changed_on`: what an editor sends back as the time of its copy. */
  last_modified_time: number;
}
