import { z } from 'zod';
import { ListQuerySchema, RlsCreateSchema, RlsUpdateSchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });
const VIEW = 'Row Level Security';

/** tRPC door onto the same RlsService as /api/v1/rowlevelsecurity/. */
export const rlsRouter = router({
  list: permissionProcedure('can_read', VIEW).input(ListQuerySchema).query(({ ctx, input }) => ctx.services.rls.list(ctx.actor, input)),
  get: permissionProcedure('can_read', VIEW).input(Id).query(({ ctx, input }) => ctx.services.rls.get(ctx.actor, input.id)),
  create: permissionProcedure('can_write', VIEW).input(RlsCreateSchema).mutation(({ ctx, input }) => ctx.services.rls.create(ctx.actor, input)),
  update: permissionProcedure('can_write', VIEW).input(Id.extend({ changes: RlsUpdateSchema })).mutation(({ ctx, input }) => ctx.services.rls.update(ctx.actor, input.id, input.changes)),
  delete: permissionProcedure('can_write', VIEW).input(z.object({ ids: z.array(z.number().int()).min(1) })).mutation(({ ctx, input }) => ctx.services.rls.delete(ctx.actor, input.ids)),
});
