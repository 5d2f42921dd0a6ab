import { Alert, Anchor, Badge, Box, Button, Center, Group, Loader, Modal, Progress, Stack, Text, TextInput, ThemeIcon, Tooltip } from '@mantine/core';
import { IconChartBar, IconClipboardCopy, IconDatabasePlus, IconDownload, IconPlayerStopFilled, IconTerminal2 } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { REQUEST_ACCESS } from '@meridian/contracts/messages';
import { isQueryInProgress, queryDisplayStyle, type Query, type QueryColumn, type QueryResults } from '@meridian/contracts/sqllab/index';
import { downloadByLink } from '../api';
import { ResultsGrid, rowsAsTsv, type ResultRow } from './ResultsGrid';
import { useSqlLabController } from './SqlLabScreen';
import { copyText } from './sqllab.controller';
import { sqllabApi } from './sqllab.api';

/** Mantine colour of a query state's display style (spec 01 §4). */
export function stateColor(state: string): string {
  const style = queryDisplayStyle(state);
  return style === 'danger' ? 'red' : style === 'info' ? 'blue' : style === 'warning' ? 'yellow' : style === 'success' ? 'teal' : 'gray';
}

/** Elapsed time as Superset shows it: HH:MM:SS.ss. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, ms);
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = (total % 60_000) / 1000;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${seconds.toFixed(2).padStart(5, '0')}`;
}

/** A timer that ticks while the query runs and shows its duration once finished. */
export function QueryTimer({ query }: { query: Query }) {
  const running = isQueryInProgress(query.state);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 50);
    return () => clearInterval(timer);
  }, [running]);
  const end = running ? now : (query.endDttm ?? now);
  return (
    <Badge variant="light" color={stateColor(query.state)} size="lg" radius="sm" data-testid="query-timer" styles={{ root: { textTransform: 'none', overflow: 'visible', flex: 'none' }, label: { overflow: 'visible', fontFamily: 'var(--mantine-font-family-monospace)' } }}>
      {formatDuration(end - query.startDttm)}
    </Badge>
  );
}

/** Superset's limit notices, by limitingFactor. */
export function limitNotice(query: Query, rows: number, defaultLimit: number, sqlMaxRow: number): string | null {
  const results = query.results as QueryResults | undefined;
  const factor = query.limitingFactor ?? (results?.query?.limitingFactor as string | undefined);
  if (factor === 'QUERY') return `The number of rows displayed is limited to ${rows} by the query`;
  if (factor === 'DROPDOWN') {
    if (query.queryLimit === defaultLimit)
      return `The number of results displayed is limited to ${rows}. Please add additional limits/filters or download to csv to see more rows up to the ${sqlMaxRow} limit.`;
    return `The number of rows displayed is limited to ${rows} by the limit dropdown.`;
  }
  if (factor === 'QUERY_AND_DROPDOWN') return `The number of rows displayed is limited to ${rows} by the query and limit dropdown.`;
  return null;
}

