import { z } from 'zod';
import { ListQuerySchema, UserCreateSchema, UserUpdateSchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

/** tRPC door onto the same UserService as /api/v1/security/users/. */
export const userRouter = router({
  list: permissionProcedure('can_read', 'User').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.users.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'User').input(z.object({ id: z.number().int() })).query(({ ctx, input }) => ctx.services.users.get(ctx.actor, input.id)),
  create: permissionProcedure('can_write', 'User').input(UserCreateSchema).mutation(({ ctx, input }) => ctx.services.users.create(ctx.actor, input)),
  update: permissionProcedure('can_write', 'User')
    .input(z.object({ id: z.number().int(), changes: UserUpdateSchema }))
    .mutation(({ ctx, input }) => ctx.services.users.update(ctx.actor, input.id, input.changes)),
  delete: permissionProcedure('can_write', 'User').input(z.object({ id: z.number().int() })).mutation(({ ctx, input }) => ctx.services.users.delete(ctx.actor, input.id)),
});
