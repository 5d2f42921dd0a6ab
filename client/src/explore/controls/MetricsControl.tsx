import { ActionIcon, Badge, Button, Group, Popover, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { SqlExpressionEditor } from '../../components/SqlExpressionEditor';
import { ADHOC_METRIC_AGGREGATES } from '@meridian/contracts/rules/constants';
import { simpleMetricOfSql, simpleMetricSql } from '@meridian/contracts/rules/validators';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { displayNames, metricLabel, type MetricEntry } from '../../viz/shared/metrics';
import type { DatasourceMeta } from '../../viz/types';
import { DRAG_TYPE, readDrag } from './drag';
import { closeOnEscape } from './escape';

type AdhocMetric = Exclude<MetricEntry, string>;

/** Superset's adhoc metric label when none was typed: AGG(column), or the SQL itself. */
function defaultLabel(m: AdhocMetric): string {
  return m.expressionType === 'SQL' ? String(m.sqlExpression ?? '') : `${m.aggregate ?? ''}(${m.column?.column_name ?? ''})`;
}

/** The editor of one metric: a saved metric, a column with an aggregate, or custom SQL (spec 01 §3 adhoc metric). */
function MetricEditor({ value, datasource, onSave, onCancel }: { value: MetricEntry | null; datasource: DatasourceMeta | null; onSave: (m: MetricEntry) => void; onCancel: () => void }) {
  const adhoc = value && typeof value !== 'string' ? value : null;
  const [tab, setTab] = useState<string>(typeof value === 'string' ? 'saved' : adhoc?.expressionType === 'SQL' ? 'sql' : 'simple');
  const [saved, setSaved] = useState<string | null>(typeof value === 'string' ? value : null);
  const [column, setColumn] = useState<string | null>(adhoc?.column?.column_name ?? null);
  const [aggregate, setAggregate] = useState<string | null>(adhoc?.aggregate ?? null);
  const [sql, setSql] = useState(adhoc?.sqlExpression ?? '');
  const [label, setLabel] = useState(adhoc?.hasCustomLabel ? (adhoc.label ?? '') : '');
  const build = (): MetricEntry | null => {
    if (tab === 'saved') return saved;
    const base: AdhocMetric =
      tab === 'sql' ? { expressionType: 'SQL', sqlExpression: sql.trim() } : column && aggregate ? { expressionType: 'SIMPLE', column: { column_name: column }, aggregate } : { expressionType: 'SIMPLE' };
    if (tab === 'sql' ? !sql.trim() : !(column && aggregate)) return null;
    return { ...base, label: label.trim() || defaultLabel(base), hasCustomLabel: !!label.trim() } as AdhocMetric;
  };
  const built = build();
  // The metric goes along to the other tab, as in Superset: AGG(column) becomes its SQL, and SQL that is a plain
  // metric expression comes back as column and aggregate (a column the dataset lacks is left unset). SQL that is
  // more than that is never overwritten.
  const changeTab = (next: string) => {
    if (tab === 'simple' && next === 'sql' && column && aggregate && (!sql.trim() || simpleMetricOfSql(sql))) setSql(simpleMetricSql(aggregate, column));
    const simple = tab === 'sql' && next === 'simple' ? simpleMetricOfSql(sql) : null;
    if (simple) {
      setAggregate(simple.aggregate);
      setColumn(datasource?.columns.some((c) => c.column_name === simple.column) ? simple.column : null);
    }
    setTab(next);
  };
  return (
    <Stack gap="xs" w={340}>
      <Tabs value={tab} onChange={(t) => changeTab(t ?? 'simple')}>
        <Tabs.List>
          <Tabs.Tab value="saved">Saved</Tabs.Tab>
          <Tabs.Tab value="simple">Simple</Tabs.Tab>
          <Tabs.Tab value="sql">Custom SQL</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'saved' && (
        <Select label="Saved metric" placeholder="Select a saved metric" searchable data={(datasource?.metrics ?? []).map((m) => ({ value: m.metric_name, label: m.verbose_name || m.metric_name }))} value={saved} onChange={setSaved} comboboxProps={{ withinPortal: false }} nothingFoundMessage="No saved metrics" />
      )}
      {tab === 'simple' && (
        <>
          <Select label="Column" placeholder="Select column" searchable data={(datasource?.columns ?? []).map((c) => ({ value: c.column_name, label: c.verbose_name || c.column_name }))} value={column} onChange={setColumn} comboboxProps={{ withinPortal: false }} />
          <Select label="Aggregate" placeholder="Select aggregate" data={[...ADHOC_METRIC_AGGREGATES]} value={aggregate} onChange={setAggregate} comboboxProps={{ withinPortal: false }} />
        </>
      )}
      {tab === 'sql' && <SqlExpressionEditor label="Custom SQL" editorKey="metric-sql" value={sql} onChange={setSql} datasource={datasource} withMetrics placeholder="SUM(num) / COUNT(*)" />}
      {tab !== 'saved' && <TextInput label="Label" placeholder={built && typeof built !== 'string' ? defaultLabel(built) : 'My metric'} value={label} onChange={(e) => setLabel(e.currentTarget.value)} />}
      <Group justify="flex-end" gap="xs">
        <Button variant="default" size="xs" onClick={onCancel}>
          Close
        </Button>
        <Button size="xs" disabled={!built} onClick={() => built && onSave(built)}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}

// In a half-width row (Sort by beside Series limit) the words wrap to a second line rather than being cut, as Superset's do.
const GHOST_BUTTON_STYLES = { root: { borderStyle: 'dashed', height: 'auto', minHeight: 30, paddingBlock: 4 }, label: { whiteSpace: 'normal', overflow: 'visible' } } as const;

/** Metrics (or one metric): chips that open the adhoc metric editor; saved metrics and columns can be dropped in. */
export function MetricsControl({ value, multi, datasource, onChange, label }: { value: unknown; multi: boolean; datasource: DatasourceMeta | null; onChange: (v: unknown) => void; label: string }) {
  const list: MetricEntry[] = value === null || value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value as MetricEntry];
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [over, setOver] = useState(false);
  // A saved metric's chip reads its verbose name, as Superset's does ('Births' for sum__num); an adhoc one its label.
  const verbose = displayNames(datasource);
  const chipName = (metric: MetricEntry) => (typeof metric === 'string' ? verbose(metric) : metricLabel(metric));
  const commit = (next: MetricEntry[]) => onChange(multi ? next : (next[0] ?? null));
  const save = (index: number | 'new', metric: MetricEntry) => {
    const next = [...list];
    if (index === 'new') next.push(metric);
    else next[index] = metric;
    commit(multi ? next : [metric]);
    setEditing(null);
  };
  const editor = (index: number | 'new') => (
    <MetricEditor value={index === 'new' ? null : (list[index] ?? null)} datasource={datasource} onSave={(m) => save(index, m)} onCancel={() => setEditing(null)} />
  );
  return (
    <Stack
      gap={4}
      data-drop-over={over || undefined}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(DRAG_TYPE)) {
          e.preventDefault();
          setOver(true);
        }
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        const item = readDrag(e);
        if (!item) return;
        const metric: MetricEntry = item.kind === 'metric' ? item.name : { expressionType: 'SIMPLE', column: { column_name: item.name }, aggregate: 'SUM', label: `SUM(${item.name})`, hasCustomLabel: false };
        commit(multi ? [...list, metric] : [metric]);
      }}
      style={{ borderRadius: 4, outline: over ? '2px dashed var(--mantine-color-blue-5)' : undefined }}
    >
      {list.map((metric, i) => (
        <Popover key={`${metricLabel(metric)}-${i}`} opened={editing === i} onChange={(o) => !o && setEditing(null)} position="right-start" withArrow trapFocus shadow="md" closeOnEscape={false}>
          <Popover.Target>
            <Group gap={0} wrap="nowrap">
              <Badge
                variant="light"
                radius="sm"
                size="lg"
                tt="none"
                fw={500}
                style={{ cursor: 'pointer', flex: 1, justifyContent: 'flex-start' }}
                styles={{ label: { textAlign: 'left' } }}
                onClick={() => setEditing(i)}
                rightSection={
                  <ActionIcon size="xs" variant="transparent" aria-label={`Remove ${chipName(metric)}`} onClick={(e) => { e.stopPropagation(); commit(list.filter((_, j) => j !== i)); }}>
                    <IconX size={12} />
                  </ActionIcon>
                }
              >
                {chipName(metric)}
              </Badge>
            </Group>
          </Popover.Target>
          <Popover.Dropdown onKeyDown={closeOnEscape(() => setEditing(null))}>{editor(i)}</Popover.Dropdown>
        </Popover>
      ))}
      {(multi || list.length === 0) && (
        <Popover opened={editing === 'new'} onChange={(o) => !o && setEditing(null)} position="right-start" withArrow trapFocus shadow="md" closeOnEscape={false}>
          <Popover.Target>
            <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} justify="flex-start" onClick={() => setEditing('new')} aria-label={`Add ${label.toLowerCase()}`} styles={GHOST_BUTTON_STYLES}>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'normal', textAlign: 'left' }}>
                Drop a column/metric here or click
              </Text>
            </Button>
          </Popover.Target>
          <Popover.Dropdown onKeyDown={closeOnEscape(() => setEditing(null))}>{editor('new')}</Popover.Dropdown>
        </Popover>
      )}
    </Stack>
  );
}
