import { Badge, Container, Stack, Text, Tooltip } from '@mantine/core';
import { queryDisplayStyle, type QueryDisplayStyle } from '@meridian/contracts/sqllab/query-states';
import { IconTerminal2 } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { actionsColumn, ListView, RowAction, searchFilter, type ListViewFilter } from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { formatDateTime } from '../settings/format';
import { AppLink } from './app-link';
import { databaseFilter, useDatabaseOptions } from './database-options';
import { SqlPreview } from './SqlPreview';

const ENDPOINT = '/api/v1/query/';

/** A row of `GET /api/v1/query/` (Superset's QueryRestApi list columns). */
interface QueryRow {
  id: number;
  client_id: string;
  status: string;
  database: { id: number; database_name: string | null };
  schema: string | null;
  sql: string | null;
  executed_sql: string | null;
  rows: number | null;
  error_message: string | null;
  tab_name: string | null;
  start_time: number | null;
  end_time: number | null;
  changed_on: string;
  user: { id: number; first_name: string | null; last_name: string | null; username: string | null } | null;
}

/** Mantine colour of each of the spec's display styles. */
const STYLE_COLOR: Record<QueryDisplayStyle, string> = { danger: 'red', info: 'blue', warning: 'orange', success: 'teal' };

const STATES = ['success', 'failed', 'running', 'pending', 'fetching', 'stopped', 'timed_out', 'scheduled', 'started'];
const stateLabel = (state: string) => (state.charAt(0).toUpperCase() + state.slice(1)).replace(/_/g, ' ');

/** Where SQL Lab opens a query of the history. */
export const queryHref = (id: number) => `/sqllab/?queryId=${id}`;

/** A query duration: '120 ms', '4.52 s', '3 min 07 s'. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  if (minutes < 60) return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The state label of a query, coloured by the spec's display style (spec 01 §4). */
export function QueryStateBadge({ state, error }: { state: string; error?: string | null }) {
  const style = queryDisplayStyle(state);
  const badge = (
    <Badge variant="light" color={style ? STYLE_COLOR[style] : 'gray'} radius="sm" tt="none" data-display-style={style ?? 'none'} style={{ cursor: error ? 'help' : undefined }}>
      {stateLabel(state)}
    </Badge>
  );
  return error ? (
    <Tooltip label={error} multiline maw={420}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}

const userName = (u: QueryRow['user']) => (u ? [u.first_name, u.last_name].filter(Boolean).join(' ') || (u.username ?? '') : '');

/** SQL → Query history: every query run in SQL Lab with its state, timing and rows (Superset's /sqllab/history/). */
export function QueryHistoryScreen() {
  const navigate = useNavigate();
  const databaseOptions = useDatabaseOptions();

  const filters = useMemo<ListViewFilter[]>(
    () => [
      searchFilter('sql', 'Search SQL', 'query_all_text'),
      { col: 'status', label: 'State', input: 'select', operator: 'eq', options: STATES.map((s) => ({ value: s, label: stateLabel(s) })) },
      databaseFilter(databaseOptions),
    ],
    [JSON.stringify(databaseOptions)],
  );

  const columns = useMemo<ColumnDef<QueryRow>[]>(
    () => [
      {
        id: 'status',
        header: 'State',
        cell: ({ row }) => <QueryStateBadge state={row.original.status.toLowerCase()} error={row.original.error_message} />,
      },
      {
        id: 'start_time',
        header: 'Started',
        cell: ({ row }) => {
          const start = row.original.start_time;
          return (
            <Stack gap={0}>
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {start ? formatDateTime(new Date(start).toISOString()) : '—'}
              </Text>
              {row.original.tab_name && (
                <Text size="xs" c="dimmed" lineClamp={1} maw={200}>
                  {row.original.tab_name}
                </Text>
              )}
            </Stack>
          );
        },
      },
      {
        id: 'duration',
        header: 'Duration',
        enableSorting: false,
        cell: ({ row }) => {
          const { start_time: start, end_time: end } = row.original;
          return (
            <Text size="sm" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
              {start && end ? formatDuration(Math.max(0, end - start)) : '—'}
            </Text>
          );
        },
      },
      {
        id: 'database',
        header: 'Database',
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm">{row.original.database.database_name ?? '—'}</Text>
            {row.original.schema && (
              <Text size="xs" c="dimmed">
                {row.original.schema}
              </Text>
            )}
          </Stack>
        ),
      },
      {
        id: 'user',
        header: 'User',
        cell: ({ row }) => (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {userName(row.original.user) || '—'}
          </Text>
        ),
      },
      {
        id: 'rows',
        header: 'Rows',
        cell: ({ row }) => (
          <Text size="sm" ff="monospace">
            {row.original.rows === null ? '—' : row.original.rows.toLocaleString()}
          </Text>
        ),
      },
      {
        id: 'sql',
        header: 'SQL',
        enableSorting: false,
        cell: ({ row }) => (
          <AppLink href={queryHref(row.original.id)} underline="never" aria-label={`Open query ${row.original.id} in SQL Lab`} c="inherit">
            <SqlPreview sql={row.original.sql} maxWidth={320} />
          </AppLink>
        ),
      },
      actionsColumn((q) => (
        <RowAction label="Open in SQL Lab" ariaLabel={`Open in SQL Lab: query ${q.id}`} icon={<IconTerminal2 size={16} />} onClick={() => void navigate({ href: queryHref(q.id) })} />
      )),
    ],
    [navigate],
  );

  return (
    <Container size="xl" py="xl">
      <PageHeader title="Query history" description="Queries run in SQL Lab, with their state, timing and row counts. Open one to run it again." />
      <ListView<QueryRow>
        label="Query history"
        endpoint={ENDPOINT}
        columns={columns}
        filters={filters}
        initialSort={{ id: 'start_time', desc: true }}
        emptyState={{ title: 'No queries yet', description: 'Queries you run in SQL Lab appear here.' }}
      />
    </Container>
  );
}
