import { z } from 'zod';
import { DatasetCreateSchema, DatasetDuplicateSchema, DatasetGetOrCreateSchema, DatasetUpdateSchema, ListQuerySchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same DatasetService as /api/v1/dataset/. */
export const datasetRouter = router({
  list: permissionProcedure('can_read', 'Dataset').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.datasets.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'Dataset').input(Id).query(({ ctx, input }) => ctx.services.datasets.get(ctx.actor, input.id)),
  create: permissionProcedure('can_write', 'Dataset').input(DatasetCreateSchema).mutation(({ ctx, input }) => ctx.services.datasets.create(ctx.actor, input)),
  getOrCreate: permissionProcedure('can_read', 'Dataset').input(DatasetGetOrCreateSchema).mutation(({ ctx, input }) => ctx.services.datasets.getOrCreate(ctx.actor, input)),
  update: permissionProcedure('can_write', 'Dataset')
    .input(Id.extend({ changes: DatasetUpdateSchema, overrideColumns: z.boolean().optional() }))
    .mutation(({ ctx, input }) => ctx.services.datasets.update(ctx.actor, input.id, input.changes, { override_columns: input.overrideColumns })),
  refresh: permissionProcedure('can_write', 'Dataset').input(Id).mutation(({ ctx, input }) => ctx.services.datasets.refresh(ctx.actor, input.id)),
  duplicate: permissionProcedure('can_write', 'Dataset').input(DatasetDuplicateSchema).mutation(({ ctx, input }) => ctx.services.datasets.duplicate(ctx.actor, input)),
  delete: permissionProcedure('can_write', 'Dataset').input(Id).mutation(({ ctx, input }) => ctx.services.datasets.delete(ctx.actor, input.id)),
  bulkDelete: permissionProcedure('can_write', 'Dataset').input(z.object({ ids: z.array(z.number().int()).min(1) })).mutation(({ ctx, input }) => ctx.services.datasets.bulkDelete(ctx.actor, input.ids)),
  relatedObjects: permissionProcedure('can_read', 'Dataset').input(Id).query(({ ctx, input }) => ctx.services.datasets.relatedObjects(ctx.actor, input.id)),
});
