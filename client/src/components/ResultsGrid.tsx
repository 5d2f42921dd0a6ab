import { Box, Menu, Text, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
  type SortingFn,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { isLosslessNumber } from 'lossless-json';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { QueryColumn } from '@meridian/contracts/sqllab/index';
import { compareNatural } from '@meridian/contracts/rules/natural-order';
import { GenericDataType } from '@meridian/contracts/rules/constants';
import { copyWithToast } from '../query-history/app-link';
import { cellText } from './cell-text';
import classes from './ResultsGrid.module.css';

export type ResultRow = Record<string, unknown>;

/** Rows per page request (SQL Lab's `/api/v1/sqllab/results/`) while scrolling. */
export const PAGE_ROWS = 1000;
/** Pages kept in memory; the farthest from the viewport are dropped first. */
const MAX_CACHED_PAGES = 60;
const ROW_HEIGHT = 28;
const ROW_NUMBER_WIDTH = 64;

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  const an = isLosslessNumber(a) ? Number(a.toString()) : a;
  const bn = isLosslessNumber(b) ? Number(b.toString()) : b;
  if (isLosslessNumber(a) && isLosslessNumber(b)) {
    const as = a.toString();
    const bs = b.toString();
    if (/^-?\d+$/.test(as) && /^-?\d+$/.test(bs)) {
      const diff = BigInt(as) - BigInt(bs);
      return diff === 0n ? 0 : diff < 0n ? -1 : 1;
    }
  }
  if (typeof an === 'number' && typeof bn === 'number') return an - bn;
  return compareNatural(String(an), String(bn));
}

const sortValues: SortingFn<ResultRow> = (a, b, columnId) => compareValues(a.getValue(columnId), b.getValue(columnId));

function initialWidth(column: QueryColumn, sample: ResultRow[], temporalAsDateTime: boolean): number {
  const name = column.column_name ?? column.name ?? '';
  let chars = name.length + 3;
  for (const row of sample.slice(0, 50)) chars = Math.max(chars, cellText(row[name], temporalAsDateTime ? column.type_generic : undefined).length);
  return Math.round(Math.min(360, Math.max(90, chars * 7.4 + 24)));
}

/** Asks for `limit` rows of the stored result from row `offset`. */
export type FetchRowsPage = (offset: number, limit: number) => Promise<ResultRow[]>;

/** The page cache of a paged result: pages fetched around the viewport, a bounded number kept. */
function usePagedRows(resultsKey: string | null | undefined, total: number, initialRows: ResultRow[], paged: boolean, fetchPage: FetchRowsPage | undefined) {
  const pages = useRef(new Map<number, ResultRow[]>());
  const inFlight = useRef(new Set<number>());
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    pages.current = new Map();
    inFlight.current = new Set();
    const full = Math.floor(initialRows.length / PAGE_ROWS);
    for (let page = 0; page < full; page++) pages.current.set(page, initialRows.slice(page * PAGE_ROWS, (page + 1) * PAGE_ROWS));
    if (initialRows.length === total && initialRows.length % PAGE_ROWS) pages.current.set(full, initialRows.slice(full * PAGE_ROWS));
    setVersion((v) => v + 1);
  }, [resultsKey, total, initialRows]);

  const ensure = useCallback(
    (first: number, last: number) => {
      if (!paged || !resultsKey || !fetchPage) return;
      const firstPage = Math.max(0, Math.floor(first / PAGE_ROWS));
      const lastPage = Math.min(Math.floor((total - 1) / PAGE_ROWS), Math.floor(last / PAGE_ROWS));
      for (let page = firstPage; page <= lastPage; page++) {
        if (pages.current.has(page) || inFlight.current.has(page)) continue;
        inFlight.current.add(page);
        fetchPage(page * PAGE_ROWS, PAGE_ROWS)
          .then((rows) => {
            pages.current.set(page, rows ?? []);
            // Keep memory bounded: drop the pages farthest from the one just needed.
            if (pages.current.size > MAX_CACHED_PAGES) {
              const far = [...pages.current.keys()].sort((a, b) => Math.abs(b - page) - Math.abs(a - page));
              for (const key of far.slice(0, pages.current.size - MAX_CACHED_PAGES)) pages.current.delete(key);
            }
            setError(null);
            setVersion((v) => v + 1);
          })
          .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
          .finally(() => inFlight.current.delete(page));
      }
    },
    [paged, resultsKey, total, fetchPage],
  );

  const rowAt = useCallback((index: number): ResultRow | undefined => pages.current.get(Math.floor(index / PAGE_ROWS))?.[index % PAGE_ROWS], []);
  return { rowAt, ensure, version, error };
}

