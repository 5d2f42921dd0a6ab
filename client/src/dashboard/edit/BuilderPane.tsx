import { Badge, Checkbox, Group, Loader, ScrollArea, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useLocalStorage } from '@mantine/hooks';
import { IconChartBar, IconColumns, IconHeading, IconLayoutRows, IconMarkdown, IconSearch, IconSeparatorHorizontal, IconTableColumn } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { FETCH_ALL_SAVED_CHARTS_FAILED, FETCH_SAVED_CHARTS_ERROR } from '@meridian/contracts/messages';
import { useEffect, useState, type ReactNode } from 'react';
import { vizTypeName } from '../../charts/viz-types';
import { addDangerToast } from '../../notify';
import { errorOf } from '../../trpc';
import { useSessionUser } from '../../auth/session';
import { CHART_CHOICE_SORTS, fetchChartChoices, type ChartChoiceSort } from '../dashboard.api';
import classes from '../dashboard.module.css';
import { DRAG_MIME, type DragPayload } from '../layout/DashboardGrid';

function DragItem({ payload, icon, label, extra, used }: { payload: DragPayload; icon: ReactNode; label: string; extra?: ReactNode; used?: boolean }) {
  return (
    <div
      className={classes.builderItem}
      draggable
      data-used={used || undefined}
      data-testid="builder-item"
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_MIME, JSON.stringify(payload));
        e.dataTransfer.effectAllowed = 'copyMove';
      }}
    >
      {icon}
      <div style={{ minWidth: 0, flex: 1 }}>
        <Text size="sm" fw={550} truncate title={label}>
          {label}
        </Text>
        {extra}
      </div>
    </div>
  );
}

/**
 * Edit mode's builder pane: saved charts to drag in (spec 01 §7: `GET /api/v1/chart/`, page size 200, searchable,
 * sorted by recent changes or by name, viz type or dataset, optionally only the user's own) and the layout elements (tabs, row, column, header, markdown, divider).
 */
export function BuilderPane({ usedChartIds }: { usedChartIds: Set<number> }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const { userId } = useSessionUser();
  const [sort, setSort] = useState<ChartChoiceSort>('changed_on');
  // Kept across visits, as Superset keeps it. Off at first (Superset's is on): the examples' charts have no owners.
  const [onlyMine, setOnlyMine] = useLocalStorage({ key: 'meridian-builder-only-my-charts', defaultValue: false });
  const charts = useQuery({ queryKey: ['dashboard-chart-picker', debounced, sort, onlyMine], queryFn: () => fetchChartChoices(debounced, { sort, ownerId: onlyMine ? userId : null }) });
  // Spec 02 §8: a failed read of the saved charts is toasted, and said in the pane with its error.
  useEffect(() => {
    if (charts.isError) addDangerToast(FETCH_ALL_SAVED_CHARTS_FAILED);
  }, [charts.isError]);
  return (
    <aside className={classes.builder} aria-label="Dashboard builder">
      <Tabs defaultValue="charts">
        <Tabs.List grow>
          <Tabs.Tab value="charts">Charts</Tabs.Tab>
          <Tabs.Tab value="layout">Layout elements</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="charts" pt="sm">
          <TextInput placeholder="Filter your charts" leftSection={<IconSearch size={14} />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} mb="xs" aria-label="Filter your charts" />
          <Group gap="xs" mb="sm" wrap="nowrap">
            <Select size="xs" aria-label="Sort charts" data={CHART_CHOICE_SORTS.map(([value, label]) => ({ value, label }))} value={sort} onChange={(v) => v && setSort(v as ChartChoiceSort)} allowDeselect={false} style={{ flex: 1 }} comboboxProps={{ withinPortal: true }} />
            <Checkbox size="xs" label="Show only my charts" checked={onlyMine} onChange={(e) => setOnlyMine(e.currentTarget.checked)} title="You can choose to display all charts that you have access to or only the ones you own. Your filter selection will be saved and remain active until you choose to change it." />
          </Group>
          {charts.isLoading ? (
            <Loader size="sm" />
          ) : charts.isError ? (
            <Text c="red" size="sm">
              {FETCH_SAVED_CHARTS_ERROR + errorOf(charts.error).error}
            </Text>
          ) : (
            // An autosized scroll area is as wide as its longest line (min-content): a long chart name pushed every item
            // past the pane's right edge, clipped, instead of ending in an ellipsis. Its lines are as wide as the pane.
            <ScrollArea.Autosize mah="calc(100vh - 260px)" scrollbars="y" styles={{ content: { minWidth: 0 } }}>
              <Stack gap={6}>
                {(charts.data ?? []).map((chart) => (
                  <DragItem
                    key={chart.id}
                    payload={{ kind: 'new', type: 'CHART', chartId: chart.id, sliceName: chart.slice_name }}
                    icon={<IconChartBar size={16} />}
                    label={chart.slice_name}
                    used={usedChartIds.has(chart.id)}
                    extra={
                      <Badge size="xs" variant="light" color="violet" tt="none">
                        {vizTypeName(chart.viz_type)}
                      </Badge>
                    }
                  />
                ))}
                {charts.data?.length === 0 && (
                  <Text size="sm" c="dimmed">
                    No charts match.
                  </Text>
                )}
              </Stack>
            </ScrollArea.Autosize>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="layout" pt="sm">
          <Stack gap={6}>
            <DragItem payload={{ kind: 'new', type: 'TABS' }} icon={<IconTableColumn size={16} />} label="Tabs" />
            <DragItem payload={{ kind: 'new', type: 'ROW' }} icon={<IconLayoutRows size={16} />} label="Row" />
            <DragItem payload={{ kind: 'new', type: 'COLUMN' }} icon={<IconColumns size={16} />} label="Column" />
            <DragItem payload={{ kind: 'new', type: 'HEADER' }} icon={<IconHeading size={16} />} label="Header" />
            <DragItem payload={{ kind: 'new', type: 'MARKDOWN' }} icon={<IconMarkdown size={16} />} label="Text" />
            <DragItem payload={{ kind: 'new', type: 'DIVIDER' }} icon={<IconSeparatorHorizontal size={16} />} label="Divider" />
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </aside>
  );
}
