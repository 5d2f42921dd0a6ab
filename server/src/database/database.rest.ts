import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  DatabaseCreateSchema, DatabaseSchemasQuerySchema, DatabaseTablesQuerySchema, DatabaseTestConnectionSchema, DatabaseUpdateSchema, DatabaseValidateParametersSchema, TableMetadataQuerySchema, type TableMetadataQuery,
} from '@meridian/contracts';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { registerRelated } from '../rest/related';

const tags = ['Database'];
const ListParams = z.object({ q: z.unknown().optional() });

// Flask-AppBuilder's list metadata; the order columns are those the repository sorts by.
const DATABASE_LIST = {
  title: 'List Database',
  orderColumns: ['id', 'database_name', 'expose_in_sqllab', 'allow_run_async', 'allow_dml', 'allow_ctas', 'allow_cvas', 'allow_file_upload', 'changed_on', 'created_on', 'uuid', 'backend', 'created_by', 'changed_by'],
};

/** /api/v1/database/ as Superset's DatabaseRestApi. */
const DATABASE_INFO: InfoSpec = {
  view: 'Database',
  title: 'Database',
  add: DatabaseCreateSchema,
  edit: DatabaseUpdateSchema,
  filters: {
    database_name: ['ct', 'eq', 'sw', 'ew'],
    expose_in_sqllab: ['eq'],
    allow_run_async: ['eq'],
    allow_dml: ['eq'],
    allow_file_upload: ['eq'],
    uuid: ['eq'],
    created_by: ['rel_o_m'],
    changed_by: ['rel_o_m'],
  },
  permissions: ['can_read', 'can_write', 'can_export', 'can_upload'],
};

