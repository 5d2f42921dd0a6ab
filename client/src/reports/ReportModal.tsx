import { Alert, Button, Group, Loader, Modal, NumberInput, Radio, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { REPORT_CREATED, REPORT_UPDATED } from '@meridian/contracts/messages';
import { REPORT_FORMATS_BY_CONTENT } from '@meridian/contracts/rules/report';
import { describeCrontab, validateCrontab } from '@meridian/contracts/rules/schedule';
import { ALERT_OPERATORS, REPORT_DEFAULTS, type ReportCreate } from '@meridian/contracts/schemas/report';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, ApiError } from '../api';
import { useSessionUser } from '../auth/session';
import { addSuccessToast } from '../notify';
import { REPORT_ENDPOINT, type ReportDetail } from './report-types';

/** Schedules offered before "Custom" (Superset's picker offers the same kinds). */
const SCHEDULES = [
  { value: '0 9 * * 1', label: 'Every week on Monday at 09:00' },
  { value: '0 9 * * *', label: 'Every day at 09:00' },
  { value: '0 9 * * 1-5', label: 'Every weekday at 09:00' },
  { value: '0 * * * *', label: 'Every hour' },
  { value: '0 9 1 * *', label: 'Every month on the 1st at 09:00' },
];
const CUSTOM = 'custom';

const RECIPIENT_TYPES = [
  { value: 'Email', label: 'Email' },
  { value: 'Webhook', label: 'Webhook' },
  { value: 'Slack', label: 'Slack (incoming webhook)' },
];
const CONDITIONS = [{ value: 'not null', label: 'not null' }, ...ALERT_OPERATORS.map((op) => ({ value: op, label: op }))];

const TIMEZONES: string[] = (() => {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
})();

interface Choice {
  value: string;
  label: string;
}
const useRelated = (column: 'chart' | 'dashboard' | 'database', enabled: boolean) =>
  useQuery({
    queryKey: ['report-related', column],
    enabled,
    queryFn: async (): Promise<Choice[]> => (await api<{ result: Array<{ value: number; text: string }> }>(`${REPORT_ENDPOINT}related/${column}`, { query: { q: { page_size: 100 } } })).result.map((r) => ({ value: String(r.value), label: r.text })),
  });

export interface ReportModalProps {
  /** `header`: the signed-in user's own email report of one chart or dashboard; `list`: the Alerts & reports list's full form. */
  source: 'header' | 'list';
  type: 'Report' | 'Alert';
  /** The schedule being edited; a new one when absent. */
  reportId?: number | null;
  /** From a header: what the report shows. */
  target?: { chartId?: number; dashboardId?: number; title: string };
  onClose: () => void;
  onSaved: () => void;
}

