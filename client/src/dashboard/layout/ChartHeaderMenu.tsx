import { ActionIcon, Center, Loader, Menu, Modal } from '@mantine/core';
import { LOAD_SQL_FAILED, SORRY_AN_ERROR_OCCURRED } from '@meridian/contracts/messages';
import { canCsv, canExplore, canShareChart } from '@meridian/contracts/rules/permissions';
import { IconDotsVertical } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { useBootstrap, useSessionUser } from '../../auth/session';
import { downloadAsImage, downloadChartData, exportQuery, fileName, saveBlob, shareByEmailHref } from '../../charts/chart-export';
import { ViewQueryModal } from '../../charts/ViewQueryModal';
import { LazyRowsTable } from '../../components/LazyRowsTable';
import { DrillDetailModal } from '../../explore/DrillModals';
import { createPermalink, fetchChartData } from '../../explore/explore.api';
import { addDangerToast } from '../../notify';
import { copyWithToast } from '../../query-history/app-link';
import type { ChartPlugin, FormData } from '../../viz/types';
import type { DashboardChart } from '../dashboard.api';
import { useDashboardState } from '../dashboard-state.context';

/** The chart's export with the row limit lifted to SQL_MAX_ROW ("Export to full .CSV"/"full Excel" of tables). */
function fullQuery(plugin: ChartPlugin, formData: FormData, maxRows: number, format: 'csv' | 'xlsx') {
  return exportQuery(plugin, { ...formData, row_limit: maxRows }, format);
}

/**
 * The menu of a dashboard chart's header (Superset's slice header controls): refresh, full size, description,
 * Explore, the chart's query and rows, drill to detail, share and downloads, each shown as the role allows
 * (spec 02 §6: can_explore, can_share_chart, can_csv).
 */