/** The rows with a cell containing the text, ignoring case (cells read as the grid shows them: NULL, all digits, and date-times when asked). */
export function filterRows(columns: QueryColumn[], rows: ResultRow[], text: string, temporalAsDateTime = false): ResultRow[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return rows;
  const names = columns.map((c) => c.column_name ?? c.name ?? '');
  const types = columns.map((c) => (temporalAsDateTime ? c.type_generic : undefined));
  return rows.filter((row) => names.some((name, i) => cellText(row[name], types[i]).toLowerCase().includes(needle)));
}

export interface ResultsGridProps {
  columns: QueryColumn[];
  /** Rows already at hand (the execute answer's first page, or the whole result). */
  rows: ResultRow[];
  /** When the results are filtered: the matching rows among `rows` (the grid then stops paging, as when sorted). */
  filteredRows?: ResultRow[];
  /** Rows in the stored result; more than `rows.length` means the grid pages from the server with `fetchPage`. */
  total: number;
  /** The stored result's identity: a new key starts a new page cache. */
  resultsKey?: string | null;
  fetchPage?: FetchRowsPage;
  height: number;
  /** A temporal column's epoch numbers read as date-times, as Superset shows them in Explore (SQL Lab shows what the database gave). */
  temporalAsDateTime?: boolean;
}

interface CellMenu {
  x: number;
  y: number;
  rowIndex: number;
  column: string;
}

/**
 * The results grid: TanStack Table for columns (resize, sort) and TanStack Virtual for rows and columns.
 * A result larger than the rows at hand is paged with `fetchPage` (SQL Lab's `/api/v1/sqllab/results/`) as the viewport moves,
 * so a million rows scroll without ever being loaded whole. Sorting a paged result sorts the rows loaded with it
 * (the first page, as many as Superset's grid shows) and says so; clearing the sort scrolls the whole result again.
 */
