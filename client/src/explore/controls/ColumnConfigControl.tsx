import { Checkbox, Group, NumberInput, Popover, SegmentedControl, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconAlignCenter, IconAlignLeft, IconAlignRight, IconCalendar, IconChevronRight, IconHash, IconLetterCase } from '@tabler/icons-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { columnConfigColumns, DEFAULT_CONFIG_FORM_LAYOUT, type ColumnConfig, type ColumnConfigColumn, type ColumnConfigKey, type ColumnKind } from '../../viz/shared/column-config';
import { NUMBER_FORMAT_OPTIONS, TIME_FORMAT_OPTIONS } from '../../viz/shared/format';
import type { ControlConfig, ControlContext } from '../../viz/types';
import { closeOnEscape } from './escape';
import { FreeFormSelect } from './FreeFormSelect';

const CurrencyControl = lazy(() => import('./CurrencyControl').then((m) => ({ default: m.CurrencyControl })));

/** Columns listed before 'Show all columns' (Superset's MAX_NUM_COLS). */
const MAX_NUM_COLS = 10;

type Settings = Record<string, ColumnConfig>;

const KIND_ICON: Record<ColumnKind, ReactNode> = { numeric: <IconHash size={14} />, temporal: <IconCalendar size={14} />, string: <IconLetterCase size={14} /> };

/** Superset's labels and descriptions of each setting (SHARED_COLUMN_CONFIG_PROPS). */
const FIELDS: Record<ColumnConfigKey, { label: string; description: string }> = {
  columnWidth: { label: 'Min Width', description: "Default minimal column width in pixels, actual width may still be larger than this if other columns don't need much space" },
  horizontalAlign: { label: 'Text align', description: 'Horizontal alignment' },
  truncateLongCells: { label: 'Truncate Cells', description: 'Truncate long cells to the "min width" set above' },
  d3NumberFormat: { label: 'D3 format', description: 'D3 format syntax: https://github.com/d3/d3-format' },
  d3SmallNumberFormat: { label: 'Small number format', description: 'D3 number format for numbers between -1.0 and 1.0, useful when you want to have different significant digits for small and large numbers' },
  d3TimeFormat: { label: 'D3 format', description: 'D3 time format syntax: https://github.com/d3/d3-time-format' },
  currencyFormat: { label: 'Currency format', description: 'Customize chart metrics or columns with currency symbols as prefixes or suffixes.' },
  showCellBars: { label: 'Show cell bars', description: 'Whether to display a bar chart background in table columns' },
  alignPositiveNegative: { label: 'Align +/-', description: 'Whether to align positive and negative values in cell bar chart at 0' },
  colorPositiveNegative: { label: 'Color +/-', description: 'Whether to colorize numeric values by if they are positive or negative' },
  radarMetricMinValue: { label: 'Min', description: 'The minimum value of metrics. It is an optional configuration. If not set, it will be the minimum value of the data' },
  radarMetricMaxValue: { label: 'Max', description: 'The maximum value of metrics. It is an optional configuration' },
};

const ALIGNS = [
  { value: 'left', label: 'Left', icon: <IconAlignLeft size={14} /> },
  { value: 'center', label: 'Center', icon: <IconAlignCenter size={14} /> },
  { value: 'right', label: 'Right', icon: <IconAlignRight size={14} /> },
].map(({ value, label, icon }) => ({ value, label: (<Group gap={0} justify="center">{icon}<VisuallyHidden>{label}</VisuallyHidden></Group>) as ReactNode }));

const formatControl = (name: ColumnConfigKey, options: ReadonlyArray<readonly [string, string]>): ControlConfig => ({ name, type: 'NumberFormatControl', label: FIELDS[name].label, freeForm: true, clearable: true, choices: options });

/** What an unset checkbox shows: the chart-wide control it overrides. */
function chartWide(key: ColumnConfigKey, formData: Record<string, unknown>): boolean {
  if (key === 'showCellBars') return formData.show_cell_bars !== false;
  if (key === 'alignPositiveNegative') return !!formData.align_pn;
  if (key === 'colorPositiveNegative') return formData.color_pn !== false;
  return !!formData[key];
}

