import { z } from 'zod';
import { ListQuerySchema, SavedQueryCreateSchema, SavedQueryUpdateSchema } from '@meridian/contracts';
import { authedProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same SavedQueryService as /api/v1/saved_query/. */
export const savedQueryRouter = router({
  list: authedProcedure.input(ListQuerySchema).query(({ ctx, input }) => ctx.services.savedQueries.list(ctx.actor, input)),
  get: authedProcedure.input(Id).query(({ ctx, input }) => ctx.services.savedQueries.get(ctx.actor, input.id)),
  create: authedProcedure.input(SavedQueryCreateSchema).mutation(({ ctx, input }) => ctx.services.savedQueries.create(ctx.actor, input)),
  update: authedProcedure.input(Id.extend({ changes: SavedQueryUpdateSchema })).mutation(({ ctx, input }) => ctx.services.savedQueries.update(ctx.actor, input.id, input.changes)),
  delete: authedProcedure.input(z.object({ ids: z.array(z.number().int()).min(1) })).mutation(({ ctx, input }) => ctx.services.savedQueries.delete(ctx.actor, input.ids)),
});
