import { AppShell, Center, Loader } from '@mantine/core';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { Suspense, type ReactNode } from 'react';
import { NavBar } from './NavBar';

/**
 * The signed-in app: the top navigation bar over the current screen (the route's, or `children`). A page
 * opened `standalone` (a chart or dashboard alone: full screen, embeds, screenshots) has no bar, as Superset's.
 */
export function AppLayout({ children }: { children?: ReactNode }) {
  const standalone = useRouterState({ select: (s) => ['1', '2', '3', 'true'].includes(String((s.location.search as Record<string, unknown>).standalone ?? '')) });
  return (
    <AppShell header={standalone ? undefined : { height: 56 }} padding={0}>
      {!standalone && (
        <AppShell.Header>
          <NavBar />
        </AppShell.Header>
      )}
      <AppShell.Main bg="var(--meridian-page-bg)">
        <Suspense
          fallback={
            <Center h={240}>
              <Loader size="sm" />
            </Center>
          }
        >
          {children ?? <Outlet />}
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
