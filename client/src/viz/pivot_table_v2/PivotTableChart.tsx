import { useEffect, useMemo } from 'react';
import { chartTheme } from '../shared/theme';
import type { ChartProps } from '../types';
import { headerSpans, type PivotProps } from './transform-props';

/** The pivot as an HTML table: row headers on the left, spanning column headers on top, totals in bold. */
export default function PivotTableChart({ transformed: p, width, height, theme, onRendered }: ChartProps<PivotProps>) {
  const t = chartTheme(theme);
  useEffect(() => {
    onRendered?.();
  }, [onRendered]);
  const border = `1px solid ${t.splitLine}`;
  const rowSpans = useMemo(() => headerSpans(p.rows.map((r) => r.keys)), [p.rows]);
  const head = { padding: '4px 8px', borderBottom: border, borderRight: border, fontWeight: 600, whiteSpace: 'nowrap' as const, background: theme === 'dark' ? '#2c2e33' : '#f8f9fa' };
  return (
    <div style={{ width, height, overflow: 'auto' }} data-testid="pivot-table">
      <table style={{ borderCollapse: 'collapse', fontSize: 13, color: t.text }}>
        <thead>
          {p.columnLevels.map((level, i) => (
            <tr key={i}>
              {p.rowHeaders.map((h, j) => (
                <th key={`r${j}`} style={head}>
                  {i === p.columnLevels.length - 1 ? h : ''}
                </th>
              ))}
              {level.map(([label, span], j) => (
                <th key={j} colSpan={span} style={{ ...head, textAlign: 'center' }}>
                  {label}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {p.rows.map((row, i) => (
            <tr key={i} style={{ fontWeight: row.total ? 700 : 400 }}>
              {row.keys.map((k, j) => {
                const span = rowSpans[i]![j]!;
                return span === 0 ? null : (
                  <th key={j} rowSpan={span} style={{ ...head, fontWeight: row.total ? 700 : 600, textAlign: 'left', verticalAlign: 'top' }}>
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
