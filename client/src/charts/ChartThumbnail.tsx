import { Center, Loader, Text, useComputedColorScheme } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fetchChartData, fetchDatasourceMetadata } from '../explore/explore.api';
import { useNearViewport } from '../components/useNearViewport';
import { getChartMeta, useChartPlugin } from '../viz/registry';
import { SuperChart } from '../viz/shared/SuperChart';
import type { FormData } from '../viz/types';

/**
 * The thumbnail is the chart laid out on a card this much larger, then shrunk to fit: a chart laid out in a
 * 290 x 150 card has no room for its axes, legend and labels (rotated labels filled the plot, labels were cut off).
 */
const LAYOUT_SCALE = 0.7;

/**
 * A saved chart drawn small, from its own data (the charts list's card view): fetched once the card scrolls
 * near, drawn without interaction. A chart that cannot be drawn shows its type's name.
 */
export function ChartThumbnail({ chartId, formData, height = 150 }: { chartId: number; formData: FormData; height?: number }) {
  const theme = useComputedColorScheme('light');
  const [nearRef, near] = useNearViewport<HTMLDivElement>('100px');
  const { ref: sizeRef, width } = useElementSize();
  const ref = useMergedRef(nearRef, sizeRef);
  const meta = getChartMeta(formData.viz_type);
  // The type's code loads once the card is near, with its data.
  const { plugin, failed } = useChartPlugin(near ? formData.viz_type : null);
  const fd = useMemo(() => ({ ...formData, slice_id: chartId }), [formData, chartId]);
  const needsQuery = meta?.needsQuery !== false;
  const data = useQuery({
    queryKey: ['chart-thumbnail', chartId, JSON.stringify(formData)],
    enabled: near && !!plugin && needsQuery,
    queryFn: ({ signal }) => fetchChartData(plugin!.buildQuery(fd), { sliceId: chartId, signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
  // Its dataset, asked for alongside (once per dataset for the page's cards), so the thumbnail reads the names the
  // chart shows when opened; without it (no access, an error) the labels are shown as they are.
  const datasourceKey = typeof formData.datasource === 'string' ? formData.datasource : '';
  const datasource = useQuery({
    queryKey: ['datasource-metadata', datasourceKey],
    enabled: near && !!datasourceKey,
    queryFn: () => fetchDatasourceMetadata(datasourceKey),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const namesSettled = !datasourceKey || !datasource.isPending;
  let body: React.ReactNode = null;
  if (!meta || failed || data.isError)
    body = (
      <Center h={height}>
        <Text size="xs" c="dimmed">
          {meta?.name ?? formData.viz_type ?? 'Chart'}
        </Text>
      </Center>
    );
  else if (near && width > 0 && plugin && (!needsQuery || data.data) && namesSettled)
    body = (
      <div style={{ width: width / LAYOUT_SCALE, height: height / LAYOUT_SCALE, transform: `scale(${LAYOUT_SCALE})`, transformOrigin: 'top left' }}>
        <SuperChart formData={fd} queriesData={data.data ?? []} datasource={datasource.data ?? null} width={width / LAYOUT_SCALE} height={height / LAYOUT_SCALE} theme={theme} onRenderError={() => undefined} />
      </div>
    );
  else if (near)
    body = (
      <Center h={height}>
        <Loader size="xs" />
      </Center>
    );
  return (
    <div ref={ref} style={{ height, pointerEvents: 'none', overflow: 'hidden' }} data-testid="chart-thumbnail" data-drawn={!!data.data || undefined} aria-hidden>
      {body}
    </div>
  );
}
