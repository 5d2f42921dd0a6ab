import {
  Alert,
  Box,
  Button,
  Center,
  Checkbox,
  CloseButton,
  EmptyState,
  Group,
  Loader,
  Pagination,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  SimpleGrid,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue, useLocalStorage } from '@mantine/hooks';
import type { FilterOperator, ListFilter } from '@meridian/contracts/schemas/list-query';
import { IconAlertTriangle, IconArrowDown, IconArrowUp, IconArrowsSort, IconInbox, IconLayoutGrid, IconList, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowSelectionState, type SortingState } from '@tanstack/react-table';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { errorOf } from '../../trpc';
import { buildListQuery, fetchList, listKey } from './list-query';
import classes from './ListView.module.css';

const PAGE_CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** A filter above the table; `col` and `operator` become one Superset filter `(col, opr, value)`. */
export interface ListViewFilter {
  /** Superset column name sent as `col`. */
  col: string;
  label: string;
  /** `search`: free text (usually operator `ct`); `select`: one of `options`. */
  input: 'search' | 'select';
  operator: FilterOperator;
  options?: { label: string; value: string }[];
  /** Options read from the server when the select is first opened (owners, datasets, ...). */
  loadOptions?: () => Promise<{ label: string; value: string }[]>;
  /** Turns the input's string into the filter value (e.g. 'true' → true). */
  parse?: (value: string) => unknown;
}

/** An action on the selected rows, shown in the bulk bar once rows are selected. */
export interface ListViewBulkAction<T> {
  key: string;
  label: string;
  color?: string;
  /** Called with the selected rows; the selection is cleared once it resolves. */
  onAction: (rows: T[]) => void | Promise<void>;
}

export interface ListViewProps<T> {
  /** REST list path answering Superset's `{count, ids, result}` to `?q=<rison>`, e.g. '/api/v1/security/users/'. */
  endpoint: string;
  /** TanStack Table columns; a column's `id` is the Superset column it sorts by (`enableSorting: false` to disable). */
  columns: ColumnDef<T, any>[];
  /** Row identity for selection (default: `row.id`). */
  getRowId?: (row: T) => string;
  filters?: ListViewFilter[];
  initialSort?: { id: string; desc: boolean };
  pageSize?: number;
  /** When given, rows get checkboxes and the bar offers these actions on the selection. */
  bulkActions?: ListViewBulkAction<T>[];
  /** Buttons at the right of the filter bar (e.g. "+ User"). */
  toolbar?: ReactNode;
  /** What an empty list says. */
  emptyState?: { title: string; description?: string };
  /** Accessible name of the table. */
  label: string;
  /** When given, the list can also show its rows as cards (Superset's card view); the choice is remembered. */
  card?: (row: T) => ReactNode;
  /** Filters always applied, whatever the filter bar holds (e.g. a tab's `type eq Alert`). */
  baseFilters?: ListFilter[];
}

/**
 * A server-driven list (Superset's list views): paging, sorting and filtering happen on the server through the
 * rison `q`; rows can be bulk-selected for bulk actions.
 */
