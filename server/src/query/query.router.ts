import { z } from 'zod';
import { ListQuerySchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

/** tRPC door onto the same QueryService as /api/v1/query/ (rows of results go through REST). */
export const queryRouter = router({
  list: permissionProcedure('can_read', 'Query').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.queries.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'Query').input(z.object({ id: z.number().int() })).query(({ ctx, input }) => ctx.services.queries.get(ctx.actor, input.id)),
  updatedSince: permissionProcedure('can_read', 'Query').input(z.object({ lastUpdatedMs: z.number() })).query(({ ctx, input }) => ctx.services.queries.updatedSince(ctx.actor, input.lastUpdatedMs)),
  stop: permissionProcedure('can_read', 'Query').input(z.object({ clientId: z.string() })).mutation(({ ctx, input }) => ctx.services.queries.stop(ctx.actor, input.clientId)),
  sqllabBootstrap: permissionProcedure('can_sqllab', 'Superset').query(({ ctx }) => ctx.services.tabStates.bootstrap(ctx.actor)),
});
