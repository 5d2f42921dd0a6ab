import { z } from 'zod';
import { ListQuerySchema, ReportCreateSchema, ReportUpdateSchema } from '@meridian/contracts';
import { featureFlag, permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });
const reportProcedure = (permission: 'can_read' | 'can_write') => permissionProcedure(permission, 'ReportSchedule').use(featureFlag('ALERT_REPORTS'));

/** tRPC door onto the same ReportService as /api/v1/report/ (both only with ALERT_REPORTS). */
export const reportRouter = router({
  list: reportProcedure('can_read').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.reports.list(ctx.actor, input)),
  get: reportProcedure('can_read').input(Id).query(({ ctx, input }) => ctx.services.reports.get(ctx.actor, input.id)),
  logs: reportProcedure('can_read').input(Id.extend({ query: ListQuerySchema })).query(({ ctx, input }) => ctx.services.reports.logs(ctx.actor, input.id, input.query)),
  create: reportProcedure('can_write').input(ReportCreateSchema).mutation(({ ctx, input }) => ctx.services.reports.create(ctx.actor, input)),
  update: reportProcedure('can_write').input(Id.extend({ changes: ReportUpdateSchema })).mutation(({ ctx, input }) => ctx.services.reports.update(ctx.actor, input.id, input.changes)),
  delete: reportProcedure('can_write').input(z.object({ ids: z.array(z.number().int()).min(1) })).mutation(({ ctx, input }) => ctx.services.reports.delete(ctx.actor, input.ids)),
});
