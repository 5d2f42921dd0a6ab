import { z } from 'zod';
import { DatabaseCreateSchema, DatabaseSchemasQuerySchema, DatabaseTablesQuerySchema, DatabaseUpdateSchema, ListQuerySchema, TableMetadataQuerySchema, DatabaseTestConnectionSchema } from '@meridian/contracts';
import { authedProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same DatabaseService as /api/v1/database/. */
export const databaseRouter = router({
  list: authedProcedure.input(ListQuerySchema).query(({ ctx, input }) => ctx.services.databases.list(ctx.actor, input)),
  get: authedProcedure.input(Id).query(({ ctx, input }) => ctx.services.databases.get(ctx.actor, input.id)),
  create: authedProcedure.input(DatabaseCreateSchema).mutation(({ ctx, input }) => ctx.services.databases.create(ctx.actor, input)),
  update: authedProcedure.input(Id.extend({ changes: DatabaseUpdateSchema })).mutation(({ ctx, input }) => ctx.services.databases.update(ctx.actor, input.id, input.changes)),
  delete: authedProcedure.input(Id).mutation(({ ctx, input }) => ctx.services.databases.delete(ctx.actor, input.id)),
  testConnection: authedProcedure.input(DatabaseTestConnectionSchema).mutation(({ ctx, input }) => ctx.services.databases.testConnection(ctx.actor, input)),
  schemas: authedProcedure.input(Id.extend({ query: DatabaseSchemasQuerySchema })).query(({ ctx, input }) => ctx.services.databases.schemas(ctx.actor, input.id, input.query)),
  catalogs: authedProcedure.input(Id.extend({ force: z.boolean().optional() })).query(({ ctx, input }) => ctx.services.databases.catalogs(ctx.actor, input.id, input.force)),
  tables: authedProcedure.input(Id.extend({ query: DatabaseTablesQuerySchema })).query(({ ctx, input }) => ctx.services.databases.tables(ctx.actor, input.id, input.query)),
  tableMetadata: authedProcedure.input(Id.extend({ query: TableMetadataQuerySchema })).query(({ ctx, input }) => ctx.services.databases.tableMetadata(ctx.actor, input.id, input.query)),
  tableMetadataExtra: authedProcedure.input(Id.extend({ query: TableMetadataQuerySchema })).query(({ ctx, input }) => ctx.services.databases.tableMetadataExtra(ctx.actor, input.id, input.query)),
});
