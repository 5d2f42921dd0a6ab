import { Button, Group, Popover, Radio, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { TIME_RANGE_NO_FILTER } from '@meridian/contracts/messages';
import { formatNaive, resolveTimeOffset, shiftRange } from '@meridian/contracts/chart-data/time-range';
import { IconCalendar } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api';
import { fetchTimeRange } from '../explore.api';

const LAST = ['Last day', 'Last week', 'Last month', 'Last quarter', 'Last year'];
const PREVIOUS = ['previous calendar week', 'previous calendar month', 'previous calendar year'];
const PREVIOUS_LABELS: Record<string, string> = { 'previous calendar week': 'previous calendar week', 'previous calendar month': 'previous calendar month', 'previous calendar year': 'previous calendar year' };

type RangeType = 'Last' | 'Previous' | 'Range' | 'Advanced' | 'No filter';

/** Which tab of the popover a stored time range belongs to. */
export function rangeTypeOf(value: string): RangeType {
  if (!value || value === TIME_RANGE_NO_FILTER) return 'No filter';
  if (LAST.includes(value)) return 'Last';
  if (PREVIOUS.includes(value)) return 'Previous';
  if (/^\d{4}-\d{2}-\d{2}(T[\d:]+)? : \d{4}-\d{2}-\d{2}(T[\d:]+)?$/.test(value)) return 'Range';
  return 'Advanced';
}

/** A time range's actual bounds, shifted by a time comparison's offset if given. */
export function shifted(range: { since: string; until: string }, offset?: string): { since: string; until: string } | null {
  if (!offset) return range;
  const naive = (text: string) => (text ? new Date(`${text}Z`) : null);
  const bounds = { since: naive(range.since), until: naive(range.until) };
  try {
    // 'inherit' and a custom start date as the server reads them.
    const moved = shiftRange(bounds, resolveTimeOffset(offset, bounds));
    return { since: formatNaive(moved.since) ?? '', until: formatNaive(moved.until) ?? '' };
  } catch {
    return null;
  }
}

/** The actual range of a time range text from the server; with an offset, the range a time comparison compares with. */
export function ActualRange({ value, offset }: { value: string; offset?: string }) {
  const range = useQuery({ queryKey: ['time-range', value], queryFn: () => fetchTimeRange(value), retry: false, staleTime: 30_000 });
  if (range.isError) return <Text size="xs" c="red">{range.error instanceof ApiError ? range.error.message : 'Invalid time range'}</Text>;
  if (!range.data) return <Text size="xs" c="dimmed">…</Text>;
  const actual = shifted(range.data, offset);
  if (!actual) return null;
  return (
    <Text size="xs" c="dimmed" data-testid={offset ? 'comparison-time-range' : 'actual-time-range'}>
      {actual.since || '-∞'} ≤ col &lt; {actual.until || '∞'}
    </Text>
  );
}

/**
 * The time range popover of spec 01 (Last, Previous, Range, Advanced, No filter), showing the actual range from the server.
 * Inside another popover (the filter editor's TEMPORAL_RANGE) it renders in place, so a click in it stays inside the outer one.
 */
export function TimeRangeControl({ value, onChange, withinPortal = true }: { value: unknown; onChange: (v: string) => void; withinPortal?: boolean }) {
  const current = typeof value === 'string' && value ? value : TIME_RANGE_NO_FILTER;
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState(current);
  const [type, setType] = useState<RangeType>(rangeTypeOf(current));
  const [since, until] = draft.includes(' : ') ? draft.split(' : ') : ['', ''];
  const open = () => {
    setDraft(current);
    setType(rangeTypeOf(current));
    setOpened(true);
  };
  const chooseType = (t: RangeType) => {
    setType(t);
    if (t === 'No filter') setDraft(TIME_RANGE_NO_FILTER);
    if (t === 'Last') setDraft(LAST[1]!);
    if (t === 'Previous') setDraft(PREVIOUS[0]!);
    if (t === 'Range') {
      const today = new Date().toISOString().slice(0, 10);
      const weekAgo = new Date(Date.now() - 7 * 864e5).toISOString().slice(0, 10);
      setDraft(`${weekAgo} : ${today}`);
    }
    if (t === 'Advanced') setDraft(draft.includes(' : ') ? draft : 'DATEADD(DATETIME("now"), -7, day) : now');
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="right-start" withArrow trapFocus shadow="md" withinPortal={withinPortal}>
      <Popover.Target>
        <Button variant="default" size="xs" justify="flex-start" leftSection={<IconCalendar size={14} />} onClick={open} fullWidth aria-label="Time range">
          {current}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm" w={360}>
          <Text size="sm" fw={600}>
            Edit time range
          </Text>
          <SegmentedControl size="xs" data={['Last', 'Previous', 'Range', 'Advanced', 'No filter']} value={type} onChange={(v) => chooseType(v as RangeType)} />
          {type === 'Last' && (
            <Radio.Group value={draft} onChange={setDraft}>
              <Stack gap={6}>{LAST.map((l) => <Radio key={l} value={l} label={l.replace('Last ', 'last ')} />)}</Stack>
            </Radio.Group>
          )}
          {type === 'Previous' && (
            <Radio.Group value={draft} onChange={setDraft}>
              <Stack gap={6}>{PREVIOUS.map((l) => <Radio key={l} value={l} label={PREVIOUS_LABELS[l]} />)}</Stack>
            </Radio.Group>
          )}
          {type === 'Range' && (
            <Group grow>
              <TextInput type="date" label="START (INCLUSIVE)" value={since} onChange={(e) => setDraft(`${e.currentTarget.value} : ${until}`)} />
              <TextInput type="date" label="END (EXCLUSIVE)" value={until} onChange={(e) => setDraft(`${since} : ${e.currentTarget.value}`)} />
            </Group>
          )}
          {type === 'Advanced' && (
            <>
              <TextInput label="START (INCLUSIVE)" value={since} onChange={(e) => setDraft(`${e.currentTarget.value} : ${until}`)} />
              <TextInput label="END (EXCLUSIVE)" value={until} onChange={(e) => setDraft(`${since} : ${e.currentTarget.value}`)} />
            </>
          )}
          <Stack gap={2}>
            <Text size="xs" fw={600}>
              Actual time range
            </Text>
            {type === 'No filter' ? <Text size="xs" c="dimmed">No filter</Text> : <ActualRange value={draft} />}
          </Stack>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" size="xs" onClick={() => setOpened(false)}>
              Cancel
            </Button>
            <Button
              size="xs"
              onClick={() => {
                onChange(draft);
                setOpened(false);
              }}
            >
              Apply
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
