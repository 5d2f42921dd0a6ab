import { Anchor, Badge, Button, Container, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import { IconChevronDown, IconCopy, IconDownload, IconFileSpreadsheet, IconPencil, IconPlus, IconRefresh, IconTable, IconTableImport } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useSessionUser } from '../auth/session';
import {
  actionsColumn,
  booleanFilter,
  changedOnColumn,
  ListView,
  listKey,
  ownersColumn,
  RowAction,
  searchFilter,
  useDeleteAction,
  type ListViewBulkAction,
  type ListViewFilter,
} from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { useImportExport } from '../components/useImportExport';
import { UploadDataModal, UPLOAD_TYPES, type UploadType } from './UploadDataModal';
import { addSuccessToast, toastError } from '../notify';
import { trpc } from '../trpc';
import { AddDatasetModal } from './AddDatasetModal';
import { DatasetEditorModal } from './DatasetEditorModal';

const ENDPOINT = '/api/v1/dataset/';

/** A row of `GET /api/v1/dataset/`. */
interface DatasetRow {
  id: number;
  table_name: string;
  schema: string | null;
  kind: 'physical' | 'virtual';
  sql: string | null;
  database: { id: number; database_name: string };
  owners: Array<{ id: number; first_name: string; last_name: string }>;
  changed_by_name: string;
  changed_on_utc: string | null;
  changed_on_delta_humanized: string | null;
  explore_url: string;
  description: string | null;
}

const FILTERS: ListViewFilter[] = [
  searchFilter('table_name', 'Search name'),
  searchFilter('schema', 'Schema'),
  booleanFilter('sql', 'Type', 'dataset_is_null_or_empty', { true: 'Physical', false: 'Virtual' }),
];

