import { z } from 'zod';
import { DatasetCreateSchema, DatasetDuplicateSchema, DatasetGetOrCreateSchema, DatasetUpdateSchema, ListQuerySchema } from '@meridian/contracts';
import { authedProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same DatasetService as /api/v1/dataset/. */
export const datasetRouter = router({
  list: authedProcedure.input(ListQuerySchema).query(({ ctx, input }) => ctx.services.datasets.list(ctx.actor, input)),
  get: authedProcedure.input(Id).query(({ ctx, input }) => ctx.services.datasets.get(ctx.actor, input.id)),
  create: authedProcedure.input(DatasetCreateSchema).mutation(({ ctx, input }) => ctx.services.datasets.create(ctx.actor, input)),
  getOrCreate: authedProcedure.input(DatasetGetOrCreateSchema).mutation(({ ctx, input }) => ctx.services.datasets.getOrCreate(ctx.actor, input)),
  update: authedProcedure
    .input(Id.extend({ changes: DatasetUpdateSchema, overrideColumns: z.boolean().optional() }))
    .mutation(({ ctx, input }) => ctx.services.datasets.update(ctx.actor, input.id, input.changes, { override_columns: input.overrideColumns })),
  refresh: authedProcedure.input(Id).mutation(({ ctx, input }) => ctx.services.datasets.refresh(ctx.actor, input.id)),
  duplicate: authedProcedure.input(DatasetDuplicateSchema).mutation(({ ctx, input }) => ctx.services.datasets.duplicate(ctx.actor, input)),
  delete: authedProcedure.input(Id).mutation(({ ctx, input }) => ctx.services.datasets.delete(ctx.actor, input.id)),
  bulkDelete: authedProcedure.input(z.object({ ids: z.array(z.number().int()).min(1) })).mutation(({ ctx, input }) => ctx.services.datasets.bulkDelete(ctx.actor, input.ids)),
  relatedObjects: authedProcedure.input(Id).query(({ ctx, input }) => ctx.services.datasets.relatedObjects(ctx.actor, input.id)),
});
