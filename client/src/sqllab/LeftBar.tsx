import { ActionIcon, Badge, Box, Collapse, Group, Loader, ScrollArea, Select, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconChevronDown,
  IconChevronRight,
  IconCopy,
  IconDatabase,
  IconKey,
  IconLink,
  IconListDetails,
  IconRefresh,
  IconTable,
  IconX,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { isAllLoaded, SELECT_PAGE_SIZE, shouldFetchNextPage } from '@meridian/contracts/rules/select';
import { sqlLabActions, type QueryEditor, type TableSchema } from '@meridian/contracts/sqllab/index';
import { useSqlLabController } from './SqlLabScreen';
import { copyText } from './sqllab.controller';
import { sqllabApi, type TableMetadata, type TableMetadataColumn } from './sqllab.api';
import { metadataQueries, useSchemas, useTables } from './sqllab.queries';
import { useSqlLabState } from './sqllab.store';
import classes from './sqllab.module.css';

function columnKeys(table: TableSchema, column: TableMetadataColumn): string[] {
  const keys: string[] = [];
  const pk = table.primaryKey as TableMetadata['primaryKey'];
  const pkColumns = pk?.column_names ?? pk?.constrained_columns ?? [];
  if (pkColumns.includes(column.name) || column.keys?.some((k) => k.type === 'pk')) keys.push('pk');
  const fks = (table.foreignKeys ?? []) as NonNullable<TableMetadata['foreignKeys']>;
  if (fks.some((fk) => (fk.column_names ?? fk.constrained_columns ?? []).includes(column.name)) || column.keys?.some((k) => k.type === 'fk')) keys.push('fk');
  const indexes = (table.indexes ?? []) as NonNullable<TableMetadata['indexes']>;
  if (indexes.some((ix) => (ix.column_names ?? []).includes(column.name)) || column.keys?.some((k) => k.type === 'index')) keys.push('index');
  return keys;
}

function TableElement({ table }: { table: TableSchema }) {
  const controller = useSqlLabController();
  const columns = (table.columns ?? []) as TableMetadataColumn[];
  const loading = table.isMetadataLoading;
  // A table restored from storage comes with its name only: its columns are fetched when it is shown.
  useEffect(() => controller.ensureTableMetadata(table), [controller, table]);
  return (
    <div className={classes.tableItem} data-testid="table-element">
      <div className={classes.tableHeader} onClick={() => void controller.setTableExpanded(table, !table.expanded)}>
        {table.expanded ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        <IconTable size={15} color="var(--mantine-color-dimmed)" />
        <Text size="sm" fw={600} truncate style={{ flex: 1 }} title={`${table.schema}.${table.name}`}>
          {table.name}
        </Text>
        {loading && <Loader size={12} />}
        {table.selectStar && (
          <Tooltip label="Copy SELECT statement to the clipboard">
            <ActionIcon
              size="sm"
              variant="subtle"
              color="gray"
              aria-label={`Copy SELECT statement of ${table.name}`}
              onClick={(event) => {
                event.stopPropagation();
                void copyText(table.selectStar!);
              }}
            >
              <IconCopy size={13} />
            </ActionIcon>
          </Tooltip>
        )}
        <Tooltip label="Remove table preview">
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            aria-label={`Remove ${table.name}`}
            onClick={(event) => {
              event.stopPropagation();
              void controller.removeTable(table);
            }}
          >
            <IconX size={13} />
          </ActionIcon>
        </Tooltip>
      </div>
      <Collapse expanded={table.expanded}>
        <Box pb={6}>
          {columns.map((column) => {
            const keys = columnKeys(table, column);
            return (
              <div className={classes.columnRow} key={column.name} title={column.comment ?? undefined}>
                {keys.includes('pk') ? (
                  <Tooltip label="Primary key">
                    <IconKey size={12} color="var(--mantine-color-yellow-7)" />
                  </Tooltip>
                ) : keys.includes('fk') ? (
                  <Tooltip label="Foreign key">
                    <IconLink size={12} color="var(--mantine-color-blue-6)" />
                  </Tooltip>
                ) : keys.includes('index') ? (
                  <Tooltip label="Indexed">
                    <IconListDetails size={12} color="var(--mantine-color-grape-6)" />
                  </Tooltip>
                ) : (
                  <span style={{ width: 12 }} />
                )}
                <Text size="xs" truncate>
                  {column.name}
                </Text>
                <span className={classes.columnType} title={column.longType ?? column.type}>
                  {String(column.type ?? '').toLowerCase()}
                </span>
              </div>
            );
          })}
          {!loading && columns.length === 0 && (
            <Text size="xs" c="dimmed" px="md">
              No columns
            </Text>
          )}
        </Box>
      </Collapse>
    </div>
  );
}

/** The schema browser: database, catalog and schema pickers, table search and the tab's tables with their columns. */
export function LeftBar({ editor }: { editor: QueryEditor }) {
  const controller = useSqlLabController();
  const state = useSqlLabState();
  const queryClient = useQueryClient();
  const databases = Object.values(state.databases).sort((a, b) => String(a.database_name).localeCompare(String(b.database_name)));
  const database = editor.dbId ? state.databases[editor.dbId] : undefined;
  const multiCatalog = Boolean(database?.allow_multi_catalog);
  const catalogs = useQuery(metadataQueries.catalogs(multiCatalog ? editor.dbId : null));
  const schemas = useSchemas(editor.dbId, editor.catalog);
  const tables = useTables(editor.dbId, editor.schema, editor.catalog);
  // A database with a default schema (DuckDB 'main', PostgreSQL 'public') or a single one starts there.
  useEffect(() => {
    const list = schemas.data ?? [];
    if (editor.schema || list.length === 0) return;
    const preferred = list.find((name) => name === 'main' || name === 'public') ?? (list.length === 1 ? list[0] : undefined);
    if (preferred) controller.dispatch(sqlLabActions.setSchema(editor, preferred));
  }, [schemas.data, editor.schema, editor, controller]);

  const tabTables = state.tables.filter((t) => t.queryEditorId === (editor.tabViewId ?? editor.id));
  const tableOptions = useMemo(
    () => (tables.data?.result ?? []).map((t) => ({ value: t.value, label: t.value, type: t.type })),
    [tables.data],
  );

  // Spec 01 §9 Select: the table list shows pages of 100 and the next page once scrolled past 70%. The search
  // filters all of the schema's tables; the pages count again from the first one for each search and schema.
  const [tablePages, setTablePages] = useState(1);
  useEffect(() => setTablePages(1), [editor.dbId, editor.catalog, editor.schema]);
  const shownTables = tablePages * SELECT_PAGE_SIZE;

  const refresh = async () => {
    if (!editor.dbId) return;
    await queryClient.invalidateQueries({ queryKey: ['sqllab'] });
    await queryClient.fetchQuery({ ...metadataQueries.schemas(editor.dbId, editor.catalog), queryFn: async () => (await sqllabApi.schemas(editor.dbId!, editor.catalog, true)).result });
  };

  return (
    <aside className={classes.leftBar} aria-label="Schema browser" data-testid="left-bar">
      <Stack gap="xs" p="sm">
        <Select
          label="Database"
          size="xs"
          searchable
          nothingFoundMessage="No databases"
          placeholder="Select a database"
          leftSection={<IconDatabase size={14} />}
          data={databases.map((db) => ({ value: String(db.id), label: String(db.database_name ?? db.id) }))}
          value={editor.dbId ? String(editor.dbId) : null}
          allowDeselect={false}
          data-testid="database-select"
          onChange={(value) => value && controller.switchDatabase(editor.id, Number(value))}
        />
        {multiCatalog && (
          <Select
            label="Catalog"
            size="xs"
            searchable
            clearable
            placeholder="Default catalog"
            data={catalogs.data ?? []}
            value={editor.catalog ?? null}
            onChange={(value) => {
              controller.dispatch({ type: 'QUERY_EDITOR_SET_CATALOG', queryEditor: editor, catalog: value, now: Date.now() });
              controller.dispatch(sqlLabActions.setSchema(editor, null));
            }}
          />
        )}
        <Group gap={6} align="flex-end" wrap="nowrap">
          <Select
            label="Schema"
            size="xs"
            style={{ flex: 1 }}
            searchable
            allowDeselect={false}
            placeholder={schemas.isLoading ? 'Loading schemas…' : 'Select a schema'}
            nothingFoundMessage="No schemas"
            data={schemas.data ?? []}
            value={editor.schema ?? null}
            disabled={!editor.dbId}
            rightSection={schemas.isFetching ? <Loader size={12} /> : undefined}
            data-testid="schema-select"
            onChange={(value) => controller.dispatch(sqlLabActions.setSchema(editor, value))}
          />
          <Tooltip label="Refresh schemas and tables">
            <ActionIcon variant="default" size={30} aria-label="Refresh schemas and tables" onClick={() => void refresh()} disabled={!editor.dbId}>
              <IconRefresh size={14} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Select
          label={
            <Group gap={6}>
              <span>See table schema</span>
              {tables.data && (
                <Badge size="xs" variant="light" color="gray">
                  {tables.data.count}
                </Badge>
              )}
            </Group>
          }
          size="xs"
          searchable
          placeholder={!editor.schema ? 'Select a schema first' : tables.isLoading ? 'Loading tables…' : 'Search tables'}
          nothingFoundMessage="No tables match"
          data={tableOptions}
          value={null}
          disabled={!editor.schema}
          limit={shownTables}
          onSearchChange={() => setTablePages(1)}
          onDropdownClose={() => setTablePages(1)}
          scrollAreaProps={{
            viewportProps: {
              onScroll: (event) => {
                const { scrollTop, clientHeight, scrollHeight } = event.currentTarget;
                if (shouldFetchNextPage(scrollTop, clientHeight, scrollHeight, isAllLoaded(shownTables, tableOptions.length))) {
                  setTablePages((pages) => (pages * SELECT_PAGE_SIZE === shownTables ? pages + 1 : pages));
                }
              },
            },
          }}
          rightSection={tables.isFetching ? <Loader size={12} /> : undefined}
          data-testid="table-select"
          onChange={(value) => value && editor.schema && void controller.addTable(editor.id, value, editor.schema, editor.catalog ?? null)}
          renderOption={({ option }) => (
            <Group gap={6} wrap="nowrap">
              <IconTable size={13} color="var(--mantine-color-dimmed)" />
              <Text size="xs" truncate>
                {option.label}
              </Text>
              {(option as unknown as { type?: string }).type === 'view' && (
                <Badge size="xs" variant="light">
                  view
                </Badge>
              )}
            </Group>
          )}
        />
      </Stack>
      <ScrollArea className={classes.tableList} px="sm" pb="sm" type="auto">
        {tabTables.length === 0 ? (
          <Text size="xs" c="dimmed" ta="center" mt="lg" px="md">
            Pick a table above to see its columns and preview its data.
          </Text>
        ) : (
          <>
            <Group justify="space-between" mb={6}>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                Tables
              </Text>
              <UnstyledButton
                fz="xs"
                c="dimmed"
                onClick={() => {
                  const anyExpanded = tabTables.some((t) => t.expanded);
                  for (const table of tabTables) void controller.setTableExpanded(table, !anyExpanded);
                }}
              >
                {tabTables.some((t) => t.expanded) ? 'Collapse all' : 'Expand all'}
              </UnstyledButton>
            </Group>
            {tabTables.map((table) => (
              <TableElement key={table.id} table={table} />
            ))}
          </>
        )}
      </ScrollArea>
    </aside>
  );
}