function SaveDatasetModal({ query, opened, onClose, thenExplore }: { query: Query; opened: boolean; onClose: () => void; thenExplore: boolean }) {
  const controller = useSqlLabController();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) setName(`${query.tab ?? 'Query'} ${new Date(query.startDttm).toISOString().slice(0, 16).replace('T', ' ')}`);
  }, [opened, query]);
  return (
    <Modal opened={opened} onClose={onClose} title={thenExplore ? 'Create a chart from this query' : 'Save as dataset'} size={520}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          const url = await controller.createDataset(query, name.trim());
          setBusy(false);
          if (url) {
            onClose();
            window.location.assign(url);
          }
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            A virtual dataset is made from the query&apos;s SQL{thenExplore ? ', then Explore opens with it' : ''}.
          </Text>
          <TextInput label="Dataset name" value={name} onChange={(e) => setName(e.currentTarget.value)} required data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!name.trim()}>
              {thenExplore ? 'Create chart' : 'Save dataset'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Results of one query: progress while running, the error, or the grid with its counts and actions. */
export function ResultSet({ query, height, isPreview = false }: { query: Query | undefined; height: number; isPreview?: boolean }) {
  const controller = useSqlLabController();
  const [datasetModal, setDatasetModal] = useState<null | 'dataset' | 'chart'>(null);
  useEffect(() => {
    if (query && !isPreview) controller.ensureResults(query);
  }, [controller, query, isPreview]);

  if (!query) {
    return (
      <Center h={height}>
        <Stack align="center" gap={6}>
          <ThemeIcon size={44} radius="xl" variant="light" color="gray">
            <IconTerminal2 size={22} />
          </ThemeIcon>
          <Text fw={600}>Run a query to see its results here</Text>
          <Text size="sm" c="dimmed">
            Ctrl + Enter runs the query, or the selected text.
          </Text>
        </Stack>
      </Center>
    );
  }

  if (isQueryInProgress(query.state)) {
    const progress = query.progress ?? 0;
    return (
      <Center h={height} data-testid="query-running">
        <Stack align="center" gap="sm" w={360}>
          <Group gap="sm">
            <Loader size="sm" />
            <Badge color={stateColor(query.state)} variant="light">
              {query.state}
            </Badge>
            <QueryTimer query={query} />
          </Group>
          {progress > 0 && progress < 100 && <Progress value={progress} w="100%" striped animated aria-label="Query progress" />}
          {!isPreview && (
            <Button color="red" variant="light" size="xs" leftSection={<IconPlayerStopFilled size={13} />} onClick={() => void controller.stopQuery(query.id)}>
              Stop query
            </Button>
          )}
        </Stack>
      </Center>
    );
  }

  if (query.state === 'stopped') {
    return (
      <Box p="md">
        <Alert color="red" variant="light" title="Query was stopped" data-testid="query-stopped">
          The query was stopped before it finished. Run it again to see its results.
        </Alert>
      </Box>
    );
  }

  if (query.state === 'failed' || query.state === 'timed_out') {
    return (
      <Box p="md">
        <Alert color="red" variant="light" title={query.state === 'timed_out' ? 'Query timed out' : 'Query failed'} data-testid="query-error">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', fontFamily: 'var(--mantine-font-family-monospace)' }}>
            {query.errorMessage ?? query.errors?.[0]?.message}
          </Text>
          {query.link && (
            <Anchor href={query.link} size="sm">
              {REQUEST_ACCESS}
            </Anchor>
          )}
        </Alert>
      </Box>
    );
  }

  const results = (query.results && !Array.isArray(query.results) ? query.results : {}) as QueryResults;
  const columns = (results.columns ?? query.columns ?? []) as QueryColumn[];
  const rows = (results.data ?? []) as ResultRow[];
  const total = Number(query.rows ?? results.query?.rows ?? rows.length);
  const resultsKey = query.resultsKey ?? (results.query?.resultsKey as string | undefined) ?? null;
  const notice = limitNotice(query, total, controller.defaultQueryLimit, controller.sqlMaxRow);
  const whole = total <= rows.length;

  if (columns.length === 0) {
    return (
      <Box p="md">
        <Alert color={query.cached || (total > 0 && rows.length === 0 && !resultsKey) ? 'gray' : 'teal'} variant="light" title={query.cached ? 'Results are no longer kept in this browser' : 'The query returned no data'}>
          {query.cached ? 'Run the query again to see its results.' : query.ctas ? `Table ${query.tempTable ?? ''} was created.` : 'The statement ran successfully.'}
        </Alert>
      </Box>
    );
  }

  const gridHeight = Math.max(80, height - 58);
  return (
    <Box px="sm" pt={6} data-testid="result-set">
      <Group justify="space-between" mb={6} wrap="nowrap" h={36}>
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} data-testid="row-count" style={{ whiteSpace: 'nowrap' }}>
            {total.toLocaleString('en-US')} {total === 1 ? 'row' : 'rows'} returned
          </Text>
          <QueryTimer query={query} />
          {notice && (
            <Tooltip label={notice} multiline w={380}>
              <Text size="xs" c="orange.8" truncate data-testid="limit-notice" style={{ minWidth: 0 }}>
                {notice}
              </Text>
            </Tooltip>
          )}
        </Group>
        {!isPreview && (
          <Group gap={4} wrap="nowrap">
            <Button variant="subtle" size="xs" leftSection={<IconDatabasePlus size={14} />} onClick={() => setDatasetModal('dataset')}>
              Save dataset
            </Button>
            <Button variant="subtle" size="xs" leftSection={<IconChartBar size={14} />} onClick={() => setDatasetModal('chart')}>
              Create chart
            </Button>
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconDownload size={14} />}
              onClick={() => downloadByLink(sqllabApi.exportCsvUrl(query.id))}
              data-testid="download-csv"
            >
              Download CSV
            </Button>
            {/* As in Superset, copying takes the rows the browser holds (the first page of a paged result), never
                the whole stored result: a million rows do not belong on a clipboard, and the CSV download has them all. */}
            <Tooltip
              label={
                whole
                  ? 'Copy every row as tab-separated text'
                  : `Copy the ${rows.length.toLocaleString('en-US')} loaded rows of ${total.toLocaleString('en-US')} as tab-separated text (Download CSV has every row)`
              }
            >
              <Button variant="subtle" size="xs" leftSection={<IconClipboardCopy size={14} />} onClick={() => void copyText(rowsAsTsv(columns, rows))} data-testid="copy-results">
                Copy to clipboard
              </Button>
            </Tooltip>
          </Group>
        )}
      </Group>
      <ResultsGrid columns={columns} rows={rows} total={total} resultsKey={resultsKey} height={gridHeight} />
      <SaveDatasetModal query={query} opened={datasetModal !== null} thenExplore={datasetModal === 'chart'} onClose={() => setDatasetModal(null)} />
    </Box>
  );
}
