import { Badge, Button, Container, Group, SegmentedControl, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { REPORT_TOGGLE_FAILED } from '@meridian/contracts/messages';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import { REPORT_STATES } from '@meridian/contracts/schemas/report';
import { IconCalendarTime, IconListDetails, IconPencil, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { api } from '../api';
import { useSessionUser } from '../auth/session';
import { actionsColumn, changedOnColumn, listKey, ListView, personName, relatedFilter, RowAction, searchFilter, useDeleteAction, type ListViewFilter } from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { addDangerToast } from '../notify';
import { REPORT_ENDPOINT, type ReportListItem } from './report-types';
import { ReportModal } from './ReportModal';
import { parseServerTime } from '@meridian/contracts/rules/dates';

/** A run's state as Superset's list shows it: a coloured badge. */
export function ReportStateBadge({ state }: { state: string | null }) {
  if (!state) return <Text c="dimmed">—</Text>;
  const color = { [REPORT_STATES.SUCCESS]: 'teal', [REPORT_STATES.WORKING]: 'blue', [REPORT_STATES.ERROR]: 'red', [REPORT_STATES.NOOP]: 'gray', [REPORT_STATES.GRACE]: 'yellow' }[state] ?? 'gray';
  return (
    <Badge variant="light" color={color} radius="sm" tt="none" data-testid="report-state">
      {state}
    </Badge>
  );
}

export const REPORT_STATE_OPTIONS = Object.values(REPORT_STATES).map((s) => ({ value: s, label: s }));

/** Manage → Alerts & reports (Superset's /alert/list/ and /report/list/): schedules, their last run, switched on or off. */
export function AlertReportListScreen() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const type: 'Alert' | 'Report' = pathname.startsWith('/report') ? 'Report' : 'Alert';
  const noun = type === 'Alert' ? 'alert' : 'report';
  const canWrite = hasPermission(user, 'can_write', 'ReportSchedule');
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey(REPORT_ENDPOINT) });
  const del = useDeleteAction<ReportListItem>({
    endpoint: REPORT_ENDPOINT,
    noun: `${noun}s`,
    nameOf: (r) => r.name,
    remove: (rows) => (rows.length === 1 ? api(`${REPORT_ENDPOINT}${rows[0].id}`, { method: 'DELETE' }) : api(REPORT_ENDPOINT, { method: 'DELETE', query: { q: rows.map((r) => r.id) } })),
  });
  const toggle = async (r: ReportListItem) => {
    try {
      await api(`${REPORT_ENDPOINT}${r.id}`, { method: 'PUT', body: { active: !r.active } });
    } catch {
      addDangerToast(REPORT_TOGGLE_FAILED);
    }
    void refresh();
  };

  const filters = useMemo<ListViewFilter[]>(
    () => [
      searchFilter('name', 'Search name'),
      relatedFilter(REPORT_ENDPOINT, 'owners', 'Owner', 'rel_m_m'),
      relatedFilter(REPORT_ENDPOINT, 'created_by', 'Created by', 'rel_o_m'),
      { col: 'last_state', label: 'Status', input: 'select', operator: 'eq', options: REPORT_STATE_OPTIONS },
    ],
    [],
  );
  const columns = useMemo<ColumnDef<ReportListItem>[]>(
    () => [
      {
        id: 'last_eval_dttm',
        header: 'Last run',
        cell: ({ row }) => (
          <Stack gap={2}>
            <ReportStateBadge state={row.original.last_state} />
            <Text size="xs" c="dimmed">
              {row.original.last_eval_dttm ? new Date(parseServerTime(row.original.last_eval_dttm)).toLocaleString() : 'Never'}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'name',
        header: 'Name',
        cell: ({ row }) => (
          <Stack gap={0} maw={320}>
            <Text size="sm" fw={550}>
              {row.original.name}
            </Text>
            {row.original.description && (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {row.original.description}
              </Text>
            )}
          </Stack>
        ),
      },
      {
        id: 'crontab',
        header: 'Schedule',
        cell: ({ row }) => (
          <Tooltip label={`${row.original.crontab} (${row.original.timezone})`}>
            <Group gap={6} wrap="nowrap">
              <IconCalendarTime size={14} />
              <Text size="sm">{row.original.crontab_humanized}</Text>
            </Group>
          </Tooltip>
        ),
      },
      {
        id: 'recipients',
        header: 'Notification method',
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{[...new Set(row.original.recipients.map((r) => r.type))].join(', ') || '—'}</Text>,
      },
      { id: 'created_by', header: 'Created by', enableSorting: false, cell: ({ row }) => <Text size="sm">{personName(row.original.created_by) || '—'}</Text> },
      { id: 'owners', header: 'Owners', enableSorting: false, cell: ({ row }) => <Text size="sm">{row.original.owners.map(personName).join(', ') || '—'}</Text> },
      changedOnColumn('changed_on', (r) => ({ humanized: r.changed_on_delta_humanized, at: r.changed_on })),
      {
        id: 'active',
        header: 'Active',
        cell: ({ row }) => <Switch checked={row.original.active} disabled={!canWrite} onChange={() => void toggle(row.original)} aria-label={`${row.original.name} active`} />,
      },
      actionsColumn((r) => (
        <>
          <RowAction label="Execution log" ariaLabel={`Execution log of ${r.name}`} icon={<IconListDetails size={16} />} onClick={() => void navigate({ href: `/${noun}/${r.id}/log/` })} />
          {canWrite && <RowAction label="Edit" ariaLabel={`Edit ${r.name}`} icon={<IconPencil size={16} />} onClick={() => setEditing(r.id)} />}
          {canWrite && del.rowAction(r)}
        </>
      )),
    ],
    [navigate, noun, canWrite, del.rowAction],
  );

  return (
    <Container size="xl" py="xl">
      <PageHeader
        title="Alerts & reports"
        description="Charts and dashboards sent on a schedule, and alerts sent when a SQL condition is met."
        actions={
          <Group gap="sm">
            <SegmentedControl value={type} onChange={(v) => void navigate({ href: v === 'Alert' ? '/alert/list/' : '/report/list/' })} data={[{ value: 'Alert', label: 'Alerts' }, { value: 'Report', label: 'Reports' }]} />
            {canWrite && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
                {type === 'Alert' ? 'Alert' : 'Report'}
              </Button>
            )}
          </Group>
        }
      />
      <ListView<ReportListItem>
        key={type}
        label={type === 'Alert' ? 'Alerts' : 'Reports'}
        endpoint={REPORT_ENDPOINT}
        baseFilters={[{ col: 'type', opr: 'eq', value: type }]}
        columns={columns}
        filters={filters}
        initialSort={{ id: 'name', desc: false }}
        bulkActions={canWrite ? [del.bulkAction] : undefined}
        emptyState={{ title: `No ${noun}s yet`, description: type === 'Alert' ? 'An alert runs a SQL query on a schedule and sends a chart or dashboard when its condition is met.' : 'A report sends a chart or dashboard by email or webhook on a schedule.' }}
      />
      {editing !== null && <ReportModal source="list" type={type} reportId={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
      {del.modal}
    </Container>
  );
}
