import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext, createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { normaliseError, type ClientErrorObject } from '@meridian/contracts/rules/error-normalisation';
import type { AppRouter } from '../../server/src/trpc/app-router';
import { getCsrfToken } from './api';

/** The HTTP status of a failed tRPC or REST call (undefined when the server was not reached). */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof TRPCClientError) return (error.data as { httpStatus?: number } | undefined)?.httpStatus;
  if (error && typeof error === 'object' && 'status' in error && typeof error.status === 'number') return error.status;
  return undefined;
}

/** A session that ended while the app was open (expired cookie, logout in another tab): back to the login page. */
function onSessionLost(error: unknown): void {
  if (statusOf(error) !== 401 || window.location.pathname.startsWith('/login')) return;
  const next = window.location.pathname + window.location.search;
  window.location.assign(`/login/?next=${encodeURIComponent(next)}`);
}

/** One query cache for the app; a 4xx answer is final, other failures are retried twice. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onSessionLost }),
  mutationCache: new MutationCache({ onError: onSessionLost }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => {
        const status = statusOf(error);
        return count < 2 && (status === undefined || status === 0 || status >= 500);
      },
    },
  },
});

/** tRPC over /trpc with the session cookie; mutations carry the CSRF header. */
export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: '/trpc',
      maxURLLength: 4000,
      fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
      async headers({ opList }) {
        if (!opList.some((op) => op.type === 'mutation')) return {};
        const token = await getCsrfToken();
        return token ? { 'X-CSRFToken': token } : {};
      },
    }),
  ],
});

/** Query and mutation options for every procedure, usable in loaders and outside React: `trpc.user.list.queryOptions(q)`. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

/** React context flavour (`useTRPC()`), for components that prefer hooks; backed by the same client and cache. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * The text to show for a failed tRPC or REST call: the server's Superset envelope (kept in `data.envelope`)
 * normalised by the contracts' rules, so toasts read exactly like Superset's.
 */
export function errorOf(error: unknown): ClientErrorObject {
  if (error instanceof TRPCClientError) {
    const data = error.data as { envelope?: Record<string, unknown>; httpStatus?: number } | undefined;
    if (data?.envelope) return normaliseError({ ...data.envelope, status: data.httpStatus });
    // No answer at all (fetch rejected: each browser words it its own way) is a network error.
    const unanswered = error.cause instanceof TypeError || error.message === 'Failed to fetch';
    return normaliseError(unanswered ? new TypeError('Failed to fetch') : error.message);
  }
  if (error && typeof error === 'object' && 'clientError' in error) return (error as { clientError: ClientErrorObject }).clientError;
  return normaliseError(error as Error);
}
