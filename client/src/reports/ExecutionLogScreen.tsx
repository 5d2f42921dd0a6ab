import { Container, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useParams } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { api } from '../api';
import { ListView, type ListViewFilter } from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { AppLink } from '../query-history/app-link';
import { formatDateTime } from '../settings/format';
import { REPORT_STATE_OPTIONS, ReportStateBadge } from './AlertReportListScreen';
import { REPORT_ENDPOINT, type ReportDetail, type ReportLogEntry } from './report-types';
import { parseServerTime } from '@meridian/contracts/rules/dates';

const FILTERS: ListViewFilter[] = [{ col: 'state', label: 'State', input: 'select', operator: 'eq', options: REPORT_STATE_OPTIONS }];

/** How long a run took, from its start to its end ("1.2 s", "3 min 5 s"). */
function duration(start: string | null, end: string | null): string {
  if (!start || !end) return '—';
  const ms = parseServerTime(end) - parseServerTime(start);
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** An alert's or report's execution log (Superset's /alert/{id}/log/ and /report/{id}/log/): every state of every run. */
export function ExecutionLogScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  const { pathname } = useLocation();
  const list = pathname.startsWith('/report') ? '/report/list/' : '/alert/list/';
  const report = useQuery({ queryKey: ['report', Number(id)], queryFn: () => api<{ result: ReportDetail }>(`${REPORT_ENDPOINT}${id}`).then((r) => r.result) });
  const columns = useMemo<ColumnDef<ReportLogEntry>[]>(
    () => [
      { id: 'state', header: 'State', cell: ({ row }) => <ReportStateBadge state={row.original.state} /> },
      { id: 'scheduled_dttm', header: 'Scheduled at', cell: ({ row }) => <Text size="sm">{formatDateTime(row.original.scheduled_dttm)}</Text> },
      { id: 'start_dttm', header: 'Start at', cell: ({ row }) => <Text size="sm">{row.original.start_dttm ? formatDateTime(row.original.start_dttm) : '—'}</Text> },
      { id: 'end_dttm', header: 'Duration', cell: ({ row }) => <Text size="sm">{duration(row.original.start_dttm, row.original.end_dttm)}</Text> },
      { id: 'value', header: 'Value', cell: ({ row }) => <Text size="sm">{row.original.value ?? '—'}</Text> },
      {
        id: 'error_message',
        header: 'Error message',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.error_message ? (
            <Tooltip label={row.original.error_message} multiline maw={480} openDelay={300}>
              <Text size="sm" c="red" lineClamp={2} maw={420}>
                {row.original.error_message}
              </Text>
            </Tooltip>
          ) : (
            <Text size="sm" c="dimmed">—</Text>
          ),
      },
    ],
    [],
  );
  return (
    <Container size="xl" py="xl">
      <AppLink href={list} size="sm">
        ← Alerts & reports
      </AppLink>
      <PageHeader title={report.data ? `${report.data.name}: execution log` : 'Execution log'} description={report.data ? `${report.data.type} · ${report.data.crontab} (${report.data.timezone})` : undefined} />
      <ListView<ReportLogEntry>
        label="Execution log"
        endpoint={`${REPORT_ENDPOINT}${id}/log/`}
        columns={columns}
        initialSort={{ id: 'end_dttm', desc: true }}
        filters={FILTERS}
        emptyState={{ title: 'No runs yet', description: 'Each run of the schedule is logged here with its state.' }}
      />
    </Container>
  );
}
