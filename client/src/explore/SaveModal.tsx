import { Alert, Button, Group, Modal, Radio, Select, Stack, TextInput } from '@mantine/core';
import { layoutFromPosition, layoutReducer, newComponent, positionFromLayout, GRID_ID, ROOT_ID } from '@meridian/contracts/dashboard/layout-reducer';
import { fmt, CHART_ADDED_TO_DASHBOARD, CHART_OVERWRITTEN, CHART_SAVED, DASHBOARD_CREATED_WITH_CHART, FETCH_DASHBOARDS_FAILED, SAVE_SLICE_FAILED } from '@meridian/contracts/messages';
import { getErrorText } from '@meridian/contracts/rules/error-normalisation';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../api';
import { useSessionUser } from '../auth/session';
import { addDangerToast, addSuccessToast } from '../notify';
import type { FormData, QueryContext } from '../viz/types';
import { saveChart } from './explore.api';

interface DashboardOption {
  id: number;
  dashboard_title: string;
}

/** Appends the chart to the end of a dashboard's layout (in its first tab when it has tabs) and saves the layout. */
async function addChartToDashboard(dashboardId: number, chartId: number, sliceName: string): Promise<void> {
  const { result } = await api<{ result: { position_json: string | null; dashboard_title: string } }>(`/api/v1/dashboard/${dashboardId}`);
  const layout = layoutFromPosition(result.position_json ? JSON.parse(result.position_json) : null, result.dashboard_title);
  if (Object.values(layout).some((c) => c.type === 'CHART' && c.meta.chartId === chartId)) return;
  const root = layout[ROOT_ID]!;
  const top = layout[root.children[0] ?? GRID_ID];
  const parentId = top?.type === 'TABS' ? top.children[0]! : GRID_ID;
  const chart = newComponent('CHART', { chartId, sliceName });
  const placed = layoutReducer(layout, { type: 'CREATE_COMPONENT', component: chart, destination: { parentId, index: layout[parentId]?.children.length ?? 0 } });
  if (!placed.ok) throw new Error(placed.error);
  await api(`/api/v1/dashboard/${dashboardId}`, { method: 'PUT', body: { position_json: JSON.stringify(positionFromLayout(placed.layout)) } });
}

/**
 * The dashboards a chart can be added to, as Superset's save modal lists them: the user's own (only an owner may
 * edit one), whose title contains the search, by title; searched on the server, so an older one is found too.
 */
const ownedDashboards = async (userId: number, search: string) =>
  (
    await api<{ result: DashboardOption[] }>('/api/v1/dashboard/', {
      query: { q: { columns: ['id', 'dashboard_title'], filters: [{ col: 'dashboard_title', opr: 'ct', value: search }, { col: 'owners', opr: 'rel_m_m', value: userId }], order_column: 'dashboard_title', order_direction: 'asc', page_size: 100 } },
    })
  ).result;

/** The dashboard field's value for a new dashboard's name typed into it. */
const TYPED_DASHBOARD = '__typed__';

/**
 * Save or overwrite the chart (overwrite only for an owner of a saved chart), optionally adding it to a
 * dashboard, new or existing, with the messages of spec 01 §8.
 */
