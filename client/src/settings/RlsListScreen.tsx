import { Badge, Button, Code, Container, Group, Text } from '@mantine/core';
import { RLS_FILTER_TYPES } from '@meridian/contracts/schemas/rls';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { actionsColumn, changedOnColumn, ListView, listKey, personName, relatedFilter, RowAction, searchFilter, useDeleteAction, type ListViewBulkAction, type ListViewFilter } from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { RlsFormModal, type RlsRuleView } from './RlsFormModal';

const ENDPOINT = '/api/v1/rowlevelsecurity/';

const FILTERS: ListViewFilter[] = [
  searchFilter('name', 'Search name'),
  { col: 'filter_type', label: 'Filter type', input: 'select', operator: 'eq', options: RLS_FILTER_TYPES.map((t) => ({ value: t, label: t })) },
  relatedFilter(ENDPOINT, 'tables', 'Dataset', 'rel_m_m'),
  relatedFilter(ENDPOINT, 'roles', 'Role', 'rel_m_m'),
  searchFilter('group_key', 'Group key'),
];

const badges = (items: Array<{ id: number; label: string }>, color?: string) => (
  <Group gap={4}>
    {items.map((i) => (
      <Badge key={i.id} variant="light" color={color} radius="sm" size="sm" tt="none">
        {i.label}
      </Badge>
    ))}
  </Group>
);

/** Settings → Row level security (Superset's /rowlevelsecurity/list/): the rules, added, edited and deleted here. */
export function RlsListScreen() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ rule: RlsRuleView | null; key: number } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey(ENDPOINT) });
  const del = useDeleteAction<RlsRuleView>({ endpoint: ENDPOINT, noun: 'rules', nameOf: (r) => r.name });

  const columns = useMemo<ColumnDef<RlsRuleView>[]>(
    () => [
      { id: 'name', header: 'Name', cell: ({ row }) => <Text size="sm" fw={550}>{row.original.name}</Text> },
      {
        id: 'filter_type',
        header: 'Filter type',
        cell: ({ row }) => (
          <Badge variant="dot" color={row.original.filter_type === 'Base' ? 'grape' : 'blue'} tt="none">
            {row.original.filter_type}
          </Badge>
        ),
      },
      { id: 'tables', header: 'Datasets', enableSorting: false, cell: ({ row }) => badges(row.original.tables.map((t) => ({ id: t.id, label: t.table_name }))) },
      { id: 'roles', header: 'Roles', enableSorting: false, cell: ({ row }) => badges(row.original.roles.map((r) => ({ id: r.id, label: r.name })), 'gray') },
      { id: 'clause', header: 'Clause', cell: ({ row }) => <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{row.original.clause}</Code> },
      { id: 'group_key', header: 'Group key', cell: ({ row }) => <Text size="sm" c={row.original.group_key ? undefined : 'dimmed'}>{row.original.group_key ?? '—'}</Text> },
      changedOnColumn<RlsRuleView>('changed_on_delta_humanized', (r) => ({ humanized: r.changed_on_delta_humanized ?? null, at: null, by: personName(r.changed_by) })),
      actionsColumn((rule) => (
        <>
          <RowAction label="Edit" ariaLabel={`Edit ${rule.name}`} icon={<IconPencil size={16} />} onClick={() => setEditing({ rule, key: Date.now() })} />
          {del.rowAction(rule)}
        </>
      )),
    ],
    [del.rowAction],
  );
  const bulkActions = useMemo<ListViewBulkAction<RlsRuleView>[]>(() => [del.bulkAction], [del.bulkAction]);

  return (
    <Container size="xl" py="xl">
      <PageHeader
        title="Row level security"
        description="Filters added to every query of a dataset for the roles they name, so each team sees only its rows."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ rule: null, key: Date.now() })}>
            Rule
          </Button>
        }
      />
      <ListView<RlsRuleView>
        label="Rules"
        endpoint={ENDPOINT}
        columns={columns}
        filters={FILTERS}
        initialSort={{ id: 'changed_on_delta_humanized', desc: true }}
        bulkActions={bulkActions}
        emptyState={{ title: 'No rules yet', description: 'Add a rule to limit the rows a role sees.' }}
      />
      {editing && <RlsFormModal key={editing.key} rule={editing.rule} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
      {del.modal}
    </Container>
  );
}
