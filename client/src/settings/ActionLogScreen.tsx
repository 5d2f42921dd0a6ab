import { Anchor, Badge, Code, Container, Group, Popover, Text, Tooltip } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { ListView, relatedFilter, searchFilter, type ListViewFilter } from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { AppLink } from '../query-history/app-link';
import { formatDateTime } from './format';

const ENDPOINT = '/api/v1/log/';

/** A row of the action log, as `GET /api/v1/log/` answers it. */
interface LogRow {
  id: number;
  action: string;
  user: { username: string | null; first_name: string | null; last_name: string | null } | null;
  dttm: string;
  json: string | null;
  dashboard_id: number | null;
  slice_id: number | null;
  duration_ms: number | null;
  referrer: string | null;
}

const FILTERS: ListViewFilter[] = [searchFilter('action', 'Search action'), relatedFilter(ENDPOINT, 'user', 'User', 'rel_o_m')];

/** The status the server answered, when the entry is a call it recorded (client events carry none). */
function statusOf(row: LogRow): number | null {
  try {
    const status = (JSON.parse(row.json ?? '{}') as { status?: unknown }).status;
    return typeof status === 'number' ? status : null;
  } catch {
    return null;
  }
}

const pretty = (json: string | null) => {
  try {
    return JSON.stringify(JSON.parse(json ?? 'null'), null, 2);
  } catch {
    return json ?? '';
  }
};

/** Settings → Action log: who changed what and when, newest first (Superset's /actionlog/list/; admins only). */
export function ActionLogScreen() {
  const columns = useMemo<ColumnDef<LogRow>[]>(
    () => [
      {
        id: 'user',
        header: 'User',
        cell: ({ row }) => {
          const u = row.original.user;
          return u ? (
            <Tooltip label={u.username} openDelay={400}>
              <Text size="sm" fw={550}>
                {`${u.first_name ?? ''} ${u.last_name ?? ''}`.trim() || u.username}
              </Text>
            </Tooltip>
          ) : (
            <Text size="sm" c="dimmed">
              —
            </Text>
          );
        },
      },
      {
        id: 'action',
        header: 'Action',
        cell: ({ row }) => {
          const status = statusOf(row.original);
          return (
            <Group gap={6} wrap="nowrap">
              <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {row.original.action}
              </Text>
              {status !== null && (
                <Badge size="xs" radius="sm" variant="light" color={status < 300 ? 'teal' : status < 500 ? 'orange' : 'red'}>
                  {status}
                </Badge>
              )}
            </Group>
          );
        },
      },
      {
        id: 'object',
        header: 'Object',
        enableSorting: false,
        cell: ({ row }) => {
          const { dashboard_id, slice_id } = row.original;
          if (dashboard_id !== null)
            return (
              <AppLink href={`/superset/dashboard/${dashboard_id}/`} size="sm">
                Dashboard {dashboard_id}
              </AppLink>
            );
          if (slice_id !== null)
            return (
              <AppLink href={`/explore/?slice_id=${slice_id}`} size="sm">
                Chart {slice_id}
              </AppLink>
            );
          return null;
        },
      },
      {
        id: 'duration_ms',
        header: 'Duration',
        cell: ({ row }) => (
          <Text size="sm" c="dimmed" ta="right">
            {row.original.duration_ms === null ? '' : `${row.original.duration_ms.toLocaleString()} ms`}
          </Text>
        ),
      },
      {
        id: 'dttm',
        header: 'Time',
        cell: ({ row }) => (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(row.original.dttm)}
          </Text>
        ),
      },
      {
        id: 'details',
        header: 'Details',
        enableSorting: false,
        cell: ({ row }) => (
          <Popover width={420} position="left" shadow="md" withArrow>
            <Popover.Target>
              <Anchor component="button" type="button" size="sm">
                View
              </Anchor>
            </Popover.Target>
            <Popover.Dropdown>
              {row.original.referrer && (
                <Text size="xs" c="dimmed" mb={6} style={{ wordBreak: 'break-all' }}>
                  From {row.original.referrer}
                </Text>
              )}
              <Code block style={{ maxHeight: 320, overflow: 'auto' }}>
                {pretty(row.original.json)}
              </Code>
            </Popover.Dropdown>
          </Popover>
        ),
      },
    ],
    [],
  );
  return (
    <Container size="xl" py="xl">
      <PageHeader title="Action log" description="Every change made through the app or the API, and the events browsers report, newest first." />
      <ListView<LogRow> label="Action log" endpoint={ENDPOINT} columns={columns} filters={FILTERS} initialSort={{ id: 'dttm', desc: true }} emptyState={{ title: 'Nothing logged yet' }} />
    </Container>
  );
}
