import { securityRouter } from '../security/security.router';
import { userRouter } from '../users/user.router';
import { roleRouter } from '../roles/role.router';
import { homeRouter } from '../home/home.router';
import { router } from './trpc';
import { databaseRouter } from '../database/database.router';
import { queryRouter } from '../query/query.router';
import { savedQueryRouter } from '../saved-query/saved-query.router';
import { tabStateRouter } from '../tab-state/tab-state.router';
import { datasetRouter } from '../dataset/dataset.router';
import { chartRouter, exploreRouter } from '../chart/chart.router';
import { annotationLayerRouter } from '../annotation-layer/annotation-layer.router';
import { cssTemplateRouter } from '../css-template/css-template.router';
import { reportRouter } from '../report/report.router';
import { rlsRouter } from '../rls/rls.router';
import { dashboardRouter } from '../dashboard/dashboard.router';

/** Every domain's tRPC router, mounted at /trpc; `AppRouter` gives the client end-to-end types. */
export const appRouter = router({
  security: securityRouter,
  user: userRouter,
  role: roleRouter,
  home: homeRouter,
  database: databaseRouter,
  query: queryRouter,
  savedQuery: savedQueryRouter,
  tabState: tabStateRouter,
  dataset: datasetRouter,
  chart: chartRouter,
  explore: exploreRouter,
  annotationLayer: annotationLayerRouter,
  cssTemplate: cssTemplateRouter,
  report: reportRouter,
  rls: rlsRouter,
  dashboard: dashboardRouter,
});

export type AppRouter = typeof appRouter;
