import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  DatabaseCreateSchema, DatabaseSchemasQuerySchema, DatabaseTablesQuerySchema, DatabaseTestConnectionSchema, DatabaseUpdateSchema, TableMetadataQuerySchema,
} from '@meridian/contracts';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';

const tags = ['Database'];
const ListParams = z.object({ q: z.unknown().optional() });

/** /api/v1/database/ as Superset's DatabaseRestApi. */
export function registerDatabaseRest(app: FastifyInstance, services: Services): void {
  const { databases } = services;
  route(app, { method: 'GET', url: '/api/v1/database/', summary: 'List databases the user may access', tags, query: ListParams }, ({ actor, query }) =>
    databases.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/database/:pk', summary: 'Get a database (password masked)', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await databases.get(actor, params.pk),
  }));
  route(app, { method: 'GET', url: '/api/v1/database/:pk/connection', summary: 'Get a database connection (password masked)', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await databases.get(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/database/', summary: 'Create a database (tests the connection first)', tags, body: DatabaseCreateSchema, status: 201 }, async ({ actor, body }) => {
    const db = await databases.create(actor, body);
    return { id: db.id, result: db };
  });
  route(app, { method: 'PUT', url: '/api/v1/database/:pk', summary: 'Update a database; a masked password keeps the stored one', tags, params: PkParams, body: DatabaseUpdateSchema }, async ({ actor, params, body }) => {
    const db = await databases.update(actor, params.pk, body);
    return { id: db.id, result: db };
  });
  route(app, { method: 'DELETE', url: '/api/v1/database/:pk', summary: 'Delete a database', tags, params: PkParams }, async ({ actor, params }) => {
    await databases.delete(actor, params.pk);
    return { message: 'OK' };
  });
  route(app, { method: 'POST', url: '/api/v1/database/test_connection/', summary: 'Test a database connection', tags, body: DatabaseTestConnectionSchema }, async ({ actor, body }) => {
    await databases.testConnection(actor, body);
    return { message: 'OK' };
  });
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/schemas/', summary: 'Schemas of a database (sorted)', tags, params: PkParams, rison: true, query: z.object({ q: DatabaseSchemasQuerySchema.default({ force: false }) }) },
    async ({ actor, params, query }) => ({ result: await databases.schemas(actor, params.pk, query.q) }),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/catalogs/', summary: 'Catalogs of a database', tags, params: PkParams, rison: true, query: z.object({ q: z.object({ force: z.boolean().optional() }).default({}) }) },
    async ({ actor, params, query }) => ({ result: await databases.catalogs(actor, params.pk, query.q.force ?? false) }),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/tables/', summary: 'Tables and views of a schema', tags, params: PkParams, rison: true, query: z.object({ q: DatabaseTablesQuerySchema }) },
    ({ actor, params, query }) => databases.tables(actor, params.pk, query.q),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/table_metadata/', summary: 'Metadata of a table', tags, params: PkParams, query: TableMetadataQuerySchema },
    ({ actor, params, query }) => databases.tableMetadata(actor, params.pk, query),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/database/:pk/table_metadata/extra/', summary: 'Extra metadata of a table (partitions)', tags, params: PkParams, query: TableMetadataQuerySchema },
    ({ actor, params, query }) => databases.tableMetadataExtra(actor, params.pk, query),
  );
  const SelectStarParams = PkParams.extend({ table_name: z.string(), schema_name: z.string().optional() });
  for (const url of ['/api/v1/database/:pk/select_star/:table_name/', '/api/v1/database/:pk/select_star/:table_name/:schema_name/']) {
    route(app, { method: 'GET', url, summary: 'SELECT * statement of a table', tags, params: SelectStarParams }, async ({ actor, params }) => ({
      result: await databases.selectStar(actor, params.pk, params.table_name, params.schema_name ?? null),
    }));
  }
}
