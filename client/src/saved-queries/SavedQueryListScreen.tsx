import { Badge, Button, Container, Group, Stack, Text, Tooltip } from '@mantine/core';
import { COPIED_TO_CLIPBOARD, COPY_NOT_SUPPORTED } from '@meridian/contracts/messages';
import type { SavedQueryView } from '@meridian/contracts/schemas/saved-query';
import { IconCalendarTime, IconLink, IconPencil, IconPlus, IconTerminal2 } from '@tabler/icons-react';
import { readScheduleInfo } from '@meridian/contracts/rules/schedule';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { api } from '../api';
import { actionsColumn, changedOnColumn, ListView, listKey, RowAction, searchFilter, tagFilter, tagsColumn, useDeleteAction, useTaggingEnabled, type ListViewFilter } from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { useImportExport } from '../components/useImportExport';
import { addDangerToast, addSuccessToast } from '../notify';
import { AppLink, copyText } from '../query-history/app-link';
import { databaseFilter, useDatabaseOptions } from '../query-history/database-options';
import { SqlPreview } from '../query-history/SqlPreview';
import { SavedQueryEditModal } from './SavedQueryEditModal';

const ENDPOINT = '/api/v1/saved_query/';

/** Where SQL Lab opens a saved query. */
export const savedQueryHref = (id: number) => `/sqllab/?savedQueryId=${id}`;

/** 'Scheduled' with the crontab when the saved query's extra_json holds a schedule_info (stored only: nothing runs it yet). */
function ScheduledBadge({ query }: { query: SavedQueryView }) {
  const info = readScheduleInfo(query.extra_json);
  if (!info) return null;
  const range = info.end_date ? `${info.start_date} to ${info.end_date}` : `from ${info.start_date}`;
  return (
    <Tooltip label={`Crontab ${info.schedule_interval}, ${range}, into ${info.output_table}`}>
      <Badge variant="light" color="violet" radius="sm" tt="none" size="sm" leftSection={<IconCalendarTime size={12} />} data-testid="scheduled-badge" mt={4}>
        Scheduled <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{info.schedule_interval}</span>
      </Badge>
    </Tooltip>
  );
}

/** SQL → Saved queries: queries saved from SQL Lab, to reopen, share, rename and delete (Superset's /savedqueryview/list/). */
export function SavedQueryListScreen() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const databaseOptions = useDatabaseOptions();
  const [editing, setEditing] = useState<SavedQueryView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey(ENDPOINT) });
  const io = useImportExport<SavedQueryView>('saved query', ENDPOINT);
  const del = useDeleteAction<SavedQueryView>({
    endpoint: ENDPOINT,
    noun: 'saved queries',
    nameOf: (q) => q.label,
    remove: (rows) => (rows.length === 1 ? api(`${ENDPOINT}${rows[0].id}`, { method: 'DELETE' }) : api(ENDPOINT, { method: 'DELETE', query: { q: rows.map((r) => r.id) } })),
  });

  const tagging = useTaggingEnabled();
  const filters = useMemo<ListViewFilter[]>(
    () => [
      searchFilter('label', 'Search name, description or SQL', 'all_text'),
      databaseFilter(databaseOptions),
      searchFilter('schema', 'Schema'),
      ...(tagging ? [tagFilter('saved_query_tag_id')] : []),
    ],
    [JSON.stringify(databaseOptions), tagging],
  );

  const copyLink = async (query: SavedQueryView) => {
    if (await copyText(`${window.location.origin}${savedQueryHref(query.id)}`)) addSuccessToast(COPIED_TO_CLIPBOARD);
    else addDangerToast(COPY_NOT_SUPPORTED);
  };

  const columns = useMemo<ColumnDef<SavedQueryView>[]>(
    () => [
      {
        id: 'label',
        header: 'Name',
        cell: ({ row }) => (
          <Stack gap={0} maw={300}>
            <AppLink href={savedQueryHref(row.original.id)} size="sm" fw={550}>
              {row.original.label}
            </AppLink>
            {row.original.description && (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {row.original.description}
              </Text>
            )}
            <ScheduledBadge query={row.original} />
          </Stack>
        ),
      },
      {
        id: 'database',
        header: 'Database',
        cell: ({ row }) => (
          <Badge variant="light" color="gray" radius="sm" tt="none" fw={550}>
            {row.original.database?.database_name ?? '—'}
          </Badge>
        ),
      },
      {
        id: 'schema',
        header: 'Schema',
        cell: ({ row }) => (
          <Text size="sm" c={row.original.schema ? undefined : 'dimmed'}>
            {row.original.schema ?? '—'}
          </Text>
        ),
      },
      { id: 'sql', header: 'SQL', enableSorting: false, cell: ({ row }) => <SqlPreview sql={row.original.sql} maxWidth={340} /> },
      changedOnColumn('changed_on', (q) => ({ humanized: q.changed_on_delta_humanized, at: q.changed_on })),
      ...(tagging ? [tagsColumn<SavedQueryView>()] : []),
      actionsColumn((q) => (
        <>
          <RowAction label="Open in SQL Lab" ariaLabel={`Open ${q.label} in SQL Lab`} icon={<IconTerminal2 size={16} />} onClick={() => void navigate({ href: savedQueryHref(q.id) })} />
          <RowAction label="Copy link" ariaLabel={`Copy link to ${q.label}`} icon={<IconLink size={16} />} onClick={() => void copyLink(q)} />
          <RowAction label="Edit" ariaLabel={`Edit ${q.label}`} icon={<IconPencil size={16} />} onClick={() => setEditing(q)} />
          {del.rowAction(q)}
        </>
      )),
    ],
    [navigate, del.rowAction, tagging],
  );

  return (
    <Container size="xl" py="xl">
      <PageHeader
        title="Saved queries"
        description="Queries saved from SQL Lab, to reopen, share and build on."
        actions={
          <Group gap="sm">
            {io.importButton}
            <Button leftSection={<IconPlus size={16} />} onClick={() => void navigate({ href: '/sqllab/' })}>
              Query
            </Button>
          </Group>
        }
      />
      <ListView<SavedQueryView>
        label="Saved queries"
        endpoint={ENDPOINT}
        columns={columns}
        filters={filters}
        initialSort={{ id: 'changed_on', desc: true }}
        bulkActions={[io.exportAction, del.bulkAction]}
        emptyState={{ title: 'No saved queries yet', description: 'Write a query in SQL Lab and press Save to keep it here.' }}
      />
      {editing && <SavedQueryEditModal key={editing.id} query={editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
      {del.modal}
      {io.modal}
    </Container>
  );
}
