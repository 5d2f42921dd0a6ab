import { Button, Group, Modal, Radio, Stack, Switch, Text } from '@mantine/core';
import { SAVE_CROSS_FILTER_SCOPING_FAILED } from '@meridian/contracts/messages';
import { chartsInScope, defaultScope, type ChartCrossFilterConfiguration, type FilterScope, type Layout } from '@meridian/contracts';
import { useEffect, useState } from 'react';
import { addDangerToast, addSuccessToast } from '../../notify';
import { ScopeEditor, type ChartName } from './FiltersConfigModal';

export interface CrossFilterSettings {
  cross_filters_enabled: boolean;
  chart_configuration: Record<string, ChartCrossFilterConfiguration>;
  global_chart_configuration: { scope: FilterScope; chartsInScope: number[] };
}

/**
 * Cross-filter scoping (spec 02 §2, a dialog of its own): cross-filtering on or off, the global scope every chart
 * follows, and per chart either 'global' or a custom scope. Saved through the json_metadata PUT.
 */
export function CrossFilterScopingModal({ opened, onClose, layout, chartNames, value, onSave }: { opened: boolean; onClose: () => void; layout: Layout; chartNames: ChartName[]; value: CrossFilterSettings; onSave: (v: CrossFilterSettings) => Promise<void> }) {
  const [draft, setDraft] = useState(value);
  const [selected, setSelected] = useState<'global' | number>('global');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (opened) {
      setDraft(value);
      setSelected('global');
    }
  }, [opened, value]);

  const chartScope = (id: number) => draft.chart_configuration[id]?.crossFilters?.scope ?? 'global';
  const setChartScope = (id: number, scope: 'global' | FilterScope) =>
    setDraft((d) => ({ ...d, chart_configuration: { ...d.chart_configuration, [id]: { id, crossFilters: { scope, chartsInScope: chartsInScope(layout, scope === 'global' ? d.global_chart_configuration.scope : scope).filter((c) => c !== id) } } } }));

  const save = async () => {
    setSaving(true);
    try {
      const global = { scope: draft.global_chart_configuration.scope, chartsInScope: chartsInScope(layout, draft.global_chart_configuration.scope) };
      const perChart = Object.fromEntries(
        Object.entries(draft.chart_configuration).map(([id, c]) => [id, { id: Number(id), crossFilters: { scope: c.crossFilters.scope, chartsInScope: chartsInScope(layout, c.crossFilters.scope === 'global' ? global.scope : c.crossFilters.scope).filter((x) => x !== Number(id)) } }]),
      );
      await onSave({ cross_filters_enabled: draft.cross_filters_enabled, chart_configuration: perChart, global_chart_configuration: global });
      addSuccessToast('Cross-filter scoping saved');
      onClose();
    } catch {
      addDangerToast(SAVE_CROSS_FILTER_SCOPING_FAILED);
    } finally {
      setSaving(false);
    }
  };

  const scopeHolder = (scope: FilterScope) => ({ id: 'scope', type: 'DIVIDER' as const, title: '', description: '', scope });
  return (
    <Modal opened={opened} onClose={onClose} title="Cross-filtering scoping" size="xl" centered>
      <Switch mb="md" label="Enable cross-filtering" checked={draft.cross_filters_enabled} onChange={(e) => setDraft({ ...draft, cross_filters_enabled: e.currentTarget.checked })} />
      <div style={{ display: 'flex', gap: 16, minHeight: 320, opacity: draft.cross_filters_enabled ? 1 : 0.5 }}>
        <Stack gap={2} w={240} style={{ flex: 'none' }} data-testid="cross-filter-scoping-list">
          {[{ id: 'global' as const, name: 'All charts (global scoping)' }, ...chartNames].map((c) => (
            <Text key={String(c.id)} size="sm" p={6} style={{ cursor: 'pointer', borderRadius: 4, background: selected === c.id ? 'var(--mantine-color-default-hover)' : undefined }} onClick={() => setSelected(c.id)} fw={c.id === 'global' ? 600 : undefined}>
              {c.name}
              {c.id !== 'global' && chartScope(c.id) !== 'global' && (
                <Text span size="xs" c="dimmed" ml={6}>
                  custom
                </Text>
              )}
            </Text>
          ))}
        </Stack>
        <div style={{ flex: 1, borderLeft: '1px solid var(--mantine-color-default-border)', paddingLeft: 16 }}>
          {selected === 'global' ? (
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                The charts a cross-filter reaches, unless a chart has a scope of its own.
              </Text>
              <ScopeEditor key="global" layout={layout} filter={scopeHolder(draft.global_chart_configuration.scope)} chartNames={chartNames} onChange={(scope) => setDraft((d) => ({ ...d, global_chart_configuration: { ...d.global_chart_configuration, scope } }))} />
            </Stack>
          ) : (
            <Stack gap="xs">
              <Radio.Group label="Scoping" value={chartScope(selected) === 'global' ? 'global' : 'custom'} onChange={(v) => setChartScope(selected, v === 'global' ? 'global' : { ...draft.global_chart_configuration.scope })}>
                <Group mt={4}>
                  <Radio value="global" label="Global" />
                  <Radio value="custom" label="Custom" />
                </Group>
              </Radio.Group>
              {chartScope(selected) !== 'global' && (
                <ScopeEditor key={selected} layout={layout} label="Charts this chart's cross-filters reach" filter={scopeHolder(chartScope(selected) as FilterScope)} chartNames={chartNames.filter((c) => c.id !== selected)} onChange={(scope) => setChartScope(selected, scope)} />
              )}
            </Stack>
          )}
        </div>
      </div>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void save()} loading={saving} data-testid="cross-filter-scoping-save">
          Save
        </Button>
      </Group>
    </Modal>
  );
}

/** The dashboard's cross-filter settings from its metadata (global scope: the whole dashboard by default). */
export function crossFilterSettingsOf(metadata: Record<string, unknown>): CrossFilterSettings {
  const global = metadata.global_chart_configuration as CrossFilterSettings['global_chart_configuration'] | undefined;
  return {
    cross_filters_enabled: metadata.cross_filters_enabled !== false,
    chart_configuration: (metadata.chart_configuration as CrossFilterSettings['chart_configuration']) ?? {},
    global_chart_configuration: { scope: global?.scope ?? defaultScope(), chartsInScope: global?.chartsInScope ?? [] },
  };
}
