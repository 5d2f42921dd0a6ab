import { Badge, Button, Container, Group, Text, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { actionsColumn, booleanFilter, changedOnColumn, ListCard, ListView, ownersColumn, relatedFilter, searchFilter, tagFilter, tagsColumn, useDeleteAction, useTaggingEnabled, type ListViewFilter } from '../components/ListView';
import { DashboardThumbnail } from './DashboardThumbnail';
import { PageHeader } from '../components/PageHeader';
import { ServerThumbnail } from '../components/ServerThumbnail';
import { useBootstrap } from '../auth/session';
import { useImportExport } from '../components/useImportExport';
import { AppLink } from '../query-history/app-link';
import { addDangerToast } from '../notify';
import { createDashboard, type DashboardListRow } from './dashboard.api';
import { DashboardFavoriteStar } from './DashboardFavoriteStar';

const ENDPOINT = '/api/v1/dashboard/';

const FILTERS: ListViewFilter[] = [
  searchFilter('dashboard_title', 'Search dashboards', 'title_or_slug'),
  { col: 'published', label: 'Status', input: 'select', operator: 'eq', options: [{ value: 'true', label: 'Published' }, { value: 'false', label: 'Draft' }], parse: (v) => v === 'true' },
  relatedFilter(ENDPOINT, 'owners', 'Owner', 'rel_m_m'),
  relatedFilter(ENDPOINT, 'changed_by', 'Modified by', 'rel_o_m'),
  booleanFilter('id', 'Favorite', 'dashboard_is_favorite', { true: 'Favorites', false: 'Not favorites' }),
  booleanFilter('certified_by', 'Certified', 'dashboard_is_certified', { true: 'Certified', false: 'Not certified' }),
];

const DASHBOARD_FILTERS_WITH_TAGS = [...FILTERS, tagFilter('dashboard_tag_id')];

/** Dashboards: every dashboard the user may see, with status, owners and favourites (Superset's /dashboard/list/). */
export function DashboardListScreen() {
  const tagging = useTaggingEnabled();
  const { featureFlags } = useBootstrap();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const io = useImportExport<DashboardListRow>('dashboard', ENDPOINT);
  const del = useDeleteAction<DashboardListRow>({ endpoint: ENDPOINT, noun: 'dashboards', nameOf: (d) => d.dashboard_title ?? '', typeToConfirm: true });

  const columns = useMemo<ColumnDef<DashboardListRow>[]>(
    () => [
      {
        id: 'dashboard_title',
        header: 'Name',
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap" align="center">
            <DashboardFavoriteStar id={row.original.id} name={row.original.dashboard_title ?? ''} />
            <AppLink href={row.original.url} size="sm" fw={550}>
              {row.original.dashboard_title}
            </AppLink>
            {row.original.certified_by && (
              <Tooltip label={`Certified by ${row.original.certified_by}`}>
                <Badge size="xs" variant="light" color="teal" tt="none">
                  Certified
                </Badge>
              </Tooltip>
            )}
          </Group>
        ),
      },
      {
        id: 'published',
        header: 'Status',
        cell: ({ row }) => (
          <Badge variant="light" color={row.original.published ? 'teal' : 'gray'} radius="sm" tt="none" fw={550}>
            {row.original.published ? 'Published' : 'Draft'}
          </Badge>
        ),
      },
      ownersColumn<DashboardListRow>(),
      changedOnColumn('changed_on_delta_humanized', (d) => ({ humanized: d.changed_on_delta_humanized, at: d.changed_on_utc, by: d.changed_by_name })),
      ...(tagging ? [tagsColumn<DashboardListRow>()] : []),
      actionsColumn((d) => del.rowAction(d)),
    ],
    [del.rowAction, tagging],
  );

  const create = async () => {
    setCreating(true);
    try {
      const created = await createDashboard();
      void navigate({ href: `/superset/dashboard/${created.id}/?edit=true` });
    } catch (error) {
      addDangerToast((error as Error).message);
    } finally {
      setCreating(false);
    }
  };

  return (
    <Container size="xl" py="xl">
      <PageHeader
        title="Dashboards"
        description="Charts arranged on a grid, with tabs, text and filters. Star the ones you use most; they show on the home page."
        actions={
          <Group gap="xs">
            {io.importButton}
            <Button leftSection={<IconPlus size={16} />} loading={creating} onClick={() => void create()}>
              Dashboard
            </Button>
          </Group>
        }
      />
      <ListView<DashboardListRow>
        label="Dashboards"
        endpoint={ENDPOINT}
        columns={columns}
        filters={tagging ? DASHBOARD_FILTERS_WITH_TAGS : FILTERS}
        initialSort={{ id: 'changed_on_delta_humanized', desc: true }}
        bulkActions={[io.exportAction, del.bulkAction]}
        card={(d) => (
          <ListCard
            href={d.url}
            title={d.dashboard_title ?? ''}
            cover={featureFlags.THUMBNAILS ? <ServerThumbnail url={d.thumbnail_url} alt={d.dashboard_title ?? ''} fallback={<DashboardThumbnail positionJson={d.position_json} />} /> : <DashboardThumbnail positionJson={d.position_json} />}
            star={<DashboardFavoriteStar id={d.id} name={d.dashboard_title ?? ''} />}
            badge={
              <Badge variant="light" color={d.published ? 'teal' : 'gray'} radius="sm" tt="none" fw={550} style={{ flex: 'none' }}>
                {d.published ? 'Published' : 'Draft'}
              </Badge>
            }
            subtitle={d.certified_by ? `Certified by ${d.certified_by}` : undefined}
            modified={d.changed_on_delta_humanized}
            owners={d.owners}
            actions={del.rowAction(d)}
          />
        )}
        emptyState={{ title: 'No dashboards yet', description: 'Create a dashboard and drag your saved charts onto it.' }}
      />
      {del.modal}
      {io.modal}
    </Container>
  );
}
