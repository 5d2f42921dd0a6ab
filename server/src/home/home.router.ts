import { authedProcedure, router } from '../trpc/trpc';

/** tRPC door onto HomeService: recent activity and favourites in one call for the home page. */
export const homeRouter = router({
  overview: authedProcedure.query(async ({ ctx }) => ({
    recent: await ctx.services.home.recentActivity(ctx.actor, 10),
    favorites: await ctx.services.home.favorites(ctx.actor, 10),
  })),
});