export const ResultsGrid = memo(function ResultsGrid({ columns, rows, filteredRows, total, resultsKey, fetchPage, height, temporalAsDateTime = false }: ResultsGridProps) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const paged = total > rows.length && Boolean(resultsKey) && Boolean(fetchPage);
  // Sorting or filtering a paged result works on the loaded rows only: the grid stops paging meanwhile.
  const sortedWithinLoaded = paged && sorting.length > 0;
  const filteredWithinLoaded = paged && filteredRows !== undefined;
  const scrollsPages = paged && !sortedWithinLoaded && !filteredWithinLoaded;
  const { rowAt, ensure, version, error } = usePagedRows(resultsKey, total, rows, scrollsPages, fetchPage);
  const typeOf = (name: string) => (temporalAsDateTime ? columns.find((c) => (c.column_name ?? c.name) === name)?.type_generic : undefined);
  const text = (value: unknown, name: string) => cellText(value, typeOf(name));
  const [menu, setMenu] = useState<CellMenu | null>(null);
  const [selected, setSelected] = useState<{ row: number; column: string } | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const columnDefs = useMemo<ColumnDef<ResultRow>[]>(
    () =>
      columns.map((column) => {
        const name = column.column_name ?? column.name ?? '';
        return {
          id: name,
          accessorFn: (row: ResultRow) => row[name],
          header: name,
          size: initialWidth(column, rows, temporalAsDateTime),
          minSize: 60,
          maxSize: 1200,
          sortingFn: sortValues,
          meta: column,
        };
      }),
    [columns, rows, temporalAsDateTime],
  );

  const table = useReactTable({
    data: scrollsPages ? [] : (filteredRows ?? rows),
    columns: columnDefs,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    columnResizeMode: 'onChange',
    enableColumnResizing: true,
  });

  const sortedRows = scrollsPages ? null : table.getRowModel().rows;
  const getRow = useCallback(
    (index: number): ResultRow | undefined => (sortedRows ? sortedRows[index]?.original : rowAt(index)),
    // version: a page arrived
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [sortedRows, rowAt, version],
  );

  const leafColumns = table.getVisibleLeafColumns();
  const rowVirtualizer = useVirtualizer({
    count: scrollsPages ? total : (sortedRows?.length ?? 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });
  const columnVirtualizer = useVirtualizer({
    horizontal: true,
    count: leafColumns.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => leafColumns[index]?.getSize() ?? 120,
    overscan: 4,
  });
  const columnSizing = table.getState().columnSizing;
  useEffect(() => {
    columnVirtualizer.measure();
  }, [columnSizing, columnVirtualizer]);

  const virtualRows = rowVirtualizer.getVirtualItems();
  const virtualColumns = columnVirtualizer.getVirtualItems();
  const firstRow = virtualRows[0]?.index ?? 0;
  const lastRow = virtualRows[virtualRows.length - 1]?.index ?? 0;
  useEffect(() => {
    ensure(firstRow - PAGE_ROWS / 4, lastRow + PAGE_ROWS / 4);
  }, [ensure, firstRow, lastRow]);

  const totalWidth = columnVirtualizer.getTotalSize() + ROW_NUMBER_WIDTH;
  const padLeft = virtualColumns[0]?.start ?? 0;

  const rowAsText = (row: ResultRow | undefined) => leafColumns.map((c) => text(row?.[c.id], c.id)).join('\t');
  const copyCell = (rowIndex: number, column: string) => void copyWithToast(text(getRow(rowIndex)?.[column], column));
  const copyRow = (rowIndex: number) => void copyWithToast(rowAsText(getRow(rowIndex)));

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onKey = (event: KeyboardEvent) => {
      if (selected && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'c') {
        event.preventDefault();
        copyCell(selected.row, selected.column);
      }
    };
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  });

  return (
    <Box pos="relative" className={classes.grid} style={{ height }}>
      <div
        ref={scrollRef}
        className={classes.gridScroll}
        tabIndex={0}
        role="grid"
        aria-rowcount={filteredRows ? filteredRows.length : scrollsPages || !paged ? total : rows.length}
        aria-colcount={leafColumns.length}
        data-testid="results-grid"
        style={{ height }}
      >
        <div style={{ width: totalWidth, height: rowVirtualizer.getTotalSize() + ROW_HEIGHT, position: 'relative' }}>
          {/* Header */}
          <div className={classes.gridHeader} style={{ width: totalWidth, height: ROW_HEIGHT }} role="row">
            <div className={classes.rowNumberHeader} style={{ width: ROW_NUMBER_WIDTH }} />
            <div style={{ width: padLeft, flex: 'none' }} />
            {virtualColumns.map((vc) => {
              const column = leafColumns[vc.index];
              const header = table.getHeaderGroups()[0].headers[vc.index];
              const meta = column.columnDef.meta as QueryColumn | undefined;
              const sorted = column.getIsSorted();
              return (
                <div
                  key={column.id}
                  role="columnheader"
                  className={classes.headerCell}
                  style={{ width: column.getSize() }}
                  data-numeric={meta?.type_generic === 0 || undefined}
                >
                  <Tooltip
                    label={paged ? `${column.id} · ${meta?.type ?? ''} — sorts within loaded rows (the first ${rows.length.toLocaleString('en-US')})` : `${column.id} · ${meta?.type ?? ''}`}
                    openDelay={500}
                  >
                    <button
                      type="button"
                      className={classes.headerButton}
                      onClick={column.getToggleSortingHandler()}
                      disabled={!column.getCanSort()}
                    >
                      <span className={classes.headerLabel}>{flexRender(header.column.columnDef.header, header.getContext())}</span>
                      {column.getCanSort() &&
                        (sorted === 'asc' ? <IconArrowUp size={13} /> : sorted === 'desc' ? <IconArrowDown size={13} /> : <IconArrowsSort size={13} className={classes.sortIdle} />)}
                    </button>
                  </Tooltip>
                  <div
                    className={classes.resizer}
                    data-resizing={column.getIsResizing() || undefined}
                    onMouseDown={header.getResizeHandler()}
                    onTouchStart={header.getResizeHandler()}
                    onDoubleClick={() => column.resetSize()}
                    role="separator"
                    aria-label={`Resize ${column.id}`}
                  />
                </div>
              );
            })}
          </div>
          {/* Body */}
          {virtualRows.map((vr) => {
            const row = getRow(vr.index);
            return (
              <div
                key={vr.index}
                role="row"
                aria-rowindex={vr.index + 1}
                className={classes.gridRow}
                data-odd={vr.index % 2 === 1 || undefined}
                style={{ transform: `translateY(${vr.start + ROW_HEIGHT}px)`, height: ROW_HEIGHT, width: totalWidth }}
              >
                <div className={classes.rowNumber} style={{ width: ROW_NUMBER_WIDTH }}>
                  {vr.index + 1}
                </div>
                <div style={{ width: padLeft, flex: 'none' }} />
                {virtualColumns.map((vc) => {
                  const column = leafColumns[vc.index];
                  const meta = column.columnDef.meta as QueryColumn | undefined;
                  if (!row) {
                    return (
                      <div key={column.id} className={classes.cell} style={{ width: column.getSize() }}>
                        <span className={classes.placeholder} />
                      </div>
                    );
                  }
                  const value = row[column.id];
                  const isSelected = selected?.row === vr.index && selected.column === column.id;
                  return (
                    <div
                      key={column.id}
                      role="gridcell"
                      className={classes.cell}
                      data-null={value === null || value === undefined || undefined}
                      data-numeric={meta?.type_generic === GenericDataType.NUMERIC || undefined}
                      data-selected={isSelected || undefined}
                      style={{ width: column.getSize() }}
                      title={text(value, column.id).length > 30 ? text(value, column.id) : undefined}
                      onClick={() => setSelected({ row: vr.index, column: column.id })}
                      onContextMenu={(event) => {
                        event.preventDefault();
                        setSelected({ row: vr.index, column: column.id });
                        setMenu({ x: event.clientX, y: event.clientY, rowIndex: vr.index, column: column.id });
                      }}
                    >
                      {text(value, column.id)}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
      {(sortedWithinLoaded || filteredWithinLoaded) && (
        <Text size="xs" className={classes.sortNotice} data-testid="sort-notice">
          {sortedWithinLoaded && filteredWithinLoaded ? 'Sorted and filtered' : sortedWithinLoaded ? 'Sorted' : 'Filtered'} within loaded rows: the first{' '}
          {rows.length.toLocaleString('en-US')} of {total.toLocaleString('en-US')}. Clear the {sortedWithinLoaded && filteredWithinLoaded ? 'sort and the filter' : sortedWithinLoaded ? 'sort' : 'filter'} to scroll every row.
        </Text>
      )}
      {error && (
        <Text size="xs" c="red" className={classes.gridError}>
          {error}
        </Text>
      )}
      <Menu opened={menu !== null} onChange={(open) => !open && setMenu(null)} position="bottom-start" withinPortal shadow="md">
        <Menu.Target>
          <div style={{ position: 'fixed', left: menu?.x ?? 0, top: menu?.y ?? 0, width: 1, height: 1 }} />
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => menu && copyCell(menu.rowIndex, menu.column)}>Copy cell</Menu.Item>
          <Menu.Item onClick={() => menu && copyRow(menu.rowIndex)}>Copy row</Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Box>
  );
});

/** Tab-separated text of rows (header line first), for 'Copy to clipboard'; `temporalAsDateTime` as the grid's. */
export function rowsAsTsv(columns: QueryColumn[], rows: ResultRow[], temporalAsDateTime = false): string {
  const names = columns.map((c) => c.column_name ?? c.name ?? '');
  const types = columns.map((c) => (temporalAsDateTime ? c.type_generic : undefined));
  return [names.join('\t'), ...rows.map((row) => names.map((n, i) => cellText(row[n], types[i])).join('\t'))].join('\n');
}
