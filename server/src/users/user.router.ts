import { z } from 'zod';
import { ListQuerySchema, UserCreateSchema, UserUpdateSchema } from '@meridian/contracts';
import { authedProcedure, router } from '../trpc/trpc';

/** tRPC door onto the same UserService as /api/v1/security/users/. */
export const userRouter = router({
  list: authedProcedure.input(ListQuerySchema).query(({ ctx, input }) => ctx.services.users.list(ctx.actor, input)),
  get: authedProcedure.input(z.object({ id: z.number().int() })).query(({ ctx, input }) => ctx.services.users.get(ctx.actor, input.id)),
  create: authedProcedure.input(UserCreateSchema).mutation(({ ctx, input }) => ctx.services.users.create(ctx.actor, input)),
  update: authedProcedure
    .input(z.object({ id: z.number().int(), changes: UserUpdateSchema }))
    .mutation(({ ctx, input }) => ctx.services.users.update(ctx.actor, input.id, input.changes)),
  delete: authedProcedure.input(z.object({ id: z.number().int() })).mutation(({ ctx, input }) => ctx.services.users.delete(ctx.actor, input.id)),
  listRoles: authedProcedure.input(ListQuerySchema).query(({ ctx, input }) => ctx.services.users.listRoles(ctx.actor, input)),
  getRole: authedProcedure.input(z.object({ id: z.number().int() })).query(({ ctx, input }) => ctx.services.users.getRole(ctx.actor, input.id)),
});
