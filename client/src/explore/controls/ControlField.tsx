import { ActionIcon, Checkbox, ColorSwatch, Group, Loader, MultiSelect, Select, Slider, Stack, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { CATEGORICAL_SCHEMES, SEQUENTIAL_SCHEMES } from '../../viz/shared/colors';
import { columnLabel, type ColumnEntry } from '../../viz/shared/metrics';
import { metricLabel, type MetricEntry } from '../../viz/shared/metrics';
import type { ControlConfig, ControlContext } from '../../viz/types';
import { DRAG_TYPE, readDrag } from './drag';
import { FilterControl } from './FilterControl';
import { choicesOf, FreeFormSelect, str, type FieldProps } from './FreeFormSelect';
import { MetricsControl } from './MetricsControl';
import { ActualRange, TimeRangeControl } from './TimeRangeControl';

// Controls few chart types show, loaded when first drawn (with NumberInput, which nothing else at Explore's opening uses).
const ConditionalFormattingControl = lazy(() => import('./ConditionalFormattingControl').then((m) => ({ default: m.ConditionalFormattingControl })));
const ColumnConfigControl = lazy(() => import('./ColumnConfigControl').then((m) => ({ default: m.ColumnConfigControl })));
// Shown only once 'Truncate Y Axis' is ticked: its number inputs load then.
const BoundsControl = lazy(() => import('./BoundsControl').then((m) => ({ default: m.BoundsControl })));
// On the Customize tab of most charts, rarely changed: its currency list loads when first shown.
const CurrencyControl = lazy(() => import('./CurrencyControl').then((m) => ({ default: m.CurrencyControl })));
// Colour pickers stand on a few charts' Customize tabs (waterfall's series colours).
const ColorPickerControl = lazy(() => import('./ColorPickerControl').then((m) => ({ default: m.ColorPickerControl })));
const AnnotationLayerControl = lazy(() => import('./AnnotationLayerControl').then((m) => ({ default: m.AnnotationLayerControl })));

/** Superset's note under a colour scheme that the related dashboard's scheme overrides. */
const DASHBOARD_COLOR_SCHEME = 'The color scheme is determined by the related dashboard. Edit the color scheme in the dashboard properties.';

function SchemeSwatches({ colors }: { colors: readonly string[] }) {
  return (
    <Group gap={2} wrap="nowrap">
      {colors.slice(0, 10).map((c) => (
        <ColorSwatch key={c} color={c} size={10} radius={2} withShadow={false} />
      ))}
    </Group>
  );
}


const asOffset = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** The input of one control, by its type. */
export function ControlInput({ control, value, onChange, error, ctx, datasourceKey }: FieldProps & { ctx: ControlContext; datasourceKey: string }) {
  switch (control.type) {
    case 'MetricsControl':
      return <MetricsControl value={value} multi={control.multi !== false} datasource={ctx.datasource} onChange={onChange} label={control.label} />;
    case 'GroupByControl': {
      const data = choicesOf(control, ctx);
      const sqlColumns = (Array.isArray(value) ? value : []).filter((v) => typeof v !== 'string') as ColumnEntry[];
      const dropProps = {
        onDragOver: (e: React.DragEvent) => e.dataTransfer.types.includes(DRAG_TYPE) && e.preventDefault(),
        onDrop: (e: React.DragEvent) => {
          const item = readDrag(e);
          if (item?.kind !== 'column') return;
          if (control.multi === false) onChange(item.name);
          else onChange([...(Array.isArray(value) ? value : []).filter((v) => v !== item.name), item.name]);
        },
      };
      if (control.multi === false) {
        // A one-column list reads as its column (Superset's waterfall 'Breakdowns' may be stored either way).
        const single = Array.isArray(value) ? value[0] : value;
        return (
          <div {...dropProps}>
            <Select size="xs" aria-label={control.label} searchable clearable={control.clearable !== false} placeholder="Drop a column here or click" data={data} value={typeof single === 'string' ? single : single ? columnLabel(single as ColumnEntry) : null} onChange={onChange} error={error} comboboxProps={{ withinPortal: true }} />
          </div>
        );
      }
      return (
        <div {...dropProps}>
          <MultiSelect
            size="xs"
            aria-label={control.label}
            searchable
            clearable
            placeholder="Drop columns here or click"
            data={[...data, ...sqlColumns.map((c) => ({ value: columnLabel(c), label: columnLabel(c) }))]}
            value={(Array.isArray(value) ? value : value ? [value] : []).map((v) => (typeof v === 'string' ? v : columnLabel(v as ColumnEntry)))}
            onChange={(names) => onChange(names.map((n) => sqlColumns.find((c) => columnLabel(c) === n) ?? n))}
            error={error}
            comboboxProps={{ withinPortal: true }}
          />
        </div>
      );
    }
    case 'AdhocFilterControl':
      return <FilterControl value={value} datasource={ctx.datasource} datasourceKey={datasourceKey} onChange={onChange} />;
    case 'TimeRangeControl':
      return <TimeRangeControl value={value} onChange={onChange} />;
    case 'SelectControl':
      // A free-form multi select (Superset's time shifts): the choices are offered, and typed text such as '7 days ago' is kept.
      if (control.freeForm && control.multi)
        return <TagsInput size="xs" aria-label={control.label} data={choicesOf(control, ctx).map((c) => c.value)} value={Array.isArray(value) ? value.map(str) : []} onChange={onChange} error={error} clearable comboboxProps={{ withinPortal: true }} />;
      if (control.freeForm) return <FreeFormSelect control={control} ctx={ctx} value={value} onChange={onChange} error={error} />;
      if (control.multi) return <MultiSelect size="xs" aria-label={control.label} data={choicesOf(control, ctx)} value={Array.isArray(value) ? value.map(str) : []} onChange={onChange} error={error} comboboxProps={{ withinPortal: true }} />;
      // No value reads as the choice for none where there is one ('None' of Contribution Mode), else as empty.
      const choices = choicesOf(control, ctx);
      const none = choices.some((c) => c.raw === null) ? '' : null;
      return (
        <Select
          size="xs"
          aria-label={control.label}
          data={choices.map(({ value: v, label }) => ({ value: v, label }))}
          value={value === null || value === undefined ? none : str(value)}
          // A long list (the Country Map's ~200 countries) is searched by typing, as Superset's selects are.
          searchable={choices.length > 20}
          clearable={!!control.clearable}
          onChange={(v) => onChange(choices.find((c) => c.value === v)?.raw ?? null)}
          error={error}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'BoundsControl':
      return (
        <Suspense fallback={<Loader size="xs" />}>
          <BoundsControl label={control.label} value={value} onChange={onChange} error={error} />
        </Suspense>
      );
    case 'CurrencyControl':
      return (
        <Suspense fallback={<Loader size="xs" />}>
          <CurrencyControl label={control.label} value={value} onChange={onChange} />
        </Suspense>
      );
    case 'ColorPickerControl':
      return (
        <Suspense fallback={<Loader size="xs" />}>
          <ColorPickerControl label={control.label} value={value} defaultValue={control.default} onChange={onChange} />
        </Suspense>
      );
    case 'NumberFormatControl':
    case 'TimeFormatControl':
      return <FreeFormSelect control={control} ctx={ctx} value={value} onChange={onChange} error={error} />;
    case 'TextControl':
      return <TextInput size="xs" aria-label={control.label} value={str(value)} onChange={(e) => onChange(control.isInt || control.isFloat ? (e.currentTarget.value === '' ? null : e.currentTarget.value) : e.currentTarget.value)} error={error} />;
    case 'TimeOffsetControl':
      // The date the server reads (Superset's is_valid_date: YYYY-MM-DD).
      return <TextInput size="xs" type="date" aria-label={control.label} value={str(value)} onChange={(e) => onChange(e.currentTarget.value || null)} error={error} />;
    case 'ComparisonRangeLabel': {
      // Superset's 'Actual range for comparison': the time range moved by the (first) time shift, a custom one by its start date.
      const shift = asOffset(ctx.formData.time_compare === 'custom' ? ctx.formData.start_date_offset : [ctx.formData.time_compare].flat()[0]);
      return shift && <ActualRange value={str(ctx.formData.time_range)} offset={shift} />;
    }
    case 'TextAreaControl':
      return <Textarea size="xs" aria-label={control.label} autosize minRows={4} maxRows={16} value={str(value)} onChange={(e) => onChange(e.currentTarget.value)} styles={{ input: { fontFamily: control.language && control.language !== 'markdown' ? 'var(--mantine-font-family-monospace)' : undefined } }} error={error} />;
    case 'CheckboxControl':
      return null; // drawn with its label by ControlRow
    case 'SliderControl':
      return <Slider aria-label={control.label} min={control.min ?? 0} max={control.max ?? 100} step={control.step ?? 1} value={Number(value ?? control.default ?? 0)} onChange={onChange} label={(v) => v} mb="xs" />;
    case 'ColorSchemeControl': {
      const schemes = control.schemeType === 'sequential' ? SEQUENTIAL_SCHEMES : CATEGORICAL_SCHEMES;
      const byId = new Map(schemes.map((s) => [s.id, s]));
      // Opened from a dashboard with its own scheme: the chart is drawn in that one, shown here and not to be changed.
      const locked = control.schemeType !== 'sequential' && !!ctx.dashboardColorScheme;
      return (
        <Select
          size="xs"
          aria-label={control.label}
          data={schemes.map((s) => ({ value: s.id, label: s.label }))}
          value={locked ? ctx.dashboardColorScheme! : str(value) || null}
          onChange={onChange}
          disabled={locked}
          description={locked ? DASHBOARD_COLOR_SCHEME : undefined}
          allowDeselect={false}
          leftSectionWidth={0}
          renderOption={({ option }) => (
            <Stack gap={2}>
              <Text size="xs">{option.label}</Text>
              <SchemeSwatches colors={byId.get(option.value)?.colors ?? []} />
            </Stack>
          )}
          comboboxProps={{ withinPortal: true }}
        />
      );
    }
    case 'ConditionalFormattingControl':
      return (
        <Suspense fallback={<Loader size="xs" />}>
          <ConditionalFormattingControl value={value} onChange={onChange} ctx={ctx} />
        </Suspense>
      );
    case 'ColumnConfigControl':
      return (
        <Suspense fallback={<Loader size="xs" />}>
          <ColumnConfigControl control={control} value={value} onChange={onChange} ctx={ctx} />
        </Suspense>
      );
    case 'AnnotationLayerControl':
      return (
        <Suspense fallback={<Loader size="xs" />}>
          <AnnotationLayerControl value={value} onChange={onChange} />
        </Suspense>
      );
    default:
      return null;
  }
}

/** A control with its label, description and validation errors (spec 01 §5 messages). */
export function ControlRow({ control, value, onChange, errors, ctx, datasourceKey }: { control: ControlConfig; value: unknown; onChange: (v: unknown) => void; errors: string[]; ctx: ControlContext; datasourceKey: string }) {
  if (control.type === 'HiddenControl') return null;
  const error = errors.length ? errors.join(', ') : undefined;
  if (control.type === 'CheckboxControl')
    return <Checkbox size="xs" label={control.label} checked={!!(value ?? control.default)} onChange={(e) => onChange(e.currentTarget.checked)} title={control.description} />;
  return (
    <Stack gap={4} data-control={control.name}>
      <Text size="xs" fw={600} c={error ? 'red' : undefined} title={control.description}>
        {control.label}
        {error && !['TextControl', 'SelectControl', 'GroupByControl', 'TimeOffsetControl'].includes(control.type) && (
          <Text span size="xs" c="red" fw={400}>
            {' '}
            {error}
          </Text>
        )}
      </Text>
      <ControlInput control={control} value={value} onChange={onChange} error={error} ctx={ctx} datasourceKey={datasourceKey} />
    </Stack>
  );
}
