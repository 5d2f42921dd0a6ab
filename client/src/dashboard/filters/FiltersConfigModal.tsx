import { ActionIcon, Alert, Button, Checkbox, Group, Menu, Modal, MultiSelect, Radio, ScrollArea, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  chartsInScope,
  defaultScope,
  errorsStillStanding,
  FILTER_REMOVAL_UNDO_MS,
  FILTER_TYPES,
  isNativeFilter,
  NATIVE_FILTER_DIVIDER_PREFIX,
  NATIVE_FILTER_PREFIX,
  needsColumn,
  needsDataset,
  newNativeFilter,
  possibleParents,
  ROOT_ID,
  scopeOfCharts,
  targetColumn,
  targetDataset,
  trimDivider,
  validateFilterConfiguration,
  withScopeComputed,
  type DataMask,
  type FilterConfigItem,
  type FilterErrors,
  type FilterScope,
  type Layout,
  type NativeFilter,
  type NativeFilterType,
} from '@meridian/contracts';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api';
import { FOOTER_IN_VIEW_MODAL_STYLES } from '../../components/modal-layout';
import { FilterControl } from '../../explore/controls/FilterControl';
import { TimeRangeControl } from '../../explore/controls/TimeRangeControl';
import { addDangerToast, addSuccessToast } from '../../notify';
import { FilterValue, useDatasetMeta, type DatasetMeta } from './FilterValue';

