import { z } from 'zod';
import { DashboardCopySchema, DashboardCreateSchema, DashboardPermalinkSchema, DashboardUpdateSchema, ListQuerySchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });
const IdOrSlug = z.object({ idOrSlug: z.union([z.number().int(), z.string().min(1)]) });

/** tRPC door onto DashboardService. */
export const dashboardRouter = router({
  list: permissionProcedure('can_read', 'Dashboard').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.dashboards.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'Dashboard').input(IdOrSlug).query(({ ctx, input }) => ctx.services.dashboards.get(ctx.actor, input.idOrSlug)),
  charts: permissionProcedure('can_read', 'Dashboard').input(IdOrSlug).query(({ ctx, input }) => ctx.services.dashboards.charts(ctx.actor, input.idOrSlug)),
  datasets: permissionProcedure('can_read', 'Dashboard').input(IdOrSlug).query(({ ctx, input }) => ctx.services.dashboards.datasets(ctx.actor, input.idOrSlug)),
  tabs: permissionProcedure('can_read', 'Dashboard').input(IdOrSlug).query(({ ctx, input }) => ctx.services.dashboards.tabs(ctx.actor, input.idOrSlug)),
  create: permissionProcedure('can_write', 'Dashboard').input(DashboardCreateSchema).mutation(({ ctx, input }) => ctx.services.dashboards.create(ctx.actor, input)),
  update: permissionProcedure('can_write', 'Dashboard').input(Id.extend({ changes: DashboardUpdateSchema })).mutation(({ ctx, input }) => ctx.services.dashboards.update(ctx.actor, input.id, input.changes)),
  delete: permissionProcedure('can_write', 'Dashboard').input(Id).mutation(({ ctx, input }) => ctx.services.dashboards.delete(ctx.actor, input.id)),
  copy: permissionProcedure('can_write', 'Dashboard').input(Id.extend({ copy: DashboardCopySchema })).mutation(({ ctx, input }) => ctx.services.dashboards.copy(ctx.actor, input.id, input.copy)),
  favoriteStatus: permissionProcedure('can_read', 'Dashboard').input(z.object({ ids: z.array(z.number().int()) })).query(({ ctx, input }) => ctx.services.dashboards.favoriteStatus(ctx.actor, input.ids)),
  setFavorite: permissionProcedure('can_read', 'Dashboard').input(Id.extend({ on: z.boolean() })).mutation(({ ctx, input }) => ctx.services.dashboards.setFavorite(ctx.actor, input.id, input.on)),
  createPermalink: permissionProcedure('can_write', 'DashboardPermalinkRestApi')
    .input(IdOrSlug.extend({ state: DashboardPermalinkSchema, baseUrl: z.string().default('') }))
    .mutation(({ ctx, input }) => ctx.services.dashboards.createPermalink(ctx.actor, input.idOrSlug, input.state, input.baseUrl)),
  permalink: permissionProcedure('can_read', 'DashboardPermalinkRestApi').input(z.object({ key: z.string() })).query(({ ctx, input }) => ctx.services.dashboards.permalink(ctx.actor, input.key)),
});
