import { ActionIcon, Badge, Button, Checkbox, ColorInput, Group, Loader, Modal, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import {
  ANNOTATION_SOURCE_LABELS,
  ANNOTATION_TYPE_LABELS,
  NEW_ANNOTATION_LAYER,
  sourceTypesFor,
  validateAnnotationLayer,
  type AnnotationLayer,
  type AnnotationSourceType,
  type AnnotationType,
} from '@meridian/contracts/explore/annotations';
import { IconAlertTriangle, IconEyeOff, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import rison from 'rison';
import { useContext, useEffect, useState } from 'react';
import { api } from '../../api';
import { AnnotationStatusContext } from './annotation-status';

/** Saved charts a chart-sourced layer may read: tables for events and intervals, line-like charts for a time series. */
const SOURCE_VIZ_TYPES: Record<'table' | 'line', string[]> = {
  table: ['table'],
  line: ['echarts_timeseries_line', 'echarts_timeseries_smooth', 'echarts_timeseries_step', 'echarts_area', 'echarts_timeseries_bar', 'echarts_timeseries_scatter', 'line'],
};

const STYLES = [
  { value: 'solid', label: 'Solid' },
  { value: 'dashed', label: 'Dashed' },
  { value: 'longDashed', label: 'Long dashed' },
  { value: 'dotted', label: 'Dotted' },
];
const OPACITIES = [
  { value: '', label: 'Opacity (default)' },
  { value: 'opacityLow', label: '0.2' },
  { value: 'opacityMedium', label: '0.5' },
  { value: 'opacityHigh', label: '0.8' },
];

/** The values a layer's source offers: Superset's annotation layers, or saved charts of the right types. */
function useSourceValues(sourceType: AnnotationLayer['sourceType']) {
  return useQuery({
    queryKey: ['annotation-source', sourceType],
    enabled: !!sourceType,
    staleTime: 60_000,
    queryFn: async () => {
      if (sourceType === 'NATIVE') {
        const answer = await api<{ result: Array<{ id: number; name: string }> }>(`/api/v1/annotation_layer/?q=${rison.encode({ page_size: 100, order_column: 'name', order_direction: 'asc' })}`);
        return answer.result.map((l) => ({ value: String(l.id), label: l.name }));
      }
      const filters = [{ col: 'viz_type', opr: 'in', value: SOURCE_VIZ_TYPES[sourceType as 'table' | 'line'] }];
      const answer = await api<{ result: Array<{ id: number; slice_name: string }> }>(`/api/v1/chart/?q=${rison.encode({ filters, page_size: 100, order_column: 'slice_name', order_direction: 'asc', columns: ['id', 'slice_name'] })}`);
      return answer.result.map((c) => ({ value: String(c.id), label: c.slice_name }));
    },
  });
}

/** The columns of a table chart (its raw columns, or its dimensions and metric labels) for a table source's time and title. */
function useChartColumns(chartId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: ['annotation-chart-columns', chartId],
    enabled: enabled && !!chartId,
    staleTime: 60_000,
    queryFn: async () => {
      const chart = await api<{ result: { params: string | null } }>(`/api/v1/chart/${chartId}`);
      const params = JSON.parse(chart.result.params || '{}') as Record<string, unknown>;
      const label = (c: unknown) => (typeof c === 'string' ? c : ((c as { label?: string; column_name?: string }).label ?? (c as { column_name?: string }).column_name ?? ''));
      const list = (v: unknown) => (Array.isArray(v) ? v : v ? [v] : []);
      const raw = params.query_mode === 'raw' ? list(params.all_columns) : [...list(params.groupby), ...list(params.metrics), ...list(params.percent_metrics)];
      return [...new Set(raw.map(label).filter(Boolean))];
    },
  });
}

