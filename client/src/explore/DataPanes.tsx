import { ActionIcon, Group, Loader, Tabs, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconCopy, IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { GenericDataType } from '@meridian/contracts/rules/constants';
import { fileName, saveBlob } from '../charts/chart-export';
import { ResultsGrid, rowsAsTsv } from '../components/ResultsGrid';
import { rowCountText } from '../components/row-count';
import { rowsCsvRecords } from '../components/rows-csv';
import { copyWithToast } from '../query-history/app-link';
import type { FormData, QueryContext } from '../viz/types';
import { fetchChartData, fetchSamples } from './explore.api';
import classes from './explore.module.css';

const ROW_HEIGHT = 28;
const TYPE_NAMES: Record<number, string> = { [GenericDataType.NUMERIC]: 'NUMERIC', [GenericDataType.STRING]: 'STRING', [GenericDataType.TEMPORAL]: 'TEMPORAL', [GenericDataType.BOOLEAN]: 'BOOLEAN' };

/**
 * Every row of an answer under its column names in the virtualised results grid, with the row count, a copy-as-TSV
 * button and a CSV download named `csvName` (Explore's Results and Samples panes, the dashboard's "View as table").
 * Temporal columns (by the answer's `coltypes`) read as date-times, on screen, in the copy and in the CSV alike.
 * The grid is at most `height` px tall, less when the rows need less.
 */
export function RowsTable({ rows, colnames, coltypes, total, height = 200, csvName = 'results' }: { rows: Record<string, unknown>[]; colnames: string[]; coltypes?: number[]; total: number; height?: number; csvName?: string }) {
  const columns = useMemo(() => colnames.map((name, i) => ({ column_name: name, type: TYPE_NAMES[coltypes?.[i] ?? -1] ?? null, is_dttm: coltypes?.[i] === GenericDataType.TEMPORAL, type_generic: coltypes?.[i] })), [colnames, coltypes]);
  const downloadCsv = async () => {
    const { stringify } = await import('csv-stringify/browser/esm/sync');
    saveBlob(new Blob([stringify(rowsCsvRecords(colnames, coltypes, rows))], { type: 'text/csv' }), fileName(csvName, 'csv'));
  };
  // The header row, the rows, and room for a horizontal scroll bar.
  const gridHeight = Math.max(3 * ROW_HEIGHT, Math.min(height, (rows.length + 1) * ROW_HEIGHT + 16));
  return (
    <>
      <Group justify="space-between" px="xs" py={4}>
        <Text size="xs" c="dimmed" data-testid="rows-count">
          {rowCountText(total)}
        </Text>
        <Group gap={2}>
          <Tooltip label="Copy to clipboard">
            <ActionIcon size="sm" variant="subtle" aria-label="Copy rows" onClick={() => void copyWithToast(rowsAsTsv(columns, rows, true))}>
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
      <ResultsGrid columns={columns} rows={rows} total={rows.length} height={gridHeight} temporalAsDateTime />
    </>
  );
}

/** Results (the chart's rows before drawing) and Samples (the dataset's rows), under the chart. */
export function DataPanes({ pane, onPane, formData, queryContext, datasourceKey }: { pane: 'results' | 'samples' | null; onPane: (p: 'results' | 'samples' | null) => void; formData: FormData; queryContext: () => QueryContext; datasourceKey: string }) {
  const results = useQuery({
    queryKey: ['explore-results', JSON.stringify(formData)],
    queryFn: async () => (await fetchChartData(queryContext(), { resultType: 'results' }))[0],
    enabled: pane === 'results',
    staleTime: 30_000,
  });
  const samples = useQuery({ queryKey: ['explore-samples', datasourceKey], queryFn: () => fetchSamples(datasourceKey), enabled: pane === 'samples', staleTime: 30_000 });
  const body = (q: typeof results | typeof samples) =>
    q.isFetching ? (
      <Loader size="sm" m="sm" />
    ) : q.isError ? (
      <Text c="red" size="xs" p="xs">
        {(q.error as Error).message}
      </Text>
    ) : q.data ? (
      // The count is of the rows shown (Superset's pane label): a Samples page of 100 reads '100 rows', not the dataset's total.
      <RowsTable rows={q.data.data ?? []} colnames={q.data.colnames ?? Object.keys(q.data.data?.[0] ?? {})} coltypes={q.data.coltypes} total={q.data.rowcount ?? q.data.data?.length ?? 0} height={260} csvName={`${q === results ? 'results' : 'samples'}`} />
    ) : null;
  return (
    <div className={classes.dataPanes}>
      <Tabs value={pane} onChange={(v) => onPane(v === pane ? null : (v as 'results' | 'samples'))} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="results">Results</Tabs.Tab>
          <Tabs.Tab value="samples">Samples</Tabs.Tab>
          <ActionIcon variant="subtle" color="gray" ml="auto" my="auto" aria-label={pane ? 'Hide data' : 'Show data'} onClick={() => onPane(pane ? null : 'results')}>
            {pane ? <IconChevronDown size={14} /> : <IconChevronUp size={14} />}
          </ActionIcon>
        </Tabs.List>
        <Tabs.Panel value="results">{body(results)}</Tabs.Panel>
        <Tabs.Panel value="samples">{body(samples)}</Tabs.Panel>
      </Tabs>
    </div>
  );
}
