import { ActionIcon, Group, Loader, ScrollArea, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconCopy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { cellText } from '../components/cell-text';
import { rowCountText } from '../components/row-count';
import { copyWithToast } from '../query-history/app-link';
import type { FormData, QueryContext } from '../viz/types';
import { fetchChartData, fetchSamples } from './explore.api';
import classes from './explore.module.css';

const MAX_SHOWN = 500;

/**
 * Rows under their column names, the first MAX_SHOWN drawn, with a copy-as-TSV button (also the dashboard's "View as
 * table"). Temporal columns (by the answer's `coltypes`) read as date-times, on screen and in the copy alike.
 */
export function RowsTable({ rows, colnames, coltypes, total, height = 200, maxHeight }: { rows: Record<string, unknown>[]; colnames: string[]; coltypes?: number[]; total: number; height?: number; maxHeight?: string }) {
  const text = (row: Record<string, unknown>, i: number) => cellText(row[colnames[i]!], coltypes?.[i]);
  const tsv = [colnames.join('\t'), ...rows.map((r) => colnames.map((_, i) => text(r, i)).join('\t'))].join('\n');
  const table = (
        <Table striped highlightOnHover stickyHeader fz="xs" withColumnBorders>
          <Table.Thead>
            <Table.Tr>
              {colnames.map((c) => (
                <Table.Th key={c} style={{ whiteSpace: 'nowrap' }}>
                  {c}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.slice(0, MAX_SHOWN).map((r, i) => (
              <Table.Tr key={i}>
                {colnames.map((c, j) => (
                  <Table.Td key={c} style={{ whiteSpace: 'nowrap' }}>
                    {text(r, j)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
  );
  return (
    <>
      <Group justify="space-between" px="xs" py={4}>
        <Text size="xs" c="dimmed" data-testid="rows-count">
          {rowCountText(total)}
          {rows.length > MAX_SHOWN ? ` (first ${MAX_SHOWN} shown)` : ''}
        </Text>
        <Tooltip label="Copy to clipboard">
          <ActionIcon size="sm" variant="subtle" aria-label="Copy rows" onClick={() => void copyWithToast(tsv)}>
            <IconCopy size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {maxHeight ? (
        <ScrollArea.Autosize mah={maxHeight} type="auto">
          {table}
        </ScrollArea.Autosize>
      ) : (
        <ScrollArea h={height} type="auto">
          {table}
        </ScrollArea>
      )}
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
      <RowsTable rows={q.data.data ?? []} colnames={q.data.colnames ?? Object.keys(q.data.data?.[0] ?? {})} coltypes={q.data.coltypes} total={q.data.rowcount ?? q.data.data?.length ?? 0} />
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
