import { z } from 'zod';
import { ChartCreateSchema, ChartDataRequestSchema, ChartUpdateSchema, ExploreBootstrapQuerySchema, ExploreFormDataSchema, ExplorePermalinkSchema, ListQuerySchema } from '@meridian/contracts';
import { authedProcedure, permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });

/** tRPC door onto ChartService and ChartDataService (use REST /api/v1/chart/data when integers beyond 2^53 matter). */
export const chartRouter = router({
  list: permissionProcedure('can_read', 'Chart').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.charts.list(ctx.actor, input)),
  get: permissionProcedure('can_read', 'Chart').input(Id).query(({ ctx, input }) => ctx.services.charts.get(ctx.actor, input.id)),
  create: permissionProcedure('can_write', 'Chart').input(ChartCreateSchema).mutation(({ ctx, input }) => ctx.services.charts.create(ctx.actor, input)),
  update: permissionProcedure('can_write', 'Chart').input(Id.extend({ changes: ChartUpdateSchema })).mutation(({ ctx, input }) => ctx.services.charts.update(ctx.actor, input.id, input.changes)),
  delete: permissionProcedure('can_write', 'Chart').input(Id).mutation(({ ctx, input }) => ctx.services.charts.delete(ctx.actor, input.id)),
  favoriteStatus: permissionProcedure('can_read', 'Chart').input(z.object({ ids: z.array(z.number().int()) })).query(({ ctx, input }) => ctx.services.charts.favoriteStatus(ctx.actor, input.ids)),
  setFavorite: permissionProcedure('can_read', 'Chart').input(Id.extend({ on: z.boolean() })).mutation(({ ctx, input }) => ctx.services.charts.setFavorite(ctx.actor, input.id, input.on)),
  data: permissionProcedure('can_read', 'Chart').input(ChartDataRequestSchema.extend({ sliceId: z.number().int().nullish() })).mutation(async ({ ctx, input }) => {
    const { sliceId, ...request } = input;
    const answer = await ctx.services.chartData.data(ctx.actor, { ...request, result_format: 'json' }, { sliceId: sliceId ?? null });
    return answer.kind === 'json' ? { status: 200 as const, ...(JSON.parse(answer.body) as { result: unknown[] }) } : { status: 202 as const, job: answer.kind === 'async' ? answer.body : null };
  }),
});

/** tRPC door onto ExploreService. */
export const exploreRouter = router({
  bootstrap: authedProcedure
    .input(ExploreBootstrapQuerySchema)
    .query(({ ctx, input }) => ctx.services.explore.bootstrap(ctx.actor, input)),
  createPermalink: permissionProcedure('can_write', 'ExplorePermalinkRestApi').input(ExplorePermalinkSchema.extend({ baseUrl: z.string().default('') })).mutation(({ ctx, input }) => ctx.services.explore.createPermalink(ctx.actor, input, input.baseUrl)),
  permalink: permissionProcedure('can_read', 'ExplorePermalinkRestApi').input(z.object({ key: z.string() })).query(({ ctx, input }) => ctx.services.explore.permalink(ctx.actor, input.key)),
  createFormData: permissionProcedure('can_write', 'ExploreFormDataRestApi').input(ExploreFormDataSchema).mutation(({ ctx, input }) => ctx.services.explore.createFormData(ctx.actor, input)),
  updateFormData: permissionProcedure('can_write', 'ExploreFormDataRestApi').input(ExploreFormDataSchema.extend({ key: z.string() })).mutation(({ ctx, input }) => ctx.services.explore.updateFormData(ctx.actor, input.key, input)),
  getFormData: permissionProcedure('can_read', 'ExploreFormDataRestApi').input(z.object({ key: z.string() })).query(({ ctx, input }) => ctx.services.explore.getFormData(ctx.actor, input.key)),
  asyncEvents: permissionProcedure('can_read', 'AsyncEventsRestApi').input(z.object({ lastId: z.string().nullish() })).query(({ ctx, input }) => ctx.services.asyncEvents.events(ctx.actor, input.lastId ?? null)),
});
