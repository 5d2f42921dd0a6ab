import { useEffect, useMemo } from 'react';
import { chartTheme } from '../shared/theme';
import type { ChartProps } from '../types';
import { headerSpans, type PivotProps } from './transform-props';

/** A row's headers; a pivot without row columns still gives each row its one, blank (its 'Total' row names itself). */
const keysOf = (keys: string[]) => (keys.length ? keys : ['']);

/**
 * The pivot as an HTML table, laid out as Superset's: each column header level is named on its left (a column's name,
 * or 'metric'), the row columns are named on a line of their own above the rows; row headers on the left, spanning
 * column headers on top, totals in bold.
 */
export default function PivotTableChart({ transformed: p, width, height, theme, onRendered }: ChartProps<PivotProps>) {
  const t = chartTheme(theme);
  useEffect(() => {
    onRendered?.();
  }, [onRendered]);
  const border = `1px solid ${t.splitLine}`;
  const lead = p.rowHeaders.length;
  const rowSpans = useMemo(() => headerSpans(p.rows.map((r) => keysOf(r.keys))), [p.rows]);
  const dataColumns = (p.columnLevels.at(-1) ?? []).reduce((n, [, span]) => n + span, 0);
  const head = { padding: '4px 8px', borderBottom: border, borderRight: border, fontWeight: 600, whiteSpace: 'nowrap' as const, background: theme === 'dark' ? '#2c2e33' : '#f8f9fa' };
  return (
    <div style={{ width, height, overflow: 'auto' }} data-testid="pivot-table">
      <table style={{ borderCollapse: 'collapse', fontSize: 13, color: t.text }}>
        <thead>
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
          {p.rows.map((row, i) => (
            <tr key={i} style={{ fontWeight: row.total ? 700 : 400 }}>
              {keysOf(row.keys).map((k, j, keys) => {
                const span = rowSpans[i]![j]!;
                // The last row header also covers the column of the column levels' names, as Superset's does.
                return span === 0 ? null : (
                  <th key={j} rowSpan={span} colSpan={j === keys.length - 1 ? 2 : 1} style={{ ...head, fontWeight: row.total ? 700 : 600, textAlign: 'left', verticalAlign: 'top' }}>
                    {k}
                  </th>
                );
              })}
              {row.cells.map((c, j) => (
                <td key={j} style={{ padding: '4px 8px', borderBottom: border, borderRight: border, textAlign: 'right', whiteSpace: 'nowrap' }}>
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
