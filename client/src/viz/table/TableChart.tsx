import { ActionIcon, Group, Menu, NativeSelect, Pagination, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconCheck, IconChevronDown, IconCircleMinus, IconCirclePlus, IconInfoCircle, IconTable } from '@tabler/icons-react';
import { flexRender, getCoreRowModel, getFilteredRowModel, getPaginationRowModel, getSortedRowModel, useReactTable, type ColumnDef, type PaginationState, type SortingState, type Updater } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { compareNatural } from '@meridian/contracts/rules/natural-order';
import { chartTheme } from '../shared/theme';
import { toNumber } from '../shared/metrics';
import type { ChartProps } from '../types';
import { safeHtml } from '../shared/html';
import { cellBar, COMPARISON_PICKS, comparisonShown, headerGroups, htmlCandidate, moveColumn, pickComparison, summaryCells, type SortByItem, type TableColumn, type TableProps } from './transform-props';

type Row = Record<string, unknown>;

/** Superset's PAGE_SIZE_OPTIONS, the page sizes a reader can pick. */
const PAGE_SIZES = [[0, 'All'], [10, '10'], [20, '20'], [50, '50'], [100, '100'], [200, '200']] as const;

/** What the summary row's label explains, as Superset's tooltip. */
const SUMMARY_TOOLTIP = 'Show total aggregations of selected metrics. Note that row limit does not apply to the result.';

/** Superset's help text in the comparison columns menu. */
const COMPARISON_HELP = 'Select columns that will be displayed in the table. You can multiselect columns.';

