import { Alert, Anchor, Badge, Box, Button, Center, Group, Loader, Modal, Progress, Stack, Text, TextInput, ThemeIcon, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconChartBar, IconClipboardCopy, IconDatabasePlus, IconDownload, IconPlayerStopFilled, IconTerminal2 } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { REQUEST_ACCESS } from '@meridian/contracts/messages';
import { formatElapsed, isQueryInProgress, limitNotice, queryDisplayStyle, queryElapsedMs, queryErrorDetails, type Query, type QueryColumn, type QueryResults } from '@meridian/contracts/sqllab/index';
import { downloadByLink } from '../api';
import { filterRows, ResultsGrid, rowsAsTsv, type ResultRow } from '../components/ResultsGrid';
import { RowFilterInput } from '../components/RowFilterInput';
import { useSqlLabController } from './SqlLabScreen';
import { copyText } from './sqllab.controller';
import { sqllabApi } from './sqllab.api';
import classes from './sqllab.module.css';

/** Mantine colour of a query state's display style (spec 01 §4). */
export function stateColor(state: string): string {
  const style = queryDisplayStyle(state);
  return style === 'danger' ? 'red' : style === 'info' ? 'blue' : style === 'warning' ? 'yellow' : style === 'success' ? 'teal' : 'gray';
}

/** A timer that ticks while the query runs and shows the query's own duration (its start to its end) once finished. */
export function QueryTimer({ query }: { query: Query }) {
  const running = isQueryInProgress(query.state);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 50);
    return () => clearInterval(timer);
  }, [running]);
  const elapsed = queryElapsedMs(query, running ? now : Date.now());
  if (elapsed === null) return null;
  return (
    <Badge variant="light" color={stateColor(query.state)} size="lg" radius="sm" data-testid="query-timer" className={classes.timer}>
      {formatElapsed(elapsed)}
    </Badge>
  );
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
    const details = queryErrorDetails(query);
    return (
      <Box p="md">
        <Alert color="red" variant="light" title={query.state === 'timed_out' ? 'Query timed out' : 'Query failed'} data-testid="query-error">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', fontFamily: 'var(--mantine-font-family-monospace)' }}>
            {query.errorMessage ?? query.errors?.[0]?.message}
          </Text>
          {details.databaseMessage && (
            <pre className={classes.databaseMessage} data-testid="database-message">
              {details.databaseMessage}
            </pre>
          )}
          {details.line && (
            <Text size="xs" c="dimmed" mt={4} data-testid="error-line">
              Line {details.line} of the query
            </Text>
          )}
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

  return (
    <ResultTable
      key={query.id}
      query={query}
      columns={columns}
      rows={rows}
      total={total}
      resultsKey={resultsKey}
      notice={notice}
      whole={whole}
      height={height}
      isPreview={isPreview}
      onCreateDataset={setDatasetModal}
    >
      <SaveDatasetModal query={query} opened={datasetModal !== null} thenExplore={datasetModal === 'chart'} onClose={() => setDatasetModal(null)} />
    </ResultTable>
  );
}

interface ResultTableProps {
  query: Query;
  columns: QueryColumn[];
  rows: ResultRow[];
  total: number;
  resultsKey: string | null;
  notice: string | null;
  whole: boolean;
  height: number;
  isPreview: boolean;
  onCreateDataset: (kind: 'dataset' | 'chart') => void;
  children?: React.ReactNode;
}

/**
 * The rows of a finished query: its actions and the "Filter results" box, then the row count, the timer and the limit
 * notice (wrapping, never cut), then the grid in the height left. The filter narrows the rows held in the browser.
 */
function ResultTable({ query, columns, rows, total, resultsKey, notice, whole, height, isPreview, onCreateDataset, children }: ResultTableProps) {
  const [filter, setFilter] = useState('');
  const filtering = filter.trim().length > 0;
  const filtered = useMemo(() => (filtering ? filterRows(columns, rows, filter) : rows), [filtering, columns, rows, filter]);
  const { ref: headerRef, height: headerHeight } = useElementSize();
  const gridHeight = Math.max(80, height - (headerHeight || 66) - 14);
  const fetchPage = useCallback(async (offset: number, limit: number) => ((await sqllabApi.results(resultsKey!, limit, offset)).data as ResultRow[]) ?? [], [resultsKey]);
  return (
    <Box px="sm" pt={6} data-testid="result-set">
      <div ref={headerRef} className={classes.resultHeader}>
        <div className={classes.resultControls}>
          {!isPreview && (
            <Group gap={4} wrap="wrap">
              <Button variant="subtle" size="xs" leftSection={<IconDatabasePlus size={14} />} onClick={() => onCreateDataset('dataset')}>
                Save dataset
              </Button>
              <Button variant="subtle" size="xs" leftSection={<IconChartBar size={14} />} onClick={() => onCreateDataset('chart')}>
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
          <RowFilterInput className={classes.resultFilter} placeholder="Filter results" label="Filter results" clearLabel="Clear the filter" value={filter} onChange={setFilter} data-testid="filter-results" />
        </div>
        <div className={classes.resultSummary}>
          <Text size="sm" fw={600} data-testid="row-count" style={{ whiteSpace: 'nowrap' }}>
            {total.toLocaleString('en-US')} {total === 1 ? 'row' : 'rows'} returned
          </Text>
          <QueryTimer query={query} />
          {filtering && (
            <Text size="xs" c="dimmed" data-testid="filter-count" style={{ whiteSpace: 'nowrap' }}>
              {filtered.length.toLocaleString('en-US')} of {rows.length.toLocaleString('en-US')} {whole ? '' : 'loaded '}rows match
            </Text>
          )}
          {notice && (
            <Text size="xs" className={classes.limitNotice} data-testid="limit-notice">
              {notice}
            </Text>
          )}
        </div>
      </div>
      <ResultsGrid columns={columns} rows={rows} filteredRows={filtering ? filtered : undefined} total={total} resultsKey={resultsKey} fetchPage={fetchPage} height={gridHeight} />
      {children}
    </Box>
  );
}
