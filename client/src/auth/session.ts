import { useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/src/trpc/app-router';
import { api, resetCsrfToken } from '../api';
import { forgetPageData } from '../page-data';
import { queryClient, trpc } from '../trpc';

/** What the client reads first: the signed-in user (or null), feature flags and the limits it must honour. */
export type Bootstrap = inferRouterOutputs<AppRouter>['security']['bootstrap'];
export type SessionUser = NonNullable<Bootstrap['user']>;

let bootstrapOptions: ReturnType<typeof makeBootstrapQuery> | null = null;
const makeBootstrapQuery = () => trpc.security.bootstrap.queryOptions(undefined, { staleTime: Infinity });
/**
 * Bootstrap query options; the answer only changes on login and logout, which refetch it. Made once: every chart
 * of a dashboard reads the session on each render.
 */
export const bootstrapQuery = () => (bootstrapOptions ??= makeBootstrapQuery());

/** The bootstrap data inside the signed-in app (the app route loads it before rendering). */
export function useBootstrap(): Bootstrap {
  return useSuspenseQuery(bootstrapQuery()).data;
}

/** The signed-in user; only for screens under the authenticated layout. */
export function useSessionUser(): SessionUser {
  const { user } = useBootstrap();
  if (!user) throw new Error('useSessionUser outside the signed-in app');
  return user;
}

/** POST /login/ (sets the session cookie), then reloads the bootstrap with the new user. */
export async function login(username: string, password: string): Promise<Bootstrap> {
  await api('/login/', { method: 'POST', body: { username, password } });
  resetCsrfToken();
  forgetPageData();
  queryClient.clear();
  return queryClient.fetchQuery(bootstrapQuery());
}

/** POST /logout/ (clears the session cookie) and forgets everything cached for this user. */
export async function logout(): Promise<void> {
  try {
    await api('/logout/', { method: 'POST' });
  } finally {
    resetCsrfToken();
    forgetPageData();
    queryClient.clear();
  }
}

/** Only same-site paths are followed after login, so `?next=` cannot send the user elsewhere. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : '/';
}
