import { z } from 'zod';
import { databaseJsonText } from './json-text';
import type { DatabaseParameters } from '../rules/database-parameters';


/** Superset's `parameters` of a dynamic-form connection (BasicParametersSchema); checked against the engine by the service. */
export const DatabaseParametersSchema = z.object({
  host: z.string().nullish(),
  port: z.union([z.number(), z.string()]).nullish(),
  database: z.string().nullish(),
  username: z.string().nullish(),
  password: z.string().nullish(),
  query: z.record(z.string(), z.string()).nullish(),
  encryption: z.boolean().nullish(),
});

const DatabaseFieldsSchema = z.object({
  database_name: z.string().trim().min(1).max(250),
  sqlalchemy_uri: z.string().trim().min(1),
  /** With `parameters`, the URI is built from them on the server (Superset's dynamic form). */
  engine: z.string().trim().min(1).optional(),
  parameters: DatabaseParametersSchema.optional(),
  configuration_method: z.enum(['sqlalchemy_form', 'dynamic_form']).optional(),
  driver: z.string().optional(),
  expose_in_sqllab: z.boolean().optional(),
  allow_run_async: z.boolean().optional(),
  allow_dml: z.boolean().optional(),
  allow_ctas: z.boolean().optional(),
  allow_cvas: z.boolean().optional(),
  allow_file_upload: z.boolean().optional(),
  cache_timeout: z.number().int().min(-1).nullable().optional(),
  force_ctas_schema: z.string().max(250).nullable().optional(),
  impersonate_user: z.boolean().optional(),
  extra: databaseJsonText({ metadataParams: true }).optional(),
  /** Checked as Superset checks it, then dropped: no engine here takes encrypted extras. */
  masked_encrypted_extra: databaseJsonText().nullish(),
  external_url: z.string().nullable().optional(),
  is_managed_externally: z.boolean().optional(),
  uuid: z.string().uuid().optional(),
});

/**
 * Superset's database post body (`DatabaseRestApi.post`): a `sqlalchemy_uri`, or an `engine` with its `parameters`.
 * Unknown keys (ssh_tunnel...) are dropped, and masked_encrypted_extra once checked.
 */
export const DatabaseCreateSchema = DatabaseFieldsSchema.partial({ sqlalchemy_uri: true }).superRefine((body, ctx) => {
  if (!body.sqlalchemy_uri && !(body.engine && body.parameters)) ctx.addIssue({ code: 'custom', path: ['sqlalchemy_uri'], message: 'Missing data for required field.' });
});
export type DatabaseCreate = z.infer<typeof DatabaseCreateSchema>;

export const DatabaseUpdateSchema = DatabaseFieldsSchema.partial();
export type DatabaseUpdate = z.infer<typeof DatabaseUpdateSchema>;

/** `POST /api/v1/database/validate_parameters/`: an engine's parameters, checked and tried before saving. */
export const DatabaseValidateParametersSchema = z.object({
  engine: z.string().trim().min(1),
  parameters: DatabaseParametersSchema,
  configuration_method: z.enum(['sqlalchemy_form', 'dynamic_form']).optional(),
  database_name: z.string().optional(),
  driver: z.string().optional(),
  catalog: z.unknown().optional(),
  extra: databaseJsonText({ metadataParams: true }).optional(),
  masked_encrypted_extra: databaseJsonText().nullish(),
});
export type DatabaseValidateParameters = z.infer<typeof DatabaseValidateParametersSchema>;

/**
 * `POST /api/v1/database/test_connection/`: a URI (possibly masked, then `database_name` finds the stored password),
 * or an `engine` with its `parameters` (Superset's dynamic form). Superset's schema refuses fields it does not
 * declare, so it declares the form's others too: the server certificate and SSH tunnel are taken and not used,
 * as Meridian connects with neither.
 */
export const DatabaseTestConnectionSchema = z
  .object({
    sqlalchemy_uri: z.string().trim().min(1).optional(),
    database_name: z.string().optional(),
    engine: z.string().trim().min(1).nullish(),
    driver: z.string().nullish(),
    parameters: DatabaseParametersSchema.optional(),
    configuration_method: z.enum(['sqlalchemy_form', 'dynamic_form']).optional(),
    extra: databaseJsonText({ metadataParams: true }).optional(),
    masked_encrypted_extra: databaseJsonText().nullish(),
    impersonate_user: z.boolean().optional(),
    server_cert: z.string().nullish(),
    ssh_tunnel: z.record(z.string(), z.unknown()).nullish(),
  })
  .superRefine((body, ctx) => {
    if (!body.sqlalchemy_uri && !(body.engine && body.parameters)) ctx.addIssue({ code: 'custom', path: ['sqlalchemy_uri'], message: 'Missing data for required field.' });
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
  /** The URI as the connect form's parameters (password masked); null when it cannot be read. */
  parameters: DatabaseParameters | null;
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
