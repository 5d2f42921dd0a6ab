import { z } from 'zod';
import { CssTemplateCreateSchema, CssTemplateUpdateSchema, ListQuerySchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto the same CssTemplateService as /api/v1/css_template/. */
export const cssTemplateRouter = router({
  list: permissionProcedure('can_read', 'CssTemplate').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.cssTemplates.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'CssTemplate').input(Id).query(({ ctx, input }) => ctx.services.cssTemplates.get(ctx.actor, input.id)),
  create: permissionProcedure('can_write', 'CssTemplate').input(CssTemplateCreateSchema).mutation(({ ctx, input }) => ctx.services.cssTemplates.create(ctx.actor, input)),
  update: permissionProcedure('can_write', 'CssTemplate').input(Id.extend({ changes: CssTemplateUpdateSchema })).mutation(({ ctx, input }) => ctx.services.cssTemplates.update(ctx.actor, input.id, input.changes)),
  delete: permissionProcedure('can_write', 'CssTemplate').input(z.object({ ids: z.array(z.number().int()).min(1) })).mutation(({ ctx, input }) => ctx.services.cssTemplates.delete(ctx.actor, input.ids)),
});
