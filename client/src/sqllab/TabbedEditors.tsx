import { ActionIcon, Badge, Group, Loader, Menu, Text, Tooltip } from '@mantine/core';
import { IconCircleFilled, IconCopy, IconDatabase, IconDots, IconEdit, IconPlus, IconWifiOff, IconX, IconLayoutSidebarLeftCollapse } from '@tabler/icons-react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { LOCALSTORAGE_MAX_USAGE_KB } from '@meridian/contracts/rules/constants';
import { isLocalStorageNearlyFull } from '@meridian/contracts/sqllab/index';
import { activeQueryEditorId, getQueryEditor, isQueryInProgress, type QueryEditor } from '@meridian/contracts/sqllab/index';
import { SqlEditor } from './SqlEditor';
import { useSqlLabController } from './SqlLabScreen';
import { useSqlLabState } from './sqllab.store';
import { matchesShortcut, SHORTCUTS } from './shortcuts';
import classes from './sqllab.module.css';

function TabTitle({ editor, active, running }: { editor: QueryEditor; active: boolean; running: boolean }) {
  const controller = useSqlLabController();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(editor.name);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (editing) inputRef.current?.select();
  }, [editing]);

  // The active tab is scrolled into the strip's view (a new tab, or one reached with the keyboard).
  const tabRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (active) tabRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  const commit = () => {
    setEditing(false);
    if (draft.trim() && draft !== editor.name) controller.rename(editor.id, draft);
  };

  return (
    <div
      ref={tabRef}
      className={classes.tab}
      data-active={active || undefined}
      role="tab"
      aria-selected={active}
      data-testid="sqllab-tab"
      title={editor.name}
      onClick={() => !active && controller.activate(editor.id)}
      onDoubleClick={() => {
        setDraft(editor.name);
        setEditing(true);
      }}
      onAuxClick={(event) => {
        if (event.button === 1) controller.closeTab(editor.id);
      }}
    >
      {running && <Loader size={10} type="oval" />}
      {editing ? (
        <input
          ref={inputRef}
          className={classes.tabInput}
          aria-label="Tab name"
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
            if (event.key === 'Escape') setEditing(false);
          }}
          onClick={(event) => event.stopPropagation()}
        />
      ) : (
        <span className={classes.tabName}>{editor.name}</span>
      )}
      {editor.remoteId ? (
        <Tooltip label="Saved query">
          <IconCircleFilled size={6} color="var(--mantine-color-teal-6)" />
        </Tooltip>
      ) : null}
      <Menu position="bottom-start" shadow="md" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Tab actions for ${editor.name}`} onClick={(event) => event.stopPropagation()}>
            <IconDots size={14} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown onClick={(event) => event.stopPropagation()}>
          <Menu.Item leftSection={<IconEdit size={14} />} onClick={() => { setDraft(editor.name); setEditing(true); }}>
            Rename tab
          </Menu.Item>
          <Menu.Item leftSection={<IconCopy size={14} />} onClick={() => controller.cloneTab(editor.id)}>
            Duplicate tab
          </Menu.Item>
          <Menu.Item leftSection={<IconLayoutSidebarLeftCollapse size={14} />} onClick={() => controller.dispatch({ type: 'QUERY_EDITOR_TOGGLE_LEFT_BAR', queryEditor: editor, hideLeftBar: !editor.hideLeftBar, now: Date.now() })}>
            {editor.hideLeftBar ? 'Expand tool bar' : 'Hide tool bar'}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item leftSection={<IconX size={14} />} onClick={() => controller.closeTab(editor.id)}>
            Close tab
          </Menu.Item>
          <Menu.Item onClick={() => controller.closeOtherTabs(editor.id)}>Close all other tabs</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="sm"
        aria-label={`Close ${editor.name}`}
        onClick={(event) => {
          event.stopPropagation();
          controller.closeTab(editor.id);
        }}
      >
        <IconX size={13} />
      </ActionIcon>
    </div>
  );
}

/** The tab strip and the active tab's editor. */
export function TabbedEditors() {
  const controller = useSqlLabController();
  const state = useSqlLabState();
  const activeId = activeQueryEditorId(state);
  const active = activeId ? getQueryEditor(state, activeId) : undefined;

  // Screen-wide shortcuts (the editor binds the same keys while it has focus).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest('.ace_editor')) return;
      const inField = Boolean(target?.closest('input, textarea, [contenteditable="true"], [role="dialog"]'));
      const active = activeQueryEditorId(controller.state);
      for (const shortcut of SHORTCUTS) {
        if (!matchesShortcut(event, shortcut)) continue;
        if (shortcut.name === 'newTab') controller.newTab();
        else if (shortcut.name === 'nextTab') controller.cycle('next');
        else if (shortcut.name === 'previousTab') controller.cycle('previous');
        else if (inField) continue;
        else if (shortcut.name === 'runQuery') void controller.runQuery();
        else if (shortcut.name === 'stopQuery') void controller.stopQuery();
        else if (shortcut.name === 'formatQuery' && active) void controller.formatSql(active);
        else if (shortcut.name === 'saveQuery') window.dispatchEvent(new CustomEvent('sqllab:save-query'));
        else continue;
        event.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controller]);

  const usageKb = useSyncExternalStore(controller.onUsageChange, () => controller.localStorageUsageKb);
  const nearlyFull = isLocalStorageNearlyFull(usageKb);

  const runningTabs = new Set(Object.values(state.queries).filter((q) => isQueryInProgress(q.state) && !q.isDataPreview).map((q) => q.sqlEditorId));

  return (
    <>
      <div className={classes.tabStrip}>
        <div className={classes.tabList} role="tablist" aria-label="Query tabs">
          {state.queryEditors.map((qe) => {
            const editor = getQueryEditor(state, qe.id) ?? qe;
            return <TabTitle key={qe.id} editor={editor} active={qe.id === activeId} running={runningTabs.has(qe.tabViewId ?? qe.id)} />;
          })}
        </div>
        <Tooltip label="New tab (Ctrl+Q)">
          <ActionIcon variant="subtle" size="lg" mb={2} aria-label="New tab" onClick={() => controller.newTab()} data-testid="new-tab">
            <IconPlus size={18} />
          </ActionIcon>
        </Tooltip>
        <Group ml="auto" pl="xs" gap="xs" mb={6} wrap="nowrap" style={{ flex: 'none' }}>
          <Tooltip label={`SQL Lab keeps its tabs and recent results in this browser's local storage: ${usageKb.toFixed(2)} KB of ${LOCALSTORAGE_MAX_USAGE_KB} KB used`}>
            <Group gap={4} wrap="nowrap" data-testid="local-storage-usage" data-nearly-full={nearlyFull || undefined}>
              <IconDatabase size={13} color={nearlyFull ? 'var(--mantine-color-red-6)' : 'var(--mantine-color-dimmed)'} />
              <Text size="xs" c={nearlyFull ? 'red' : 'dimmed'} ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                {usageKb.toFixed(2)} KB
              </Text>
            </Group>
          </Tooltip>
          {state.offline && (
            <Tooltip label="The server cannot be reached: changes are kept in this browser and synced when it is back">
              <Badge color="red" variant="light" leftSection={<IconWifiOff size={12} />} data-testid="offline-indicator">
                offline
              </Badge>
            </Tooltip>
          )}
        </Group>
      </div>
      {active && <SqlEditor key={active.id} editor={active} />}
    </>
  );
}
