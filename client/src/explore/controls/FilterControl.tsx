import { ActionIcon, Badge, Button, Group, Popover, SegmentedControl, Select, Stack, Tabs, TagsInput, Text, TextInput } from '@mantine/core';
import { SqlExpressionEditor } from '../../components/SqlExpressionEditor';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { DatasourceMeta } from '../../viz/types';
import { fetchColumnValues } from '../explore.api';
import { DRAG_TYPE, readDrag } from './drag';
import { closeOnEscape } from './escape';

/** Superset's adhoc filter (spec 01 §3). */
export interface AdhocFilter {
  expressionType: 'SIMPLE' | 'SQL';
  clause: 'WHERE' | 'HAVING';
  subject?: string;
  operator?: string;
  comparator?: unknown;
  sqlExpression?: string;
  isExtra?: boolean;
}

/** Every operator of the chart data API, with Superset's labels. */
export const FILTER_OPERATORS: ReadonlyArray<{ value: string; label: string; multi?: boolean; unary?: boolean }> = [
  { value: '==', label: 'Equal to (=)' },
  { value: '!=', label: 'Not equal to (≠)' },
  { value: '<', label: 'Less than (<)' },
  { value: '<=', label: 'Less or equal (<=)' },
  { value: '>', label: 'Greater than (>)' },
  { value: '>=', label: 'Greater or equal (>=)' },
  { value: 'IN', label: 'In', multi: true },
  { value: 'NOT IN', label: 'Not in', multi: true },
  { value: 'LIKE', label: 'Like' },
  { value: 'ILIKE', label: 'Like (case insensitive)' },
  { value: 'IS NULL', label: 'Is null', unary: true },
  { value: 'IS NOT NULL', label: 'Is not null', unary: true },
  { value: 'IS TRUE', label: 'Is true', unary: true },
  { value: 'IS FALSE', label: 'Is false', unary: true },
];

/** How a filter reads on its chip: `gender = boy`, `state IN (CA, NY)`, or its SQL. */
export function filterLabel(f: AdhocFilter): string {
  if (f.expressionType === 'SQL') return f.sqlExpression ?? '';
  const op = FILTER_OPERATORS.find((o) => o.value === f.operator);
  if (op?.unary) return `${f.subject} ${f.operator}`;
  const value = Array.isArray(f.comparator) ? `(${f.comparator.join(', ')})` : String(f.comparator ?? '');
  return `${f.subject} ${f.operator === '==' ? '=' : f.operator} ${value}`;
}

function FilterEditor({ value, datasource, datasourceKey, onSave, onCancel }: { value: AdhocFilter | null; datasource: DatasourceMeta | null; datasourceKey: string; onSave: (f: AdhocFilter) => void; onCancel: () => void }) {
  const [tab, setTab] = useState<string>(value?.expressionType === 'SQL' ? 'sql' : 'simple');
  const [subject, setSubject] = useState<string | null>(value?.subject ?? null);
  const [operator, setOperator] = useState<string>(value?.operator ?? '==');
  const [comparator, setComparator] = useState<unknown>(value?.comparator ?? null);
  const [clause, setClause] = useState<'WHERE' | 'HAVING'>(value?.clause ?? 'WHERE');
  const [sql, setSql] = useState(value?.sqlExpression ?? '');
  const op = FILTER_OPERATORS.find((o) => o.value === operator)!;
  const values = useQuery({ queryKey: ['column-values', datasourceKey, subject], queryFn: () => fetchColumnValues(datasourceKey, subject!), enabled: !!subject && tab === 'simple', staleTime: 60_000 });
  const options = [...new Set((values.data ?? []).filter((v) => v !== null).map(String))];
  const comparatorList = Array.isArray(comparator) ? comparator.map(String) : comparator === null || comparator === undefined || comparator === '' ? [] : [String(comparator)];
  const valid = tab === 'sql' ? !!sql.trim() : !!subject && (op.unary || comparatorList.length > 0);
  const save = () => {
    if (tab === 'sql') return onSave({ expressionType: 'SQL', clause, sqlExpression: sql.trim() });
    onSave({ expressionType: 'SIMPLE', clause: 'WHERE', subject: subject!, operator, comparator: op.unary ? null : op.multi ? comparatorList : comparatorList[0] });
  };
  return (
    <Stack gap="xs" w={340}>
      <Tabs value={tab} onChange={(t) => setTab(t ?? 'simple')}>
        <Tabs.List>
          <Tabs.Tab value="simple">Simple</Tabs.Tab>
          <Tabs.Tab value="sql">Custom SQL</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'simple' ? (
        <>
          <Select label="Column" placeholder="Select column" searchable data={(datasource?.columns ?? []).filter((c) => c.filterable !== false).map((c) => ({ value: c.column_name, label: c.verbose_name || c.column_name }))} value={subject} onChange={setSubject} comboboxProps={{ withinPortal: false }} />
          <Select label="Operator" data={FILTER_OPERATORS.map((o) => ({ value: o.value, label: o.label }))} value={operator} onChange={(v) => setOperator(v ?? '==')} comboboxProps={{ withinPortal: false }} allowDeselect={false} />
          {!op.unary &&
            (op.multi ? (
              <TagsInput label="Values" placeholder={values.isFetching ? 'Loading values…' : 'Pick or type values'} data={options} value={comparatorList} onChange={setComparator} comboboxProps={{ withinPortal: false }} limit={200} clearable />
            ) : options.length && operator !== 'LIKE' && operator !== 'ILIKE' ? (
              <Select label="Value" placeholder={values.isFetching ? 'Loading values…' : 'Pick a value'} searchable data={options} value={comparatorList[0] ?? null} onChange={setComparator} comboboxProps={{ withinPortal: false }} limit={200} />
            ) : (
              <TextInput label="Value" value={comparatorList[0] ?? ''} onChange={(e) => setComparator(e.currentTarget.value)} />
            ))}
        </>
      ) : (
        <>
          <SegmentedControl size="xs" data={['WHERE', 'HAVING']} value={clause} onChange={(v) => setClause(v as 'WHERE' | 'HAVING')} />
          <SqlExpressionEditor label="Custom SQL" editorKey="filter-sql" value={sql} onChange={setSql} datasource={datasource} placeholder="num > 100" />
        </>
      )}
      <Group justify="flex-end" gap="xs">
        <Button variant="default" size="xs" onClick={onCancel}>
          Close
        </Button>
        <Button size="xs" disabled={!valid} onClick={save}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}

