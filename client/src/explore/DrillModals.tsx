import { Anchor, Breadcrumbs, Group, Loader, Menu, Modal, Pagination, ScrollArea, Stack, Table, Text, useComputedColorScheme } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../api';
import { cellText } from '../components/cell-text';
import { rowCountText } from '../components/row-count';
import { useChartPlugin } from '../viz/registry';
import { SuperChart } from '../viz/shared/SuperChart';
import type { DataPointClick, DatasourceMeta, FormData } from '../viz/types';
import { fetchChartData } from './explore.api';
import { describeFilters, drillByFormData, drillFilters } from './drill';

type Filters = Array<{ col: string; op: string; val: unknown }>;
const PAGE_SIZE = 50;

/** The context menu of a data point: drill to detail (all rows, or by this point) and drill by a column. */
export function DrillMenu({ click, formData, datasource, onClose, onDetail, onDrillBy }: { click: DataPointClick; formData: FormData; datasource: DatasourceMeta | null; onClose: () => void; onDetail: (filters: Filters) => void; onDrillBy: (filters: Filters, column: string) => void }) {
  const filters = drillFilters(click.filters, formData);
  const used = new Set(click.filters.map((f) => f.col));
  const columns = (datasource?.columns ?? []).filter((c) => c.groupby !== false && !used.has(c.column_name));
  return (
    <Menu opened onChange={(o) => !o && onClose()} position="bottom-start" withinPortal shadow="md">
      <Menu.Target>
        <div style={{ position: 'fixed', left: click.clientX, top: click.clientY, width: 1, height: 1 }} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onDetail([])}>Drill to detail</Menu.Item>
        {filters.length > 0 && <Menu.Item onClick={() => onDetail(filters)}>{`Drill to detail by ${describeFilters(filters)}`}</Menu.Item>}
        {filters.length > 0 && columns.length > 0 && (
          <>
            <Menu.Divider />
            <Menu.Label>Drill by</Menu.Label>
            <ScrollArea.Autosize mah={220}>
              {columns.map((c) => (
                <Menu.Item key={c.column_name} onClick={() => onDrillBy(filters, c.column_name)}>
                  {c.verbose_name || c.column_name}
                </Menu.Item>
              ))}
            </ScrollArea.Autosize>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Drill to detail: the underlying rows of the dataset under the chart's filters and the point's, paged. */
export function DrillDetailModal({ formData, filters, onClose }: { formData: FormData; filters: Filters; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const [id, type] = String(formData.datasource ?? '').split('__');
  const rows = useQuery({
    queryKey: ['drill-detail', formData.datasource, JSON.stringify(filters), JSON.stringify(formData.adhoc_filters), page],
    queryFn: async () =>
      (
        await api<{ result: { data: Record<string, unknown>[]; colnames: string[]; coltypes?: number[]; total_count: number } }>('/datasource/samples', {
          method: 'POST',
          query: { datasource_id: id, datasource_type: type || 'table', per_page: PAGE_SIZE, page },
          body: { filters, adhoc_filters: formData.adhoc_filters ?? [], time_range: formData.time_range, granularity: formData.granularity_sqla ?? undefined },
          lossless: true,
        })
      ).result,
  });
  const total = rows.data?.total_count ?? 0;
  return (
    <Modal opened onClose={onClose} title="Drill to detail" size="90%">
      <Stack gap="xs">
        {filters.length > 0 && (
          <Text size="sm" c="dimmed">
            {`Drill to detail by ${describeFilters(filters)}`}
          </Text>
        )}
        {rows.isPending ? (
          <Loader size="sm" />
        ) : rows.isError ? (
          <Text c="red">{rows.error instanceof ApiError ? rows.error.message : String(rows.error)}</Text>
        ) : (
          <>
            <Text size="xs" c="dimmed" data-testid="drill-detail-count">
              {rowCountText(total)}
            </Text>
            <ScrollArea h="55vh" type="auto">
              <Table striped stickyHeader fz="xs" withColumnBorders>
                <Table.Thead>
                  <Table.Tr>{rows.data.colnames.map((c) => <Table.Th key={c}>{c}</Table.Th>)}</Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.data.data.map((r, i) => (
                    <Table.Tr key={i}>{rows.data.colnames.map((c, j) => <Table.Td key={c} style={{ whiteSpace: 'nowrap' }}>{cellText(r[c], rows.data.coltypes?.[j])}</Table.Td>)}</Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            {total > PAGE_SIZE && (
              <Group justify="center">
                <Pagination size="sm" total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} />
              </Group>
            )}
          </>
        )}
      </Stack>
    </Modal>
  );
}

interface DrillStep {
  label: string;
  formData: FormData;
}

function DrillChart({ formData, datasource }: { formData: FormData; datasource: DatasourceMeta | null }) {
  const { ref, width, height } = useElementSize();
  const theme = useComputedColorScheme('light');
  const [rendered, setRendered] = useState(false);
  const [renderError, setRenderError] = useState<string | null>(null);
  const { plugin } = useChartPlugin(formData.viz_type);
  const data = useQuery({ queryKey: ['drill-by', JSON.stringify(formData)], enabled: !!plugin, queryFn: ({ signal }) => fetchChartData(plugin!.buildQuery(formData), { signal }), retry: false });
  return (
    <div ref={ref} style={{ height: '55vh', position: 'relative' }} data-testid="drill-by-chart" data-chart-state={data.isError || renderError ? 'failed' : rendered ? 'rendered' : data.data ? 'success' : 'loading'}>
      {data.isPending && <Loader size="sm" />}
      {data.isError && <Text c="red">{data.error instanceof ApiError ? data.error.message : String(data.error)}</Text>}
      {renderError && <Text c="red">{renderError}</Text>}
      {data.data && width > 0 && <SuperChart formData={formData} queriesData={data.data} datasource={datasource} width={width} height={height} theme={theme} onRendered={() => setRendered(true)} onRenderError={(e) => setRenderError(e.message)} />}
    </div>
  );
}

/** Drill by: the chart grouped by another column under the point's filters, with a breadcrumb back. */
export function DrillByModal({ start, datasource, onClose }: { start: DrillStep[]; datasource: DatasourceMeta | null; onClose: () => void }) {
  const [steps, setSteps] = useState(start);
  const current = steps[steps.length - 1]!;
  return (
    <Modal opened onClose={onClose} title="Drill by" size="80%">
      <Stack gap="xs">
        <nav aria-label="Drill by steps">
        <Breadcrumbs separator="›">
          {steps.map((s, i) =>
            i === steps.length - 1 ? (
              <Text key={i} size="sm" fw={600}>
                {s.label}
              </Text>
            ) : (
              <Anchor key={i} size="sm" component="button" onClick={() => setSteps(steps.slice(0, i + 1))}>
                {s.label}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
        </nav>
        <DrillChart key={steps.length} formData={current.formData} datasource={datasource} />
      </Stack>
    </Modal>
  );
}

/** The first two steps of a drill by: where it started, then the chart by the chosen column. */
export function drillBySteps(formData: FormData, filters: Filters, column: string, startLabel: string): DrillStep[] {
  return [
    { label: startLabel, formData },
    { label: `${describeFilters(filters)} › ${column}`, formData: drillByFormData(formData, filters, column) },
  ];
}
