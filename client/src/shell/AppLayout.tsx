import { AppShell, Center, Loader } from '@mantine/core';
import { DISPLAY_OPTIONS_URL_KEY, displayOptionsFromMask } from '@meridian/contracts/rules/display-options';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { Suspense, type ReactNode } from 'react';
import { NavBar } from './NavBar';

/**
 * The signed-in app: the top navigation bar over the current screen (the route's, or `children`). A page
 * opened `standalone` (a chart or dashboard alone: full screen, embeds, screenshots) has no bar, as Superset's, nor
 * has one whose display options (`uiConfig`, spec 02 §2) hide the navigation.
 */
export function AppLayout({ children }: { children?: ReactNode }) {
  const standalone = useRouterState({
    select: (s) => {
      const search = s.location.search as Record<string, unknown>;
      return ['1', '2', '3', 'true'].includes(String(search.standalone ?? '')) || displayOptionsFromMask(Number(search[DISPLAY_OPTIONS_URL_KEY])).hideNav;
    },
  });
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
