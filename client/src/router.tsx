import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import { LOG_ACTIONS } from '@meridian/contracts/rules/event-log';
import { bootstrapQuery, safeNext } from './auth/session';
import { logEvent } from './event-log/event-logger';
import { NotFound, RootNotFound } from './components/NotFound';
import { AppLayout } from './shell/AppLayout';
import { RouteError } from './shell/RouteError';
import { queryClient } from './trpc';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: RootNotFound,
  errorComponent: RouteError,
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: (search: Record<string, unknown>): { next?: string } => (typeof search.next === 'string' ? { next: search.next } : {}),
  beforeLoad: async ({ context, search }) => {
    const { user } = await context.queryClient.ensureQueryData(bootstrapQuery());
    if (user) throw redirect({ to: '/', href: safeNext(search.next) });
  },
  component: lazyRouteComponent(() => import('./auth/LoginScreen'), 'LoginScreen'),
});

/** Every screen below needs a signed-in user; others go to /login/?next=<where they were going>. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location, matches }) => {
    // The screen's code loads while the session is asked for: the router would fetch it only after this.
    const leaf = matches[matches.length - 1];
    if (leaf) void (router.routesById[leaf.routeId as keyof typeof router.routesById]?.options.component as { preload?: () => Promise<void> } | undefined)?.preload?.()?.catch(() => undefined);
    const boot = await context.queryClient.ensureQueryData(bootstrapQuery());
    if (!boot.user) throw redirect({ to: '/login/', search: { next: location.href === '/' ? undefined : location.href } });
    return { user: boot.user };
  },
  component: AppLayout,
  notFoundComponent: NotFound,
});

const screen = <TPath extends string>(path: TPath, component: ReturnType<typeof lazyRouteComponent>) => createRoute({ getParentRoute: () => appRoute, path, component });

const home = lazyRouteComponent(() => import('./home/HomeScreen'), 'HomeScreen');

/** An embedded dashboard: outside the signed-in app, reached with a guest token from the framing page. */
const embeddedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'embedded/$uuid',
  component: lazyRouteComponent(() => import('./dashboard/EmbeddedScreen'), 'EmbeddedScreen'),
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  embeddedRoute,
  appRoute.addChildren([
    screen('/', home),
    screen('superset/welcome', home),
    screen('sqllab', lazyRouteComponent(() => import('./sqllab/SqlLabScreen'), 'SqlLabScreen')),
    screen('sqllab/p/$key', lazyRouteComponent(() => import('./sqllab/SqlLabScreen'), 'SqlLabPermalinkScreen')),
    screen('sqllab/history', lazyRouteComponent(() => import('./query-history/QueryHistoryScreen'), 'QueryHistoryScreen')),
    screen('savedqueryview/list', lazyRouteComponent(() => import('./saved-queries/SavedQueryListScreen'), 'SavedQueryListScreen')),
    screen('explore', lazyRouteComponent(() => import('./explore/ExploreScreen'), 'ExploreScreen')),
    screen('superset/explore', lazyRouteComponent(() => import('./explore/ExploreScreen'), 'ExploreScreen')),
    screen('explore/p/$key', lazyRouteComponent(() => import('./explore/ExploreScreen'), 'ExploreScreen')),
    screen('superset/explore/p/$key', lazyRouteComponent(() => import('./explore/ExploreScreen'), 'ExploreScreen')),
    screen('chart/list', lazyRouteComponent(() => import('./charts/ChartListScreen'), 'ChartListScreen')),
    screen('dashboard/list', lazyRouteComponent(() => import('./dashboard/DashboardListScreen'), 'DashboardListScreen')),
    screen('superset/dashboard/p/$key', lazyRouteComponent(() => import('./dashboard/DashboardNewScreen'), 'DashboardPermalinkScreen')),
    screen('superset/dashboard/$idOrSlug', lazyRouteComponent(() => import('./dashboard/DashboardScreen'), 'DashboardScreen')),
    screen('tablemodelview/list', lazyRouteComponent(() => import('./datasets/DatasetListScreen'), 'DatasetListScreen')),
    screen('databaseview/list', lazyRouteComponent(() => import('./databases/DatabaseListScreen'), 'DatabaseListScreen')),
    screen('users/list', lazyRouteComponent(() => import('./settings/UserListScreen'), 'UserListScreen')),
    screen('roles/list', lazyRouteComponent(() => import('./settings/RoleListScreen'), 'RoleListScreen')),
    screen('actionlog/list', lazyRouteComponent(() => import('./settings/ActionLogScreen'), 'ActionLogScreen')),
    // Superset's older addresses: each opens its screen, or a page saying what is coming.
    screen('chart/add', lazyRouteComponent(() => import('./charts/ChartAddScreen'), 'ChartAddScreen')),
    screen('dataset/add', lazyRouteComponent(() => import('./routes/legacy-paths'), 'DatasetAddScreen')),
    screen('dashboard/new', lazyRouteComponent(() => import('./dashboard/DashboardNewScreen'), 'DashboardNewScreen')),
    screen('alert/list', lazyRouteComponent(() => import('./reports/AlertReportListScreen'), 'AlertReportListScreen')),
    screen('report/list', lazyRouteComponent(() => import('./reports/AlertReportListScreen'), 'AlertReportListScreen')),
    screen('alert/$id/log', lazyRouteComponent(() => import('./reports/ExecutionLogScreen'), 'ExecutionLogScreen')),
    screen('report/$id/log', lazyRouteComponent(() => import('./reports/ExecutionLogScreen'), 'ExecutionLogScreen')),
    screen('rowlevelsecurity/list', lazyRouteComponent(() => import('./settings/RlsListScreen'), 'RlsListScreen')),
  ]),
]);

/** The app's router: Superset's paths with their trailing slash, screens code-split so heavy libraries load with their screen. */
export const router = createRouter({
  routeTree,
  context: { queryClient },
  trailingSlash: 'always',
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
});

// Each page the single-page app moves to is an event of the log (Superset's spa_navigation).
router.subscribe('onResolved', ({ toLocation, fromLocation }) => {
  if (fromLocation && fromLocation.pathname !== toLocation.pathname) logEvent(LOG_ACTIONS.SPA_NAVIGATION, { source: 'spa', path: toLocation.pathname });
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
