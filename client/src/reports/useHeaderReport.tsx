import { Menu } from '@mantine/core';
import { fmt, FETCH_REPORTS_FAILED, REPORT_DELETE_FAILED, REPORT_DELETED, REPORT_TOGGLE_FAILED } from '@meridian/contracts/messages';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import { IconCalendarTime, IconCheck, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { api } from '../api';
import { useBootstrap, useSessionUser } from '../auth/session';
import { ConfirmModal } from '../components/ConfirmModal';
import { addDangerToast, addSuccessToast } from '../notify';
import { REPORT_ENDPOINT, type ReportListItem } from './report-types';

// The modal (and the crontab reader it brings) loads when opened: Explore and dashboards need only the menu items.
const ReportModal = lazy(() => import('./ReportModal').then((m) => ({ default: m.ReportModal })));

/**
 * 'Manage email report' in a chart's or dashboard's header (spec 02 §7): the signed-in user's report of it, found by
 * chart or dashboard id, creation method and creator; set up, switched on or off, edited or deleted from the menu.
 * Returns the menu items (inside the header's Menu.Dropdown) and the modals (outside it); `icons: false` for a menu
 * whose items have none (the dashboard's), where one icon alone put its item out of line with the others.
 */
export function useHeaderReport(target: { chartId?: number; dashboardId?: number; title: string } | null, { icons = true }: { icons?: boolean } = {}): { items: ReactNode; modals: ReactNode } {
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const [modal, setModal] = useState<'edit' | 'delete' | null>(null);
  const reportsOn = !!useBootstrap().featureFlags.ALERT_REPORTS;
  const allowed = !!target && reportsOn && hasPermission(user, 'can_write', 'ReportSchedule');
  const byChart = !!target?.chartId;
  const key = ['header-report', byChart ? 'chart' : 'dashboard', target?.chartId ?? target?.dashboardId, user.userId];
  const reports = useQuery({
    queryKey: key,
    enabled: allowed,
    queryFn: () =>
      api<{ result: ReportListItem[] }>(REPORT_ENDPOINT, {
        query: {
          q: {
            filters: [
              { col: byChart ? 'chart_id' : 'dashboard_id', opr: 'eq', value: target!.chartId ?? target!.dashboardId },
              { col: 'creation_method', opr: 'eq', value: byChart ? 'charts' : 'dashboards' },
              { col: 'created_by', opr: 'rel_o_m', value: user.userId },
            ],
          },
        },
      }).then((r) => r.result[0] ?? null),
  });
  useEffect(() => {
    if (reports.isError) addDangerToast(FETCH_REPORTS_FAILED);
  }, [reports.isError]);
  const report = reports.data ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const toggle = async () => {
    if (!report) return;
    try {
      await api(`${REPORT_ENDPOINT}${report.id}`, { method: 'PUT', body: { active: !report.active } });
      queryClient.setQueryData(key, { ...report, active: !report.active });
    } catch {
      addDangerToast(REPORT_TOGGLE_FAILED);
    }
  };
  const remove = async () => {
    if (!report) return;
    try {
      await api(`${REPORT_ENDPOINT}${report.id}`, { method: 'DELETE' });
      addSuccessToast(fmt(REPORT_DELETED, report.name));
      queryClient.setQueryData(key, null);
    } catch {
      addDangerToast(REPORT_DELETE_FAILED);
    }
    setModal(null);
  };

  if (!allowed) return { items: null, modals: null };
  const items = report ? (
    <Menu.Sub>
      <Menu.Sub.Target>
        <Menu.Sub.Item leftSection={icons ? <IconCalendarTime size={14} /> : undefined}>Manage email report</Menu.Sub.Item>
      </Menu.Sub.Target>
      <Menu.Sub.Dropdown>
        <Menu.Item leftSection={<IconCheck size={14} style={{ visibility: report.active ? 'visible' : 'hidden' }} />} onClick={() => void toggle()} aria-checked={report.active}>
          Email reports active
        </Menu.Item>
        <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setModal('edit')}>
          Edit email report
        </Menu.Item>
        <Menu.Item leftSection={<IconTrash size={14} />} color="red" onClick={() => setModal('delete')}>
          Delete email report
        </Menu.Item>
      </Menu.Sub.Dropdown>
    </Menu.Sub>
  ) : (
    <Menu.Item leftSection={icons ? <IconCalendarTime size={14} /> : undefined} onClick={() => setModal('edit')} disabled={reports.isLoading}>
      Set up an email report
    </Menu.Item>
  );
  const modals = (
    <>
      {modal === 'edit' && (
        <Suspense fallback={null}>
          <ReportModal source="header" type="Report" reportId={report?.id ?? null} target={target!} onClose={() => setModal(null)} onSaved={() => void refresh()} />
        </Suspense>
      )}
      <ConfirmModal opened={modal === 'delete'} title="Delete email report" confirmLabel="Delete" onConfirm={remove} onClose={() => setModal(null)}>
        This action will permanently delete {report?.name}.
      </ConfirmModal>
    </>
  );
  return { items, modals };
}
