import { Badge, Button, Container, Group, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { actionsColumn, booleanFilter, changedOnColumn, ListCard, ListView, ownersColumn, relatedFilter, searchFilter, tagFilter, tagsColumn, useDeleteAction, useTaggingEnabled, type ListViewFilter, type TagRef } from '../components/ListView';
import { ChartThumbnail } from './ChartThumbnail';
import { api } from '../api';
import { PageHeader } from '../components/PageHeader';
import { ServerThumbnail } from '../components/ServerThumbnail';
import { useBootstrap } from '../auth/session';
import { useImportExport } from '../components/useImportExport';
import { AppLink } from '../query-history/app-link';
import { FavoriteStar } from './FavoriteStar';
import { VIZ_TYPE_NAMES, vizTypeName } from './viz-types';

const ENDPOINT = '/api/v1/chart/';

/** A row of `GET /api/v1/chart/` (Superset's ChartRestApi list columns). */
interface ChartRow {
  thumbnail_url: string;
  id: number;
  slice_name: string;
  viz_type: string | null;
  description: string | null;
  url: string;
  datasource_url: string | null;
  datasource_name_text: string | null;
  owners: Array<{ id: number; first_name: string; last_name: string }>;
  changed_by_name: string;
  changed_on_utc: string | null;
  changed_on_delta_humanized: string;
  datasource_id: number | null;
  form_data: Record<string, any>;
  tags: TagRef[];
}

const FILTERS: ListViewFilter[] = [
  searchFilter('slice_name', 'Search charts', 'chart_all_text'),
  {
    col: 'viz_type',
    label: 'Chart type',
    input: 'select',
    operator: 'eq',
    options: Object.entries(VIZ_TYPE_NAMES)
      .map(([value, label]) => ({ value, label }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  },
  relatedFilter(ENDPOINT, 'owners', 'Owner', 'rel_m_m'),
  {
    col: 'datasource_id',
    label: 'Dataset',
    input: 'select',
    operator: 'eq',
    loadOptions: async () => {
      const answer = await api<{ result: Array<{ id: number; table_name: string; schema: string | null }> }>('/api/v1/dataset/', { query: { q: { columns: ['id', 'table_name', 'schema'], order_column: 'table_name', order_direction: 'asc', page_size: 100 } } });
      return answer.result.map((d) => ({ value: String(d.id), label: d.schema ? `${d.schema}.${d.table_name}` : d.table_name }));
    },
    parse: (v) => Number(v),
  },
  booleanFilter('id', 'Favorite', 'chart_is_favorite', { true: 'Favorites', false: 'Not favorites' }),
];

const CHART_FILTERS_WITH_TAGS = [...FILTERS, tagFilter('chart_tag_id')];

/** Charts: every saved chart with its type, dataset and owners; star, open in Explore, delete (Superset's /chart/list/). */
export function ChartListScreen() {
  const tagging = useTaggingEnabled();
  const { featureFlags } = useBootstrap();
  const navigate = useNavigate();
  const io = useImportExport<ChartRow>('chart', ENDPOINT);
  const del = useDeleteAction<ChartRow>({ endpoint: ENDPOINT, noun: 'charts', nameOf: (c) => c.slice_name });

  const columns = useMemo<ColumnDef<ChartRow>[]>(
    () => [
      {
        id: 'slice_name',
        header: 'Name',
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap" align="center">
            <FavoriteStar id={row.original.id} name={row.original.slice_name} />
            <div style={{ maxWidth: 340, minWidth: 0 }}>
              <AppLink href={`/explore/?slice_id=${row.original.id}`} size="sm" fw={550}>
                {row.original.slice_name}
              </AppLink>
              {row.original.description && (
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {row.original.description}
                </Text>
              )}
            </div>
          </Group>
        ),
      },
      {
        id: 'viz_type',
        header: 'Type',
        cell: ({ row }) => (
          <Badge variant="light" color="violet" radius="sm" tt="none" fw={550}>
            {vizTypeName(row.original.viz_type)}
          </Badge>
        ),
      },
      {
        id: 'datasource_name',
        header: 'Dataset',
        cell: ({ row }) =>
          row.original.datasource_name_text ? (
            row.original.datasource_url ? (
              <AppLink href={row.original.datasource_url} size="sm" c="var(--mantine-color-text)">
                {row.original.datasource_name_text}
              </AppLink>
            ) : (
              <Text size="sm">{row.original.datasource_name_text}</Text>
            )
          ) : (
            <Text size="sm" c="dimmed">
              —
            </Text>
          ),
      },
      ownersColumn<ChartRow>(),
      changedOnColumn('changed_on_delta_humanized', (c) => ({ humanized: c.changed_on_delta_humanized, at: c.changed_on_utc, by: c.changed_by_name })),
      ...(tagging ? [tagsColumn<ChartRow>()] : []),
      actionsColumn((c) => del.rowAction(c)),
    ],
    [del.rowAction, tagging],
  );

  return (
    <Container size="xl" py="xl">
      <PageHeader
        title="Charts"
        description="Charts built in Explore. Star the ones you use most; they show on the home page."
        actions={
          <Group gap="xs">
            {io.importButton}
            <Button leftSection={<IconPlus size={16} />} onClick={() => void navigate({ to: '/chart/add/' })}>
              Chart
            </Button>
          </Group>
        }
      />
      <ListView<ChartRow>
        label="Charts"
        endpoint={ENDPOINT}
        columns={columns}
        filters={tagging ? CHART_FILTERS_WITH_TAGS : FILTERS}
        initialSort={{ id: 'changed_on_delta_humanized', desc: true }}
        bulkActions={[io.exportAction, del.bulkAction]}
        card={(c) => (
          <ListCard
            href={`/explore/?slice_id=${c.id}`}
            title={c.slice_name}
            cover={(() => {
              const drawn = <ChartThumbnail chartId={c.id} formData={{ ...c.form_data, viz_type: c.viz_type ?? c.form_data.viz_type, datasource: c.form_data.datasource ?? `${c.datasource_id}__table` }} />;
              return featureFlags.THUMBNAILS ? <ServerThumbnail url={c.thumbnail_url} alt={c.slice_name} fallback={drawn} fit="contain" /> : drawn;
            })()}
            star={<FavoriteStar id={c.id} name={c.slice_name} />}
            // Under the title, beside the dataset's name; a long type name truncates at half the row.
            badge={
              <Badge variant="light" color="violet" radius="sm" tt="none" fw={550} title={vizTypeName(c.viz_type)} style={{ flex: 'none', maxWidth: '50%' }} styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}>
                {vizTypeName(c.viz_type)}
              </Badge>
            }
            subtitle={c.datasource_name_text ?? undefined}
            modified={c.changed_on_delta_humanized}
            owners={c.owners}
            actions={del.rowAction(c)}
          />
        )}
        emptyState={{ title: 'No charts yet', description: 'Open a dataset in Explore, build a chart and save it to see it here.' }}
      />
      {del.modal}
      {io.modal}
    </Container>
  );
}
