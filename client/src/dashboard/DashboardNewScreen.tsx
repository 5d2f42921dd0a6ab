import { Alert, Container, Loader, Stack } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { createDashboard } from './dashboard.api';

/** `/dashboard/new/` (Superset's address): creates an untitled dashboard and opens it in edit mode. */
export function DashboardNewScreen() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    createDashboard()
      .then((created) => navigate({ href: `/superset/dashboard/${created.id}/?edit=true`, replace: true }))
      .catch((e: Error) => setError(e.message));
  }, [navigate]);
  return error ? (
    <Container size="sm" py="xl">
      <Alert color="red" title="The dashboard could not be created">
        {error}
      </Alert>
    </Container>
  ) : (
    <Stack align="center" py="xl">
      <Loader />
    </Stack>
  );
}

/** `/superset/dashboard/p/{key}/`: a dashboard permalink opens its dashboard on the tabs it was shared with. */
export function DashboardPermalinkScreen() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const key = window.location.pathname.split('/').filter(Boolean).at(-1) ?? '';
    import('../api')
      .then(({ api }) => api<{ dashboardId: string; state: { activeTabs?: string[]; anchor?: string | null; urlParams?: Array<[string, string]>; dataMask?: Record<string, unknown> } }>(`/api/v1/dashboard/permalink/${key}`))
      .then(({ dashboardId, state }) => {
        const params = new URLSearchParams(state.urlParams ?? []);
        if (state.activeTabs?.length) sessionStorage.setItem(`dashboard-active-tabs-${dashboardId}`, JSON.stringify(state.activeTabs));
        // The permalink's filter values (data mask) are handed to the dashboard, which applies them.
        if (state.dataMask && Object.keys(state.dataMask).length) sessionStorage.setItem(`dashboard-data-mask-${dashboardId}`, JSON.stringify(state.dataMask));
        const query = params.toString();
        return navigate({ href: `/superset/dashboard/${dashboardId}/${query ? `?${query}` : ''}${state.anchor ? `#${state.anchor}` : ''}`, replace: true });
      })
      .catch((e: Error) => setError(e.message));
  }, [navigate]);
  return error ? (
    <Container size="sm" py="xl">
      <Alert color="red" title="This link could not be opened">
        {error}
      </Alert>
    </Container>
  ) : (
    <Stack align="center" py="xl">
      <Loader />
    </Stack>
  );
}
