import { z } from 'zod';
import { ListQuerySchema, SavedQueryCreateSchema, SavedQueryUpdateSchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same SavedQueryService as /api/v1/saved_query/. */
export const savedQueryRouter = router({
  list: permissionProcedure('can_read', 'SavedQuery').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.savedQueries.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'SavedQuery').input(Id).query(({ ctx, input }) => ctx.services.savedQueries.get(ctx.actor, input.id)),
  create: permissionProcedure('can_write', 'SavedQuery').input(SavedQueryCreateSchema).mutation(({ ctx, input }) => ctx.services.savedQueries.create(ctx.actor, input)),
  update: permissionProcedure('can_write', 'SavedQuery').input(Id.extend({ changes: SavedQueryUpdateSchema })).mutation(({ ctx, input }) => ctx.services.savedQueries.update(ctx.actor, input.id, input.changes)),
  delete: permissionProcedure('can_write', 'SavedQuery').input(z.object({ ids: z.array(z.number().int()).min(1) })).mutation(({ ctx, input }) => ctx.services.savedQueries.delete(ctx.actor, input.ids)),
});
