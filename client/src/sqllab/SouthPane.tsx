import { ActionIcon, Badge, Box, Center, CloseButton, Group, ScrollArea, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconCopy, IconHistory, IconTable, IconTableFilled, IconTrash } from '@tabler/icons-react';
import { SOUTH_PANE_RESULTS_TAB } from '@meridian/contracts/rules/constants';
import { formatElapsed, isQueryInProgress, queryElapsedMs, sqlLabActions, type Query, type QueryEditor } from '@meridian/contracts/sqllab/index';
import { ResultSet, stateColor } from './ResultSet';
import { useSqlLabController } from './SqlLabScreen';
import { copyText } from './sqllab.controller';
import { useSqlLabState } from './sqllab.store';
import classes from './sqllab.module.css';

const HISTORY_TAB = 'History';
const TABS_HEIGHT = 38;

function QueryHistory({ editor, queries, height }: { editor: QueryEditor; queries: Query[]; height: number }) {
  const controller = useSqlLabController();
  if (queries.length === 0) {
    return (
      <Center h={height}>
        <Text size="sm" c="dimmed">
          No query history yet
        </Text>
      </Center>
    );
  }
  return (
    <ScrollArea h={height} type="auto">
      <Table striped highlightOnHover fz="sm" stickyHeader data-testid="query-history" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={110}>State</Table.Th>
            <Table.Th w={170}>Started</Table.Th>
            <Table.Th w={120}>Duration</Table.Th>
            <Table.Th w={90} ta="right">
              Rows
            </Table.Th>
            <Table.Th>SQL</Table.Th>
            <Table.Th w={110} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {queries.map((query) => (
            <Table.Tr key={query.id}>
              <Table.Td>
                <Badge color={stateColor(query.state)} variant="light" size="sm" data-state={query.state}>
                  {query.state}
                </Badge>
              </Table.Td>
              <Table.Td>{new Date(query.startDttm).toLocaleString()}</Table.Td>
              <Table.Td ff="monospace">{(() => {
                  const elapsed = isQueryInProgress(query.state) ? null : queryElapsedMs(query, Date.now());
                  return elapsed === null ? '—' : formatElapsed(elapsed);
                })()}</Table.Td>
              <Table.Td ta="right">{query.rows !== undefined ? Number(query.rows).toLocaleString('en-US') : '—'}</Table.Td>
              <Table.Td>
                <Tooltip label={<pre style={{ margin: 0, whiteSpace: 'pre-wrap', maxWidth: 520 }}>{query.sql}</pre>} openDelay={400} maw={560}>
                  <div className={classes.sqlSnippet}>{query.sql.replace(/\s+/g, ' ')}</div>
                </Tooltip>
              </Table.Td>
              <Table.Td>
                <Group gap={2} wrap="nowrap" justify="flex-end">
                  <Tooltip label="Overwrite the editor with this SQL">
                    <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Open in editor" onClick={() => controller.dispatch(sqlLabActions.setSql(editor, query.sql))}>
                      <IconArrowBackUp size={14} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Copy SQL">
                    <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Copy SQL" onClick={() => void copyText(query.sql)}>
                      <IconCopy size={14} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Remove from history">
                    <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Remove from history" onClick={() => void controller.removeQuery(query)}>
                      <IconTrash size={14} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** The bottom pane: Results, Query history and one tab per table data preview. */
export function SouthPane({ editor, height }: { editor: QueryEditor; height: number }) {
  const controller = useSqlLabController();
  const state = useSqlLabState();
  const tabId = editor.tabViewId ?? editor.id;
  const latest = editor.latestQueryId ? state.queries[editor.latestQueryId] : undefined;
  const history = Object.values(state.queries)
    .filter((q) => q.sqlEditorId === tabId && !q.isDataPreview)
    .sort((a, b) => b.startDttm - a.startDttm);
  const previews = state.tables.filter((t) => t.queryEditorId === tabId && t.dataPreviewQueryId);
  const ids = new Set([SOUTH_PANE_RESULTS_TAB, HISTORY_TAB, ...previews.map((t) => t.id)]);
  const active = ids.has(state.activeSouthPaneTab) ? state.activeSouthPaneTab : SOUTH_PANE_RESULTS_TAB;
  const paneHeight = Math.max(60, height - TABS_HEIGHT);

  return (
    <Tabs
      value={active}
      onChange={(value) => value && controller.dispatch({ type: 'SET_ACTIVE_SOUTHPANE_TAB', tabId: value })}
      keepMounted={false}
      h="100%"
      styles={{ list: { paddingLeft: 8, flexWrap: 'nowrap', overflowX: 'auto' } }}
    >
      <Tabs.List h={TABS_HEIGHT}>
        <Tabs.Tab value={SOUTH_PANE_RESULTS_TAB} leftSection={<IconTableFilled size={14} />} data-testid="results-tab">
          Results
        </Tabs.Tab>
        <Tabs.Tab
          value={HISTORY_TAB}
          leftSection={<IconHistory size={14} />}
          rightSection={
            history.length ? (
              // Not `circle`: a fixed round badge cuts two digits to "1…".
              <Badge size="xs" variant="light" color="gray" miw={18} px={5} styles={{ label: { overflow: 'visible' } }}>
                {history.length}
              </Badge>
            ) : undefined
          }
          data-testid="history-tab"
        >
          Query history
        </Tabs.Tab>
        {previews.map((table) => (
          <Tabs.Tab
            key={table.id}
            value={table.id}
            leftSection={<IconTable size={14} />}
            rightSection={
              <CloseButton
                size="xs"
                component="span"
                aria-label={`Close preview of ${table.name}`}
                onClick={(event) => {
                  event.stopPropagation();
                  controller.dispatch({ type: 'REMOVE_DATA_PREVIEW', table });
                  if (active === table.id) controller.dispatch({ type: 'SET_ACTIVE_SOUTHPANE_TAB', tabId: SOUTH_PANE_RESULTS_TAB });
                }}
              />
            }
          >
            Preview: {table.name}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value={SOUTH_PANE_RESULTS_TAB}>
        <ResultSet query={latest} height={paneHeight} />
      </Tabs.Panel>
      <Tabs.Panel value={HISTORY_TAB}>
        <QueryHistory editor={editor} queries={history} height={paneHeight} />
      </Tabs.Panel>
      {previews.map((table) => (
        <Tabs.Panel key={table.id} value={table.id}>
          <Box>
            <ResultSet query={table.dataPreviewQueryId ? state.queries[table.dataPreviewQueryId] : undefined} height={paneHeight} isPreview />
          </Box>
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
