import { ActionIcon, Badge, Button, CloseButton, Divider, Group, Menu, Popover, Stack, Text, Tooltip } from '@mantine/core';
import { isNativeFilter, type FilterConfigItem, type NativeFilter } from '@meridian/contracts';
import { IconChevronLeft, IconFilter, IconSettings } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import classes from '../dashboard.module.css';
import { FilterValue } from './FilterValue';
import type { DashboardFilters, MaskMap } from './useDashboardFilters';
import { useFilterScopeHighlight } from './use-filter-scope-highlight';

export type FilterBarOrientation = 'VERTICAL' | 'HORIZONTAL';

/** The bar's orientation a dashboard's json_metadata keeps (vertical unless it says horizontal). */
export const filterBarOrientationOf = (metadata: Record<string, unknown>): FilterBarOrientation => (metadata.filter_bar_orientation === 'HORIZONTAL' ? 'HORIZONTAL' : 'VERTICAL');

/** Whether the bar is drawn: it has filters or cross-filters to show, or the user may add filters (Superset's nativeFiltersEnabled). */
export const filterBarHasContent = (f: { filters: unknown[]; crossFilters: MaskMap }, canEdit: boolean) => f.filters.length > 0 || canEdit || Object.keys(f.crossFilters).length > 0;

/** A dashboard's body with its filter bar (`bar`, or nothing): above it when horizontal, left of it when vertical. */
export function WithFilterBar({ orientation, bar, children }: { orientation: FilterBarOrientation; bar: ReactNode; children: ReactNode }) {
  return (
    <>
      {orientation === 'HORIZONTAL' && bar}
      <div className={classes.body}>
        {orientation === 'VERTICAL' && bar}
        {children}
      </div>
    </>
  );
}

/** Filters shown in the horizontal bar before the rest go into 'More filters'. */
const HORIZONTAL_VISIBLE = 3;

/** One filter: its name (with a required mark and description), its value input; hovering shows its scope. */
function FilterItem({ item, f, horizontal }: { item: FilterConfigItem; f: DashboardFilters; horizontal: boolean }) {
  if (!isNativeFilter(item)) {
    return horizontal ? (
      <Tooltip label={item.description || item.title} disabled={!item.description}>
        <Text size="sm" fw={600} c="dimmed" className={classes.filterDividerInline}>
          {item.title}
        </Text>
      </Tooltip>
    ) : (
      <div className={classes.filterDivider} data-testid="filter-divider">
        <Text size="sm" fw={700}>
          {item.title}
        </Text>
        {item.description && (
          <Text size="xs" c="dimmed">
            {item.description}
          </Text>
        )}
      </div>
    );
  }
  return <NativeFilterItem filter={item as NativeFilter} f={f} horizontal={horizontal} />;
}

function NativeFilterItem({ filter, f, horizontal }: { filter: NativeFilter; f: DashboardFilters; horizontal: boolean }) {
  const required = !!filter.controlValues?.enableEmptyFilter;
  const missing = f.requiredMissing.includes(filter.id);
  const highlight = useFilterScopeHighlight(filter.id, f.focusedFilter, f.setFocusedFilter);
  return (
    <div className={horizontal ? classes.filterItemInline : classes.filterItem} data-testid="native-filter" data-filter-id={filter.id} {...highlight}>
      <Tooltip label={filter.description} disabled={!filter.description} position="top-start">
        <Text size="sm" fw={600} mb={4} component="label">
          {filter.name}
          {required && (
            <Text span c="red" ml={2}>
              *
            </Text>
          )}
        </Text>
      </Tooltip>
      <FilterValue filter={filter} filters={f.filters} mask={f.pending[filter.id]} applied={f.applied} onChange={(m) => f.setPending(filter.id, m)} error={missing ? 'Value is required' : undefined} dashboardId={f.dashboardId} />
    </div>
  );
}

/**
 * Cross-filters in effect, each removable (spec 13: cross-filters show in the filter bar and can be removed there).
 * Each names its chart above its value, as Superset's bar does, so both stay readable (side by side in the narrow
 * vertical bar the name was cut short); a text too long for its room ends in an ellipsis and shows whole on hover.
 */
