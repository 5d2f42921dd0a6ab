import { AppShell, Center, Loader } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';
import { Suspense, type ReactNode } from 'react';
import { NavBar } from './NavBar';

/** The signed-in app: the top navigation bar over the current screen (the route's, or `children`). */
export function AppLayout({ children }: { children?: ReactNode }) {
  return (
    <AppShell header={{ height: 56 }} padding={0}>
      <AppShell.Header>
        <NavBar />
      </AppShell.Header>
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
