import { z } from 'zod';

/** `POST /api/v1/sqllab/execute/` (Superset `ExecutePayloadSchema`, spec 01 §7). */
export const ExecutePayloadSchema = z.object({
  database_id: z.number().int(),
  sql: z.string(),
  client_id: z.string().min(1).max(11).nullish(),
  catalog: z.string().nullish(),
  schema: z.string().nullish(),
  sql_editor_id: z.string().nullish(),
  tab: z.string().nullish(),
  runAsync: z.boolean().nullish(),
  json: z.boolean().nullish(),
  expand_data: z.boolean().nullish(),
  select_as_cta: z.boolean().nullish(),
  ctas_method: z.enum(['TABLE', 'VIEW']).nullish(),
  tmp_table_name: z.string().nullish(),
  tmp_schema_name: z.string().nullish(),
  templateParams: z.string().nullish(),
  queryLimit: z.number().int().min(0).nullish(),
});
export type ExecutePayload = z.infer<typeof ExecutePayloadSchema>;

/** Rison `q` of `GET /api/v1/sqllab/results/`: `offset` lets the client page past DISPLAY_MAX_ROW. */
export const ResultsQuerySchema = z.object({
  key: z.string().min(1),
  rows: z.coerce.number().int().min(0).nullish(),
  offset: z.coerce.number().int().min(0).nullish(),
});
export type ResultsQuery = z.infer<typeof ResultsQuerySchema>;

/** `POST /api/v1/sqllab/estimate/`. */
export const EstimatePayloadSchema = z.object({
  database_id: z.number().int(),
  sql: z.string().min(1),
  catalog: z.string().nullish(),
  schema: z.string().nullish(),
  template_params: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
});
export type EstimatePayload = z.infer<typeof EstimatePayloadSchema>;

/** `POST /api/v1/sqllab/format_sql/`. */
export const FormatSqlPayloadSchema = z.object({
  sql: z.string(),
  engine: z.string().nullish(),
  database_id: z.number().int().nullish(),
  template_params: z.string().nullish(),
});
export type FormatSqlPayload = z.infer<typeof FormatSqlPayloadSchema>;

/** `POST /kv/store/`: the shared query (any JSON text). */
export const KvStorePayloadSchema = z.object({ data: z.union([z.string(), z.record(z.string(), z.unknown())]) });

/** `POST /api/v1/sqllab/permalink` (Superset's SqlLabPermalinkSchema): a SQL Lab tab's query as a link. */
export const SqlLabPermalinkSchema = z.object({
  dbId: z.number().int(),
  name: z.string(),
  sql: z.string(),
  schema: z.string().nullish(),
  catalog: z.string().nullish(),
  autorun: z.boolean().optional(),
  templateParams: z.string().nullish(),
});
export type SqlLabPermalinkState = z.infer<typeof SqlLabPermalinkSchema>;
