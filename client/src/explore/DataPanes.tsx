import { ActionIcon, Loader, Tabs, Text } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { LazyRowsTable } from '../components/LazyRowsTable';
import type { FormData, QueryContext } from '../viz/types';
import { fetchChartData, fetchSamples } from './explore.api';
import classes from './explore.module.css';

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
      <LazyRowsTable rows={q.data.data ?? []} colnames={q.data.colnames ?? Object.keys(q.data.data?.[0] ?? {})} coltypes={q.data.coltypes} total={q.data.rowcount ?? q.data.data?.length ?? 0} height={260} csvName={`${q === results ? 'results' : 'samples'}`} />
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
