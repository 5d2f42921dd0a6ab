import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { bootstrapQuery } from './auth/session';
import { takePageBootstrap } from './page-data';
import { router } from './router';
import { colorSchemeManager, theme } from './theme';
import { queryClient, TRPCProvider, trpcClient } from './trpc';

// The page comes with the bootstrap (server/src/page/index-page.ts): the app starts without asking for it.
const pageBootstrap = takePageBootstrap();
if (pageBootstrap) queryClient.setQueryData(bootstrapQuery().queryKey, pageBootstrap as never);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="light">
      <Notifications position="bottom-right" limit={5} zIndex={1000} />
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <RouterProvider router={router} />
        </TRPCProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
