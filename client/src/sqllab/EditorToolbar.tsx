import {
  ActionIcon,
  Alert,
  Button,
  Group,
  JsonInput,
  Kbd,
  Loader,
  Menu,
  Modal,
  Popover,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Tooltip,
  SegmentedControl,
} from '@mantine/core';
import {
  IconBraces,
  IconCalendarTime,
  IconCalculator,
  IconChevronDown,
  IconDeviceFloppy,
  IconKeyboard,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconLink,
  IconPlayerPlayFilled,
  IconPlayerStopFilled,
  IconSparkles,
  IconTableExport,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ROW_LIMIT_CHOICES } from '@meridian/contracts/rules/constants';
import { isQueryInProgress, type QueryEditor, type SqlLabDatabase } from '@meridian/contracts/sqllab/index';
import { cellText } from '../components/cell-text';
import { useSqlLabController } from './SqlLabScreen';
import type { DatabaseListItem } from './sqllab.api';
import { useSqlLabState } from './sqllab.store';
import { ScheduleQueryModal } from './ScheduleQueryModal';
import { SHORTCUTS, shortcutKeys } from './shortcuts';
import classes from './sqllab.module.css';

type Database = SqlLabDatabase & Partial<DatabaseListItem>;

/** Row-limit choices bounded by SQL_MAX_ROW: Superset's powers of ten, plus the configured maximum. */
export function rowLimitChoices(maxRow: number, current?: number): number[] {
  const choices = new Set<number>([10, 100, 1000, 10000, 100000, 1000000].filter((n) => n <= maxRow));
  for (const n of ROW_LIMIT_CHOICES) if (n <= maxRow) choices.add(n);
  choices.add(maxRow);
  if (current && current <= maxRow) choices.add(current);
  return [...choices].sort((a, b) => a - b);
}