/** Superset's ReportModal (headers) and AlertReportModal (the list), as one form. */
export function ReportModal({ source, type, reportId, target, onClose, onSaved }: ReportModalProps) {
  const user = useSessionUser();
  const editing = reportId != null;
  const existing = useQuery({ queryKey: ['report', reportId], enabled: editing, queryFn: () => api<{ result: ReportDetail }>(`${REPORT_ENDPOINT}${reportId}`).then((r) => r.result) });
  const full = source === 'list';
  const [name, setName] = useState(target ? `${target.title} ${type === 'Alert' ? 'alert' : 'report'}` : '');
  const [description, setDescription] = useState('');
  const [preset, setPreset] = useState<string>(SCHEDULES[0].value);
  const [crontab, setCrontab] = useState(SCHEDULES[0].value);
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [contentKind, setContentKind] = useState<'chart' | 'dashboard'>(target?.chartId ? 'chart' : 'dashboard');
  const [contentId, setContentId] = useState<string | null>(target?.chartId ? String(target.chartId) : target?.dashboardId ? String(target.dashboardId) : null);
  const [format, setFormat] = useState('PNG');
  const [customWidth, setCustomWidth] = useState<number | string>('');
  const [active, setActive] = useState(true);
  const [recipientType, setRecipientType] = useState('Email');
  const [recipientTarget, setRecipientTarget] = useState(source === 'header' ? user.email ?? '' : '');
  const [database, setDatabase] = useState<string | null>(null);
  const [sql, setSql] = useState('');
  const [condition, setCondition] = useState<string>('>');
  const [threshold, setThreshold] = useState<number | string>('');
  const [gracePeriod, setGracePeriod] = useState<number | string>(REPORT_DEFAULTS.grace_period);
  const [workingTimeout, setWorkingTimeout] = useState<number | string>(REPORT_DEFAULTS.working_timeout);
  const [logRetention, setLogRetention] = useState<string>(String(REPORT_DEFAULTS.log_retention));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const charts = useRelated('chart', full && contentKind === 'chart');
  const dashboards = useRelated('dashboard', full && contentKind === 'dashboard');
  const databases = useRelated('database', full && type === 'Alert');

  // An edited schedule fills the form once it is read.
  useEffect(() => {
    const r = existing.data;
    if (!r) return;
    setName(r.name);
    setDescription(r.description ?? '');
    setCrontab(r.crontab);
    setPreset(SCHEDULES.some((s) => s.value === r.crontab) ? r.crontab : CUSTOM);
    setTimezone(r.timezone);
    setContentKind(r.chart ? 'chart' : 'dashboard');
    setContentId(r.chart ? String(r.chart.id) : r.dashboard ? String(r.dashboard.id) : null);
    setFormat(r.report_format ?? 'PNG');
    setCustomWidth(r.custom_width ?? '');
    setActive(r.active);
    const recipient = r.recipients[0];
    if (recipient) {
      setRecipientType(recipient.type);
      setRecipientTarget((JSON.parse(recipient.recipient_config_json ?? '{}') as { target?: string }).target ?? '');
    }
    setDatabase(r.database ? String(r.database.id) : null);
    setSql(r.sql ?? '');
    const config = JSON.parse(r.validator_config_json || '{}') as { op?: string; threshold?: number };
    setCondition(r.validator_type === 'not null' ? 'not null' : (config.op ?? '>'));
    setThreshold(config.threshold ?? '');
    setGracePeriod(r.grace_period ?? REPORT_DEFAULTS.grace_period);
    setWorkingTimeout(r.working_timeout ?? REPORT_DEFAULTS.working_timeout);
    setLogRetention(String(r.log_retention ?? REPORT_DEFAULTS.log_retention));
  }, [existing.data]);

  const crontabError = validateCrontab(crontab) || null;
  const humanized = useMemo(() => describeCrontab(crontab), [crontab]);
  const missing = !name.trim() || crontabError || !contentId || !recipientTarget.trim() || (type === 'Alert' && (!database || !sql.trim() || (condition !== 'not null' && threshold === '')));

  const submit = async () => {
    setError(null);
    setSaving(true);
    const body: ReportCreate = {
      type,
      name: name.trim(),
      description: description.trim() || null,
      crontab: crontab.trim(),
      timezone,
      active,
      report_format: format as ReportCreate['report_format'],
      custom_width: customWidth === '' ? null : Number(customWidth),
      chart: contentKind === 'chart' ? Number(contentId) : null,
      dashboard: contentKind === 'dashboard' ? Number(contentId) : null,
      recipients: [{ type: recipientType as 'Email', recipient_config_json: { target: recipientTarget.trim() } }],
      ...(editing ? {} : { creation_method: source === 'list' ? 'alerts_reports' : contentKind === 'chart' ? 'charts' : 'dashboards' }),
      ...(full
        ? { grace_period: Number(gracePeriod) || 0, working_timeout: Number(workingTimeout) || 0, log_retention: Number(logRetention) }
        : {}),
      ...(type === 'Alert'
        ? {
            database: Number(database),
            sql,
            validator_type: condition === 'not null' ? 'not null' : 'operator',
            validator_config_json: condition === 'not null' ? {} : { op: condition as (typeof ALERT_OPERATORS)[number], threshold: Number(threshold) },
          }
        : {}),
    };
    try {
      if (editing) await api(`${REPORT_ENDPOINT}${reportId}`, { method: 'PUT', body });
      else await api(REPORT_ENDPOINT, { method: 'POST', body });
      addSuccessToast(editing ? REPORT_UPDATED : REPORT_CREATED);
      onSaved();
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const title = source === 'header' ? (editing ? 'Edit email report' : 'Schedule a new email report') : `${editing ? 'Edit' : 'Add'} ${type === 'Alert' ? 'alert' : 'report'}`;
  const contentChoices = contentKind === 'chart' ? charts.data : dashboards.data;
  return (
    <Modal opened onClose={onClose} title={title} size={full ? 'lg' : 'md'} data-testid="report-modal">
      {editing && existing.isLoading ? (
        <Loader />
      ) : (
        <Stack gap="sm">
          <TextInput label={`${type === 'Alert' ? 'Alert' : 'Report'} name`} required value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          <Textarea label="Description" autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          {full && <Switch label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />}

          {type === 'Alert' && (
            <Stack gap="xs">
              <Text fw={600} size="sm">Alert condition</Text>
              <Select label="Database" required searchable data={databases.data ?? []} value={database} onChange={setDatabase} placeholder="Select database" />
              <Textarea label="SQL query" description="A query returning one value (one row, one column)." required autosize minRows={3} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} value={sql} onChange={(e) => setSql(e.currentTarget.value)} />
              <Group grow>
                <Select label="Trigger alert if…" data={CONDITIONS} value={condition} onChange={(v) => setCondition(v ?? '>')} allowDeselect={false} />
                <NumberInput label="Value" disabled={condition === 'not null'} value={threshold} onChange={setThreshold} />
              </Group>
            </Stack>
          )}

          {full && (
            <Stack gap="xs">
              <Text fw={600} size="sm">Contents</Text>
              <SegmentedControl
                value={contentKind}
                onChange={(v) => {
                  setContentKind(v as 'chart' | 'dashboard');
                  setContentId(null);
                  setFormat('PNG');
                }}
                data={[{ value: 'dashboard', label: 'Dashboard' }, { value: 'chart', label: 'Chart' }]}
              />
              <Select label={contentKind === 'chart' ? 'Chart' : 'Dashboard'} required searchable data={contentChoices ?? []} value={contentId} onChange={setContentId} placeholder={`Select ${contentKind}`} />
            </Stack>
          )}

          <Radio.Group label="Message content" value={format} onChange={setFormat}>
            <Stack gap={6} mt={6}>
              {REPORT_FORMATS_BY_CONTENT[contentKind].map((f) => (
                <Radio key={f.value} value={f.value} label={f.label} />
              ))}
            </Stack>
          </Radio.Group>
          {(format === 'PNG' || format === 'PDF') && (
            <NumberInput label="Screenshot width" description="Pixels, 600 to 2400; the default when empty." min={600} max={2400} value={customWidth} onChange={setCustomWidth} w={220} />
          )}

          <Stack gap="xs">
            <Text fw={600} size="sm">Schedule</Text>
            <SimpleGrid cols={2}>
              <Select
                label="Repeat"
                data={[...SCHEDULES, { value: CUSTOM, label: 'Custom (crontab)' }]}
                value={preset}
                allowDeselect={false}
                onChange={(v) => {
                  setPreset(v ?? CUSTOM);
                  if (v && v !== CUSTOM) setCrontab(v);
                }}
              />
              <Select label="Timezone" searchable data={TIMEZONES} value={timezone} onChange={(v) => setTimezone(v ?? 'UTC')} allowDeselect={false} />
            </SimpleGrid>
            {preset === CUSTOM && (
              <TextInput label="Crontab" value={crontab} onChange={(e) => setCrontab(e.currentTarget.value)} error={crontab && crontabError} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
            )}
            {humanized && (
              <Text size="xs" c="dimmed" data-testid="report-schedule-text">
                {humanized} ({timezone})
              </Text>
            )}
          </Stack>

          {full ? (
            <Stack gap="xs">
              <Text fw={600} size="sm">Notification method</Text>
              <Group grow align="flex-start">
                <Select label="Send by" data={RECIPIENT_TYPES} value={recipientType} onChange={(v) => setRecipientType(v ?? 'Email')} allowDeselect={false} />
                <TextInput
                  label={recipientType === 'Email' ? 'Email addresses' : 'Webhook address'}
                  description={recipientType === 'Email' ? 'Separate several with commas.' : 'Receives a JSON POST.'}
                  required
                  value={recipientTarget}
                  onChange={(e) => setRecipientTarget(e.currentTarget.value)}
                />
              </Group>
              <SimpleGrid cols={3}>
                <Select label="Log retention" data={[1, 7, 14, 30, 60, 90].map((d) => ({ value: String(d), label: `${d} day${d === 1 ? '' : 's'}` }))} value={logRetention} onChange={(v) => setLogRetention(v ?? '90')} allowDeselect={false} />
                <NumberInput label="Working timeout (s)" min={1} value={workingTimeout} onChange={setWorkingTimeout} />
                {type === 'Alert' && <NumberInput label="Grace period (s)" min={0} value={gracePeriod} onChange={setGracePeriod} />}
              </SimpleGrid>
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              Sent to {recipientTarget || 'your email address'}.
            </Text>
          )}

          {error && (
            <Alert color="red" variant="light" data-testid="report-modal-error">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} loading={saving} disabled={!!missing}>
              {editing ? 'Save' : 'Add'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