export function SaveModal({ opened, onClose, sliceId, sliceName, canOverwrite, canAdd, formData, queryContext, onSaved }: { opened: boolean; onClose: () => void; sliceId: number | null; sliceName: string; canOverwrite: boolean; canAdd: boolean; formData: FormData; queryContext: () => QueryContext; onSaved: (id: number, name: string, goToDashboard: number | null) => void }) {
  const { userId } = useSessionUser();
  const [action, setAction] = useState<'overwrite' | 'saveas'>(sliceId && canOverwrite ? 'overwrite' : 'saveas');
  const [name, setName] = useState(sliceName);
  const [dashboard, setDashboard] = useState<string | null>(null);
  const [newDashboard, setNewDashboard] = useState('');
  const [typedDashboard, setTypedDashboard] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const [searched] = useDebouncedValue(search.trim(), 250);
  const dashboards = useQuery({
    queryKey: ['save-modal-dashboards', userId, searched],
    queryFn: () => ownedDashboards(userId, searched),
    enabled: opened,
    placeholderData: keepPreviousData,
  });
  const save = async (goToDashboard: boolean) => {
    setSaving(true);
    setError(null);
    try {
      const title = name.trim();
      const overwrite = action === 'overwrite' && !!sliceId;
      const answer = await saveChart({ id: overwrite ? sliceId : null, sliceName: title, formData, queryContext: queryContext() });
      const chartId = overwrite ? sliceId! : answer.id;
      addSuccessToast(fmt(overwrite ? CHART_OVERWRITTEN : CHART_SAVED, title));
      let dashboardId: number | null = null;
      // The chart is saved: a dashboard that cannot take it is told in a toast and the modal still closes on the
      // saved chart (left open in 'Save as', a second Save made a second chart).
      try {
        const typedTitle = dashboard === TYPED_DASHBOARD ? typedDashboard : null;
        // A typed name that is one of the user's dashboards (searched, not only those listed) adds to it.
        const typedExisting = typedTitle ? (await ownedDashboards(userId, typedTitle)).find((d) => d.dashboard_title === typedTitle) : undefined;
        const newTitle = dashboard === '__new__' ? newDashboard.trim() : typedExisting ? null : typedTitle;
        if (newTitle) {
          const created = await api<{ id: number }>('/api/v1/dashboard/', { method: 'POST', body: { dashboard_title: newTitle } });
          dashboardId = created.id;
          // The user's dashboards now hold it: a search for its name no longer answers 'new'.
          void queryClient.invalidateQueries({ queryKey: ['save-modal-dashboards'] });
          await addChartToDashboard(dashboardId, chartId, title);
          addSuccessToast(fmt(DASHBOARD_CREATED_WITH_CHART, newTitle, title));
        } else if (typedExisting || (dashboard && dashboard !== '__new__' && dashboard !== TYPED_DASHBOARD)) {
          dashboardId = typedExisting?.id ?? Number(dashboard);
          await addChartToDashboard(dashboardId, chartId, title);
          addSuccessToast(fmt(CHART_ADDED_TO_DASHBOARD, title, typedExisting?.dashboard_title ?? dashboards.data?.find((d) => d.id === dashboardId)?.dashboard_title ?? ''));
        }
      } catch (e) {
        dashboardId = null;
        addDangerToast(e instanceof ApiError ? getErrorText(e.clientError, 'dashboard') : SAVE_SLICE_FAILED);
      }
      void queryClient.invalidateQueries({ queryKey: ['chart', chartId] });
      onSaved(chartId, title, goToDashboard ? dashboardId : null);
    } catch (e) {
      setError(e instanceof ApiError ? getErrorText(e.clientError, 'chart') : SAVE_SLICE_FAILED);
    } finally {
      setSaving(false);
    }
  };
  // A name typed and left in the dashboard field is taken, as Superset's select takes new options: an existing
  // dashboard's title picks it, any other name is the new dashboard's (it was dropped silently).
  // The name stays in the field as a new option (nothing moves under the pointer on its way to Save).
  const takeTyped = (typed: string) => {
    const text = typed.trim();
    if (dashboard || !text) return;
    const existing = dashboards.data?.find((d) => d.dashboard_title === text);
    if (existing) return setDashboard(String(existing.id));
    setTypedDashboard(text);
    setDashboard(TYPED_DASHBOARD);
  };
  // While a name that no dashboard has is typed, it is offered as the new dashboard's option at once (Superset's
  // select lists a new option as it is typed; only leaving the field took it before).
  const typed = search.trim();
  const offerTyped = !!typed && !(dashboards.data ?? []).some((d) => d.dashboard_title === typed) && typed !== '+ Create a new dashboard';
  // As Superset's modal, the buttons say when the chosen dashboard is a new one (a typed name reads like any other):
  // a typed name once the search of the user's dashboards for it has answered without it.
  const typedIsNew = dashboard === TYPED_DASHBOARD && searched === typedDashboard && dashboards.isSuccess && !dashboards.isFetching && !dashboards.isPlaceholderData && !dashboards.data.some((d) => d.dashboard_title === typedDashboard);
  const isNewDashboard = dashboard === '__new__' || typedIsNew;
  const options = [
    { value: '__new__', label: '+ Create a new dashboard' },
    ...(offerTyped ? [{ value: TYPED_DASHBOARD, label: typed }] : typedDashboard ? [{ value: TYPED_DASHBOARD, label: typedDashboard }] : []),
    ...(dashboards.data ?? []).map((d) => ({ value: String(d.id), label: d.dashboard_title })),
  ];
  return (
    <Modal opened={opened} onClose={onClose} title="Save chart" centered size={560}>
      <Stack gap="sm">
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        {dashboards.isError && <Alert color="yellow" variant="light">{FETCH_DASHBOARDS_FAILED}</Alert>}
        <Radio.Group value={action} onChange={(v) => setAction(v as 'overwrite' | 'saveas')}>
          <Group>
            <Radio value="overwrite" label="Save (Overwrite)" disabled={!sliceId || !canOverwrite} />
            <Radio value="saveas" label="Save as..." disabled={!canAdd} />
          </Group>
        </Radio.Group>
        <TextInput label="Chart name" required value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
        <Select label="Add to dashboard" placeholder="Select a dashboard (optional)" data={options} value={dashboard} onChange={(v) => { if (v === TYPED_DASHBOARD && offerTyped) setTypedDashboard(typed); setDashboard(v); }} onSearchChange={setSearch} clearable searchable comboboxProps={{ withinPortal: true }} onBlur={(e) => takeTyped(e.currentTarget.value)} />
        {dashboard === '__new__' && <TextInput label="New dashboard name" value={newDashboard} onChange={(e) => setNewDashboard(e.currentTarget.value)} />}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          {dashboard && (
            <Button variant="light" loading={saving} disabled={!name.trim()} onClick={() => void save(true)}>
              {isNewDashboard ? 'Save & go to new dashboard' : 'Save & go to dashboard'}
            </Button>
          )}
          <Button loading={saving} disabled={!name.trim() || (dashboard === '__new__' && !newDashboard.trim())} onClick={() => void save(false)}>
            {isNewDashboard ? 'Save to new dashboard' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