export function ListView<T>({ endpoint, columns, getRowId, filters = [], initialSort, pageSize = 25, bulkActions, toolbar, emptyState, label, card, baseFilters }: ListViewProps<T>) {
  const [storedView, setView] = useLocalStorage<'card' | 'list'>({ key: `meridian-list-view:${endpoint}`, defaultValue: 'list', getInitialValueInEffect: false });
  const view = card ? storedView : 'list';
  const rowId = getRowId ?? ((row: T) => String((row as { id: unknown }).id));
  const [page, setPage] = useState(0);
  const [sorting, setSorting] = useState<SortingState>(initialSort ? [initialSort] : []);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [filterInputs, setFilterInputs] = useState<Record<string, string>>({});
  const [debouncedInputs] = useDebouncedValue(filterInputs, 300);
  const [busyAction, setBusyAction] = useState<string | null>(null);

  const activeFilters = useMemo<ListFilter[]>(
    () => [
      ...(baseFilters ?? []),
      ...filters.flatMap((f) => {
        const raw = (f.input === 'search' ? debouncedInputs[f.col] : filterInputs[f.col])?.trim();
        return raw ? [{ col: f.col, opr: f.operator, value: f.parse ? f.parse(raw) : raw }] : [];
      }),
    ],
    [filters, debouncedInputs, filterInputs, JSON.stringify(baseFilters ?? [])],
  );

  const q = buildListQuery({ page, pageSize, sort: sorting[0] ?? null, filters: activeFilters });
  const query = useQuery({
    queryKey: [...listKey(endpoint), q],
    queryFn: ({ signal }) => fetchList<T>(endpoint, q, signal),
    placeholderData: keepPreviousData,
  });

  // A new page, order or filter is a new set of rows: the old selection no longer applies.
  const qKey = JSON.stringify(q);
  useEffect(() => setRowSelection({}), [qKey]);
  useEffect(() => setPage(0), [JSON.stringify(activeFilters)]);

  const selectable = !!bulkActions?.length;
  const allColumns = useMemo<ColumnDef<T, any>[]>(() => {
    // The server sorts by a column's id; TanStack only lets a column with an accessor sort, so a
    // display-only column (a cell renderer, no accessor) gets one reading its id.
    const sortable = columns.map((c) =>
      c.enableSorting === false || 'accessorKey' in c || 'accessorFn' in c ? c : ({ ...c, accessorFn: (row: T) => (row as Record<string, unknown>)[c.id ?? ''] } as ColumnDef<T, any>),
    );
    return selectable
      ? [
          {
            id: '__select',
            enableSorting: false,
            size: 40,
            header: ({ table }) => (
              <Checkbox
                aria-label="Select all rows"
                size="xs"
                checked={table.getIsAllRowsSelected()}
                indeterminate={table.getIsSomeRowsSelected()}
                onChange={table.getToggleAllRowsSelectedHandler()}
              />
            ),
            cell: ({ row }) => <Checkbox aria-label="Select row" size="xs" checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />,
          },
          ...sortable,
        ]
      : sortable;
  }, [columns, selectable]);

  const data = query.data?.result ?? [];
  const count = query.data?.count ?? 0;
  const table = useReactTable({
    data,
    columns: allColumns,
    getRowId: rowId,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    enableSortingRemoval: true,
    // A first click sorts ascending on every column (TanStack would start descending on columns whose first value is not text).
    sortDescFirst: false,
    rowCount: count,
    state: { sorting, rowSelection, pagination: { pageIndex: page, pageSize } },
    onSortingChange: (updater) => {
      setSorting(updater);
      setPage(0);
    },
    onRowSelectionChange: setRowSelection,
    enableRowSelection: selectable,
  });

  const selected = table.getSelectedRowModel().rows.map((r) => r.original);
  const pages = Math.max(1, Math.ceil(count / pageSize));
  const from = count === 0 ? 0 : page * pageSize + 1;
  const to = Math.min(count, (page + 1) * pageSize);
  // Only what the user chose counts as filtering (a tab's base filters do not).
  const filtering = activeFilters.length > (baseFilters?.length ?? 0);

  const runBulk = async (action: ListViewBulkAction<T>) => {
    setBusyAction(action.key);
    try {
      await action.onAction(selected);
      setRowSelection({});
    } finally {
      setBusyAction(null);
    }
  };

  return (
    <Paper withBorder className={classes.root}>
      <Group className={classes.toolbar} justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        {selected.length > 0 ? (
          <Group gap="sm" className={classes.bulkBar} role="toolbar" aria-label="Bulk actions">
            <Text size="sm" fw={600}>
              {selected.length} selected
            </Text>
            {bulkActions!.map((action) => (
              <Button key={action.key} size="xs" variant="light" color={action.color} loading={busyAction === action.key} onClick={() => void runBulk(action)}>
                {action.label}
              </Button>
            ))}
            <Button size="xs" variant="subtle" color="gray" onClick={() => setRowSelection({})}>
              Deselect all
            </Button>
          </Group>
        ) : (
          <Group gap="sm" wrap="wrap" className={classes.filters}>
            {filters.map((f) =>
              f.input === 'search' ? (
                <TextInput
                  key={f.col}
                  size="sm"
                  className={classes.searchFilter}
                  aria-label={f.label}
                  placeholder={f.label}
                  leftSection={<IconSearch size={15} />}
                  value={filterInputs[f.col] ?? ''}
                  onChange={(e) => {
                    // Read now: React clears the event's currentTarget once the handler returns, before a queued updater runs.
                    const value = e.currentTarget.value;
                    setFilterInputs((s) => ({ ...s, [f.col]: value }));
                  }}
                  rightSection={filterInputs[f.col] ? <CloseButton size="sm" aria-label={`Clear ${f.label}`} onClick={() => setFilterInputs((s) => ({ ...s, [f.col]: '' }))} /> : null}
                />
              ) : (
                <FilterSelect key={f.col} filter={f} value={filterInputs[f.col] || null} onChange={(value) => setFilterInputs((s) => ({ ...s, [f.col]: value ?? '' }))} />
              ),
            )}
            {query.isFetching && !query.isPending && <Loader size={16} />}
          </Group>
        )}
        {(toolbar || card) && (
          <Group gap="xs" wrap="nowrap" mih={36}>
            {card && (
              <SegmentedControl
                size="xs"
                value={view}
                onChange={(v) => setView(v as 'card' | 'list')}
                aria-label="View"
                data={[
                  { value: 'card', label: <IconLayoutGrid size={15} aria-label="Card view" data-testid="card-view" /> },
                  { value: 'list', label: <IconList size={15} aria-label="List view" data-testid="list-view" /> },
                ]}
              />
            )}
            {toolbar}
          </Group>
        )}
      </Group>

      {query.isError && (
        <Alert m="md" color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Sorry, an error occurred">
          {errorOf(query.error).error}
        </Alert>
      )}

      {view === 'card' && card ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 4 }} spacing="md" p="md" role="list" aria-label={label}>
          {data.map((row) => (
            <div role="listitem" key={rowId(row)}>
              {card(row)}
            </div>
          ))}
        </SimpleGrid>
      ) : (
        <ScrollArea type="auto">
          <Table aria-label={label} highlightOnHover verticalSpacing="sm" horizontalSpacing="md" className={classes.table}>
            <Table.Thead>
              {table.getHeaderGroups().map((group) => (
                <Table.Tr key={group.id}>
                  {group.headers.map((header) => {
                    const sortable = header.column.getCanSort() && header.column.id !== '__select';
                    const dir = header.column.getIsSorted();
                    const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
                    return (
                      <Table.Th
                        key={header.id}
                        w={header.column.id === '__select' ? 44 : undefined}
                        aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}
                      >
                        {sortable ? (
                          <UnstyledButton className={classes.sort} onClick={header.column.getToggleSortingHandler()} data-sorted={dir || undefined}>
                            {content}
                            {dir === 'asc' ? <IconArrowUp size={14} /> : dir === 'desc' ? <IconArrowDown size={14} /> : <IconArrowsSort size={14} className={classes.sortIdle} />}
                          </UnstyledButton>
                        ) : (
                          content
                        )}
                      </Table.Th>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Thead>
            <Table.Tbody>
              {table.getRowModel().rows.map((row) => (
                <Table.Tr key={row.id} data-selected={row.getIsSelected() || undefined} bg={row.getIsSelected() ? 'var(--mantine-primary-color-light)' : undefined}>
                  {row.getVisibleCells().map((cell) => (
                    <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}

      {query.isPending && (
        <Center py={60}>
          <Loader size="sm" />
        </Center>
      )}
      {!query.isPending && !query.isError && data.length === 0 && (
        <Box py={48}>
          <EmptyState
            icon={<IconInbox size={26} stroke={1.5} />}
            withIndicatorBackground
            title={filtering ? 'No results match your filters' : (emptyState?.title ?? 'No data yet')}
            description={filtering ? 'Try a different search or clear the filters.' : emptyState?.description}
          />
        </Box>
      )}

      <Group className={classes.footer} justify="space-between">
        <Text size="sm" c="dimmed">
          {count > 0 ? `${from}–${to} of ${count}` : ''}
        </Text>
        {pages > 1 && (
          <Pagination
            size="sm"
            total={pages}
            value={page + 1}
            onChange={(p) => setPage(p - 1)}
            withEdges={pages > 5}
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
            getControlProps={(control) => ({ 'aria-label': PAGE_CONTROL_LABELS[control] })}
          />
        )}
      </Group>
    </Paper>
  );
}

/** A select filter; its options are given, or read from the server once it is first opened. */
function FilterSelect({ filter, value, onChange }: { filter: ListViewFilter; value: string | null; onChange: (value: string | null) => void }) {
  const [opened, setOpened] = useState(false);
  const loaded = useQuery({ queryKey: ['list-filter-options', filter.col, filter.label], queryFn: () => filter.loadOptions!(), enabled: !!filter.loadOptions && (opened || !!value), staleTime: 60_000 });
  return (
    <Select
      size="sm"
      className={classes.selectFilter}
      aria-label={filter.label}
      placeholder={filter.label}
      data={filter.options ?? loaded.data ?? []}
      searchable={!!filter.loadOptions}
      nothingFoundMessage={loaded.isFetching ? 'Loading…' : 'No options'}
      clearable
      value={value}
      onDropdownOpen={() => setOpened(true)}
      onChange={onChange}
    />
  );
}
