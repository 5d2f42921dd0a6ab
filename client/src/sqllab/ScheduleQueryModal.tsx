import { Alert, Button, Code, Group, Loader, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconCalendarTime, IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { QUERY_NOT_SCHEDULED, QUERY_SCHEDULED } from '@meridian/contracts/messages';
import {
  readScheduleInfo,
  SCHEDULE_INTERVALS,
  scheduleInfoOf,
  validateScheduleForm,
  withScheduleInfo,
  type ScheduleForm,
  type ScheduleInterval,
} from '@meridian/contracts/rules/schedule';
import type { SavedQueryView } from '@meridian/contracts/schemas/saved-query';
import type { QueryEditor } from '@meridian/contracts/sqllab/index';
import { api } from '../api';
import { addDangerToast, addSuccessToast } from '../notify';

const INTERVAL_OPTIONS = [
  ...Object.entries(SCHEDULE_INTERVALS).map(([value, { label, crontab }]) => ({ value, label: `${label} (${crontab})` })),
  { value: 'custom', label: 'Custom crontab' },
];

const today = () => new Date().toISOString().slice(0, 10);

function emptyForm(): ScheduleForm {
  return { output_table: '', start_date: today(), end_date: '', interval: 'daily', crontab: '' };
}

/** Loads the saved query behind a tab: its extra_json holds any schedule already set. */
async function loadSavedQuery(id: number): Promise<SavedQueryView> {
  const { result } = await api<{ result: SavedQueryView }>(`/api/v1/saved_query/${id}`);
  return result;
}

/**
 * Superset's SCHEDULED_QUERIES: a schedule (dates, interval or crontab, output table) stored on the tab's saved
 * query as `extra_json.schedule_info` through PUT /api/v1/saved_query/{id}. An unsaved tab is offered to save first.
 * Nothing on this server runs the schedule yet; the modal says so.
 */
export function ScheduleQueryModal({ editor, opened, onClose, onSaveFirst }: { editor: QueryEditor; opened: boolean; onClose: () => void; onSaveFirst: () => void }) {
  const savedId = editor.remoteId ?? null;
  const [saved, setSaved] = useState<SavedQueryView | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [form, setForm] = useState<ScheduleForm>(emptyForm);
  const [errors, setErrors] = useState<ReturnType<typeof validateScheduleForm>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened || !savedId) return;
    let cancelled = false;
    setSaved(null);
    setLoadError(false);
    setErrors({});
    loadSavedQuery(savedId)
      .then((query) => {
        if (cancelled) return;
        setSaved(query);
        const info = readScheduleInfo(query.extra_json);
        setForm(
          info
            ? {
                output_table: info.output_table ?? '',
                start_date: info.start_date ?? today(),
                end_date: info.end_date ?? '',
                interval: info.interval ?? 'custom',
                crontab: info.interval === 'custom' ? info.schedule_interval : '',
              }
            : emptyForm(),
        );
      })
      .catch(() => !cancelled && setLoadError(true));
    return () => {
      cancelled = true;
    };
  }, [opened, savedId]);

  const set = (patch: Partial<ScheduleForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const key of Object.keys(patch)) delete next[key as keyof typeof next];
      if ('interval' in patch) delete next.crontab;
      return next;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!saved) return;
    const found = validateScheduleForm(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await api(`/api/v1/saved_query/${saved.id}`, { method: 'PUT', body: { extra_json: withScheduleInfo(saved.extra_json, scheduleInfoOf(form)) } });
      addSuccessToast(QUERY_SCHEDULED);
      onClose();
    } catch {
      addDangerToast(QUERY_NOT_SCHEDULED);
    } finally {
      setBusy(false);
    }
  };

  const existing = saved ? readScheduleInfo(saved.extra_json) : null;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size={600}
      title={
        <Group gap={8}>
          <IconCalendarTime size={18} />
          <Text fw={600}>Schedule query</Text>
        </Group>
      }
    >
      {!savedId ? (
        <Stack data-testid="schedule-save-first">
          <Text size="sm">A schedule belongs to a saved query. Save this tab&apos;s query first, then set its schedule.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button leftSection={<IconDeviceFloppy size={15} />} onClick={onSaveFirst}>
              Save query
            </Button>
          </Group>
        </Stack>
      ) : loadError ? (
        <Alert color="red" variant="light" title={QUERY_NOT_SCHEDULED}>
          The saved query could not be loaded.
        </Alert>
      ) : !saved ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">Loading the saved query…</Text>
        </Group>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate aria-label="Schedule query">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              Schedules the saved query <b>{saved.label}</b> to write its results into a table.
            </Text>
            <TextInput
              label="Output table"
              description="Table the scheduled run writes to (schema.table allowed)"
              placeholder="daily_sales"
              required
              value={form.output_table}
              onChange={(e) => set({ output_table: e.currentTarget.value })}
              error={errors.output_table}
              data-autofocus
            />
            <SimpleGrid cols={2}>
              <TextInput type="date" label="Start date" required value={form.start_date} onChange={(e) => set({ start_date: e.currentTarget.value })} error={errors.start_date} />
              <TextInput type="date" label="End date" value={form.end_date ?? ''} onChange={(e) => set({ end_date: e.currentTarget.value })} error={errors.end_date} />
            </SimpleGrid>
            <Select
              label="Interval"
              allowDeselect={false}
              data={INTERVAL_OPTIONS}
              data-testid="schedule-interval"
              value={form.interval}
              onChange={(value) => value && set({ interval: value as ScheduleInterval | 'custom' })}
              comboboxProps={{ withinPortal: true }}
            />
            {form.interval === 'custom' && (
              <TextInput
                label="Crontab"
                description="minute hour day-of-month month day-of-week, for example 0 7 * * MON-FRI"
                placeholder="0 7 * * MON-FRI"
                required
                value={form.crontab ?? ''}
                onChange={(e) => set({ crontab: e.currentTarget.value })}
                error={errors.crontab}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
            )}
            <Alert variant="light" color="gray" icon={<IconInfoCircle size={16} />} p="xs">
              <Text size="xs">
                The schedule is stored with the saved query{existing ? <> (now <Code>{existing.schedule_interval}</Code>)</> : null}. No scheduler runs
                scheduled queries on this server yet.
              </Text>
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Schedule
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