/** Data → Datasets: the datasets charts are built on; edit, sync, duplicate, export and delete (Superset's /tablemodelview/list/). */
export function DatasetListScreen() {
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const canWrite = hasPermission(user, 'can_write', 'Dataset');
  const canUpload = hasPermission(user, 'can_upload', 'Database');
  const [uploading, setUploading] = useState<UploadType | null>(null);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [duplicating, setDuplicating] = useState<{ row: DatasetRow; name: string } | null>(null);
  const refreshColumns = useMutation(trpc.dataset.refresh.mutationOptions());
  const duplicate = useMutation(trpc.dataset.duplicate.mutationOptions());
  const bulkDelete = useMutation(trpc.dataset.bulkDelete.mutationOptions());
  const reload = () => queryClient.invalidateQueries({ queryKey: listKey(ENDPOINT) });
  const del = useDeleteAction<DatasetRow>({
    endpoint: ENDPOINT,
    noun: 'datasets',
    nameOf: (ds) => ds.table_name,
    remove: (rows) => bulkDelete.mutateAsync({ ids: rows.map((r) => r.id) }),
  });

  const sync = async (row: DatasetRow) => {
    try {
      await refreshColumns.mutateAsync({ id: row.id });
      addSuccessToast(`Columns of ${row.table_name} were synced from the source`);
      await reload();
    } catch (error) {
      toastError(error);
    }
  };

  const io = useImportExport<DatasetRow>('dataset', ENDPOINT);
  const exportDatasets = (rows: DatasetRow[]) => io.exportAction.onAction(rows);

  const columns = useMemo<ColumnDef<DatasetRow>[]>(
    () => [
      {
        id: 'table_name',
        header: 'Name',
        cell: ({ row }) => (
          <Anchor href={row.original.explore_url} size="sm" fw={550}>
            {row.original.table_name}
          </Anchor>
        ),
      },
      {
        id: 'kind',
        header: 'Type',
        enableSorting: false,
        cell: ({ row }) => (
          <Badge variant="light" color={row.original.kind === 'virtual' ? 'grape' : 'blue'} radius="sm" tt="none">
            {row.original.kind === 'virtual' ? 'Virtual' : 'Physical'}
          </Badge>
        ),
      },
      { id: 'database.database_name', header: 'Database', cell: ({ row }) => row.original.database.database_name },
      { id: 'schema', header: 'Schema', cell: ({ row }) => row.original.schema ?? '' },
      ownersColumn<DatasetRow>(),
      changedOnColumn('changed_on_delta_humanized', (ds) => ({ humanized: ds.changed_on_delta_humanized, at: ds.changed_on_utc })),
      actionsColumn((ds) => (
        <>
          <RowAction label="Edit" ariaLabel={`Edit ${ds.table_name}`} icon={<IconPencil size={16} />} onClick={() => setEditing(ds.id)} />
          <RowAction label="Sync columns from source" ariaLabel={`Sync columns of ${ds.table_name}`} icon={<IconRefresh size={16} />} onClick={() => void sync(ds)} />
          {ds.kind === 'virtual' && (
            <RowAction label="Duplicate" ariaLabel={`Duplicate ${ds.table_name}`} icon={<IconCopy size={16} />} onClick={() => setDuplicating({ row: ds, name: `${ds.table_name}_copy` })} />
          )}
          <RowAction label="Export" ariaLabel={`Export ${ds.table_name}`} icon={<IconDownload size={16} />} onClick={() => void exportDatasets([ds])} />
          {del.rowAction(ds)}
        </>
      )),
    ],
    [del.rowAction],
  );

  const bulkActions = useMemo<ListViewBulkAction<DatasetRow>[]>(() => [io.exportAction, del.bulkAction], [io.exportAction, del.bulkAction]);

  const saveDuplicate = async () => {
    if (!duplicating) return;
    try {
      await duplicate.mutateAsync({ base_model_id: duplicating.row.id, table_name: duplicating.name });
      addSuccessToast(`Duplicated ${duplicating.row.table_name} as ${duplicating.name}`);
      setDuplicating(null);
      await reload();
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Container size="xl" py="xl">
      <PageHeader
        title="Datasets"
        description="Tables and SQL queries that charts are built on, with their columns and metrics."
        actions={
          canWrite && (
            <Group gap="xs">
              {canUpload && (
                <Menu position="bottom-end" width={260}>
                  <Menu.Target>
                    <Button variant="default" leftSection={<IconTableImport size={16} />} rightSection={<IconChevronDown size={14} />}>
                      Upload file
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconTable size={16} />} onClick={() => setUploading('csv')}>
                      {UPLOAD_TYPES.csv.title}
                    </Menu.Item>
                    <Menu.Item leftSection={<IconFileSpreadsheet size={16} />} onClick={() => setUploading('excel')}>
                      {UPLOAD_TYPES.excel.title}
                    </Menu.Item>
                    <Menu.Item leftSection={<IconTable size={16} />} onClick={() => setUploading('columnar')}>
                      {UPLOAD_TYPES.columnar.title}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )}
              {io.importButton}
              <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                Dataset
              </Button>
            </Group>
          )
        }
      />
      <ListView<DatasetRow>
        label="Datasets"
        endpoint={ENDPOINT}
        columns={columns}
        filters={FILTERS}
        initialSort={{ id: 'changed_on_delta_humanized', desc: true }}
        bulkActions={bulkActions}
        emptyState={{ title: 'No datasets yet', description: canWrite ? 'Add a table with + Dataset, or save a query from SQL Lab as a dataset.' : 'Datasets shared with you will show here.' }}
      />
      {adding && (
        <AddDatasetModal
          onClose={() => setAdding(false)}
          onCreated={(dataset) => {
            setAdding(false);
            void reload();
            setEditing(dataset.id);
          }}
          onOpenExisting={(datasetId) => {
            setAdding(false);
            setEditing(datasetId);
          }}
        />
      )}
      {editing !== null && <DatasetEditorModal datasetId={editing} onClose={() => setEditing(null)} onSaved={() => void reload()} />}
      <Modal opened={!!duplicating} onClose={() => setDuplicating(null)} title="Duplicate dataset" size="md">
        <Stack>
          <TextInput label="New dataset name" value={duplicating?.name ?? ''} onChange={(e) => duplicating && setDuplicating({ ...duplicating, name: e.currentTarget.value })} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDuplicating(null)}>
              {CANCEL}
            </Button>
            <Button onClick={() => void saveDuplicate()} loading={duplicate.isPending} disabled={!duplicating?.name.trim()}>
              Duplicate
            </Button>
          </Group>
        </Stack>
      </Modal>
      {del.modal}
      {io.modal}
      {uploading && <UploadDataModal type={uploading} onClose={() => setUploading(null)} onUploaded={() => void reload()} />}
    </Container>
  );
}