/** Superset's TimeComparisonDropdown: which of a time comparison's '#', '△' and '%' columns are shown ('Main' always is). */
function ComparisonMenu({ picked, onPick }: { picked: string[]; onPick: (key: string | null) => void }) {
  return (
    <Menu position="bottom-end" closeOnItemClick={false} onClose={() => onPick(null)} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="sm" w="auto" px={4} aria-label="Comparison columns" data-testid="table-comparison-menu">
          <IconTable size={14} />
          <IconChevronDown size={12} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label maw={242}>{COMPARISON_HELP}</Menu.Label>
        {COMPARISON_PICKS.map(([key, label]) => (
          <Menu.Item key={key} onClick={() => onPick(key)} rightSection={picked.includes(key) ? <IconCheck size={12} aria-label="selected" /> : null}>
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** A row's height before it is measured (13 px text, 4 px padding, a 1 px border). */
const ROW_HEIGHT = 27;

/** A cell's content: its formatted text, or its HTML as DOMPurify left it ('Render columns in HTML format'). */
function CellContent({ text, html, truncateWidth }: { text: string; html: string | null; truncateWidth?: number }) {
  const content = html === null ? { children: text } : { dangerouslySetInnerHTML: { __html: html } };
  if (truncateWidth) return <div style={{ maxWidth: truncateWidth, overflow: 'hidden', textOverflow: 'ellipsis' }} {...content} />;
  return html === null ? <>{text}</> : <span data-testid="table-html" {...content} />;
}

/** Superset's table chart: sortable headers, optional search and pages, cell bars and conditional colours. */
export default function TableChart({ transformed: p, width, height, theme, onRendered, onDataPointClick, setOwnState }: ChartProps<TableProps>) {
  const t = chartTheme(theme);
  const [sorting, setSorting] = useState<SortingState>([]);
  // The search box's text; with server pagination the server searches it (ownState searchText), kept while typing.
  const [search, setSearch] = useState(p.server?.searchText ?? '');
  // The user's own column order ('Allow columns to be rearranged'), kept while the columns stay the same.
  const [columnOrder, setColumnOrder] = useState<string[]>([]);
  const [dragged, setDragged] = useState<string | null>(null);
  // Rows per page as the reader picks them ('Show N entries', Superset's SelectPageSize), from the chart's page length.
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize: p.pageLength });
  useEffect(() => setPagination({ pageIndex: 0, pageSize: p.pageLength }), [p.pageLength]);
  // 'Server pagination': the page, its size and the order are the chart's own state; a change queries the page anew.
  const server = p.server;
  const changeServer = (next: { currentPage?: number; pageSize?: number; sortBy?: SortByItem[]; searchText?: string; searchColumn?: string | null }) =>
    server && setOwnState?.({ currentPage: server.currentPage, pageSize: server.pageSize, sortBy: server.sortBy ? [server.sortBy] : [], searchText: server.searchText, searchColumn: server.searchColumn, ...next });
  // The server searches what was typed once typing pauses (Superset's 800 ms), from the first page.
  const searchServer = useDebouncedCallback((text: string) => changeServer({ searchText: text, currentPage: 0 }), 800);
  // A search set elsewhere (the form run again from no own state) shows in the box, unless the reader is typing.
  const serverText = server?.searchText;
  useEffect(() => {
    if (serverText !== undefined && !searchServer.isPending()) setSearch(serverText);
  }, [serverText, searchServer]);
  const typeSearch = (text: string) => {
    setSearch(text);
    if (server) searchServer(text);
  };
  const serverSorting: SortingState = server?.sortBy ? [{ id: server.sortBy.key, desc: !!server.sortBy.desc }] : [];
  // A time comparison's shown columns: the menu's picks ('Display all' first) and the metrics whose group is folded.
  const [picked, setPicked] = useState<string[]>(['all']);
  const [folded, setFolded] = useState<string[]>([]);
  const columnVisibility = Object.fromEntries(p.columns.filter((c) => !comparisonShown(c, picked, folded)).map((c) => [c.key, false]));
  const keys = p.columns.map((c) => c.key).join('\u0000');
  useEffect(() => setColumnOrder([]), [keys]);
  const columns = useMemo<ColumnDef<Row>[]>(
    () =>
      p.columns.map((c) => ({
        id: c.key,
        accessorFn: (row) => row[c.key],
        header: c.label,
        // The server orders by what it gives (not a percent metric, computed after the query).
        enableSorting: !server || server.sortable.includes(c.key),
        sortingFn: (a, b, id) => {
          const x = a.getValue(id);
          const y = b.getValue(id);
          const nx = toNumber(x);
          const ny = toNumber(y);
          if (c.isNumeric && nx !== null && ny !== null) return nx - ny;
          return compareNatural(String(x ?? ''), String(y ?? ''));
        },
      })),
    [p.columns, server],
  );
  const table = useReactTable({
    data: p.rows,
    columns,
    // 'All' (0) is one page of every row.
    state: { sorting: server ? serverSorting : sorting, globalFilter: server ? '' : search, columnOrder, columnVisibility, ...(p.pageLength && !server ? { pagination: { ...pagination, pageSize: pagination.pageSize || Math.max(p.rows.length, 1) } } : {}) },
    onColumnOrderChange: setColumnOrder,
    onSortingChange: server
      ? (update: Updater<SortingState>) => {
          const [first] = typeof update === 'function' ? update(serverSorting) : update;
          changeServer({ sortBy: first ? [{ id: first.id, key: first.id, desc: first.desc }] : [] });
        }
      : setSorting,
    manualSorting: !!server,
    globalFilterFn: (row, _id, value: string) => p.columns.some((c) => String(row.original[c.key] ?? '').toLowerCase().includes(value.toLowerCase())),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    ...(p.pageLength && !server
      ? {
          getPaginationRowModel: getPaginationRowModel(),
          // The table moves between pages; the page size is the reader's pick (0 stays 'All').
          onPaginationChange: (update: Updater<PaginationState>) =>
            setPagination((old) => {
              const next = typeof update === 'function' ? update({ ...old, pageSize: old.pageSize || Math.max(p.rows.length, 1) }) : update;
              return { pageIndex: next.pageIndex, pageSize: old.pageSize };
            }),
        }
      : {}),
  });
  useEffect(() => {
    onRendered?.();
  }, [onRendered]);
  // Only the rows in view (and a few around) are in the page: a table of thousands of rows drew every row.
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const shown = virtualizer.getVirtualItems();
  const padTop = shown[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (shown[shown.length - 1]?.end ?? 0);
  const byKey = new Map(p.columns.map((c) => [c.key, c]));
  const html = (col: TableColumn, value: unknown) => {
    const candidate = htmlCandidate(col, value, p.renderHtml);
    return candidate === null ? null : safeHtml(candidate);
  };
  const drawn = table.getVisibleLeafColumns().map((column) => byKey.get(column.id)!);
  const groups = headerGroups(drawn);
  const pageCount = server ? (server.pageSize > 0 ? Math.ceil(server.rowCount / server.pageSize) : 1) : p.pageLength ? table.getPageCount() : 1;
  const pageIndex = server ? server.currentPage : table.getState().pagination?.pageIndex ?? 0;
  // Superset offers a server-paginated table the page sizes up to its row count, and the one in use.
  const pageSizes = server ? PAGE_SIZES.filter(([n]) => n <= server.rowCount || n === server.pageSize) : PAGE_SIZES;
  const topBar = p.includeSearch || p.pageLength > 0 || p.comparing;
  const chromeHeight = (topBar ? 40 : 0) + (pageCount > 1 ? 40 : 0);
  return (
    <div style={{ width, height, display: 'flex', flexDirection: 'column' }} data-testid="table-chart">
      {topBar && (
        <Group justify="space-between" pb={6} wrap="nowrap">
          {p.pageLength > 0 ? (
            <Group gap={6} wrap="nowrap">
              <Text size="xs">Show</Text>
              <NativeSelect
                size="xs"
                aria-label="Page size"
                data={pageSizes.map(([value, label]) => ({ value: String(value), label }))}
                value={String(server ? server.pageSize : pagination.pageSize)}
                onChange={(e) => (server ? changeServer({ currentPage: 0, pageSize: Number(e.currentTarget.value) }) : setPagination({ pageIndex: 0, pageSize: Number(e.currentTarget.value) }))}
              />
              <Text size="xs">entries</Text>
            </Group>
          ) : (
            <span />
          )}
          <Group gap={6} wrap="nowrap">
            {p.includeSearch && server && server.searchOptions.length > 0 && (
              // 'Search by': the column the server searches; a new one starts with no text, as Superset's.
              <>
                <Text size="xs">Search by</Text>
                <NativeSelect
                  size="xs"
                  aria-label="Search by"
                  data={server.searchOptions}
                  value={server.searchColumn ?? ''}
                  onChange={(e) => {
                    searchServer.cancel();
                    setSearch('');
                    changeServer({ searchColumn: e.currentTarget.value, searchText: '' });
                  }}
                />
              </>
            )}
            {p.includeSearch && <TextInput size="xs" placeholder={`Search ${server ? server.rowCount : table.getFilteredRowModel().rows.length} records`} aria-label="Search" value={search} onChange={(e) => typeSearch(e.currentTarget.value)} />}
            {p.comparing && <ComparisonMenu picked={picked} onPick={(key) => setPicked((old) => pickComparison(old, key))} />}
          </Group>
        </Group>
      )}
      <div ref={scrollRef} style={{ overflow: 'auto', height: height - chromeHeight }}>
        <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: 13, color: t.text }}>
          <thead style={{ position: 'sticky', top: 0, background: theme === 'dark' ? '#1a1b1e' : '#fff', zIndex: 1 }}>
            {groups.some((g) => g.group) && (
              // A time comparison's metrics over their four columns (Superset's grouping headers).
              <tr data-testid="table-group-headers">
                {groups.map((g, i) => (
                  <th key={i} colSpan={g.span} style={{ padding: '6px 8px', textAlign: 'center', whiteSpace: 'nowrap', fontWeight: 600, borderBottom: g.group ? `1px solid ${t.splitLine}` : undefined, borderLeft: g.group && i > 0 ? `2px solid ${t.splitLine}` : undefined }}>
                    {g.group}
                    {g.metric !== null && (
                      // Superset's minus and plus icons fold a metric's group to its 'Main' column and back.
                      <ActionIcon variant="transparent" color="gray" size="xs" ml={4} style={{ verticalAlign: 'middle' }} aria-label={`${folded.includes(g.metric) ? 'Show' : 'Hide'} ${g.group} comparison`} onClick={() => setFolded((old) => (old.includes(g.metric!) ? old.filter((k) => k !== g.metric) : [...old, g.metric!]))}>
                        {folded.includes(g.metric) ? <IconCirclePlus size={13} /> : <IconCircleMinus size={13} />}
                      </ActionIcon>
                    )}
                  </th>
                ))}
              </tr>
            )}
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const sorted = h.column.getIsSorted();
                  const col = byKey.get(h.column.id)!;
                  return (
                    <th
                      key={h.id}
                      style={{ textAlign: col.align, width: col.width, minWidth: col.width, padding: '6px 8px', borderBottom: `2px solid ${t.axisLine}`, whiteSpace: 'nowrap', cursor: p.rearrangeColumns ? 'grab' : 'pointer', fontWeight: 600, opacity: dragged === col.key ? 0.5 : undefined }}
                      onClick={h.column.getToggleSortingHandler()}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                      {...(p.rearrangeColumns
                        ? {
                            draggable: true,
                            onDragStart: (e: React.DragEvent) => {
                              e.dataTransfer.effectAllowed = 'move';
                              e.dataTransfer.setData('text/plain', col.key);
                              setDragged(col.key);
                            },
                            onDragOver: (e: React.DragEvent) => dragged !== null && e.preventDefault(),
                            onDrop: (e: React.DragEvent) => {
                              e.preventDefault();
                              if (dragged !== null) setColumnOrder(moveColumn(table.getVisibleLeafColumns().map((c) => c.id), dragged, col.key));
                              setDragged(null);
                            },
                            onDragEnd: () => setDragged(null),
                          }
                        : {})}
                    >
                      {flexRender(h.column.columnDef.header, h.getContext())}
                      {sorted && <ActionIcon component="span" variant="transparent" size="xs" ml={2}>{sorted === 'asc' ? <IconArrowUp size={12} /> : <IconArrowDown size={12} />}</ActionIcon>}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {padTop > 0 && <tr aria-hidden style={{ height: padTop }} />}
            {shown.map(({ index }) => {
              const row = rows[index]!;
              return (
                <tr key={row.id} data-index={index} ref={virtualizer.measureElement}>
                  {row.getVisibleCells().map((cell) => {
                    const col = byKey.get(cell.column.id)!;
                    const value = cell.getValue();
                    const n = col.isNumeric ? toNumber(value) : null;
                    const bar = col.showCellBars && col.isMetric && n !== null ? cellBar(n, col, col.alignPn) : null;
                    const barColor = col.colorPn && n !== null && n < 0 ? 'rgba(224,49,49,0.25)' : 'rgba(31,168,201,0.25)';
                    const chosen = p.selected !== null && p.groupby.includes(col.key) && String(value) === p.selected;
                    const look = p.comparisonStyle(col, row.original);
                    return (
                      <td
                        key={cell.id}
                        data-selected={chosen || undefined}
                        title={col.truncate ? p.format(col, value) : undefined}
                        style={{
                          padding: '4px 8px',
                          borderBottom: `1px solid ${t.splitLine}`,
                          textAlign: col.align,
                          whiteSpace: 'nowrap',
                          backgroundColor: chosen ? 'var(--mantine-primary-color-light)' : (look?.background ?? p.background(col, value)),
                          fontWeight: chosen ? 600 : undefined,
                          backgroundImage: bar ? `linear-gradient(to right, transparent ${bar.offset}%, ${barColor} ${bar.offset}%, ${barColor} ${bar.offset + bar.width}%, transparent ${bar.offset + bar.width}%)` : undefined,
                          cursor: !col.isMetric && onDataPointClick ? 'pointer' : undefined,
                        }}
                        onClick={(e) => {
                          // A click on a dimension's value emits it (dashboards turn it into a cross-filter).
                          if (!onDataPointClick || col.isMetric || !p.groupby.includes(col.key)) return;
                          onDataPointClick({ filters: [{ col: col.key, op: '==' as const, val: row.original[col.key] }], clientX: e.clientX, clientY: e.clientY, isContextMenu: false });
                        }}
                        onContextMenu={(e) => {
                          if (!onDataPointClick) return;
                          e.preventDefault();
                          const filters = p.groupby.map((g) => ({ col: g, op: '==' as const, val: row.original[g] }));
                          onDataPointClick({ filters, clientX: e.clientX, clientY: e.clientY, isContextMenu: true });
                        }}
                      >
                        {look?.arrow && (
                          <span style={{ color: `var(--mantine-color-${look.arrowColor === 'Green' ? 'green' : 'red'}-text)`, marginRight: 4 }}>{look.arrow}</span>
                        )}
                        <CellContent text={p.format(col, value)} html={html(col, value)} truncateWidth={col.truncate ? col.width : undefined} />
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {padBottom > 0 && <tr aria-hidden style={{ height: padBottom }} />}
          </tbody>
          {p.totals && (
            // Superset's summary row: 'Summary' under the chart's first column, the metrics' totals under theirs.
            <tfoot style={{ position: 'sticky', bottom: 0, background: theme === 'dark' ? '#1a1b1e' : '#fff' }} data-testid="table-totals">
              <tr>
                {summaryCells(drawn, p).map((text, i) => {
                  const col = drawn[i]!;
                  const named = col.key === p.columns[0]?.key;
                  return (
                    <td key={col.key} style={{ padding: '4px 8px', borderTop: `2px solid ${t.axisLine}`, textAlign: named ? 'left' : col.align, whiteSpace: 'nowrap', fontWeight: 700 }}>
                      {named ? (
                        <Group gap={4} wrap="nowrap" component="span" display="inline-flex">
                          {text}
                          <Tooltip label={SUMMARY_TOOLTIP} withArrow multiline w={260}>
                            <IconInfoCircle size={13} aria-label={SUMMARY_TOOLTIP} style={{ opacity: 0.6 }} />
                          </Tooltip>
                        </Group>
                      ) : (
                        text
                      )}
                    </td>
                  );
                })}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      {pageCount > 1 && (
        <Group justify="center" pt={6}>
          <Pagination size="sm" total={pageCount} value={pageIndex + 1} onChange={(page) => (server ? changeServer({ currentPage: page - 1 }) : table.setPageIndex(page - 1))} />
        </Group>
      )}
    </div>
  );
}
