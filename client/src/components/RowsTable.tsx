import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconCopy, IconFileTypeCsv } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { GenericDataType } from '@meridian/contracts/rules/constants';
import { fileName, saveBlob } from '../charts/chart-export';
import { copyWithToast } from '../query-history/app-link';
import { filterRows, ResultsGrid, rowsAsTsv } from './ResultsGrid';
import { RowFilterInput } from './RowFilterInput';
import { rowCountText } from './row-count';
import { rowsCsvRecords } from './rows-csv';

const ROW_HEIGHT = 28;
const TYPE_NAMES: Record<number, string> = { [GenericDataType.NUMERIC]: 'NUMERIC', [GenericDataType.STRING]: 'STRING', [GenericDataType.TEMPORAL]: 'TEMPORAL', [GenericDataType.BOOLEAN]: 'BOOLEAN' };

/**
 * Every row of an answer under its column names in the virtualised results grid, with a search (the rows with a cell
 * containing its text), the row count, a copy-as-TSV button and a CSV download named `csvName` of the rows shown
 * (Explore's Results and Samples panes, the dashboard's "View as table", as Superset's data table panes).
 * Temporal columns (by the answer's `coltypes`) read as date-times, on screen, in the copy and in the CSV alike.
 * The grid is at most `height` px tall, less when the rows need less.
 */
export function RowsTable({ rows, colnames, coltypes, total, height = 200, csvName = 'results' }: { rows: Record<string, unknown>[]; colnames: string[]; coltypes?: number[]; total: number; height?: number; csvName?: string }) {
  const columns = useMemo(() => colnames.map((name, i) => ({ column_name: name, type: TYPE_NAMES[coltypes?.[i] ?? -1] ?? null, is_dttm: coltypes?.[i] === GenericDataType.TEMPORAL, type_generic: coltypes?.[i] })), [colnames, coltypes]);
  const [search, setSearch] = useState('');
  const shown = useMemo(() => filterRows(columns, rows, search, true), [columns, rows, search]);
  const downloadCsv = async () => {
    const { stringify } = await import('csv-stringify/browser/esm/sync');
    saveBlob(new Blob([stringify(rowsCsvRecords(colnames, coltypes, shown))], { type: 'text/csv' }), fileName(csvName, 'csv'));
  };
  // The header row, the rows, and room for a horizontal scroll bar.
  const gridHeight = Math.max(3 * ROW_HEIGHT, Math.min(height, (rows.length + 1) * ROW_HEIGHT + 16));
  return (
    <>
      <Group justify="space-between" px="xs" py={4} wrap="nowrap">
        <RowFilterInput w={220} placeholder="Search" label="Search rows" clearLabel="Clear the search" value={search} onChange={setSearch} />
        <Group gap={2} wrap="nowrap">
          <Text size="xs" c="dimmed" mr="xs" data-testid="rows-count">
            {shown === rows ? rowCountText(total) : `${shown.length.toLocaleString('en-US')} of ${rowCountText(total)}`}
          </Text>
          <Tooltip label="Copy to clipboard">
            <ActionIcon size="sm" variant="subtle" aria-label="Copy rows" onClick={() => void copyWithToast(rowsAsTsv(columns, shown, true))}>
              <IconCopy size={14} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Download as CSV">
            <ActionIcon size="sm" variant="subtle" aria-label="Download as CSV" onClick={() => void downloadCsv()}>
              <IconFileTypeCsv size={14} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <ResultsGrid columns={columns} rows={shown} total={shown.length} height={gridHeight} temporalAsDateTime />
    </>
  );
}
