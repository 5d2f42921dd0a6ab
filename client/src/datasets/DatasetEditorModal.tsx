import { ActionIcon, Alert, Box, Button, Center, Checkbox, Group, Input, Loader, Modal, NumberInput, ScrollArea, Select, Stack, Table, Tabs, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import type { DatasetColumnInput, DatasetMetricInput, DatasetView } from '@meridian/contracts/schemas/dataset';
import { IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { addSuccessToast, toastError } from '../notify';
import type { CompletionWord } from '../sqllab/AceSqlEditor';
import { errorOf, statusOf, trpc } from '../trpc';

// SQL Lab's editor, loaded only when a virtual dataset's settings are shown.
const AceSqlEditor = lazy(() => import('../sqllab/AceSqlEditor'));

/**
 * Height of the modal's body: every tab, and an alert under them, fit in it; the tab panels take what is left and
 * a long list scrolls inside, so the modal keeps one size. (90dvh is Mantine's room for a modal, less its header.)
 */
const BODY_HEIGHT = 'min(660px, calc(90dvh - 72px))';
const noop = () => undefined;

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
  const queryClient = useQueryClient();
  // Always the stored copy: a cached one may predate a save made a moment ago, and saving it would undo that save.
  const query = useQuery({ ...trpc.dataset.get.queryOptions({ id: datasetId }), staleTime: 0, refetchOnMount: 'always' });
  const update = useMutation(trpc.dataset.update.mutationOptions());
  const refresh = useMutation(trpc.dataset.refresh.mutationOptions());
  const [settings, setSettings] = useState({ table_name: '', description: '', main_dttm_col: '' as string | null, cache_timeout: null as number | null, sql: '' });
  const [columns, setColumns] = useState<Column[]>([]);
  const [metrics, setMetrics] = useState<Metric[]>([]);
  const [error, setError] = useState<string | null>(null);
  /** The copy the form holds: its time goes with the save, so the server can refuse it once it is stale. */
  const [copy, setCopy] = useState<DatasetView | null>(null);
  const [stale, setStale] = useState<string | null>(null);

  const load = (view: DatasetView) => {
    setCopy(view);
    setSettings({ table_name: view.table_name, description: view.description ?? '', main_dttm_col: view.main_dttm_col, cache_timeout: view.cache_timeout, sql: view.sql ?? '' });
    setColumns(columnsOf(view));
    setMetrics(metricsOf(view));
    setError(null);
    setStale(null);
  };
  // The form fills once, from the first read made since the modal opened; later reads never overwrite edits.
  useEffect(() => {
    if (!copy && query.isFetchedAfterMount && query.data) load(query.data);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isFetchedAfterMount, query.data]);

  const view = copy;
  const physical = columns.filter((c) => !c.calculated);
  const calculated = columns.filter((c) => c.calculated);
  const setColumn = (k: string, patch: Partial<Column>) => setColumns((cs) => cs.map((c) => (c.key === k ? { ...c, ...patch } : c)));
  const setMetric = (k: string, patch: Partial<Metric>) => setMetrics((ms) => ms.map((m) => (m.key === k ? { ...m, ...patch } : m)));
  const words = useMemo<CompletionWord[]>(() => columns.filter((c) => !c.calculated).map((c) => ({ value: c.column_name, caption: c.column_name, kind: 'column', meta: c.type ?? 'column' })), [columns]);

  /** Puts a copy the server just answered with in the cache, so nothing shows an older one meanwhile. */
  const remember = (stored: DatasetView) => {
    queryClient.setQueryData(trpc.dataset.get.queryKey({ id: datasetId }), stored);
    void queryClient.invalidateQueries({ queryKey: trpc.dataset.get.queryKey({ id: datasetId }) });
  };

  const reloadStored = async () => {
    const { data, error: failed } = await query.refetch();
    if (data) load(data);
    else if (failed) toastError(failed);
  };

  const save = async () => {
    if (!copy) return;
    setError(null);
    setStale(null);
    // Saved without an expression, a calculated column would come back as a source column that does not exist.
    const unfinished = calculated.find((c) => !c.expression?.trim());
    if (unfinished) {
      setError(`The calculated column ${unfinished.column_name} needs a SQL expression.`);
      return;
    }
    try {
      const saved = await update.mutateAsync({
        id: datasetId,
        changes: {
          last_modified_time: copy.last_modified_time,
          table_name: settings.table_name,
          description: settings.description || null,
          main_dttm_col: settings.main_dttm_col || null,
          cache_timeout: settings.cache_timeout,
          ...(copy.kind === 'virtual' ? { sql: settings.sql } : {}),
          columns: columns.map(columnInput),
          metrics: metrics.map(strip),
        },
      });
      remember(saved);
      addSuccessToast('The dataset has been saved');
      // The columns the form sent are those of the old SQL: read them again from the new one, as "Sync columns" does
      // (labels and calculated columns are kept). The save stands if this fails.
      if (copy.kind === 'virtual' && settings.sql !== (copy.sql ?? '')) {
        await refresh.mutateAsync({ id: datasetId }).then(remember, toastError);
      }
      onSaved();
      onClose();
    } catch (e) {
      if (statusOf(e) === 409) setStale(errorOf(e).error);
      else setError(errorOf(e).error);
    }
  };

  const sync = async () => {
    try {
      const fresh = await refresh.mutateAsync({ id: datasetId });
      remember(fresh);
      load(fresh);
      addSuccessToast('Columns were synced from the source');
    } catch (e) {
      toastError(e);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="min(1100px, 95vw)"
      title={view ? `Edit dataset ${view.name}` : 'Edit dataset'}
      styles={{ body: { height: BODY_HEIGHT, display: 'flex', flexDirection: 'column' } }}
    >
      {query.isError && !view && <Alert color="red">{errorOf(query.error).error}</Alert>}
      {!view && !query.isError && (
        <Center flex={1}>
          <Loader size="sm" aria-label="Loading the dataset" />
        </Center>
      )}
      {view && (
        <Stack gap="md" flex={1} mih={0}>
          <Tabs defaultValue="settings" flex={1} mih={0} display="flex" style={{ flexDirection: 'column' }}>
            <Tabs.List>
              <Tabs.Tab value="settings">Settings</Tabs.Tab>
              <Tabs.Tab value="metrics">Metrics ({metrics.length})</Tabs.Tab>
              <Tabs.Tab value="columns">Columns ({physical.length})</Tabs.Tab>
              <Tabs.Tab value="calculated">Calculated columns ({calculated.length})</Tabs.Tab>
            </Tabs.List>

            <ScrollArea flex={1} mih={0} type="auto" offsetScrollbars data-testid="dataset-editor-panels">
              <Tabs.Panel value="settings" pt="md">
                <Stack gap="sm">
                  <Group grow>
                    <TextInput label="Dataset name" value={settings.table_name} onChange={(e) => setSettings({ ...settings, table_name: e.currentTarget.value })} required />
                    <TextInput label="Database" value={`${view.database.database_name}${view.schema ? ` / ${view.schema}` : ''}`} readOnly />
                  </Group>
                  <Textarea label="Description" autosize minRows={2} value={settings.description} onChange={(e) => setSettings({ ...settings, description: e.currentTarget.value })} />
                  <Group grow align="flex-start">
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
                      inputWrapperOrder={['label', 'input', 'description', 'error']}
                      value={settings.cache_timeout ?? ''}
                      onChange={(v) => setSettings({ ...settings, cache_timeout: v === '' ? null : Number(v) })}
                      min={-1}
                    />
                  </Group>
                  {view.kind === 'virtual' && (
                    <Input.Wrapper label="SQL" description="Saving runs it once to check it and to read its columns">
                      <Box mt={4} data-testid="dataset-sql-editor" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }}>
                        <Suspense
                          fallback={
                            <Center h={220}>
                              <Loader size="sm" />
                            </Center>
                          }
                        >
                          <AceSqlEditor
                            editorKey={`dataset-${datasetId}`}
                            value={settings.sql}
                            height="220px"
                            words={words}
                            handlers={{}}
                            onChange={(sql) => setSettings((s) => ({ ...s, sql }))}
                            onSelectionChange={noop}
                            onCursorChange={noop}
                          />
                        </Suspense>
                      </Box>
                    </Input.Wrapper>
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
                        <Table.Td><TextInput size="xs" ff="monospace" aria-label="SQL expression" placeholder="e.g. price * quantity" value={c.expression ?? ''} onChange={(e) => setColumn(c.key, { expression: e.currentTarget.value })} /></Table.Td>
                        <Table.Td><TextInput size="xs" aria-label="Type" placeholder="From the expression" value={c.type ?? ''} onChange={(e) => setColumn(c.key, { type: e.currentTarget.value || null })} /></Table.Td>
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
                <Button mt="sm" size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setColumns((cs) => [...cs, { key: key(), calculated: true, column_name: `calculated_${calculated.length + 1}`, expression: '', type: null, groupby: true, filterable: true }])}>
                  Add calculated column
                </Button>
              </Tabs.Panel>
            </ScrollArea>
          </Tabs>
          {stale && (
            <Alert color="orange" title="This dataset changed since you opened it">
              <Group justify="space-between" wrap="nowrap" gap="md">
                <Text size="sm">{stale} Reloading discards the changes made here.</Text>
                <Button size="xs" variant="filled" color="orange" style={{ flexShrink: 0 }} leftSection={<IconRefresh size={14} />} loading={query.isFetching} onClick={() => void reloadStored()}>
                  Reload
                </Button>
              </Group>
            </Alert>
          )}
          {error && (
            <Alert color="red" title="The dataset could not be saved">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {CANCEL}
            </Button>
            <Button onClick={() => void save()} loading={update.isPending || refresh.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
