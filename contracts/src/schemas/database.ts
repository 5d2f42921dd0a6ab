import { z } from 'zod';

const jsonText = (field: string) =>
  z.string().refine((text) => {
    if (text.trim() === '') return true;
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }, `${field} is not valid JSON`);

/** Superset's database post body (`DatabaseRestApi.post`); unknown keys (parameters, ssh_tunnel...) are dropped. */
export const DatabaseCreateSchema = z.object({
  database_name: z.string().trim().min(1).max(250),
  sqlalchemy_uri: z.string().trim().min(1),
  expose_in_sqllab: z.boolean().optional(),
  allow_run_async: z.boolean().optional(),
  allow_dml: z.boolean().optional(),
  allow_ctas: z.boolean().optional(),
  allow_cvas: z.boolean().optional(),
  allow_file_upload: z.boolean().optional(),
  cache_timeout: z.number().int().min(-1).nullable().optional(),
  force_ctas_schema: z.string().max(250).nullable().optional(),
  impersonate_user: z.boolean().optional(),
  extra: jsonText('extra').optional(),
  external_url: z.string().nullable().optional(),
  is_managed_externally: z.boolean().optional(),
  uuid: z.string().uuid().optional(),
});
export type DatabaseCreate = z.infer<typeof DatabaseCreateSchema>;

export const DatabaseUpdateSchema = DatabaseCreateSchema.partial();
export type DatabaseUpdate = z.infer<typeof DatabaseUpdateSchema>;

/** `POST /api/v1/database/test_connection/`: a URI (possibly masked, then `database_name` finds the stored password). */
export const DatabaseTestConnectionSchema = z.object({
  sqlalchemy_uri: z.string().trim().min(1),
  database_name: z.string().optional(),
  extra: jsonText('extra').optional(),
  impersonate_user: z.boolean().optional(),
});
export type DatabaseTestConnection = z.infer<typeof DatabaseTestConnectionSchema>;

const risonBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** Rison `q` of `/api/v1/database/{pk}/schemas/`. */
export const DatabaseSchemasQuerySchema = z.object({
  force: risonBool.optional().default(false),
  catalog: z.string().nullable().optional(),
  upload_allowed: risonBool.optional(),
});
export type DatabaseSchemasQuery = z.infer<typeof DatabaseSchemasQuerySchema>;

/** Rison `q` of `/api/v1/database/{pk}/tables/`. */
export const DatabaseTablesQuerySchema = z.object({
  force: risonBool.optional().default(false),
  schema_name: z.string(),
  catalog_name: z.string().nullable().optional(),
});
export type DatabaseTablesQuery = z.infer<typeof DatabaseTablesQuerySchema>;

/** Query string of `/api/v1/database/{pk}/table_metadata/` and `/table_metadata/extra/`. */
export const TableMetadataQuerySchema = z.object({
  name: z.string().min(1),
  schema: z.string().nullable().optional(),
  catalog: z.string().nullable().optional(),
});
export type TableMetadataQuery = z.infer<typeof TableMetadataQuerySchema>;

/** A database as the REST list, get and SQL Lab bootstrap answer it (password always masked). */
export interface DatabaseView {
  id: number;
  uuid: string;
  database_name: string;
  backend: string;
  engine: string;
  driver: string;
  sqlalchemy_uri: string;
  expose_in_sqllab: boolean;
  allow_run_async: boolean;
  allow_dml: boolean;
  allow_ctas: boolean;
  allow_cvas: boolean;
  allow_file_upload: boolean;
  allow_multi_catalog: boolean;
  allows_cost_estimate: boolean;
  allows_subquery: boolean;
  allows_virtual_table_explore: boolean;
  disable_data_preview: boolean;
  disable_drill_to_detail: boolean;
  explore_database_id: number;
  cache_timeout: number | null;
  force_ctas_schema: string | null;
  impersonate_user: boolean;
  is_managed_externally: boolean;
  external_url: string | null;
  extra: string;
  configuration_method: 'sqlalchemy_form';
  engine_information: { supports_file_upload: boolean; disable_ssh_tunneling: boolean; supports_dynamic_catalog: boolean; supports_oauth2: boolean };
  created_by: { id: number; first_name: string; last_name: string } | null;
  changed_by: { id: number; first_name: string; last_name: string } | null;
  created_on: string;
  changed_on: string;
  changed_on_delta_humanized: string;
}

/** One entry of `/api/v1/database/{pk}/tables/`. */
export interface DatabaseTableOption {
  value: string;
  type: 'table' | 'view';
  extra: Record<string, unknown> | null;
}