function CrossFilters({ f, chartName, horizontal }: { f: DashboardFilters; chartName: (id: number) => string; horizontal: boolean }) {
  const entries = Object.entries(f.crossFilters).filter(([, m]) => m.extraFormData?.filters?.length);
  if (!entries.length) return null;
  const items = entries.map(([chartId, mask]) => {
    const name = chartName(Number(chartId));
    const value = `${mask.extraFormData!.filters![0]!.col}: ${mask.filterState?.label ?? ''}`;
    return (
      <div key={chartId} className={classes.crossFilter} data-testid="cross-filter">
        <Text size="xs" c="dimmed" truncate title={name} data-testid="cross-filter-chart">
          {name}
        </Text>
        <Group gap={4} wrap="nowrap" miw={0}>
          <Badge variant="light" tt="none" className={classes.crossFilterValue} title={value} data-testid="cross-filter-value">
            {value}
          </Badge>
          <CloseButton size="sm" aria-label="Remove cross-filter" onClick={() => f.crossFilter(Number(chartId), { id: Number(chartId), extraFormData: {}, filterState: { value: null } })} />
        </Group>
      </div>
    );
  });
  return (
    <Stack gap={6} data-testid="cross-filters" className={horizontal ? classes.crossFiltersInline : undefined}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        Cross-filters
      </Text>
      {horizontal ? (
        <Group gap="md" align="flex-end">
          {items}
        </Group>
      ) : (
        items
      )}
    </Stack>
  );
}

function Actions({ f }: { f: DashboardFilters }) {
  return (
    <>
      <Button size="xs" onClick={f.apply} disabled={!f.canApply} data-testid="filter-bar-apply">
        Apply filters
      </Button>
      <Button size="xs" variant="subtle" onClick={f.clearAll} disabled={!f.canClear} data-testid="filter-bar-clear">
        Clear all
      </Button>
    </>
  );
}

function SettingsMenu({ canEdit, orientation, onOrientation, onEdit }: { canEdit: boolean; orientation: FilterBarOrientation; onOrientation?: (o: FilterBarOrientation) => void; onEdit?: () => void }) {
  if (!canEdit || !onOrientation || !onEdit) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" size="sm" aria-label="Filter bar settings">
          <IconSettings size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onEdit}>Add or edit filters</Menu.Item>
        <Menu.Divider />
        <Menu.Label>Orientation of filter bar</Menu.Label>
        <Menu.Item onClick={() => onOrientation('VERTICAL')} rightSection={orientation === 'VERTICAL' ? '✓' : undefined}>
          Vertical (Left)
        </Menu.Item>
        <Menu.Item onClick={() => onOrientation('HORIZONTAL')} rightSection={orientation === 'HORIZONTAL' ? '✓' : undefined}>
          Horizontal (Top)
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The filters no chart of the tabs shown is in scope of, folded under their own heading (vertical bar and 'More filters'). */
function OutOfScope({ items, f }: { items: FilterConfigItem[]; f: DashboardFilters }) {
  if (!items.length) return null;
  return (
    <details className={classes.outOfScope} data-testid="filters-out-of-scope">
      <summary>{`Filters out of scope (${items.length})`}</summary>
      <Divider my="xs" />
      <Stack gap="md">
        {items.map((item) => (
          <FilterItem key={item.id} item={item} f={f} horizontal={false} />
        ))}
      </Stack>
    </details>
  );
}

/**
 * The native filter bar (spec 02 §2), vertical and collapsible or horizontal with 'More filters': each
 * filter's value, Apply and Clear all, the cross-filters in effect, and the filters out of scope of the
 * tabs shown.
 */