export const ChartHeaderMenu = memo(function ChartHeaderMenu({
  chart,
  componentId,
  exploreUrl,
  plugin,
  formData,
  queriesData,
  hasData,
  fullSize,
  descriptionShown,
  chartElement,
  onForceRefresh,
  onToggleFullSize,
  onToggleDescription,
}: {
  chart: DashboardChart;
  /** The chart's layout component (CHART-…): the anchor of its permalink. */
  componentId?: string;
  /** "Edit chart": Explore with the dashboard's filters and dashboard_id, as the chart's title links. */
  exploreUrl: string;
  plugin: ChartPlugin;
  formData: FormData;
  /** The answer drawn: read when the menu acts, so a new answer does not re-render the header. */
  queriesData: () => any[] | undefined;
  hasData: boolean;
  fullSize: boolean;
  descriptionShown: boolean;
  chartElement: () => HTMLElement | null;
  onForceRefresh: () => void;
  onToggleFullSize: () => void;
  onToggleDescription: () => void;
}) {
  const user = useSessionUser();
  const { featureFlags, conf } = useBootstrap();
  const [modal, setModal] = useState<null | 'results' | 'detail'>(null);
  const [sql, setSql] = useState<string | null>(null);
  const explore = canExplore(user);
  const share = canShareChart(user);
  const csv = canCsv(user);
  const isTable = chart.viz_type === 'table';
  const fullExport = isTable && !!featureFlags.ALLOW_FULL_CSV_EXPORT;
  const name = chart.slice_name;
  const failed = () => addDangerToast(SORRY_AN_ERROR_OCCURRED);

  const viewQuery = async () => {
    try {
      const [result] = await fetchChartData(plugin.buildQuery(formData), { sliceId: chart.id, resultType: 'query' });
      setSql(String(result?.query ?? ''));
    } catch {
      addDangerToast(LOAD_SQL_FAILED);
    }
  };
  // Superset's share items of a dashboard's chart: a permalink of the dashboard as shown (filters, tabs), anchored on
  // the chart, which opens scrolled to it; outside a dashboard page, the chart's own Explore permalink.
  const dashboardPermalink = useDashboardState()?.permalink;
  const shareUrl = () => (dashboardPermalink ? dashboardPermalink(componentId) : createPermalink(formData));
  const permalink = async () => {
    try {
      await copyWithToast(await shareUrl());
    } catch {
      failed();
    }
  };
  const email = async () => {
    try {
      window.location.href = shareByEmailHref(`Meridian chart: ${name}`, 'Check out this chart: ', await shareUrl());
    } catch {
      failed();
    }
  };
  const pivotCsv = async () => {
    const { pivotCsvRows } = await import('../../viz/pivot_table_v2/transform-props');
    const { stringify } = await import('csv-stringify/browser/esm/sync');
    saveBlob(new Blob([stringify(pivotCsvRows({ formData, queriesData: queriesData() ?? [] }))], { type: 'text/csv' }), fileName(name, 'csv'));
  };
  const image = () => {
    const element = chartElement();
    if (element) void downloadAsImage(element, name, { title: name }).catch(failed);
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal shadow="md" width={230}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`More options of ${name}`} data-testid="chart-menu">
            <IconDotsVertical size={15} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown data-testid="chart-menu-dropdown">
          <Menu.Item onClick={onForceRefresh}>Force refresh</Menu.Item>
          <Menu.Item onClick={onToggleFullSize}>{fullSize ? 'Exit fullscreen' : 'Enter fullscreen'}</Menu.Item>
          {chart.description && <Menu.Item onClick={onToggleDescription}>{descriptionShown ? 'Hide chart description' : 'Show chart description'}</Menu.Item>}
          {explore && (
            <>
              <Menu.Divider />
              <Menu.Item component="a" href={exploreUrl}>
                Edit chart
              </Menu.Item>
              <Menu.Item onClick={() => void viewQuery()}>View query</Menu.Item>
              <Menu.Item onClick={() => setModal('results')}>View as table</Menu.Item>
              {plugin.behaviors.includes('DRILL_TO_DETAIL') && <Menu.Item onClick={() => setModal('detail')}>Drill to detail</Menu.Item>}
            </>
          )}
          {share && (
            <>
              <Menu.Divider />
              <Menu.Label>Share</Menu.Label>
              <Menu.Item onClick={() => void permalink()}>Copy permalink to clipboard</Menu.Item>
              <Menu.Item onClick={() => void email()}>Share chart by email</Menu.Item>
            </>
          )}
          <Menu.Divider />
          <Menu.Label>Download</Menu.Label>
          {csv && (
            <>
              <Menu.Item onClick={() => void downloadChartData(exportQuery(plugin, formData, 'csv'), 'csv', name, chart.id).catch(failed)}>Export to .CSV</Menu.Item>
              {chart.viz_type === 'pivot_table_v2' && <Menu.Item onClick={() => void pivotCsv().catch(failed)} disabled={!hasData}>Export to Pivoted .CSV</Menu.Item>}
              {fullExport && <Menu.Item onClick={() => void downloadChartData(fullQuery(plugin, formData, conf.SQL_MAX_ROW, 'csv'), 'csv', name, chart.id).catch(failed)}>Export to full .CSV</Menu.Item>}
              <Menu.Item onClick={() => void downloadChartData(exportQuery(plugin, formData, 'xlsx'), 'xlsx', name, chart.id).catch(failed)}>Export to Excel</Menu.Item>
              {fullExport && <Menu.Item onClick={() => void downloadChartData(fullQuery(plugin, formData, conf.SQL_MAX_ROW, 'xlsx'), 'xlsx', name, chart.id).catch(failed)}>Export to full Excel</Menu.Item>}
            </>
          )}
          <Menu.Item onClick={image}>Download as image</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {/* Mounted only while shown: a closed modal in each of 50 cells is render work for nothing. */}
      {sql !== null && <ViewQueryModal sql={sql} onClose={() => setSql(null)} />}
      {modal === 'results' && <ResultsModal chart={chart} plugin={plugin} formData={formData} onClose={() => setModal(null)} />}
      {modal === 'detail' && <DrillDetailModal formData={formData} filters={[]} onClose={() => setModal(null)} />}
    </>
  );
});

/** "View as table": the rows of the chart's query, before the chart draws them. */
function ResultsModal({ chart, plugin, formData, onClose }: { chart: DashboardChart; plugin: ChartPlugin; formData: FormData; onClose: () => void }) {
  const rows = useQuery({ queryKey: ['chart-results', chart.id, JSON.stringify(formData)], queryFn: async () => (await fetchChartData(plugin.buildQuery(formData), { sliceId: chart.id, resultType: 'results' }))[0], retry: false });
  return (
    <Modal opened onClose={onClose} title={chart.slice_name} size="90%">
      {rows.isPending ? (
        <Center h={200}>
          <Loader size="sm" />
        </Center>
      ) : rows.isError ? (
        <Center h={120}>{SORRY_AN_ERROR_OCCURRED}</Center>
      ) : (
        <div data-testid="chart-results">
          <LazyRowsTable rows={rows.data?.data ?? []} colnames={rows.data?.colnames ?? Object.keys(rows.data?.data?.[0] ?? {})} coltypes={rows.data?.coltypes} total={rows.data?.rowcount ?? rows.data?.data?.length ?? 0} height={Math.round(window.innerHeight * 0.65)} csvName={chart.slice_name} />
        </div>
      )}
    </Modal>
  );
}
