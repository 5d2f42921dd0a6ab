import { Badge, Button, Container, Group, Text, Tooltip, UnstyledButton } from '@mantine/core';
import type { DatabaseView } from '@meridian/contracts/schemas/database';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { actionsColumn, booleanFilter, changedOnColumn, ListView, listKey, personName, RowAction, searchFilter, useDeleteAction, type ListViewFilter } from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { trpc } from '../trpc';
import { backendColor, flagsOf } from './database-flags';
import { DatabaseFormModal } from './DatabaseFormModal';

const ENDPOINT = '/api/v1/database/';

const yesNo = (label: string, col: string): ListViewFilter => booleanFilter(col, label, 'eq', { true: `${label}: yes`, false: `${label}: no` });

const FILTERS: ListViewFilter[] = [
  searchFilter('database_name', 'Search name'),
  {
    col: 'backend',
    label: 'Backend',
    input: 'select',
    operator: 'sw',
    options: [
      { value: 'postgresql', label: 'PostgreSQL' },
      { value: 'mysql', label: 'MySQL / MariaDB' },
      { value: 'duckdb', label: 'DuckDB' },
      { value: 'sqlite', label: 'SQLite' },
    ],
  },
  yesNo('SQL Lab', 'expose_in_sqllab'),
  yesNo('Async', 'allow_run_async'),
];

/** Settings → Databases: the connections SQL Lab, datasets and charts query; connect, edit, test and delete (Superset's /databaseview/list/). */
export function DatabaseListScreen() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ database: DatabaseView | null; key: number } | null>(null);
  const remove = useMutation(trpc.database.delete.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey(ENDPOINT) });
  const del = useDeleteAction<DatabaseView>({
    endpoint: ENDPOINT,
    noun: 'databases',
    nameOf: (db) => db.database_name,
    remove: ([db]) => remove.mutateAsync({ id: db.id }),
    title: 'Delete database?',
    question: ([db]) =>
      `The database ${db.database_name} will be disconnected. Its saved queries and query history go with it; datasets must be deleted first. This cannot be undone.`,
  });

  const columns = useMemo<ColumnDef<DatabaseView>[]>(
    () => [
      {
        id: 'database_name',
        header: 'Name',
        cell: ({ row }) => (
          <UnstyledButton onClick={() => setEditing({ database: row.original, key: Date.now() })}>
            <Text size="sm" fw={550} c="var(--meridian-accent-text)">
              {row.original.database_name}
            </Text>
          </UnstyledButton>
        ),
      },
      {
        id: 'backend',
        header: 'Backend',
        cell: ({ row }) => (
          <Badge variant="light" color={backendColor(row.original.backend)} radius="sm" tt="none">
            {row.original.backend}
          </Badge>
        ),
      },
      {
        id: 'flags',
        header: 'Capabilities',
        enableSorting: false,
        cell: ({ row }) => {
          const flags = flagsOf(row.original);
          if (!flags.length)
            return (
              <Text size="sm" c="dimmed">
                None
              </Text>
            );
          return (
            <Group gap={4} aria-label={`Capabilities of ${row.original.database_name}`} role="list">
              {flags.map((f) => (
                <Tooltip key={f.key} label={f.label}>
                  <Badge role="listitem" variant="default" radius="sm" size="sm" tt="none" fw={550} leftSection={f.icon}>
                    {f.short}
                  </Badge>
                </Tooltip>
              ))}
            </Group>
          );
        },
      },
      {
        id: 'changed_by',
        header: 'Last modified by',
        cell: ({ row }) => (
          <Text size="sm" c="dimmed">
            {personName(row.original.changed_by) || personName(row.original.created_by) || '—'}
          </Text>
        ),
      },
      changedOnColumn('changed_on', (db) => ({ humanized: db.changed_on_delta_humanized, at: db.changed_on })),
      actionsColumn((db) => (
        <>
          <RowAction label="Edit" ariaLabel={`Edit ${db.database_name}`} icon={<IconPencil size={16} />} onClick={() => setEditing({ database: db, key: Date.now() })} />
          {del.rowAction(db)}
        </>
      )),
    ],
    [del.rowAction],
  );

  return (
    <Container size="xl" py="xl">
      <PageHeader
        title="Databases"
        description="Connections to the databases that SQL Lab, datasets and charts query."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ database: null, key: Date.now() })}>
            Database
          </Button>
        }
      />
      <ListView<DatabaseView>
        label="Databases"
        endpoint={ENDPOINT}
        columns={columns}
        filters={FILTERS}
        initialSort={{ id: 'changed_on', desc: true }}
        emptyState={{ title: 'No databases yet', description: 'Connect a PostgreSQL, MySQL/MariaDB, DuckDB or SQLite database to start querying it.' }}
      />
      {editing && <DatabaseFormModal key={editing.key} database={editing.database} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
      {del.modal}
    </Container>
  );
}
