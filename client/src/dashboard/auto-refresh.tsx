import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { REFRESH_INTERVALS, staggerDelays } from '@meridian/contracts/dashboard/auto-refresh';
import { CANCEL } from '@meridian/contracts/messages';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

interface AutoRefresh {
  /** Counts the periodic refreshes fired so far. */
  tick: number;
  /** Each refreshing chart's delay after a tick (timed-refresh-immune charts are absent). */
  delays: Map<number, number>;
}

const Ctx = createContext<AutoRefresh>({ tick: 0, delays: new Map() });

/** Fires a periodic refresh every `periodSeconds` (none when 0), staggered across the dashboard's charts per its metadata. */
export function AutoRefreshProvider({ periodSeconds, chartIds, metadata, children }: { periodSeconds: number; chartIds: number[]; metadata: Record<string, unknown>; children: ReactNode }) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!(periodSeconds > 0)) return;
    const timer = setInterval(() => setTick((t) => t + 1), periodSeconds * 1000);
    return () => clearInterval(timer);
  }, [periodSeconds]);
  const key = chartIds.join(',');
  const delays = useMemo(() => staggerDelays(chartIds, periodSeconds, metadata), [key, periodSeconds, metadata]); // eslint-disable-line react-hooks/exhaustive-deps
  // One value per tick and schedule: a new object each render would re-render every chart cell.
  const value = useMemo(() => ({ tick, delays }), [tick, delays]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/** The periodic refreshes a chart has taken, each taken after the chart's stagger delay; stays 0 for an immune chart. */
export function useAutoRefreshToken(chartId: number | undefined): number {
  const { tick, delays } = useContext(Ctx);
  const delay = chartId === undefined ? undefined : delays.get(chartId);
  const [token, setToken] = useState(0);
  useEffect(() => {
    if (delay === undefined || tick === 0) return;
    const timer = setTimeout(() => setToken(tick), delay);
    return () => clearTimeout(timer);
  }, [tick, delay]);
  return token;
}

/** The auto-refresh modal: pick an interval; saved with the dashboard in edit mode, for this session otherwise. */
export function RefreshIntervalModal({ opened, value, editMode, onClose, onChange }: { opened: boolean; value: number; editMode: boolean; onClose: () => void; onChange: (seconds: number) => void }) {
  const [choice, setChoice] = useState(String(value));
  useEffect(() => setChoice(String(value)), [value, opened]);
  return (
    <Modal opened={opened} onClose={onClose} title="Refresh interval" size="sm">
      <Stack gap="md">
        <Select label="Refresh frequency" data={REFRESH_INTERVALS.map(([s, label]) => ({ value: String(s), label }))} value={choice} onChange={(v) => setChoice(v ?? '0')} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
        <Text size="xs" c="dimmed">
          {editMode ? 'The interval is saved with the dashboard.' : 'This interval applies to this session only; set it in edit mode to save it with the dashboard.'}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {CANCEL}
          </Button>
          <Button
            onClick={() => {
              onChange(Number(choice));
              onClose();
            }}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
