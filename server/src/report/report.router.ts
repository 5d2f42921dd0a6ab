import { z } from 'zod';
import { ListQuerySchema, ReportCreateSchema, ReportUpdateSchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same ReportService as /api/v1/report/. */
export const reportRouter = router({
  list: permissionProcedure('can_read', 'ReportSchedule').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.reports.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'ReportSchedule').input(Id).query(({ ctx, input }) => ctx.services.reports.get(ctx.actor, input.id)),
  logs: permissionProcedure('can_read', 'ReportSchedule').input(Id.extend({ query: ListQuerySchema })).query(({ ctx, input }) => ctx.services.reports.logs(ctx.actor, input.id, input.query)),
  create: permissionProcedure('can_write', 'ReportSchedule').input(ReportCreateSchema).mutation(({ ctx, input }) => ctx.services.reports.create(ctx.actor, input)),
  update: permissionProcedure('can_write', 'ReportSchedule').input(Id.extend({ changes: ReportUpdateSchema })).mutation(({ ctx, input }) => ctx.services.reports.update(ctx.actor, input.id, input.changes)),
  delete: permissionProcedure('can_write', 'ReportSchedule').input(z.object({ ids: z.array(z.number().int()).min(1) })).mutation(({ ctx, input }) => ctx.services.reports.delete(ctx.actor, input.ids)),
});
