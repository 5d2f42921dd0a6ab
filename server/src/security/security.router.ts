import { publicProcedure, router } from '../trpc/trpc';
import { bootstrapData } from './bootstrap';

/** Bootstrap data the client reads first (also written into each page, server/src/page/index-page.ts). */
export const securityRouter = router({
  bootstrap: publicProcedure.query(({ ctx }) => bootstrapData(ctx.services.config, ctx.actor)),
});
