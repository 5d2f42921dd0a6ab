import { z } from 'zod';
import { TableSchemaCreateSchema, TabStateCreateSchema, TabStateUpdateSchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same TabStateService as /tabstateview/ and /tableschemaview/. */
export const tabStateRouter = router({
  create: permissionProcedure('can_sqllab', 'Superset').input(TabStateCreateSchema).mutation(async ({ ctx, input }) => ({ id: await ctx.services.tabStates.create(ctx.actor, input) })),
  get: permissionProcedure('can_sqllab', 'Superset').input(Id).query(({ ctx, input }) => ctx.services.tabStates.get(ctx.actor, input.id)),
  update: permissionProcedure('can_sqllab', 'Superset').input(Id.extend({ changes: TabStateUpdateSchema })).mutation(({ ctx, input }) => ctx.services.tabStates.update(ctx.actor, input.id, input.changes)),
  activate: permissionProcedure('can_sqllab', 'Superset').input(Id).mutation(({ ctx, input }) => ctx.services.tabStates.activate(ctx.actor, input.id)),
  delete: permissionProcedure('can_sqllab', 'Superset').input(Id).mutation(({ ctx, input }) => ctx.services.tabStates.delete(ctx.actor, input.id)),
  migrateQuery: permissionProcedure('can_sqllab', 'Superset').input(Id.extend({ queryId: z.string() })).mutation(({ ctx, input }) => ctx.services.tabStates.migrateQuery(ctx.actor, input.id, input.queryId)),
  deleteQuery: permissionProcedure('can_sqllab', 'Superset').input(Id.extend({ clientId: z.string() })).mutation(({ ctx, input }) => ctx.services.tabStates.deleteQuery(ctx.actor, input.id, input.clientId)),
  addTable: permissionProcedure('can_sqllab', 'Superset').input(TableSchemaCreateSchema).mutation(async ({ ctx, input }) => ({ id: await ctx.services.tabStates.addTable(ctx.actor, input) })),
  setTableExpanded: permissionProcedure('can_sqllab', 'Superset').input(Id.extend({ expanded: z.boolean() })).mutation(({ ctx, input }) => ctx.services.tabStates.setTableExpanded(ctx.actor, input.id, input.expanded)),
  deleteTable: permissionProcedure('can_sqllab', 'Superset').input(Id).mutation(({ ctx, input }) => ctx.services.tabStates.deleteTable(ctx.actor, input.id)),
});
