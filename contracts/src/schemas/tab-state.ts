import { z } from 'zod';

/**
 * The editor tab as `POST /tabstateview/` receives it (`queryEditor`, spec 01 §3 Query editor).
 * Only the fields the server keeps are read.
 */
export const TabStateCreateSchema = z.object({
  name: z.string().nullish(),
  dbId: z.number().int().nullish(),
  catalog: z.string().nullish(),
  schema: z.string().nullish(),
  sql: z.string().nullish(),
  queryLimit: z.number().int().nullish(),
  hideLeftBar: z.boolean().nullish(),
  remoteId: z.number().int().nullish(),
  templateParams: z.string().nullish(),
  autorun: z.boolean().nullish(),
});
export type TabStateCreate = z.infer<typeof TabStateCreateSchema>;

/** `PUT /tabstateview/{id}`: spec 01 §7; undefined fields are left alone. */
export const TabStateUpdateSchema = z.object({
  database_id: z.number().int().nullish(),
  catalog: z.string().nullish(),
  schema: z.string().nullish(),
  sql: z.string().nullish(),
  label: z.string().nullish(),
  query_limit: z.number().int().nullish(),
  latest_query_id: z.string().nullish(),
  template_params: z.string().nullish(),
  hide_left_bar: z.boolean().nullish(),
  autorun: z.boolean().nullish(),
  saved_query_id: z.number().int().nullish(),
  extra_json: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
});
export type TabStateUpdate = z.infer<typeof TabStateUpdateSchema>;

/** The table of `POST /tableschemaview/` (`table`, spec 01 §3 Table schema). */
export const TableSchemaCreateSchema = z
  .object({
    dbId: z.number().int(),
    queryEditorId: z.union([z.number().int(), z.string()]),
    catalog: z.string().nullish(),
    schema: z.string().nullish(),
    name: z.string().min(1),
    expanded: z.boolean().optional(),
  })
  .passthrough();
export type TableSchemaCreate = z.infer<typeof TableSchemaCreateSchema>;

export interface TableSchemaView {
  id: number;
  tab_state_id: number;
  database_id: number;
  catalog: string | null;
  schema: string | null;
  table: string | null;
  description: Record<string, unknown> | null;
  expanded: boolean;
}
