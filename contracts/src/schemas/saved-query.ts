import { z } from 'zod';
import { jsonText } from './json-text';

/** `POST /api/v1/saved_query/` (Superset `SavedQueryRestApi.post`). */
export const SavedQueryCreateSchema = z.object({
  label: z.string().trim().min(1).max(256),
  db_id: z.number().int(),
  sql: z.string().nullable().optional(),
  catalog: z.string().max(256).nullable().optional(),
  schema: z.string().max(128).nullable().optional(),
  description: z.string().nullable().optional(),
  template_parameters: jsonText().nullable().optional(),
  extra_json: jsonText().nullable().optional(),
});
export type SavedQueryCreate = z.infer<typeof SavedQueryCreateSchema>;

export const SavedQueryUpdateSchema = SavedQueryCreateSchema.partial();
export type SavedQueryUpdate = z.infer<typeof SavedQueryUpdateSchema>;

/** A saved query as list and get answer it. */
export interface SavedQueryView {
  id: number;
  uuid: string;
  label: string;
  description: string | null;
  db_id: number | null;
  database: { id: number; database_name: string } | null;
  catalog: string | null;
  schema: string | null;
  sql: string | null;
  sql_tables: { catalog: string | null; schema: string | null; table: string }[];
  template_parameters: string | null;
  extra_json: string | null;
  extra: Record<string, unknown>;
  rows: number | null;
  last_run: string | null;
  last_run_delta_humanized: string | null;
  created_on: string;
  changed_on: string;
  changed_on_delta_humanized: string;
  created_by: { id: number; first_name: string; last_name: string } | null;
  changed_by: { id: number; first_name: string; last_name: string } | null;
  tags: unknown[];
}
