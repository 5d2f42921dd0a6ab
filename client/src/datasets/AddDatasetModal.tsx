import { ActionIcon, Alert, Badge, Button, Group, Loader, Modal, ScrollArea, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import type { DatabaseView } from '@meridian/contracts/schemas/database';
import type { ListFilter } from '@meridian/contracts/schemas/list-query';
import type { DatasetView } from '@meridian/contracts/schemas/dataset';
import { IconAlertTriangle, IconDatabase, IconEye, IconRefresh, IconTable } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../api';
import { fetchList, listKey } from '../components/ListView';
import { addSuccessToast } from '../notify';
import { sqllabApi } from '../sqllab/sqllab.api';
import { metadataQueries } from '../sqllab/sqllab.queries';
import { errorOf } from '../trpc';

const DATABASES = '/api/v1/database/';
const DATASETS = '/api/v1/dataset/';

/** A row of the dataset list, as far as the exists check reads it. */
interface DatasetListRow {
  id: number;
  table_name: string;
  catalog: string | null;
  schema: string | null;
}

/** The dataset already made from a table, if the user can see one (the server refuses a second one either way). */
function existingDatasetQuery(databaseId: number | null, catalog: string | null, schema: string | null, table: string | null) {
  return {
    queryKey: [...listKey(DATASETS), 'exists', databaseId, catalog, schema, table],
    queryFn: async () => {
      const filters: ListFilter[] = [
        { col: 'database', opr: 'rel_o_m', value: databaseId },
        { col: 'table_name', opr: 'eq', value: table },
        ...(schema ? [{ col: 'schema', opr: 'eq' as const, value: schema }] : []),
      ];
      const { result } = await fetchList<DatasetListRow>(DATASETS, { page: 0, page_size: 25, filters });
      return result.find((ds) => ds.table_name === table && (ds.schema ?? null) === schema && (!catalog || ds.catalog === catalog)) ?? null;
    },
    enabled: Boolean(databaseId && table),
    staleTime: 0,
  };
}

/**
 * Every database the user may read, by name. Unlike SQL Lab's picker this does not keep only those exposed in SQL Lab:
 * a dataset can be built on any connected database, as in Superset's dataset creation.
 */
const databasesQuery = {
  queryKey: [...listKey(DATABASES), 'add-dataset'],
  queryFn: async () => (await fetchList<DatabaseView>(DATABASES, { page: 0, page_size: 1000, order_column: 'database_name', order_direction: 'asc' })).result,
  staleTime: 60_000,
};

/** The schema a database starts on, as in SQL Lab's left bar: DuckDB's 'main', PostgreSQL's 'public', or the only one. */
function defaultSchema(schemas: string[]): string | null {
  return schemas.find((name) => name === 'main' || name === 'public') ?? (schemas.length === 1 ? schemas[0] : null);
}

/** A placeholder naming what a picker waits for, or that it is loading. */
const loadingOr = (loading: boolean, text: string) => (loading ? 'Loading…' : text);

/**
 * Adds a physical dataset: pick a database, (catalog,) schema and table or view, then `POST /api/v1/dataset/`.
 * The server reads the columns from the table. A refusal (the dataset exists already) shows inside the modal.
 */
export function AddDatasetModal({ onClose, onCreated, onOpenExisting }: { onClose: () => void; onCreated: (dataset: Pick<DatasetView, 'id' | 'table_name'>) => void; onOpenExisting?: (datasetId: number) => void }) {
  const queryClient = useQueryClient();
  const [databaseId, setDatabaseId] = useState<number | null>(null);
  const [catalog, setCatalog] = useState<string | null>(null);
  const [schema, setSchema] = useState<string | null>(null);
  const [table, setTable] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const databases = useQuery(databasesQuery);
  const database = databases.data?.find((db) => db.id === databaseId);
  const multiCatalog = Boolean(database?.allow_multi_catalog);
  const catalogs = useQuery(metadataQueries.catalogs(multiCatalog ? databaseId : null));
  const schemas = useQuery(metadataQueries.schemas(databaseId, catalog));
  // No previous schema's tables while the next loads: an empty schema must read as empty, not as the last one.
  const tables = useQuery({ ...metadataQueries.tables(databaseId, schema, catalog), placeholderData: undefined });
  // The picked table's columns, as its dataset will get them, and the dataset already made from it.
  const metadata = useQuery(metadataQueries.tableMetadata(databaseId, table ?? '', schema, catalog));
  const existing = useQuery(existingDatasetQuery(databaseId, catalog, schema, table));
  const create = useMutation({
    mutationFn: (body: { database: number; catalog?: string; schema: string | null; table_name: string }) =>
      // Superset's POST answer: the dataset as posted (its database as an id), with its id.
      // Superset's answer: the new id beside the posted fields (result has no id).
      api<{ id: number; result: Pick<DatasetView, 'table_name'> }>('/api/v1/dataset/', { method: 'POST', body }),
  });

  useEffect(() => {
    if (schema || !schemas.data) return;
    const preferred = defaultSchema(schemas.data);
    if (preferred) setSchema(preferred);
  }, [schemas.data, schema]);

  const databaseOptions = useMemo(() => (databases.data ?? []).map((db) => ({ value: String(db.id), label: db.database_name })), [databases.data]);
  const tableOptions = useMemo(() => (tables.data?.result ?? []).map((t) => ({ value: t.value, label: t.value, type: t.type })), [tables.data]);
  const typeOf = useMemo(() => new Map(tableOptions.map((t) => [t.value, t.type])), [tableOptions]);
  const noTables = Boolean(schema) && tables.isSuccess && tableOptions.length === 0;

  const pickDatabase = (value: string | null) => {
    setDatabaseId(value ? Number(value) : null);
    setCatalog(null);
    setSchema(null);
    setTable(null);
    setError(null);
  };
  const pickCatalog = (value: string | null) => {
    setCatalog(value);
    setSchema(null);
    setTable(null);
    setError(null);
  };
  const pickSchema = (value: string | null) => {
    setSchema(value);
    setTable(null);
    setError(null);
  };

  /** Reads schemas and tables again from the database (a table created a moment ago shows up). */
  const refresh = async () => {
    if (!databaseId) return;
    await queryClient.fetchQuery({ ...metadataQueries.schemas(databaseId, catalog), queryFn: async () => (await sqllabApi.schemas(databaseId, catalog, true)).result, staleTime: 0 });
    if (schema) await queryClient.fetchQuery({ ...metadataQueries.tables(databaseId, schema, catalog), queryFn: () => sqllabApi.tables(databaseId, schema, catalog, true), staleTime: 0 });
  };

  const submit = async () => {
    if (!databaseId || !table) return;
    setError(null);
    try {
      const { id, result } = await create.mutateAsync({ database: databaseId, ...(catalog ? { catalog } : {}), schema, table_name: table });
      addSuccessToast(`Dataset ${result.table_name} created`);
      onCreated({ id, table_name: result.table_name });
    } catch (e) {
      setError(errorOf(e).error);
    }
  };

  return (
    <Modal opened onClose={onClose} title="Add dataset" size="lg">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          A dataset on a table or view. Its columns are read from the table; add metrics and calculated columns once it is created.
        </Text>
        <Select
          label="Database"
          searchable
          allowDeselect={false}
          leftSection={<IconDatabase size={16} />}
          placeholder={loadingOr(databases.isLoading, 'Select a database')}
          nothingFoundMessage="No databases"
          data={databaseOptions}
          value={databaseId ? String(databaseId) : null}
          onChange={pickDatabase}
          rightSection={databases.isFetching ? <Loader size={14} /> : undefined}
          error={databases.isError ? errorOf(databases.error).error : undefined}
          data-autofocus
        />
        {multiCatalog && (
          <Select
            label="Catalog"
            searchable
            clearable
            placeholder={loadingOr(catalogs.isLoading, 'Default catalog')}
            nothingFoundMessage="No catalogs"
            data={catalogs.data ?? []}
            value={catalog}
            onChange={pickCatalog}
            rightSection={catalogs.isFetching ? <Loader size={14} /> : undefined}
            error={catalogs.isError ? errorOf(catalogs.error).error : undefined}
          />
        )}
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Select
            label="Schema"
            style={{ flex: 1 }}
            searchable
            allowDeselect={false}
            disabled={!databaseId}
            placeholder={!databaseId ? 'Select a database first' : loadingOr(schemas.isLoading, 'Select a schema')}
            nothingFoundMessage="No schemas"
            data={schemas.data ?? []}
            value={schema}
            onChange={pickSchema}
            rightSection={schemas.isFetching ? <Loader size={14} /> : undefined}
            error={schemas.isError ? errorOf(schemas.error).error : undefined}
          />
          <Tooltip label="Refresh schemas and tables">
            <ActionIcon variant="default" size={36} aria-label="Refresh schemas and tables" disabled={!databaseId} onClick={() => void refresh()}>
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Select
          label={
            <Group gap={6} component="span" display="inline-flex">
              <span>Table</span>
              {tables.data && (
                <Badge size="xs" variant="light" color="gray" component="span">
                  {tables.data.count}
                </Badge>
              )}
            </Group>
          }
          aria-label="Table"
          searchable
          allowDeselect={false}
          disabled={!schema || noTables}
          placeholder={!schema ? 'Select a schema first' : tables.isLoading ? 'Loading tables…' : noTables ? 'No tables in this schema' : 'Search tables and views'}
          nothingFoundMessage="No tables match"
          data={tableOptions}
          value={table}
          limit={200}
          onChange={(value) => {
            setTable(value);
            setError(null);
          }}
          leftSection={typeOf.get(table ?? '') === 'view' ? <IconEye size={16} /> : <IconTable size={16} />}
          rightSection={tables.isFetching ? <Loader size={14} /> : undefined}
          error={tables.isError ? errorOf(tables.error).error : undefined}
          renderOption={({ option }) => (
            <Group gap={8} wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
              {typeOf.get(option.value) === 'view' ? <IconEye size={15} color="var(--mantine-color-dimmed)" /> : <IconTable size={15} color="var(--mantine-color-dimmed)" />}
              <Text size="sm" truncate style={{ flex: 1 }}>
                {option.label}
              </Text>
              {typeOf.get(option.value) === 'view' && (
                <Badge size="xs" variant="light" color="grape">
                  view
                </Badge>
              )}
            </Group>
          )}
        />
        {table && (
          <Stack gap={4}>
            <Group gap={6}>
              <Text size="sm" fw={500}>
                Columns
              </Text>
              {metadata.data && (
                <Badge size="xs" variant="light" color="gray">
                  {metadata.data.columns.length}
                </Badge>
              )}
              {metadata.isFetching && <Loader size={12} />}
            </Group>
            {metadata.isError ? (
              <Text size="sm" c="red">
                {errorOf(metadata.error).error}
              </Text>
            ) : (
              <ScrollArea.Autosize mah={220} type="auto" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}>
                <Table striped verticalSpacing={3} fz="sm" stickyHeader aria-label={`Columns of ${table}`}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Column name</Table.Th>
                      <Table.Th>Datatype</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {(metadata.data?.columns ?? []).map((c) => (
                      <Table.Tr key={c.name}>
                        <Table.Td>{c.name}</Table.Td>
                        <Table.Td>
                          <Text size="xs" c="dimmed" ff="monospace">
                            {c.type}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                    {metadata.isLoading && (
                      <Table.Tr>
                        <Table.Td colSpan={2}>
                          <Text size="sm" c="dimmed">
                            Loading columns…
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Table.Tbody>
                </Table>
              </ScrollArea.Autosize>
            )}
          </Stack>
        )}
        {existing.data && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="A dataset exists for this table">
            <Group justify="space-between" wrap="nowrap" gap="md">
              <Text size="sm">This table already has a dataset associated with it. You can only associate one dataset with a table.</Text>
              {onOpenExisting && (
                <Button size="xs" variant="default" style={{ flexShrink: 0 }} onClick={() => onOpenExisting(existing.data!.id)}>
                  View dataset
                </Button>
              )}
            </Group>
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The dataset could not be created">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm" mt="sm">
          <Button variant="default" onClick={onClose} disabled={create.isPending}>
            {CANCEL}
          </Button>
          <Button onClick={() => void submit()} disabled={!databaseId || !table || Boolean(existing.data)} loading={create.isPending}>
            Create dataset
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
