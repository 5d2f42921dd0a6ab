import { z } from 'zod';
import { DatabaseCreateSchema, DatabaseSchemasQuerySchema, DatabaseTablesQuerySchema, DatabaseUpdateSchema, DatabaseValidateParametersSchema, ListQuerySchema, TableMetadataQuerySchema, DatabaseTestConnectionSchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same DatabaseService as /api/v1/database/. */
export const databaseRouter = router({
  list: permissionProcedure('can_read', 'Database').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.databases.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'Database').input(Id).query(({ ctx, input }) => ctx.services.databases.get(ctx.actor, input.id)),
  create: permissionProcedure('can_write', 'Database').input(DatabaseCreateSchema).mutation(({ ctx, input }) => ctx.services.databases.create(ctx.actor, input)),
  update: permissionProcedure('can_write', 'Database').input(Id.extend({ changes: DatabaseUpdateSchema })).mutation(({ ctx, input }) => ctx.services.databases.update(ctx.actor, input.id, input.changes)),
  delete: permissionProcedure('can_write', 'Database').input(Id).mutation(({ ctx, input }) => ctx.services.databases.delete(ctx.actor, input.id)),
  available: permissionProcedure('can_read', 'Database').query(({ ctx }) => ctx.services.databases.available(ctx.actor)),
  validateParameters: permissionProcedure('can_write', 'Database').input(DatabaseValidateParametersSchema).mutation(({ ctx, input }) => ctx.services.databases.validateParameters(ctx.actor, input)),
  testConnection: permissionProcedure('can_write', 'Database').input(DatabaseTestConnectionSchema).mutation(({ ctx, input }) => ctx.services.databases.testConnection(ctx.actor, input)),
  schemas: permissionProcedure('can_read', 'Database').input(Id.extend({ query: DatabaseSchemasQuerySchema })).query(({ ctx, input }) => ctx.services.databases.schemas(ctx.actor, input.id, input.query)),
  catalogs: permissionProcedure('can_read', 'Database').input(Id.extend({ force: z.boolean().optional() })).query(({ ctx, input }) => ctx.services.databases.catalogs(ctx.actor, input.id, input.force)),
  tables: permissionProcedure('can_read', 'Database').input(Id.extend({ query: DatabaseTablesQuerySchema })).query(({ ctx, input }) => ctx.services.databases.tables(ctx.actor, input.id, input.query)),
  tableMetadata: permissionProcedure('can_read', 'Database').input(Id.extend({ query: TableMetadataQuerySchema })).query(({ ctx, input }) => ctx.services.databases.tableMetadata(ctx.actor, input.id, input.query)),
  tableMetadataExtra: permissionProcedure('can_read', 'Database').input(Id.extend({ query: TableMetadataQuerySchema })).query(({ ctx, input }) => ctx.services.databases.tableMetadataExtra(ctx.actor, input.id, input.query)),
});