export function registerDatabaseRest(app: FastifyInstance, services: Services): void {
  const { databases } = services;
  route(app, { method: 'GET', url: '/api/v1/database/_info', permission: ['can_read', 'Database'], summary: "What can be added, edited and filtered, and the caller's permissions on databases", tags, query: z.object({ q: z.unknown().optional() }), rison: true }, ({ actor, query }) =>
    infoAnswer(DATABASE_INFO, actor!, query.q),
  );
  registerRelated(app, services, { resource: 'database', view: 'Database', tags, users: ['created_by', 'changed_by'] });
  route(app, { method: 'GET', url: '/api/v1/database/', permission: ['can_read', 'Database'], summary: 'List databases the user may access', tags, query: ListParams, list: DATABASE_LIST }, ({ actor, query }) =>
    databases.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/database/:pk', permission: ['can_read', 'Database'], summary: 'Get a database (password masked)', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await databases.get(actor, params.pk),
  }));
  route(app, { method: 'GET', url: '/api/v1/database/:pk/connection', permission: ['can_read', 'Database'], summary: 'Get a database connection (password masked)', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await databases.connection(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/database/', permission: ['can_write', 'Database'], summary: 'Create a database (tests the connection first)', tags, body: DatabaseCreateSchema, unknown: 'exclude', status: 201 }, async ({ actor, body }) => {
    const db = await databases.create(actor, body);
    return { id: db.id, result: db };
  });
  route(app, { method: 'PUT', url: '/api/v1/database/:pk', permission: ['can_write', 'Database'], summary: 'Update a database; a masked password keeps the stored one', tags, params: PkParams, body: DatabaseUpdateSchema, unknown: 'exclude' }, async ({ actor, params, body }) => {
    const db = await databases.update(actor, params.pk, body);
    return { id: db.id, result: db };
  });
  route(app, { method: 'DELETE', url: '/api/v1/database/:pk', permission: ['can_write', 'Database'], summary: 'Delete a database', tags, params: PkParams }, async ({ actor, params }) => {
    await databases.delete(actor, params.pk);
    return { message: 'OK' };
  });
  route(app, { method: 'POST', url: '/api/v1/database/test_connection/', permission: ['can_write', 'Database'], summary: 'Test a database connection', tags, body: DatabaseTestConnectionSchema }, async ({ actor, body }) => {
    await databases.testConnection(actor, body);
    return { message: 'OK' };
  });
  route(app, { method: 'GET', url: '/api/v1/database/available/', permission: ['can_read', 'Database'], summary: 'Engines that can be connected, with the parameters each takes', tags }, ({ actor }) => ({
    databases: databases.available(actor),
  }));
  route(app, { method: 'POST', url: '/api/v1/database/validate_parameters/', permission: ['can_write', 'Database'], summary: "Check an engine's connection parameters and try them", tags, body: DatabaseValidateParametersSchema, unknown: 'exclude' }, async ({ actor, body }) => {
    await databases.validateParameters(actor, body);
    return { message: 'OK' };
  });
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/schemas/', permission: ['can_read', 'Database'], summary: 'Schemas of a database (sorted)', tags, params: PkParams, rison: true, query: z.object({ q: DatabaseSchemasQuerySchema.default({ force: false }) }) },
    async ({ actor, params, query }) => ({ result: await databases.schemas(actor, params.pk, query.q) }),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/catalogs/', permission: ['can_read', 'Database'], summary: 'Catalogs of a database', tags, params: PkParams, rison: true, query: z.object({ q: z.object({ force: z.boolean().optional() }).default({}) }) },
    async ({ actor, params, query }) => ({ result: await databases.catalogs(actor, params.pk, query.q.force ?? false) }),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/tables/', permission: ['can_read', 'Database'], summary: 'Tables and views of a schema', tags, params: PkParams, rison: true, query: z.object({ q: DatabaseTablesQuerySchema }) },
    ({ actor, params, query }) => databases.tables(actor, params.pk, query.q),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/table_metadata/', permission: ['can_read', 'Database'], summary: 'Metadata of a table', tags, params: PkParams, query: TableMetadataQuerySchema },
    ({ actor, params, query }) => databases.tableMetadata(actor, params.pk, query),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/table_metadata/extra/', permission: ['can_read', 'Database'], summary: 'Extra metadata of a table (partitions)', tags, params: PkParams, query: TableMetadataQuerySchema },
    ({ actor, params, query }) => databases.tableMetadataExtra(actor, params.pk, query),
  );
  route(app, { method: 'GET', url: '/api/v1/database/:pk/function_names/', permission: ['can_read', 'Database'], summary: "The engine's function names", tags, params: PkParams }, async ({ actor, params }) => ({
    function_names: await databases.functionNames(actor, params.pk),
  }));
  route(app, { method: 'GET', url: '/api/v1/database/:pk/related_objects/', permission: ['can_read', 'Database'], summary: 'Charts, dashboards and SQL Lab tabs that use the database', tags, params: PkParams }, ({ actor, params }) =>
    databases.relatedObjects(actor, params.pk),
  );
  route(app, { method: 'POST', url: '/api/v1/database/:pk/sync_permissions/', permission: ['can_write', 'Database'], summary: "Re-sync the access permissions of a database and its datasets", tags, params: PkParams }, async ({ actor, params }) => ({
    message: await databases.syncPermissions(actor, params.pk),
  }));
  route(app, { method: 'GET', url: '/api/v1/database/:pk/schemas_access_for_file_upload/', permission: ['can_read', 'Database'], summary: 'Schemas a file may be uploaded into', tags, params: PkParams }, async ({ actor, params }) => ({
    schemas: await databases.uploadSchemas(actor, params.pk),
  }));
  route(
    app,
    { method: 'POST', url: '/api/v1/database/:pk/validate_sql/', permission: ['can_read', 'Database'], summary: "Syntax errors of SQL in the database's dialect, with their places", tags, params: PkParams, body: z.object({ sql: z.string(), schema: z.string().nullish(), catalog: z.string().nullish(), template_params: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish() }) },
    async ({ actor, params, body }) => ({ result: await services.sqllab.validateSql(actor, params.pk, body) }),
  );
  // Superset's older table endpoints: the same answers as table_metadata/ and table_metadata/extra/.
  const TableParams = PkParams.extend({ table_name: z.string(), schema_name: z.string() });
  route(app, { method: 'GET', url: '/api/v1/database/:pk/table/:table_name/:schema_name/', permission: ['can_read', 'Database'], summary: 'Metadata of a table', tags, params: TableParams }, ({ actor, params }) =>
    databases.tableMetadata(actor, params.pk, { name: params.table_name, schema: params.schema_name } as TableMetadataQuery),
  );
  route(app, { method: 'GET', url: '/api/v1/database/:pk/table_extra/:table_name/:schema_name/', permission: ['can_read', 'Database'], summary: 'Extra metadata of a table (partitions)', tags, params: TableParams }, ({ actor, params }) =>
    databases.tableMetadataExtra(actor, params.pk, { name: params.table_name, schema: params.schema_name } as TableMetadataQuery),
  );
  const SelectStarParams = PkParams.extend({ table_name: z.string(), schema_name: z.string().optional() });
  for (const url of ['/api/v1/database/:pk/select_star/:table_name/', '/api/v1/database/:pk/select_star/:table_name/:schema_name/']) {
    route(app, { method: 'GET', url, permission: ['can_read', 'Database'], summary: 'SELECT * statement of a table', tags, params: SelectStarParams }, async ({ actor, params }) => ({
      result: await databases.selectStar(actor, params.pk, params.table_name, params.schema_name ?? null),
    }));
  }
}
