import { ActionIcon, Alert, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Table, Tabs, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import type { DatasetColumnInput, DatasetMetricInput, DatasetView } from '@meridian/contracts/schemas/dataset';
import { IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { addSuccessToast, toastError } from '../notify';
import { errorOf, trpc } from '../trpc';

/** `calculated` is decided when a row is loaded or added, so clearing an expression never moves the row between tabs. */
type Column = DatasetColumnInput & { key: string; calculated: boolean };
type Metric = DatasetMetricInput & { key: string };

let nextKey = 0;
const key = () => `k${++nextKey}`;

function columnsOf(view: DatasetView): Column[] {
  return view.columns.map((c) => ({
    key: key(),
    calculated: !!c.expression,
    id: c.id,
    column_name: c.column_name,
    verbose_name: c.verbose_name,
    type: c.type,
    is_dttm: c.is_dttm,
    groupby: c.groupby,
    filterable: c.filterable,
    expression: c.expression,
    description: c.description,
    python_date_format: c.python_date_format,
  }));
}

function metricsOf(view: DatasetView): Metric[] {
  return view.metrics.map((m) => ({ key: key(), id: m.id, metric_name: m.metric_name, expression: m.expression, verbose_name: m.verbose_name, d3format: m.d3format, warning_text: m.warning_text, description: m.description }));
}

const strip = <T extends { key: string }>({ key: _k, ...rest }: T) => rest;
const columnInput = ({ key: _k, calculated: _c, ...rest }: Column): DatasetColumnInput => rest;

/** Edit a dataset: settings, source columns, calculated columns and metrics (Superset's datasource editor). */
export function DatasetEditorModal({ datasetId, onClose, onSaved }: { datasetId: number; onClose: () => void; onSaved: () => void }) {
  const query = useQuery(trpc.dataset.get.queryOptions({ id: datasetId }));
  const update = useMutation(trpc.dataset.update.mutationOptions());
  const refresh = useMutation(trpc.dataset.refresh.mutationOptions());
  const [settings, setSettings] = useState({ table_name: '', description: '', main_dttm_col: '' as string | null, cache_timeout: null as number | null, sql: '' });
  const [columns, setColumns] = useState<Column[]>([]);
  const [metrics, setMetrics] = useState<Metric[]>([]);
  const [error, setError] = useState<string | null>(null);

  const load = (view: DatasetView) => {
    setSettings({ table_name: view.table_name, description: view.description ?? '', main_dttm_col: view.main_dttm_col, cache_timeout: view.cache_timeout, sql: view.sql ?? '' });
    setColumns(columnsOf(view));
    setMetrics(metricsOf(view));
  };
  useEffect(() => {
    if (query.data) load(query.data);
  }, [query.data]);

  const view = query.data;
  const physical = columns.filter((c) => !c.calculated);
  const calculated = columns.filter((c) => c.calculated);
  const setColumn = (k: string, patch: Partial<Column>) => setColumns((cs) => cs.map((c) => (c.key === k ? { ...c, ...patch } : c)));
  const setMetric = (k: string, patch: Partial<Metric>) => setMetrics((ms) => ms.map((m) => (m.key === k ? { ...m, ...patch } : m)));

  const save = async () => {
    setError(null);
    try {
      await update.mutateAsync({
        id: datasetId,
        changes: {
          table_name: settings.table_name,
          description: settings.description || null,
          main_dttm_col: settings.main_dttm_col || null,
          cache_timeout: settings.cache_timeout,
          ...(view?.kind === 'virtual' ? { sql: settings.sql } : {}),
          columns: columns.map(columnInput),
          metrics: metrics.map(strip),
        },
      });
      addSuccessToast('The dataset has been saved');
      onSaved();
      onClose();
    } catch (e) {
      setError(errorOf(e).error);
    }
  };

  const sync = async () => {
    try {
      const fresh = await refresh.mutateAsync({ id: datasetId });
      load(fresh);
      addSuccessToast('Columns were synced from the source');
    } catch (e) {
      toastError(e);
    }
  };

  return (
    <Modal opened onClose={onClose} size="min(1100px, 95vw)" title={view ? `Edit dataset ${view.name}` : 'Edit dataset'}>
      {query.isError && <Alert color="red">{errorOf(query.error).error}</Alert>}
      {view && (
        <Stack gap="md">
          <Tabs defaultValue="settings">
            <Tabs.List>
              <Tabs.Tab value="settings">Settings</Tabs.Tab>
              <Tabs.Tab value="metrics">Metrics ({metrics.length})</Tabs.Tab>
              <Tabs.Tab value="columns">Columns ({physical.length})</Tabs.Tab>
              <Tabs.Tab value="calculated">Calculated columns ({calculated.length})</Tabs.Tab>
            </Tabs.List>

            <Tabs.Panel value="settings" pt="md">
              <Stack gap="sm">
                <Group grow>
                  <TextInput label="Dataset name" value={settings.table_name} onChange={(e) => setSettings({ ...settings, table_name: e.currentTarget.value })} required />
                  <TextInput label="Database" value={`${view.database.database_name}${view.schema ? ` / ${view.schema}` : ''}`} readOnly />
                </Group>
                <Textarea label="Description" autosize minRows={2} value={settings.description} onChange={(e) => setSettings({ ...settings, description: e.currentTarget.value })} />
                <Group grow>
                  <Select
                    label="Default datetime column"
                    clearable
                    data={columns.filter((c) => c.is_dttm).map((c) => c.column_name)}
                    value={settings.main_dttm_col}
                    onChange={(v) => setSettings({ ...settings, main_dttm_col: v })}
                  />
                  <NumberInput
                    label="Cache timeout (seconds)"
                    description="Empty uses the database's timeout; -1 disables caching"
                    value={settings.cache_timeout ?? ''}
                    onChange={(v) => setSettings({ ...settings, cache_timeout: v === '' ? null : Number(v) })}
                    min={-1}
                  />
                </Group>
                {view.kind === 'virtual' && (
                  <Textarea label="SQL" autosize minRows={4} ff="monospace" value={settings.sql} onChange={(e) => setSettings({ ...settings, sql: e.currentTarget.value })} />
                )}
              </Stack>
            </Tabs.Panel>

            <Tabs.Panel value="metrics" pt="md">
              <Table striped withTableBorder verticalSpacing={4} aria-label="Metrics">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Metric key</Table.Th>
                    <Table.Th>SQL expression</Table.Th>
                    <Table.Th>Label</Table.Th>
                    <Table.Th>D3 format</Table.Th>
                    <Table.Th>Warning</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {metrics.map((m) => (
                    <Table.Tr key={m.key}>
                      <Table.Td><TextInput size="xs" aria-label="Metric key" value={m.metric_name} onChange={(e) => setMetric(m.key, { metric_name: e.currentTarget.value })} /></Table.Td>
                      <Table.Td><TextInput size="xs" ff="monospace" aria-label="SQL expression" value={m.expression} onChange={(e) => setMetric(m.key, { expression: e.currentTarget.value })} /></Table.Td>
                      <Table.Td><TextInput size="xs" aria-label="Label" value={m.verbose_name ?? ''} onChange={(e) => setMetric(m.key, { verbose_name: e.currentTarget.value || null })} /></Table.Td>
                      <Table.Td><TextInput size="xs" aria-label="D3 format" value={m.d3format ?? ''} onChange={(e) => setMetric(m.key, { d3format: e.currentTarget.value || null })} /></Table.Td>
                      <Table.Td><TextInput size="xs" aria-label="Warning" value={m.warning_text ?? ''} onChange={(e) => setMetric(m.key, { warning_text: e.currentTarget.value || null })} /></Table.Td>
                      <Table.Td>
                        <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.metric_name}`} onClick={() => setMetrics((ms) => ms.filter((x) => x.key !== m.key))}>
                          <IconTrash size={15} />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Button mt="sm" size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setMetrics((ms) => [...ms, { key: key(), metric_name: `metric_${ms.length + 1}`, expression: 'COUNT(*)' }])}>
                Add metric
              </Button>
            </Tabs.Panel>

            <Tabs.Panel value="columns" pt="md">
              <Group justify="flex-end" mb="xs">
                <Tooltip label="Read the columns again from the table or SQL">
                  <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} loading={refresh.isPending} onClick={() => void sync()}>
                    Sync columns from source
                  </Button>
                </Tooltip>
              </Group>
              <Table striped withTableBorder verticalSpacing={4} aria-label="Columns">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Column</Table.Th>
                    <Table.Th>Type</Table.Th>
                    <Table.Th>Label</Table.Th>
                    <Table.Th>Is temporal</Table.Th>
                    <Table.Th>Is dimension</Table.Th>
                    <Table.Th>Is filterable</Table.Th>
                    <Table.Th>Datetime format</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {physical.map((c) => (
                    <Table.Tr key={c.key}>
                      <Table.Td><Text size="sm" ff="monospace">{c.column_name}</Text></Table.Td>
                      <Table.Td><Text size="xs" c="dimmed">{c.type}</Text></Table.Td>
                      <Table.Td><TextInput size="xs" aria-label={`Label of ${c.column_name}`} value={c.verbose_name ?? ''} onChange={(e) => setColumn(c.key, { verbose_name: e.currentTarget.value || null })} /></Table.Td>
                      <Table.Td><Checkbox aria-label={`${c.column_name} is temporal`} checked={!!c.is_dttm} onChange={(e) => setColumn(c.key, { is_dttm: e.currentTarget.checked })} /></Table.Td>
                      <Table.Td><Checkbox aria-label={`${c.column_name} is a dimension`} checked={c.groupby !== false} onChange={(e) => setColumn(c.key, { groupby: e.currentTarget.checked })} /></Table.Td>
                      <Table.Td><Checkbox aria-label={`${c.column_name} is filterable`} checked={c.filterable !== false} onChange={(e) => setColumn(c.key, { filterable: e.currentTarget.checked })} /></Table.Td>
                      <Table.Td><TextInput size="xs" placeholder="%Y-%m-%d" aria-label={`Datetime format of ${c.column_name}`} value={c.python_date_format ?? ''} onChange={(e) => setColumn(c.key, { python_date_format: e.currentTarget.value || null })} /></Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Tabs.Panel>

            <Tabs.Panel value="calculated" pt="md">
              <Table striped withTableBorder verticalSpacing={4} aria-label="Calculated columns">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Column</Table.Th>
                    <Table.Th>SQL expression</Table.Th>
                    <Table.Th>Type</Table.Th>
                    <Table.Th>Is temporal</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {calculated.map((c) => (
                    <Table.Tr key={c.key}>
                      <Table.Td><TextInput size="xs" aria-label="Column name" value={c.column_name} onChange={(e) => setColumn(c.key, { column_name: e.currentTarget.value })} /></Table.Td>
                      <Table.Td><TextInput size="xs" ff="monospace" aria-label="SQL expression" value={c.expression ?? ''} onChange={(e) => setColumn(c.key, { expression: e.currentTarget.value })} /></Table.Td>
                      <Table.Td><TextInput size="xs" aria-label="Type" value={c.type ?? ''} onChange={(e) => setColumn(c.key, { type: e.currentTarget.value || null })} /></Table.Td>
                      <Table.Td><Checkbox aria-label={`${c.column_name} is temporal`} checked={!!c.is_dttm} onChange={(e) => setColumn(c.key, { is_dttm: e.currentTarget.checked })} /></Table.Td>
                      <Table.Td>
                        <ActionIcon variant="subtle" color="red" aria-label={`Remove ${c.column_name}`} onClick={() => setColumns((cs) => cs.filter((x) => x.key !== c.key))}>
                          <IconTrash size={15} />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Button mt="sm" size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setColumns((cs) => [...cs, { key: key(), calculated: true, column_name: `calculated_${calculated.length + 1}`, expression: '1', type: 'NUMERIC', groupby: true, filterable: true }])}>
                Add calculated column
              </Button>
            </Tabs.Panel>
          </Tabs>
          {error && (
            <Alert color="red" title="The dataset could not be saved">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {CANCEL}
            </Button>
            <Button onClick={() => void save()} loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