export function FilterBar({ f, orientation, canEdit, visibleCharts, chartName, onOrientation, onEdit, startCollapsed = false }: { f: DashboardFilters; orientation: FilterBarOrientation; canEdit: boolean; visibleCharts: Set<number>; chartName: (id: number) => string; onOrientation?: (o: FilterBarOrientation) => void; onEdit?: () => void; startCollapsed?: boolean }) {
  const [collapsed, setCollapsed] = useState(startCollapsed);
  const inScope = (item: FilterConfigItem) => !isNativeFilter(item) || f.scopeOf(item).some((id) => visibleCharts.has(id));
  const shown = f.filters.filter(inScope);
  const outOfScope = f.filters.filter((item) => !inScope(item));
  const empty = !f.filters.length && !Object.keys(f.crossFilters).length;

  if (orientation === 'HORIZONTAL') {
    const visible = shown.slice(0, HORIZONTAL_VISIBLE);
    const overflow = shown.slice(HORIZONTAL_VISIBLE);
    const more = [...overflow, ...outOfScope];
    return (
      <div className={classes.filterBarHorizontal} data-testid="filter-bar" data-orientation="horizontal">
        <Group gap={6} wrap="nowrap" style={{ flex: 'none' }}>
          <IconFilter size={16} />
          <Text size="sm" fw={700}>
            Filters
          </Text>
          <SettingsMenu canEdit={canEdit} orientation={orientation} onOrientation={onOrientation} onEdit={onEdit} />
        </Group>
        {empty && (
          <Text size="sm" c="dimmed">
            No filters are currently added to this dashboard.
          </Text>
        )}
        {visible.map((item) => (
          <FilterItem key={item.id} item={item} f={f} horizontal />
        ))}
        {more.length > 0 && (
          <Popover position="bottom-start" withinPortal shadow="md" width={300} trapFocus={false}>
            <Popover.Target>
              <Button size="xs" variant="default" data-testid="more-filters">{`More filters (${more.length})`}</Button>
            </Popover.Target>
            <Popover.Dropdown>
              <Stack gap="sm">
                {overflow.map((item) => (
                  <FilterItem key={item.id} item={item} f={f} horizontal={false} />
                ))}
                <OutOfScope items={outOfScope} f={f} />
              </Stack>
            </Popover.Dropdown>
          </Popover>
        )}
        <div style={{ flex: 1 }} />
        <CrossFilters f={f} chartName={chartName} horizontal />
        <Actions f={f} />
      </div>
    );
  }

  if (collapsed) {
    return (
      <div className={classes.filterBarCollapsed} data-testid="filter-bar" data-orientation="vertical" data-collapsed>
        <Tooltip label="Expand filter bar" position="right">
          <ActionIcon variant="subtle" aria-label="Expand filter bar" onClick={() => setCollapsed(false)}>
            <IconFilter size={18} />
          </ActionIcon>
        </Tooltip>
      </div>
    );
  }
  return (
    <aside className={classes.filterBar} data-testid="filter-bar" data-orientation="vertical">
      <Group justify="space-between" wrap="nowrap" mb="sm">
        <Text fw={700}>Filters</Text>
        <Group gap={2}>
          <SettingsMenu canEdit={canEdit} orientation={orientation} onOrientation={onOrientation} onEdit={onEdit} />
          <Tooltip label="Collapse filter bar">
            <ActionIcon variant="subtle" size="sm" aria-label="Collapse filter bar" onClick={() => setCollapsed(true)}>
              <IconChevronLeft size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <Group gap="xs" mb="md">
        <Actions f={f} />
      </Group>
      <Stack gap="md">
        <CrossFilters f={f} chartName={chartName} horizontal={false} />
        {empty && (
          <Stack gap="xs" align="flex-start">
            <Text size="sm" c="dimmed">
              No filters are currently added to this dashboard.
            </Text>
            {canEdit && onEdit && (
              <Button size="xs" variant="light" onClick={onEdit}>
                Add/Edit Filters
              </Button>
            )}
          </Stack>
        )}
        {shown.map((item) => (
          <FilterItem key={item.id} item={item} f={f} horizontal={false} />
        ))}
        <OutOfScope items={outOfScope} f={f} />
      </Stack>
    </aside>
  );
}