/** The editor of one layer: what it shows and where from on the left, how it looks on the right (Superset's popover). */
function LayerEditor({ initial, others, onApply, onRemove, onClose }: { initial: AnnotationLayer; others: AnnotationLayer[]; onApply: (l: AnnotationLayer) => void; onRemove?: () => void; onClose: () => void }) {
  const [layer, setLayer] = useState<AnnotationLayer>(initial);
  const [tried, setTried] = useState(false);
  const set = (patch: Partial<AnnotationLayer>) => setLayer((l) => ({ ...l, ...patch }));
  const sources = sourceTypesFor(layer.annotationType);
  const values = useSourceValues(layer.sourceType);
  const columns = useChartColumns(layer.value === null ? null : String(layer.value), layer.sourceType === 'table');
  // The formula parser loads with the editor (it stays out of every chart's JavaScript until a formula is used).
  const [formulaParses, setFormulaParses] = useState<((expression: string) => boolean) | null>(null);
  useEffect(() => {
    void import('../../viz/shared/timeseries/formula').then((m) => setFormulaParses(() => m.formulaParses));
  }, []);
  const errors = validateAnnotationLayer(layer, others, formulaParses ?? (() => true));
  const shown = (field: string) => (tried ? errors[field] : undefined);
  const isLine = layer.annotationType === 'FORMULA' || layer.annotationType === 'TIME_SERIES' || layer.annotationType === 'EVENT';
  const apply = async () => {
    setTried(true);
    const { formulaParses: parses } = await import('../../viz/shared/timeseries/formula');
    if (!Object.keys(validateAnnotationLayer(layer, others, parses)).length) onApply(layer);
  };
  return (
    <Stack gap="md">
      <SimpleGrid cols={2} spacing="lg">
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Layer configuration
          </Text>
          <TextInput label="Name" withAsterisk placeholder="Name" value={layer.name} onChange={(e) => set({ name: e.currentTarget.value })} error={shown('name')} data-autofocus />
          <Checkbox label="Hide layer" checked={layer.show === false} onChange={(e) => set({ show: !e.currentTarget.checked })} />
          <Select
            label="Annotation layer type"
            data={(Object.keys(ANNOTATION_TYPE_LABELS) as AnnotationType[]).map((t) => ({ value: t, label: ANNOTATION_TYPE_LABELS[t] }))}
            value={layer.annotationType}
            allowDeselect={false}
            onChange={(t) => {
              const type = (t ?? 'FORMULA') as AnnotationType;
              const next = sourceTypesFor(type);
              set({ annotationType: type, sourceType: next.includes(layer.sourceType as AnnotationSourceType) ? layer.sourceType : (next[0] ?? ''), value: null });
            }}
            comboboxProps={{ withinPortal: false }}
          />
          {sources.length > 0 && (
            <Select
              label="Annotation source type"
              data={sources.map((s) => ({ value: s, label: ANNOTATION_SOURCE_LABELS[s] }))}
              value={layer.sourceType || null}
              allowDeselect={false}
              onChange={(s) => set({ sourceType: (s ?? '') as AnnotationSourceType, value: null, timeColumn: '', intervalEndColumn: '', titleColumn: '', descriptionColumns: [] })}
              comboboxProps={{ withinPortal: false }}
            />
          )}
          {layer.annotationType === 'FORMULA' ? (
            <TextInput label="Formula" withAsterisk description="Expression in x (the time in ms), e.g. 2*x + 1" placeholder="y = x * 2" value={String(layer.value ?? '')} onChange={(e) => set({ value: e.currentTarget.value })} error={shown('value')} />
          ) : (
            <Select
              label={layer.sourceType === 'NATIVE' ? 'Annotation layer' : 'Chart'}
              withAsterisk
              searchable
              placeholder={values.isLoading ? 'Loading…' : 'Select a source'}
              data={values.data ?? []}
              value={layer.value === null ? null : String(layer.value)}
              onChange={(v) => set({ value: v === null ? null : Number(v) })}
              error={shown('value')}
              nothingFoundMessage="Nothing found"
              rightSection={values.isLoading ? <Loader size={12} /> : undefined}
              comboboxProps={{ withinPortal: false }}
            />
          )}
          {layer.sourceType === 'table' && (
            <>
              <Select label="Time column" withAsterisk data={columns.data ?? []} value={layer.timeColumn || null} onChange={(v) => set({ timeColumn: v ?? '' })} error={shown('timeColumn')} comboboxProps={{ withinPortal: false }} />
              {layer.annotationType === 'INTERVAL' && <Select label="Interval end column" withAsterisk data={columns.data ?? []} value={layer.intervalEndColumn || null} onChange={(v) => set({ intervalEndColumn: v ?? '' })} error={shown('intervalEndColumn')} comboboxProps={{ withinPortal: false }} />}
              <Select label="Title column" clearable data={columns.data ?? []} value={layer.titleColumn || null} onChange={(v) => set({ titleColumn: v ?? '' })} comboboxProps={{ withinPortal: false }} />
              <MultiSelect label="Description columns" data={columns.data ?? []} value={layer.descriptionColumns ?? []} onChange={(v) => set({ descriptionColumns: v })} comboboxProps={{ withinPortal: false }} />
            </>
          )}
          {layer.sourceType && layer.sourceType !== 'NATIVE' && (
            <Checkbox.Group label="Overrides" description="Take these from this chart instead of the source chart" value={Object.keys(layer.overrides ?? {})} onChange={(keys) => set({ overrides: Object.fromEntries(keys.map((k) => [k, null])) })}>
              <Group gap="sm" mt={4}>
                <Checkbox value="time_range" label="Time range" />
                <Checkbox value="time_grain_sqla" label="Time grain" />
              </Group>
            </Checkbox.Group>
          )}
        </Stack>
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Display configuration
          </Text>
          {isLine && <Select label="Style" data={STYLES} value={layer.style ?? 'solid'} allowDeselect={false} onChange={(v) => set({ style: (v ?? 'solid') as AnnotationLayer['style'] })} comboboxProps={{ withinPortal: false }} />}
          <Select label="Opacity" data={OPACITIES} value={layer.opacity ?? ''} allowDeselect={false} onChange={(v) => set({ opacity: (v ?? '') as AnnotationLayer['opacity'] })} comboboxProps={{ withinPortal: false }} />
          <ColorInput label="Color" placeholder="Automatic" value={layer.color ?? ''} onChange={(c) => set({ color: c || null })} popoverProps={{ withinPortal: false }} />
          {isLine && <NumberInput label="Line width" min={1} max={10} value={layer.width ?? 1} onChange={(v) => set({ width: Number(v) || 1 })} />}
          {(layer.annotationType === 'EVENT' || layer.annotationType === 'INTERVAL') && <Checkbox label="Show label" checked={!!layer.showLabel} onChange={(e) => set({ showLabel: e.currentTarget.checked })} />}
          {layer.annotationType === 'TIME_SERIES' && (
            <>
              <Checkbox label="Show markers" checked={!!layer.showMarkers} onChange={(e) => set({ showMarkers: e.currentTarget.checked })} />
              <Checkbox label="Hide line" checked={!!layer.hideLine} onChange={(e) => set({ hideLine: e.currentTarget.checked })} />
            </>
          )}
        </Stack>
      </SimpleGrid>
      <Group justify="space-between">
        {onRemove ? (
          <Button variant="subtle" color="red" size="xs" onClick={onRemove}>
            Remove
          </Button>
        ) : (
          <span />
        )}
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={onClose}>
            Cancel
          </Button>
          <Button size="xs" onClick={() => void apply()}>
            OK
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** `annotation_layers`: the chart's layers, each with its state, opened in an editor; "Add annotation layer" adds one. */
export function AnnotationLayerControl({ value, onChange }: { value: unknown; onChange: (v: unknown) => void }) {
  const status = useContext(AnnotationStatusContext);
  const layers = (Array.isArray(value) ? value : []) as AnnotationLayer[];
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const current = editing === 'new' ? NEW_ANNOTATION_LAYER : editing === null ? null : layers[editing];
  return (
    <Stack gap={6}>
      {layers.map((layer, i) => {
        const error = status?.errors[layer.name];
        return (
          <Group key={layer.name} gap={6} wrap="nowrap" data-testid="annotation-layer" data-layer={layer.name}>
            <Button variant="light" size="compact-sm" onClick={() => setEditing(i)} style={{ flex: 1 }} justify="space-between" rightSection={<Badge size="xs" variant="outline">{ANNOTATION_TYPE_LABELS[layer.annotationType] ?? layer.annotationType}</Badge>}>
              {layer.name}
            </Button>
            {layer.show === false && <IconEyeOff size={14} aria-label="Hidden" />}
            {status?.loading[layer.name] && <Loader size={12} aria-label="Loading" />}
            {error && (
              <Tooltip label={error} withinPortal multiline maw={280}>
                <ActionIcon variant="subtle" color="red" size="sm" aria-label={`Layer error: ${error}`} onClick={() => setEditing(i)}>
                  <IconAlertTriangle size={14} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        );
      })}
      <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setEditing('new')}>
        Add annotation layer
      </Button>
      <Modal opened={current !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'Add annotation layer' : 'Edit annotation layer'} size="xl">
        {current && (
          <LayerEditor
            key={String(editing)}
            initial={current}
            others={layers.filter((_, i) => i !== editing)}
            onClose={() => setEditing(null)}
            onApply={(layer) => {
              onChange(editing === 'new' ? [...layers, layer] : layers.map((l, i) => (i === editing ? layer : l)));
              setEditing(null);
            }}
            onRemove={
              editing === 'new'
                ? undefined
                : () => {
                    onChange(layers.filter((_, i) => i !== editing));
                    setEditing(null);
                  }
            }
          />
        )}
      </Modal>
    </Stack>
  );
}