function ShortcutsHelp() {
  return (
    <Popover width={360} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Tooltip label="Keyboard shortcuts">
          <ActionIcon variant="subtle" color="gray" aria-label="Keyboard shortcuts">
            <IconKeyboard size={18} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        <Text fw={600} size="sm" mb="xs">
          Keyboard shortcuts
        </Text>
        <Table verticalSpacing={4} fz="sm" withRowBorders={false}>
          <Table.Tbody>
            {SHORTCUTS.map((shortcut) => (
              <Table.Tr key={shortcut.name}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {shortcutKeys(shortcut).map((key, i) => (
                    <span key={key}>
                      {i > 0 && ' + '}
                      <Kbd size="xs">{key}</Kbd>
                    </span>
                  ))}
                </Table.Td>
                <Table.Td>{shortcut.label}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Popover.Dropdown>
    </Popover>
  );
}

function SaveQueryModal({ editor, opened, onClose }: { editor: QueryEditor; opened: boolean; onClose: () => void }) {
  const controller = useSqlLabController();
  const [label, setLabel] = useState(editor.name);
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) setLabel(editor.remoteId ? editor.name : editor.name.startsWith('Untitled Query') ? '' : editor.name);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  const submit = async (update: boolean) => {
    setBusy(true);
    const done = update ? await controller.updateSavedQuery(editor.id, { label, description }) : await controller.saveQuery(editor.id, { label, description });
    setBusy(false);
    if (done) onClose();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={editor.remoteId ? 'Save query' : 'Save query'} size={600}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit(Boolean(editor.remoteId));
        }}
      >
        <Stack>
          <TextInput label="Name" placeholder="My query" value={label} onChange={(e) => setLabel(e.currentTarget.value)} required data-autofocus />
          <Textarea label="Description" placeholder="What this query answers" autosize minRows={3} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            {editor.remoteId ? (
              <>
                <Button variant="light" loading={busy} disabled={!label.trim()} onClick={() => void submit(false)}>
                  Save as new
                </Button>
                <Button type="submit" loading={busy} disabled={!label.trim()}>
                  Update
                </Button>
              </>
            ) : (
              <Button type="submit" loading={busy} disabled={!label.trim()}>
                Save
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function EstimateModal({ editor, opened, onClose }: { editor: QueryEditor; opened: boolean; onClose: () => void }) {
  const state = useSqlLabState();
  const estimate = state.queryCostEstimates[editor.id];
  const rows = Array.isArray(estimate?.cost) ? (estimate.cost as Record<string, unknown>[]) : estimate?.cost ? [estimate.cost as Record<string, unknown>] : [];
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <Modal opened={opened} onClose={onClose} title="Query cost estimate" size={700}>
      {!estimate || (!estimate.completed && !estimate.error) ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">Estimating…</Text>
        </Group>
      ) : estimate.error ? (
        <Alert color="red" title="Estimate failed" data-testid="estimate-error">
          {String(estimate.error)}
        </Alert>
      ) : (
        <Table striped withTableBorder data-testid="estimate-table" fz="sm">
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c}>{c}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, i) => (
              <Table.Tr key={i}>
                {columns.map((c) => (
                  <Table.Td key={c} style={{ fontFamily: 'var(--mantine-font-family-monospace)', whiteSpace: 'pre-wrap' }}>
                    {cellText(row[c])}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}

function TemplateParamsButton({ editor }: { editor: QueryEditor }) {
  const controller = useSqlLabController();
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState(editor.templateParams ?? '');
  const [error, setError] = useState<string | null>(null);
  const count = (() => {
    try {
      return editor.templateParams ? Object.keys(JSON.parse(editor.templateParams) as object).length : 0;
    } catch {
      return 0;
    }
  })();
  const apply = () => {
    const text = draft.trim();
    if (text) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        setError(`Invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        setError('Template parameters must be a JSON object');
        return;
      }
    }
    controller.dispatch({ type: 'QUERY_EDITOR_SET_TEMPLATE_PARAMS', queryEditor: editor, templateParams: text, now: Date.now() });
    setOpened(false);
  };
  return (
    <>
      <Tooltip label="Jinja template parameters (JSON)">
        <Button
          variant={count ? 'light' : 'subtle'}
          color={count ? undefined : 'gray'}
          size="xs"
          leftSection={<IconBraces size={15} />}
          className={classes.iconWhenNarrow}
          aria-label={`Parameters${count ? ` (${count})` : ''}`}
          onClick={() => {
            setDraft(editor.templateParams ?? '');
            setError(null);
            setOpened(true);
          }}
        >
          Parameters{count ? ` (${count})` : ''}
        </Button>
      </Tooltip>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Template parameters" size={600}>
        <Stack>
          <Text size="sm" c="dimmed">
            Values available to Jinja in the SQL, for example <code>{'{{ country }}'}</code>.
          </Text>
          <JsonInput
            value={draft}
            onChange={(value) => {
              setDraft(value);
              setError(null);
            }}
            placeholder={'{\n  "country": "France"\n}'}
            formatOnBlur
            autosize
            minRows={6}
            error={error}
            // JsonInput shows this instead of `error` once it finds the text invalid (on blur).
            validationError={error ?? 'Invalid JSON'}
            aria-label="Template parameters JSON"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              Cancel
            </Button>
            <Button onClick={apply}>Apply</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function CtasModal({ editor, database, opened, onClose }: { editor: QueryEditor; database?: Database; opened: boolean; onClose: () => void }) {
  const controller = useSqlLabController();
  const methods = [database?.allow_ctas ? 'TABLE' : null, database?.allow_cvas ? 'VIEW' : null].filter(Boolean) as ('TABLE' | 'VIEW')[];
  const [method, setMethod] = useState<'TABLE' | 'VIEW'>(methods[0] ?? 'TABLE');
  const [tableName, setTableName] = useState('');
  return (
    <Modal opened={opened} onClose={onClose} title="Create table or view from the query" size={520}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onClose();
          void controller.runQuery({ editorId: editor.id, ctas: { method, tableName: tableName.trim() } });
        }}
      >
        <Stack>
          {methods.length > 1 && (
            <SegmentedControl value={method} onChange={(v) => setMethod(v as 'TABLE' | 'VIEW')} data={[{ value: 'TABLE', label: 'CREATE TABLE AS' }, { value: 'VIEW', label: 'CREATE VIEW AS' }]} />
          )}
          <TextInput label={method === 'VIEW' ? 'View name' : 'Table name'} value={tableName} onChange={(e) => setTableName(e.currentTarget.value)} required data-autofocus />
          {database?.force_ctas_schema && (
            <Text size="xs" c="dimmed">
              Created in schema {database.force_ctas_schema}.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!tableName.trim()}>
              Run
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Run / stop, row limit, format, estimate, parameters, save, schedule, share and the shortcuts help. */
export function EditorToolbar({ editor }: { editor: QueryEditor }) {
  const controller = useSqlLabController();
  const state = useSqlLabState();
  const [saveOpen, setSaveOpen] = useState(false);
  const [estimateOpen, setEstimateOpen] = useState(false);
  const [ctasOpen, setCtasOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  // 'Save query' from the schedule modal: once the tab is saved, the schedule modal comes back.
  const [scheduleAfterSave, setScheduleAfterSave] = useState(false);
  const database = editor.dbId ? (state.databases[editor.dbId] as Database | undefined) : undefined;
  const latest = editor.latestQueryId ? state.queries[editor.latestQueryId] : undefined;
  const running = Boolean(latest && isQueryInProgress(latest.state));
  const hasSelection = Boolean(editor.selectedText?.trim());
  const canRun = Boolean(editor.dbId && editor.sql.trim());
  const choices = rowLimitChoices(controller.sqlMaxRow, editor.queryLimit);
  const allowsCost = Boolean(database?.allows_cost_estimate ?? (database?.extra_json as Record<string, unknown> | undefined)?.cost_estimate_enabled);
  const allowsCtas = Boolean(database?.allow_ctas || database?.allow_cvas);

  useEffect(() => {
    if (!scheduleAfterSave) return;
    if (editor.remoteId) {
      setScheduleAfterSave(false);
      setScheduleOpen(true);
    } else if (!saveOpen) setScheduleAfterSave(false);
  }, [scheduleAfterSave, editor.remoteId, saveOpen]);

  useEffect(() => {
    const open = () => setSaveOpen(true);
    window.addEventListener('sqllab:save-query', open);
    return () => window.removeEventListener('sqllab:save-query', open);
  }, []);

  return (
    <div className={classes.toolbar} data-testid="editor-toolbar">
      <Tooltip label={editor.hideLeftBar ? 'Show the schema browser' : 'Hide the schema browser'}>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label="Toggle left bar"
          onClick={() => controller.dispatch({ type: 'QUERY_EDITOR_TOGGLE_LEFT_BAR', queryEditor: editor, hideLeftBar: !editor.hideLeftBar, now: Date.now() })}
        >
          {editor.hideLeftBar ? <IconLayoutSidebarLeftExpand size={18} /> : <IconLayoutSidebarLeftCollapse size={18} />}
        </ActionIcon>
      </Tooltip>
      {running ? (
        <Button color="red" size="xs" leftSection={<IconPlayerStopFilled size={14} />} onClick={() => void controller.stopQuery()} data-testid="stop-query">
          Stop
        </Button>
      ) : (
        <Button.Group>
          <Tooltip label={hasSelection ? 'Run the selected text (Ctrl+Enter)' : 'Run the query (Ctrl+Enter)'}>
            <Button size="xs" leftSection={<IconPlayerPlayFilled size={14} />} disabled={!canRun} onClick={() => void controller.runQuery({ editorId: editor.id })} data-testid="run-query">
              {hasSelection ? 'Run selection' : 'Run'}
            </Button>
          </Tooltip>
          {allowsCtas && (
            <Menu position="bottom-start" shadow="md">
              <Menu.Target>
                <Button size="xs" px={6} disabled={!canRun} aria-label="More run options" style={{ borderLeft: '1px solid rgba(255,255,255,0.35)' }}>
                  <IconChevronDown size={14} />
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconTableExport size={14} />} onClick={() => setCtasOpen(true)}>
                  {database?.allow_ctas && database?.allow_cvas ? 'Create table or view as select…' : database?.allow_ctas ? 'CREATE TABLE AS…' : 'CREATE VIEW AS…'}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Button.Group>
      )}
      <Select
        size="xs"
        w={150}
        aria-label="Row limit"
        data-testid="row-limit"
        allowDeselect={false}
        value={String(editor.queryLimit ?? controller.defaultQueryLimit)}
        data={choices.map((n) => ({ value: String(n), label: `Limit ${n.toLocaleString('en-US')}` }))}
        onChange={(value) => value && controller.dispatch({ type: 'QUERY_EDITOR_SET_QUERY_LIMIT', queryEditor: editor, queryLimit: Number(value), now: Date.now() })}
        comboboxProps={{ withinPortal: true }}
      />
      <TemplateParamsButton editor={editor} />
      <Group gap={6} ml="auto" wrap="nowrap">
        <Tooltip label="Format SQL (Ctrl+Shift+F)">
          <Button variant="subtle" color="gray" size="xs" leftSection={<IconSparkles size={15} />} className={classes.iconWhenNarrow} aria-label="Format" disabled={!editor.sql.trim()} onClick={() => void controller.formatSql(editor.id)} data-testid="format-sql">
            Format
          </Button>
        </Tooltip>
        {allowsCost && (
          <Tooltip label="Estimate the cost of the query before running it">
            <Button
              variant="subtle"
              color="gray"
              size="xs"
              leftSection={<IconCalculator size={15} />}
              className={classes.iconWhenNarrow}
              aria-label="Estimate"
              disabled={!canRun}
              data-testid="estimate-cost"
              onClick={() => {
                setEstimateOpen(true);
                void controller.estimate(editor.id);
              }}
            >
              Estimate
            </Button>
          </Tooltip>
        )}
        <Button variant="default" size="xs" leftSection={<IconDeviceFloppy size={15} />} disabled={!editor.dbId} onClick={() => setSaveOpen(true)} data-testid="save-query">
          {editor.remoteId ? 'Update' : 'Save'}
        </Button>
        <Tooltip label={editor.remoteId ? 'Schedule the saved query' : 'Save the query first, then schedule it'}>
          <Button variant="subtle" color="gray" size="xs" leftSection={<IconCalendarTime size={15} />} className={classes.iconFirst} aria-label="Schedule" disabled={!editor.dbId} onClick={() => setScheduleOpen(true)} data-testid="schedule-query">
            Schedule
          </Button>
        </Tooltip>
        <Tooltip label="Copy a link to this query">
          <Button variant="subtle" color="gray" size="xs" leftSection={<IconLink size={15} />} className={classes.iconFirst} aria-label="Copy link" disabled={!editor.sql.trim()} onClick={() => void controller.copyShareLink(editor.id)} data-testid="copy-link">
            Copy link
          </Button>
        </Tooltip>
        <ShortcutsHelp />
      </Group>
      <SaveQueryModal editor={editor} opened={saveOpen} onClose={() => setSaveOpen(false)} />
      <EstimateModal editor={editor} opened={estimateOpen} onClose={() => setEstimateOpen(false)} />
      <ScheduleQueryModal
        editor={editor}
        opened={scheduleOpen}
        onClose={() => setScheduleOpen(false)}
        onSaveFirst={() => {
          setScheduleOpen(false);
          setScheduleAfterSave(true);
          setSaveOpen(true);
        }}
      />
      {allowsCtas && <CtasModal editor={editor} database={database} opened={ctasOpen} onClose={() => setCtasOpen(false)} />}
    </div>
  );
}
