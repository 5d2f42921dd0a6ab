import { ActionIcon, Badge, Button, Group, Popover, SegmentedControl, Select, Stack, Tabs, TagsInput, Text, TextInput } from '@mantine/core';
import { renderSelectTag } from '../../components/select-tags';
import { SqlExpressionEditor } from '../../components/SqlExpressionEditor';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { TIME_RANGE_NO_FILTER } from '@meridian/contracts/messages';
import { SELECT_TOKEN_SEPARATORS } from '@meridian/contracts/rules/select';
import { useState } from 'react';
import type { DatasourceMeta } from '../../viz/types';
import { fetchColumnValues } from '../explore.api';
import { DRAG_TYPE, readDrag } from './drag';
import { closeOnEscape } from './escape';
import { filterLabel, operatorOf, operatorsFor, simpleFilter, type AdhocFilter } from './adhoc-filter';
import { TimeRangeControl } from './TimeRangeControl';

export { FILTER_OPERATORS, filterLabel, type AdhocFilter } from './adhoc-filter';

function FilterEditor({ value, datasource, datasourceKey, onSave, onCancel }: { value: AdhocFilter | null; datasource: DatasourceMeta | null; datasourceKey: string; onSave: (f: AdhocFilter) => void; onCancel: () => void }) {
  const [tab, setTab] = useState<string>(value?.expressionType === 'SQL' ? 'sql' : 'simple');
  const [subject, setSubject] = useState<string | null>(value?.subject ?? null);
  const [operator, setOperator] = useState<string>(value?.operator ?? '==');
  const [comparator, setComparator] = useState<unknown>(value?.comparator ?? null);
  const [clause, setClause] = useState<'WHERE' | 'HAVING'>(value?.clause ?? 'WHERE');
  const [sql, setSql] = useState(value?.sqlExpression ?? '');
  const op = operatorOf(operator);
  const column = datasource?.columns.find((c) => c.column_name === subject) ?? null;
  const operators = operatorsFor(column);
  const values = useQuery({ queryKey: ['column-values', datasourceKey, subject], queryFn: () => fetchColumnValues(datasourceKey, subject!), enabled: !!subject && tab === 'simple' && !op.temporal, staleTime: 60_000 });
  const options = [...new Set((values.data ?? []).filter((v) => v !== null).map(String))];
  const comparatorList = Array.isArray(comparator) ? comparator.map(String) : comparator === null || comparator === undefined || comparator === '' ? [] : [String(comparator)];
  const valid = tab === 'sql' ? !!sql.trim() : !!subject && (op.unary || comparatorList.length > 0);
  const save = () => {
    if (tab === 'sql') return onSave({ expressionType: 'SQL', clause, sqlExpression: sql.trim() });
    onSave(simpleFilter(subject!, operator, comparatorList));
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
          <Select
            label="Column"
            placeholder="Select column"
            searchable
            nothingFoundMessage="No such column found. To filter on a metric, try the Custom SQL tab."
            data={(datasource?.columns ?? []).filter((c) => c.filterable !== false).map((c) => ({ value: c.column_name, label: c.verbose_name || c.column_name }))}
            value={subject}
            onChange={(next) => {
              setSubject(next);
              // TEMPORAL_RANGE applies to temporal columns only.
              const nextColumn = datasource?.columns.find((c) => c.column_name === next);
              if (op.temporal && !nextColumn?.is_dttm) setOperator('==');
            }}
            comboboxProps={{ withinPortal: false }}
          />
          <Select
            label="Operator"
            data={operators.map((o) => ({ value: o.value, label: o.label }))}
            value={operator}
            onChange={(v) => {
              const next = operatorOf(v ?? '==');
              // A time range and a column value do not convert into each other.
              if (next.temporal !== op.temporal) setComparator(next.temporal ? TIME_RANGE_NO_FILTER : null);
              setOperator(next.value);
            }}
            comboboxProps={{ withinPortal: false }}
            allowDeselect={false}
          />
          {!op.unary &&
            (op.temporal ? (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Time range
                </Text>
                <TimeRangeControl value={comparatorList[0]} onChange={setComparator} withinPortal={false} />
              </Stack>
            ) : op.multi ? (
              <TagsInput label="Values" placeholder={values.isFetching ? 'Loading values…' : 'Pick or type values'} data={options} value={comparatorList} onChange={setComparator} comboboxProps={{ withinPortal: false }} limit={200} clearable splitChars={[...SELECT_TOKEN_SEPARATORS]} renderPill={renderSelectTag} />
            ) : options.length && !op.pattern ? (
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