const newId = (prefix: string) => `${prefix}${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;

/** How a dataset reads in the picker: `birth_names (main)`. */
const datasetLabel = (d: { table_name: string; schema?: string | null }) => (d.schema ? `${d.table_name} (${d.schema})` : d.table_name);

/** Datasets to target, searchable by name. */
function DatasetSelect({ value, onChange, error }: { value: number | null; onChange: (id: number | null) => void; error?: string }) {
  const [search, setSearch] = useState('');
  const current = useDatasetMeta(value);
  // GET /api/v1/dataset/{id} answers the schema too. The chosen dataset reads the same whether or not the list holds it.
  const currentLabel = current.data ? datasetLabel(current.data as DatasetMeta & { schema?: string | null }) : null;
  // The Select writes the chosen dataset's label into its box: that is no search and must not narrow the list
  // (narrowed to nothing, the label flipped between two spellings and the Select re-rendered without end).
  const term = search === currentLabel ? '' : search;
  const datasets = useQuery({
    queryKey: ['filter-datasets', term],
    queryFn: () => api<{ result: Array<{ id: number; table_name: string; schema: string | null }> }>('/api/v1/dataset/', { query: { q: { page: 0, page_size: 100, order_column: 'table_name', order_direction: 'asc', filters: term ? [{ col: 'table_name', opr: 'ct', value: term }] : [] } } }),
    placeholderData: (p) => p,
    retry: false,
  });
  const data = (datasets.data?.result ?? []).map((d) => ({ value: String(d.id), label: datasetLabel(d) }));
  if (value && !data.some((d) => d.value === String(value)) && currentLabel) data.unshift({ value: String(value), label: currentLabel });
  return <Select label="Dataset" withAsterisk searchable data={data} value={value ? String(value) : null} onChange={(v) => onChange(v ? Number(v) : null)} onSearchChange={setSearch} error={error} comboboxProps={{ withinPortal: true }} nothingFoundMessage="No datasets" data-field="dataset" />;
}

/**
 * The scope of a filter: all panels, or the charts left checked (spec 02 §3 scope: rootPath, excluded). The boxes show
 * the charts the scope reaches, whatever its root path (a tab's, from an imported dashboard, too), and a change writes
 * the root path and exclusions as Superset's scope tree does.
 */
export function ScopeEditor({ filter, layout, chartNames, onChange, label = 'Scoping' }: { filter: FilterConfigItem; layout: Layout; chartNames: ChartName[]; onChange: (scope: FilterScope) => void; label?: string }) {
  const scope = filter.scope ?? defaultScope();
  const inScope = useMemo(() => new Set(chartsInScope(layout, scope)), [layout, scope]);
  const specific = scope.excluded.length > 0 || scope.rootPath.some((r) => r !== ROOT_ID) || chartNames.some((c) => !inScope.has(c.id));
  const [mode, setMode] = useState(specific ? 'specific' : 'all');
  // The charts checked, less `drop`, plus `add`.
  const check = (add: number[], drop: number[]) => onChange(scopeOfCharts(layout, [...new Set([...chartNames.map((c) => c.id).filter((id) => inScope.has(id) && !drop.includes(id)), ...add])]));
  return (
    <Stack gap="xs">
      <Radio.Group label={label} value={mode} onChange={(m) => { setMode(m); if (m === 'all') onChange(defaultScope()); }}>
        <Group mt={4}>
          <Radio value="all" label="Apply to all panels" />
          <Radio value="specific" label="Apply to specific panels" />
        </Group>
      </Radio.Group>
      {mode === 'specific' && (
        <Stack gap={4} data-testid="filter-scope-charts">
          {[...new Set(chartNames.map((c) => c.tab ?? null))].map((tab) => {
            const inTab = chartNames.filter((c) => (c.tab ?? null) === tab);
            const included = inTab.filter((c) => inScope.has(c.id)).length;
            const boxes = inTab.map((c) => (
              <Checkbox
                key={c.id}
                ml={tab ? 'lg' : 0}
                label={c.name}
                checked={inScope.has(c.id)}
                onChange={(e) => (e.currentTarget.checked ? check([c.id], []) : check([], [c.id]))}
              />
            ));
            if (!tab) return boxes;
            // A whole tab in or out of the scope at once.
            const ids = inTab.map((c) => c.id);
            return (
              <Stack key={tab} gap={4}>
                <Checkbox
                  label={tab}
                  fw={600}
                  checked={included === inTab.length}
                  indeterminate={included > 0 && included < inTab.length}
                  onChange={(e) => (e.currentTarget.checked ? check(ids, []) : check([], ids))}
                />
                {boxes}
              </Stack>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

function NativeFilterForm({ filter, all, errors, layout, chartNames, onChange }: { filter: NativeFilter; all: FilterConfigItem[]; errors: Record<string, string> | undefined; layout: Layout; chartNames: ChartName[]; onChange: (f: NativeFilter) => void }) {
  const datasetId = targetDataset(filter);
  const dataset = useDatasetMeta(datasetId);
  const [tab, setTab] = useState<'settings' | 'scoping'>('settings');
  const cv = filter.controlValues ?? {};
  const setCv = (patch: Record<string, unknown>) => onChange({ ...filter, controlValues: { ...cv, ...patch } });
  const columns = (dataset.data?.columns ?? []).filter((c) => (filter.filterType === 'filter_range' ? !c.is_dttm : true));
  const parents = possibleParents(filter, all);
  const hasDefault = filter.defaultDataMask?.filterState?.value !== undefined && filter.defaultDataMask?.filterState?.value !== null;
  const [withDefault, setWithDefault] = useState(hasDefault);
  // The parent filter select shows while this is ticked, as Superset's; unticked, the parents go.
  const [withParents, setWithParents] = useState(filter.cascadeParentIds.length > 0);
  const [withSort, setWithSort] = useState(cv.sortAscending !== undefined);
  const [withPreFilter, setWithPreFilter] = useState(!!filter.adhoc_filters?.length || (!!filter.time_range && filter.time_range !== 'No filter'));
  const isSelect = filter.filterType === 'filter_select';
  const datasourceMeta = dataset.data ? { id: dataset.data.id, type: 'table', name: dataset.data.table_name, columns: dataset.data.columns, metrics: dataset.data.metrics } : null;
  const setDefault = (mask: DataMask) => onChange({ ...filter, defaultDataMask: { extraFormData: mask.extraFormData ?? {}, filterState: mask.filterState ?? {}, ownState: {} } });

  return (
    <Stack gap="sm" data-testid="filter-form">
      <SegmentedControl size="xs" value={tab} onChange={(v) => setTab(v as typeof tab)} data={[{ value: 'settings', label: 'Settings' }, { value: 'scoping', label: 'Scoping' }]} />
      {tab === 'scoping' ? (
        <ScopeEditor filter={filter} layout={layout} chartNames={chartNames} onChange={(scope) => onChange({ ...filter, scope })} />
      ) : (
        <>
          <Group grow align="flex-start">
            <Select label="Filter Type" data={FILTER_TYPES.map(([value, label]) => ({ value, label }))} value={filter.filterType} onChange={(v) => v && onChange({ ...newNativeFilter(filter.id, v as NativeFilterType), name: filter.name, targets: filter.targets, scope: filter.scope, description: filter.description })} comboboxProps={{ withinPortal: true }} allowDeselect={false} />
            <TextInput label="Filter name" withAsterisk value={filter.name} onChange={(e) => onChange({ ...filter, name: e.currentTarget.value })} error={errors?.name} data-field="name" />
          </Group>
          {needsDataset(filter.filterType) && (
            <Group grow align="flex-start">
              <DatasetSelect value={datasetId} onChange={(id) => onChange({ ...filter, targets: [{ ...(id ? { datasetId: id } : {}) }], defaultDataMask: { extraFormData: {}, filterState: {}, ownState: {} } })} error={errors?.dataset} />
              {needsColumn(filter.filterType) && (
                <Select
                  label="Column"
                  withAsterisk
                  searchable
                  data={columns.map((c) => c.column_name)}
                  value={targetColumn(filter) || null}
                  onChange={(v) => onChange({ ...filter, targets: [{ ...(datasetId ? { datasetId } : {}), ...(v ? { column: { name: v } } : {}) }], defaultDataMask: { extraFormData: {}, filterState: {}, ownState: {} } })}
                  error={errors?.column}
                  disabled={!datasetId}
                  comboboxProps={{ withinPortal: true }}
                  data-field="column"
                />
              )}
            </Group>
          )}
          {isSelect && all.filter(isNativeFilter).length >= 2 && (
            <Stack gap={4}>
              <Checkbox label="Values are dependent on other filters" checked={withParents} onChange={(e) => { setWithParents(e.currentTarget.checked); if (!e.currentTarget.checked) onChange({ ...filter, cascadeParentIds: [] }); }} />
              {withParents && (
                <MultiSelect aria-label="Parent filters" placeholder="Parent filters" data={parents.map((p) => ({ value: p.id, label: p.name || p.id }))} value={filter.cascadeParentIds} onChange={(ids) => onChange({ ...filter, cascadeParentIds: ids })} comboboxProps={{ withinPortal: true }} size="xs" pl="lg" />
              )}
            </Stack>
          )}
          {isSelect && (
            <Stack gap={4}>
              <Checkbox label="Pre-filter available values" checked={withPreFilter} onChange={(e) => { setWithPreFilter(e.currentTarget.checked); if (!e.currentTarget.checked) onChange({ ...filter, adhoc_filters: [], time_range: 'No filter' }); }} />
              {withPreFilter && (
                <Stack gap={4} pl="lg">
                  <FilterControl value={filter.adhoc_filters ?? []} datasource={datasourceMeta} datasourceKey={`${datasetId}__table`} onChange={(v) => onChange({ ...filter, adhoc_filters: v })} />
                  <Text size="xs" c="dimmed">
                    Time range
                  </Text>
                  <TimeRangeControl value={filter.time_range ?? 'No filter'} onChange={(v) => onChange({ ...filter, time_range: v, granularity_sqla: dataset.data?.columns.find((c) => c.is_dttm)?.column_name })} />
                </Stack>
              )}
            </Stack>
          )}
          {isSelect && (
            <Stack gap={4}>
              <Checkbox label="Sort filter values" checked={withSort} onChange={(e) => { setWithSort(e.currentTarget.checked); setCv({ sortAscending: e.currentTarget.checked ? true : undefined }); if (!e.currentTarget.checked) onChange({ ...filter, controlValues: { ...cv, sortAscending: undefined }, sortMetric: null }); }} />
              {withSort && (
                <Group pl="lg" align="flex-end">
                  <Radio.Group value={cv.sortAscending === false ? 'desc' : 'asc'} onChange={(v) => setCv({ sortAscending: v === 'asc' })}>
                    <Group gap="sm">
                      <Radio value="asc" label="Sort ascending" />
                      <Radio value="desc" label="Sort descending" />
                    </Group>
                  </Radio.Group>
                  <Select size="xs" label="Sort Metric" clearable data={(dataset.data?.metrics ?? []).map((m) => m.metric_name)} value={filter.sortMetric ?? null} onChange={(v) => onChange({ ...filter, sortMetric: v })} comboboxProps={{ withinPortal: true }} />
                </Group>
              )}
            </Stack>
          )}
          <Checkbox label="Filter has default value" checked={withDefault} onChange={(e) => { setWithDefault(e.currentTarget.checked); if (!e.currentTarget.checked) setDefault({ id: filter.id, extraFormData: {}, filterState: {} }); }} />
          {withDefault && (
            <div style={{ paddingLeft: 'var(--mantine-spacing-lg)' }} data-testid="filter-default-value">
              {(!needsColumn(filter.filterType) || targetColumn(filter)) && (!needsDataset(filter.filterType) || datasetId) ? (
                <FilterValue filter={{ ...filter, controlValues: { ...cv, defaultToFirstItem: false } }} filters={all} mask={filter.defaultDataMask as DataMask} applied={{}} onChange={setDefault} error={errors?.defaultValue} />
              ) : (
                <Text size="xs" c="dimmed">
                  Choose the dataset and column first.
                </Text>
              )}
            </div>
          )}
          <Checkbox label="Filter value is required" checked={!!cv.enableEmptyFilter} onChange={(e) => setCv({ enableEmptyFilter: e.currentTarget.checked })} />
          {isSelect && (
            <>
              <Checkbox label="Select first filter value by default" checked={!!cv.defaultToFirstItem} onChange={(e) => onChange({ ...filter, controlValues: { ...cv, defaultToFirstItem: e.currentTarget.checked }, requiredFirst: e.currentTarget.checked })} />
              <Checkbox label="Can select multiple values" checked={cv.multiSelect !== false} onChange={(e) => setCv({ multiSelect: e.currentTarget.checked })} />
              <Checkbox label="Dynamically search all filter values" checked={!!cv.searchAllOptions} onChange={(e) => setCv({ searchAllOptions: e.currentTarget.checked })} />
              <Checkbox label="Inverse selection" checked={!!cv.inverseSelection} onChange={(e) => setCv({ inverseSelection: e.currentTarget.checked })} />
            </>
          )}
          <Textarea label="Description" autosize minRows={2} value={filter.description ?? ''} onChange={(e) => onChange({ ...filter, description: e.currentTarget.value })} />
        </>
      )}
    </Stack>
  );
}

/**
 * Add, edit, reorder and remove native filters and dividers (spec 02 §4): a removed filter can be restored
 * within 5000 ms; the form is validated on save, moving to the first invalid filter; the configuration is
 * saved through the json_metadata PUT.
 */
export function FiltersConfigModal({ opened, onClose, filters, layout, chartNames, onSave }: { opened: boolean; onClose: () => void; filters: FilterConfigItem[]; layout: Layout; chartNames: ChartName[]; onSave: (items: FilterConfigItem[]) => Promise<void> }) {
  const [items, setItems] = useState<FilterConfigItem[]>(filters);
  const [selected, setSelected] = useState<string | null>(filters[0]?.id ?? null);
  const [removed, setRemoved] = useState<Record<string, number>>({});
  // The errors of the last Save; those whose field has since been fixed are not shown.
  const [submitted, setSubmitted] = useState<FilterErrors>({});
  const [saving, setSaving] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    if (!opened) return;
    setItems(filters);
    setSelected(filters[0]?.id ?? null);
    setRemoved({});
    setSubmitted({});
    setConfirmCancel(false);
  }, [opened, filters]);
  useEffect(() => () => timers.current.forEach((t) => clearTimeout(t)), []);

  const live = items.filter((i) => !(i.id in removed));
  const changed = JSON.stringify(live) !== JSON.stringify(filters);
  const current = items.find((i) => i.id === selected) ?? null;
  const errors = useMemo(() => errorsStillStanding(submitted, items), [submitted, items]);

  const add = (kind: 'filter' | 'divider') => {
    const item: FilterConfigItem = kind === 'filter' ? newNativeFilter(newId(NATIVE_FILTER_PREFIX)) : { id: newId(NATIVE_FILTER_DIVIDER_PREFIX), type: 'DIVIDER', title: '', description: '', scope: { rootPath: ['ROOT_ID'], excluded: [] } };
    setItems((list) => [...list, item]);
    setSelected(item.id);
  };
  const update = (item: FilterConfigItem) => setItems((list) => list.map((i) => (i.id === item.id ? item : i)));
  const move = (id: string, by: number) =>
    setItems((list) => {
      const i = list.findIndex((x) => x.id === id);
      const j = i + by;
      if (i < 0 || j < 0 || j >= list.length) return list;
      const next = [...list];
      [next[i], next[j]] = [next[j]!, next[i]!];
      return next;
    });
  // spec 02 §4: a removal stays pending for 5000 ms (the undo window), then is final.
  const remove = (id: string) => {
    setRemoved((r) => ({ ...r, [id]: Date.now() }));
    timers.current.set(
      id,
      setTimeout(() => {
        setItems((list) => list.filter((i) => i.id !== id));
        setRemoved(({ [id]: _gone, ...rest }) => rest);
        setSelected((s) => (s === id ? null : s));
        timers.current.delete(id);
      }, FILTER_REMOVAL_UNDO_MS),
    );
  };
  const restore = (id: string) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setRemoved(({ [id]: _gone, ...rest }) => rest);
  };

  const save = async () => {
    const result = validateFilterConfiguration(live);
    setSubmitted(result.errors);
    if (result.firstInvalid) {
      // Focus moves to the first invalid filter, and to its first invalid field.
      setSelected(result.firstInvalid);
      const field = Object.keys(result.errors[result.firstInvalid] ?? {})[0];
      setTimeout(() => (document.querySelector(`[data-testid="filter-form"] [data-field="${field}"]`) as HTMLElement | null)?.focus(), 50);
      return;
    }
    const ready = live.map((i) => withScopeComputed(isNativeFilter(i) ? { ...i, description: i.description.trim() } : trimDivider(i), layout));
    setSaving(true);
    try {
      await onSave(ready);
      addSuccessToast('Filters saved');
      onClose();
    } catch (error) {
      addDangerToast(`Could not save the filters: ${(error as Error).message}`);
    } finally {
      setSaving(false);
    }
  };

  const cancel = () => (changed ? setConfirmCancel(true) : onClose());
  const label = (i: FilterConfigItem) => (isNativeFilter(i) ? i.name || '[untitled]' : i.title || '[untitled divider]');

  return (
    <Modal opened={opened} onClose={cancel} title="Add and edit filters" size="80rem" centered styles={FOOTER_IN_VIEW_MODAL_STYLES}>
      {/* The list and the form scroll each on its own; the form's pane keeps 480 px while the window has room for them. */}
      <div style={{ display: 'flex', gap: 16, minHeight: 'min(480px, calc(100dvh - 280px))', flex: '0 1 auto' }}>
        <Stack gap={6} w={260} style={{ flex: 'none', minHeight: 0 }}>
          <Menu position="bottom-start" withinPortal>
            <Menu.Target>
              <Button size="xs" variant="light" leftSection={<IconPlus size={14} />}>
                Add filters and dividers
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => add('filter')}>Filter</Menu.Item>
              <Menu.Item onClick={() => add('divider')}>Divider</Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <ScrollArea.Autosize mah={520}>
            <Stack gap={2} data-testid="filter-config-list">
              {items.map((i, index) => (
                <Group
                  key={i.id}
                  gap={4}
                  wrap="nowrap"
                  data-testid="filter-config-item"
                  data-selected={i.id === selected || undefined}
                  style={{ padding: '6px 8px', borderRadius: 4, cursor: 'pointer', background: i.id === selected ? 'var(--mantine-color-default-hover)' : undefined, outline: errors[i.id] ? '1px solid var(--mantine-color-red-5)' : undefined }}
                  onClick={() => setSelected(i.id)}
                >
                  <Text size="sm" truncate style={{ flex: 1, textDecoration: i.id in removed ? 'line-through' : undefined }} c={i.id in removed ? 'dimmed' : errors[i.id] ? 'red' : undefined}>
                    {label(i)}
                  </Text>
                  {i.id in removed ? (
                    <Button size="compact-xs" variant="subtle" onClick={(e) => { e.stopPropagation(); restore(i.id); }}>
                      Restore Filter
                    </Button>
                  ) : (
                    <>
                      <ActionIcon size="xs" variant="subtle" aria-label="Move up" disabled={index === 0} onClick={(e) => { e.stopPropagation(); move(i.id, -1); }}>
                        <IconArrowUp size={12} />
                      </ActionIcon>
                      <ActionIcon size="xs" variant="subtle" aria-label="Move down" disabled={index === items.length - 1} onClick={(e) => { e.stopPropagation(); move(i.id, 1); }}>
                        <IconArrowDown size={12} />
                      </ActionIcon>
                      <ActionIcon size="xs" variant="subtle" color="red" aria-label={`Remove ${label(i)}`} onClick={(e) => { e.stopPropagation(); remove(i.id); }}>
                        <IconTrash size={12} />
                      </ActionIcon>
                    </>
                  )}
                </Group>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Stack>
        <div style={{ flex: 1, minWidth: 0, borderLeft: '1px solid var(--mantine-color-default-border)', paddingLeft: 16, overflowY: 'auto' }} data-testid="filter-config-form">
          {!current ? (
            <Text c="dimmed" size="sm">
              Add a filter or a divider, or pick one on the left.
            </Text>
          ) : current.id in removed ? (
            <Stack align="flex-start">
              <Text>You have removed this filter.</Text>
              <Button variant="light" onClick={() => restore(current.id)}>
                Restore Filter
              </Button>
            </Stack>
          ) : isNativeFilter(current) ? (
            <NativeFilterForm key={current.id} filter={current} all={live} errors={errors[current.id]} layout={layout} chartNames={chartNames} onChange={update} />
          ) : (
            <Stack gap="sm" data-testid="filter-form">
              <TextInput label="Title" withAsterisk value={current.title} onChange={(e) => update({ ...current, title: e.currentTarget.value })} error={errors[current.id]?.title} data-field="title" />
              <Textarea label="Description" autosize minRows={2} value={current.description} onChange={(e) => update({ ...current, description: e.currentTarget.value })} />
            </Stack>
          )}
        </div>
      </div>
      {confirmCancel && (
        <Alert color="yellow" mt="md" title="There are unsaved changes." data-testid="filters-unsaved">
          <Group justify="space-between">
            <Text size="sm">Are you sure you want to cancel?</Text>
            <Group gap="xs">
              <Button size="xs" variant="default" onClick={() => setConfirmCancel(false)}>
                Keep editing
              </Button>
              <Button size="xs" color="red" onClick={onClose}>
                Yes, cancel
              </Button>
            </Group>
          </Group>
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={cancel}>
          Cancel
        </Button>
        <Button onClick={() => void save()} loading={saving} data-testid="filters-save">
          Save
        </Button>
      </Group>
    </Modal>
  );
}

/** A chart offered in a scope, with the tab it sits on (null when the dashboard has no tabs there). */
export type ChartName = { id: number; name: string; tab?: string | null };
