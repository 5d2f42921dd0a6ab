import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { chartTheme } from '../shared/theme';
import type { ChartProps } from '../types';
import type { PivotProps } from './transform-props';

/** A row's headers; a pivot without row columns still gives each row its one, blank (its 'Total' row names itself). */
const keysOf = (keys: string[]) => (keys.length ? keys : ['']);

/** A row's height before it is measured (13 px text at the page's line height, 4 px padding, a 1 px border). */
const ROW_HEIGHT = 29;

/**
 * For each row and row header level, the first row of the group its header spans (the row itself where the header
 * starts): a group that starts above the rows in view is named again on the first of them.
 */
function groupStarts(spans: number[][]): number[][] {
  const starts: number[][] = [];
  spans.forEach((row, i) => starts.push(row.map((span, j) => (span === 0 && i > 0 ? starts[i - 1]![j]! : i))));
  return starts;
}

/**
 * The pivot as an HTML table, laid out as Superset's: each column header level is named on its left (a column's name,
 * or 'metric'), the row columns are named on a line of their own above the rows; row headers on the left, spanning
 * column headers on top, totals in bold. The headers stay on top as the body scrolls, and only the rows in view (and a
 * few around) are in the page: a pivot of thousands of rows drew every row. A row header spans its group's rows in
 * view; a group begun above them is named again on the first.
 */
export default function PivotTableChart({ transformed: p, width, height, theme, onRendered }: ChartProps<PivotProps>) {
  const t = chartTheme(theme);
  useEffect(() => {
    onRendered?.();
  }, [onRendered]);
  const border = `1px solid ${t.splitLine}`;
  const lead = p.rowHeaders.length;
  const rowSpans = p.rowSpans;
  const starts = useMemo(() => groupStarts(rowSpans), [rowSpans]);
  const dataColumns = (p.columnLevels.at(-1) ?? []).reduce((n, [, span]) => n + span, 0);
  const background = theme === 'dark' ? '#2c2e33' : '#f8f9fa';
  const head = { padding: '4px 8px', borderBottom: border, borderRight: border, fontWeight: 600, whiteSpace: 'nowrap' as const, background };
  const scrollRef = useRef<HTMLDivElement>(null);
  // A row header's label sticks below the column headers while its group's rows scroll under them.
  const headRef = useRef<HTMLTableSectionElement>(null);
  const [headHeight, setHeadHeight] = useState(0);
  useLayoutEffect(() => setHeadHeight(headRef.current?.offsetHeight ?? 0), [p, width]);
  const virtualizer = useVirtualizer({ count: p.rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const shown = virtualizer.getVirtualItems();
  const first = shown[0]?.index ?? 0;
  const last = shown[shown.length - 1]?.index ?? -1;
  const padTop = shown[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (shown[shown.length - 1]?.end ?? 0);
  // The whole table's row count and each row's place in it, for assistive technology (only a window is in the page).
  const headerRows = p.columnLevels.length + (p.rowHeaders.some(Boolean) ? 1 : 0);
  return (
    <div ref={scrollRef} style={{ width, height, overflow: 'auto' }} data-testid="pivot-table">
      {/* Separate borders (each cell draws its right and bottom one): collapsed borders scroll away under a sticky header. */}
      <table aria-rowcount={headerRows + p.rows.length} style={{ borderCollapse: 'separate', borderSpacing: 0, fontSize: 13, color: t.text }}>
        <thead ref={headRef} style={{ position: 'sticky', top: 0, zIndex: 1, background }}>
          {p.columnLevels.map((level, i) => (
            <tr key={i}>
              {i === 0 && <th colSpan={lead} rowSpan={p.columnLevels.length} style={head} />}
              <th style={{ ...head, textAlign: 'left' }}>
                {p.columnNames[i]}
              </th>
              {level.map(([label, span], j) => (
                <th key={j} colSpan={span} style={{ ...head, textAlign: 'center' }}>
                  {label}
                </th>
              ))}
            </tr>
          ))}
          {p.rowHeaders.some(Boolean) && (
            <tr>
              {p.rowHeaders.map((h, j) => (
                <th key={j} style={{ ...head, textAlign: 'left' }}>
                  {h}
                </th>
              ))}
              <th style={head} />
              {dataColumns > 0 && <th colSpan={dataColumns} style={head} />}
            </tr>
          )}
        </thead>
        <tbody>
          {padTop > 0 && <tr aria-hidden style={{ height: padTop }} />}
          {shown.map(({ index: i }) => {
            const row = p.rows[i]!;
            return (
              <tr key={i} data-index={i} aria-rowindex={headerRows + i + 1} ref={virtualizer.measureElement} style={{ fontWeight: row.total ? 700 : 400 }}>
                {keysOf(row.keys).map((k, j, keys) => {
                  // A header starts its group, or names again one begun above the rows in view (the group's rows share
                  // this level's key); it spans the group's rows in view.
                  const start = rowSpans[i]![j]! > 0 ? i : i === first ? starts[i]![j]! : -1;
                  if (start < 0) return null;
                  const span = Math.min(start + rowSpans[start]![j]!, last + 1) - i;
                  // The last row header also covers the column of the column levels' names, as Superset's does.
                  return (
                    <th key={j} rowSpan={span} colSpan={j === keys.length - 1 ? 2 : 1} style={{ ...head, fontWeight: row.total ? 700 : 600, textAlign: 'left', verticalAlign: 'top' }}>
                      <div style={{ position: 'sticky', top: headHeight }}>{k}</div>
                    </th>
                  );
                })}
                {row.cells.map((c, j) => (
                  <td key={j} style={{ padding: '4px 8px', borderBottom: border, borderRight: border, textAlign: 'right', whiteSpace: 'nowrap', backgroundColor: row.backgrounds?.[j] }}>
                    {c}
                  </td>
                ))}
              </tr>
            );
          })}
          {padBottom > 0 && <tr aria-hidden style={{ height: padBottom }} />}
        </tbody>
      </table>
    </div>
  );
}