/** The filters control: chips that open the filter editor; a dataset column can be dropped in. */
export function FilterControl({ value, datasource, datasourceKey, onChange }: { value: unknown; datasource: DatasourceMeta | null; datasourceKey: string; onChange: (v: AdhocFilter[]) => void }) {
  const list = (Array.isArray(value) ? value : []) as AdhocFilter[];
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [preset, setPreset] = useState<string | null>(null);
  const save = (index: number | 'new', f: AdhocFilter) => {
    const next = [...list];
    if (index === 'new') next.push(f);
    else next[index] = f;
    onChange(next);
    setEditing(null);
  };
  const closeNew = () => {
    setEditing(null);
    setPreset(null);
  };
  const editor = (index: number | 'new') => (
    <FilterEditor
      key={`${index}-${preset}`}
      value={index === 'new' ? (preset ? { expressionType: 'SIMPLE', clause: 'WHERE', subject: preset, operator: '==' } : null) : (list[index] ?? null)}
      datasource={datasource}
      datasourceKey={datasourceKey}
      onSave={(f) => save(index, f)}
      onCancel={() => setEditing(null)}
    />
  );
  return (
    <Stack
      gap={4}
      onDragOver={(e) => e.dataTransfer.types.includes(DRAG_TYPE) && e.preventDefault()}
      onDrop={(e) => {
        const item = readDrag(e);
        if (item?.kind !== 'column') return;
        setPreset(item.name);
        setEditing('new');
      }}
    >
      {list.map((f, i) => (
        <Popover key={`${filterLabel(f)}-${i}`} opened={editing === i} onChange={(o) => !o && setEditing(null)} position="right-start" withArrow trapFocus shadow="md" closeOnEscape={false}>
          <Popover.Target>
            <Badge
              variant="light"
              color="grape"
              radius="sm"
              size="lg"
              tt="none"
              fw={500}
              style={{ cursor: 'pointer', justifyContent: 'flex-start' }}
              onClick={() => setEditing(i)}
              rightSection={
                <ActionIcon size="xs" variant="transparent" color="grape" aria-label={`Remove filter ${filterLabel(f)}`} onClick={(e) => { e.stopPropagation(); onChange(list.filter((_, j) => j !== i)); }}>
                  <IconX size={12} />
                </ActionIcon>
              }
            >
              {filterLabel(f)}
            </Badge>
          </Popover.Target>
          <Popover.Dropdown onKeyDown={closeOnEscape(() => setEditing(null))}>{editor(i)}</Popover.Dropdown>
        </Popover>
      ))}
      <Popover opened={editing === 'new'} onChange={(o) => !o && closeNew()} position="right-start" withArrow trapFocus shadow="md" closeOnEscape={false}>
        <Popover.Target>
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} justify="flex-start" onClick={() => setEditing('new')} aria-label="Add filter" styles={{ root: { borderStyle: 'dashed' } }}>
            <Text size="xs" c="dimmed" truncate="end">
              Drop columns here or click
            </Text>
          </Button>
        </Popover.Target>
        <Popover.Dropdown onKeyDown={closeOnEscape(closeNew)}>{editor('new')}</Popover.Dropdown>
      </Popover>
    </Stack>
  );
}
