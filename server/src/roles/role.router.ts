import { z } from 'zod';
import { ListQuerySchema, RoleNameSchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same RoleService as /api/v1/security/roles/ (the role editor's calls). */
export const roleRouter = router({
  list: permissionProcedure('can_read', 'Role').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.roles.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'Role').input(Id).query(({ ctx, input }) => ctx.services.roles.get(ctx.actor, input.id)),
  create: permissionProcedure('can_write', 'Role').input(RoleNameSchema).mutation(({ ctx, input }) => ctx.services.roles.create(ctx.actor, input.name)),
  rename: permissionProcedure('can_write', 'Role').input(Id.extend(RoleNameSchema.shape)).mutation(({ ctx, input }) => ctx.services.roles.rename(ctx.actor, input.id, input.name)),
  delete: permissionProcedure('can_write', 'Role').input(Id).mutation(({ ctx, input }) => ctx.services.roles.delete(ctx.actor, input.id)),
  setPermissions: permissionProcedure('can_write', 'Role')
    .input(Id.extend({ permissionViewIds: z.array(z.number().int()) }))
    .mutation(({ ctx, input }) => ctx.services.roles.setPermissions(ctx.actor, input.id, input.permissionViewIds)),
  setUsers: permissionProcedure('can_write', 'Role')
    .input(Id.extend({ userIds: z.array(z.number().int()) }))
    .mutation(({ ctx, input }) => ctx.services.roles.setUsers(ctx.actor, input.id, input.userIds)),
  /** Every permission on every resource, to pick a role's from. */
  permissionViews: permissionProcedure('can_read', 'PermissionViewMenu').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.roles.listPairs(ctx.actor, input)),
});