/** The settings of one column, in its kind's layout; a cleared setting is removed (the chart-wide one applies). */
function ColumnConfigForm({ column, config, rows, ctx, onChange }: { column: ColumnConfigColumn; config: ColumnConfig; rows: ReadonlyArray<ReadonlyArray<ColumnConfigKey>>; ctx: ControlContext; onChange: (config: ColumnConfig) => void }) {
  const set = (key: ColumnConfigKey, value: unknown) => {
    const next: Record<string, unknown> = { ...config, [key]: value };
    if (value === null || value === undefined || value === '') delete next[key];
    onChange(next as ColumnConfig);
  };
  const field = (key: ColumnConfigKey) => {
    const { label, description } = FIELDS[key];
    const titled = (input: ReactNode) => (
      <Stack gap={2} key={key} style={{ flex: 1 }}>
        <Text size="xs" fw={600} title={description}>
          {label}
        </Text>
        {input}
      </Stack>
    );
    switch (key) {
      case 'columnWidth':
      case 'radarMetricMinValue':
      case 'radarMetricMaxValue':
        return titled(<NumberInput size="xs" w={120} aria-label={label} placeholder="auto" min={key === 'columnWidth' ? 0 : undefined} value={config[key] ?? ''} onChange={(v) => set(key, typeof v === 'number' ? v : null)} />);
      case 'horizontalAlign':
        return titled(<SegmentedControl size="xs" aria-label={label} data={ALIGNS as any} value={config.horizontalAlign ?? (column.kind === 'numeric' ? 'right' : 'left')} onChange={(v) => set(key, v)} />);
      case 'd3NumberFormat':
      case 'd3SmallNumberFormat':
      case 'd3TimeFormat':
        return titled(<FreeFormSelect control={formatControl(key, key === 'd3TimeFormat' ? TIME_FORMAT_OPTIONS : NUMBER_FORMAT_OPTIONS)} ctx={ctx} value={config[key] ?? null} onChange={(v) => set(key, v)} withinPortal={false} />);
      case 'currencyFormat':
        // A cleared currency (neither side set) is removed, so the column has no currency.
        return titled(
          <Suspense fallback={null}>
            <CurrencyControl label={label} value={config.currencyFormat} onChange={(v) => set(key, v.symbol || v.symbolPosition ? v : null)} withinPortal={false} />
          </Suspense>,
        );
      default:
        return <Checkbox key={key} size="xs" label={label} title={description} checked={(config[key] as boolean | undefined) ?? chartWide(key, ctx.formData)} onChange={(e) => set(key, e.currentTarget.checked)} style={{ flex: 1 }} />;
    }
  };
  return (
    <Stack gap="xs" w={280} role="group" aria-label={`${column.label} settings`}>
      {rows.map((row, i) => (
        <Group key={i} gap="sm" align="flex-end" wrap="nowrap">
          {row.map(field)}
        </Group>
      ))}
    </Stack>
  );
}

/**
 * Superset's 'Customize columns' (and the radar's 'Customize Metrics'): the chart's columns, each opening a popover
 * of settings kept in `column_config` under its label. Settings of columns the chart no longer has are dropped.
 */
export function ColumnConfigControl({ control, value, onChange, ctx }: { control: ControlConfig; value: unknown; onChange: (v: unknown) => void; ctx: ControlContext }) {
  const [open, setOpen] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);
  const settings = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Settings;
  const columns = columnConfigColumns(ctx, control.configColumns);
  const layout = control.configFormLayout ?? DEFAULT_CONFIG_FORM_LAYOUT;
  const configurable = columns.filter((c) => (layout[c.kind] ?? []).length > 0);
  if (configurable.length === 0)
    return (
      <Text size="xs" c="dimmed">
        No columns to customize
      </Text>
    );
  const setColumn = (key: string, config: ColumnConfig) => {
    const known = new Set(columns.map((c) => c.key));
    const next: Settings = Object.fromEntries(Object.entries(settings).filter(([k]) => known.has(k) && k !== key));
    if (Object.keys(config).length) next[key] = config;
    onChange(next);
  };
  const needShowMore = configurable.length > MAX_NUM_COLS + 2;
  const shown = needShowMore && !showAll ? configurable.slice(0, MAX_NUM_COLS) : configurable;
  return (
    <Stack gap={0} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}>
      {shown.map((column, i) => {
        const config = settings[column.key] ?? {};
        const isSet = Object.keys(config).length > 0;
        return (
          <Popover key={column.key} opened={open === column.key} onChange={(o) => !o && setOpen(null)} position="right" withArrow shadow="md" closeOnEscape={false}>
            <Popover.Target>
              <UnstyledButton
                data-column={column.key}
                aria-label={`Customize ${column.label}`}
                onClick={() => setOpen(open === column.key ? null : column.key)}
                px={8}
                py={6}
                style={{ borderTop: i ? '1px solid var(--mantine-color-default-border)' : undefined }}
              >
                <Group gap={6} wrap="nowrap">
                  {KIND_ICON[column.kind]}
                  <Text size="xs" fw={isSet ? 600 : 400} style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {column.label}
                  </Text>
                  <IconChevronRight size={14} />
                </Group>
              </UnstyledButton>
            </Popover.Target>
            <Popover.Dropdown onKeyDown={closeOnEscape(() => setOpen(null))}>
              <ColumnConfigForm column={column} config={config} rows={layout[column.kind] ?? []} ctx={ctx} onChange={(c) => setColumn(column.key, c)} />
            </Popover.Dropdown>
          </Popover>
        );
      })}
      {needShowMore && (
        <UnstyledButton p={6} ta="center" onClick={() => setShowAll(!showAll)} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="xs" c="dimmed" tt="uppercase">
            {showAll ? 'Show less columns' : 'Show all columns'}
          </Text>
        </UnstyledButton>
      )}
    </Stack>
  );
}
