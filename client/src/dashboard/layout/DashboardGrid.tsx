import { ActionIcon, CloseButton, SegmentedControl, Tabs, Textarea, TextInput, Tooltip, useComputedColorScheme } from '@mantine/core';
import { GRID_BASE_UNIT, GRID_COLUMN_COUNT, GRID_ID, ROOT_ID, type Component, type LayoutAction, type LayoutMap } from '@meridian/contracts';
import { IconFold, IconGripVertical, IconPlus, IconTrash } from '@tabler/icons-react';
import { useElementSize } from '@mantine/hooks';
import { createContext, useContext, useState, type DragEvent, type MouseEvent, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import type { DashboardChart } from '../dashboard.api';
import classes from '../dashboard.module.css';
import { ConfirmModal } from '../../components/ConfirmModal';
import { ChartCell } from './ChartCell';
import { MarkdownText } from './MarkdownText';

/** What a drag carries: an existing component's id, or a new component (type, and chart id for a chart). */
export type DragPayload = { kind: 'move'; id: string } | { kind: 'new'; type: Component['type']; chartId?: number; sliceName?: string };
export const DRAG_MIME = 'application/x-meridian-dashboard';

interface GridContext {
  layout: LayoutMap;
  charts: Map<number, DashboardChart>;
  editMode: boolean;
  /** Width in px of one grid column (the row's width over 12, gutters included). */
  columnWidth: number;
  /** The colour scheme the charts are drawn in, read once for the grid (each cell read it on each of its renders). */
  theme: 'light' | 'dark';
  refreshToken: number;
  force: boolean;
  /** Layout edits; calls with the same `gestureKey` in a row make one undo step. */
  dispatch: (action: LayoutAction, gestureKey?: string) => void;
  drop: (payload: DragPayload, parentId: string, index: number) => void;
  activeTabs: Record<string, string>;
  setActiveTab: (tabsId: string, tabId: string) => void;
  /** Each chart's header menu (off where no user is signed in: embedded dashboards). Default on. */
  chartMenu?: boolean;
  /** Each chart's header controls, its filter indicator and menu (off with display option 8, spec 02 §2). Default on. */
  chartControls?: boolean;
  /** The top-level tabs' bar left out, the active tab's content shown (display option 2, spec 02 §2). */
  hideTopLevelTabs?: boolean;
}

const Ctx = createContext<GridContext | null>(null);
const useGrid = () => useContext(Ctx)!;

const GUTTER = 16;

export function readDrag(e: DragEvent): DragPayload | null {
  try {
    return JSON.parse(e.dataTransfer.getData(DRAG_MIME)) as DragPayload;
  } catch {
    return null;
  }
}

/** A thin zone between children where a drag can be dropped (edit mode only). */
function DropZone({ parentId, index, vertical = false, emptyRow = false, root = false, placeholder }: { parentId: string; index: number; vertical?: boolean; emptyRow?: boolean; root?: boolean; placeholder?: string }) {
  const { editMode, drop } = useGrid();
  const [over, setOver] = useState(false);
  if (!editMode) return null;
  return (
    <div
      className={placeholder ? classes.emptyGrid : vertical ? classes.dropZoneVertical : classes.dropZone}
      data-over={over || undefined}
      data-empty-row={emptyRow || undefined}
      data-root={root || undefined}
      data-testid={`drop-${parentId}-${index}`}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes(DRAG_MIME)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const payload = readDrag(e);
        if (payload) drop(payload, parentId, index);
      }}
    >
      {placeholder ?? (emptyRow && 'Empty row')}
    </div>
  );
}

function Children({ id, vertical }: { id: string; vertical: boolean }) {
  const { layout } = useGrid();
  const children = layout[id]?.children ?? [];
  return (
    <>
      {children.map((childId, i) => (
        <Fragment key={childId} parentId={id} index={i} vertical={vertical}>
          <ComponentView id={childId} />
        </Fragment>
      ))}
      {/* A new row or column is empty until something is dropped in: the whole of it is its drop zone. */}
      {!vertical && children.length === 0 && layout[id]?.type === 'COLUMN' ? (
        <DropZone parentId={id} index={0} placeholder="Empty column" />
      ) : (
        <DropZone parentId={id} index={children.length} vertical={vertical} emptyRow={vertical && children.length === 0} />
      )}
    </>
  );
}

function Fragment({ parentId, index, vertical, children }: { parentId: string; index: number; vertical: boolean; children: ReactNode }) {
  return (
    <>
      <DropZone parentId={parentId} index={index} vertical={vertical} />
      {children}
    </>
  );
}

/** Edit-mode chrome around a component: a drag handle, its own actions and a delete button. */
function Editable({ component, children, className, actions }: { component: Component; children: ReactNode; className?: string; actions?: ReactNode }) {
  const { editMode, dispatch } = useGrid();
  // In view mode too the component is found by its id (a permalink's anchor is scrolled to).
  if (!editMode) return <div className={className} data-component-id={component.id}>{children}</div>;
  return (
    <div className={`${className ?? ''} ${classes.editable}`} data-component-id={component.id} data-component-type={component.type}>
      <div className={classes.editChrome}>
        <span
          className={classes.dragHandle}
          draggable
          aria-label={`Move ${component.type.toLowerCase()}`}
          onDragStart={(e) => {
            e.dataTransfer.setData(DRAG_MIME, JSON.stringify({ kind: 'move', id: component.id } satisfies DragPayload));
            e.dataTransfer.effectAllowed = 'move';
          }}
        >
          <IconGripVertical size={14} />
        </span>
        {actions}
        <Tooltip label="Delete">
          <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Delete ${component.type.toLowerCase()}`} onClick={() => dispatch({ type: 'DELETE_COMPONENT', id: component.id })}>
            <IconTrash size={14} />
          </ActionIcon>
        </Tooltip>
      </div>
      {children}
    </div>
  );
}

/** Drag handle at a sized component's corner: width snaps to grid columns, height to GRID_BASE_UNIT rows. */
function ResizeHandle({ component }: { component: Component }) {
  const { editMode, dispatch, columnWidth } = useGrid();
  if (!editMode) return null;
  const start = (e: ReactPointerEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const x0 = e.clientX;
    const y0 = e.clientY;
    const key = `resize-${component.id}-${Date.now()}`;
    const w0 = Number(component.meta.width ?? 4);
    const h0 = Number(component.meta.height ?? 50);
    const move = (ev: PointerEvent) => {
      const width = component.type === 'COLUMN' || component.type === 'CHART' || component.type === 'MARKDOWN' ? w0 + Math.round((ev.clientX - x0) / Math.max(columnWidth, 1)) : undefined;
      const height = component.type === 'COLUMN' ? undefined : h0 + Math.round((ev.clientY - y0) / GRID_BASE_UNIT);
      dispatch({ type: 'RESIZE_COMPONENT', id: component.id, width, height }, key);
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  return <div className={classes.resizeHandle} onPointerDown={start} aria-label={`Resize ${component.type.toLowerCase()}`} role="separator" />;
}

const pxWidth = (columns: number, columnWidth: number) => Math.max(columns * columnWidth - GUTTER, 40);

function ComponentView({ id }: { id: string }) {
  const ctx = useGrid();
  const { layout, charts, editMode, columnWidth, dispatch } = ctx;
  const c = layout[id];
  if (!c) return null;
  switch (c.type) {
    case 'ROW':
      return (
        <Editable component={c} className={classes.row}>
          <div className={classes.rowInner} data-testid="dashboard-row">
            <Children id={id} vertical />
          </div>
        </Editable>
      );
    case 'COLUMN':
      return (
        <Editable component={c} className={classes.column}>
          <div style={{ width: pxWidth(Number(c.meta.width ?? 4), columnWidth) }} className={classes.columnInner}>
            <Children id={id} vertical={false} />
          </div>
          <ResizeHandle component={c} />
        </Editable>
      );
    case 'CHART': {
      const width = pxWidth(Number(c.meta.width ?? 4), columnWidth);
      const height = Number(c.meta.height ?? 50) * GRID_BASE_UNIT;
      return (
        <Editable component={c} className={classes.sized}>
          <div style={{ width }}>
            <ChartCell chart={charts.get(Number(c.meta.chartId))} componentId={id} width={width} height={height} theme={ctx.theme} refreshToken={ctx.refreshToken} force={ctx.force} menu={ctx.chartMenu !== false && ctx.chartControls !== false && !ctx.editMode} controls={ctx.chartControls !== false} />
          </div>
          <ResizeHandle component={c} />
        </Editable>
      );
    }
    case 'MARKDOWN': {
      const width = pxWidth(Number(c.meta.width ?? 4), columnWidth);
      const height = Number(c.meta.height ?? 50) * GRID_BASE_UNIT;
      return (
        <Editable component={c} className={classes.sized}>
          <div style={{ width, height }} className={classes.markdown} data-testid="dashboard-markdown">
            {editMode ? <MarkdownEditor id={id} code={String(c.meta.code ?? '')} /> : <MarkdownText source={String(c.meta.code ?? '')} />}
          </div>
          <ResizeHandle component={c} />
        </Editable>
      );
    }
    case 'HEADER':
      return (
        <Editable component={c} className={classes.headerBlock}>
          {editMode ? (
            <TextInput aria-label="Header text" value={String(c.meta.text ?? '')} onChange={(e) => dispatch({ type: 'UPDATE_COMPONENT_META', id, meta: { text: e.currentTarget.value } }, `text-${id}`)} size="md" fw={700} />
          ) : (
            <h3 className={classes.headerText}>{String(c.meta.text ?? '')}</h3>
          )}
        </Editable>
      );
    case 'DIVIDER':
      return (
        <Editable component={c} className={classes.dividerBlock}>
          <hr className={classes.divider} />
        </Editable>
      );
    case 'TABS':
      return <TabsView component={c} />;
    default:
      return null;
  }
}

function TabsView({ component }: { component: Component }) {
  const { layout, editMode, dispatch, activeTabs, setActiveTab, hideTopLevelTabs } = useGrid();
  const tabIds = component.children.filter((t) => layout[t]?.type === 'TAB');
  const topLevel = component.parents.at(-1) === ROOT_ID;
  const active = activeTabs[component.id] && tabIds.includes(activeTabs[component.id]) ? activeTabs[component.id] : tabIds[0];
  const addTab = () => {
    const tab: Component = { id: `TAB-${Math.random().toString(36).slice(2, 10)}`, type: 'TAB', children: [], parents: [], meta: { text: 'New tab', defaultText: 'Tab title' } };
    dispatch({ type: 'SET_LAYOUT', layout: { ...layout, [tab.id]: tab, [component.id]: { ...component, children: [...component.children, tab.id] } } });
    setActiveTab(component.id, tab.id);
  };
  const [deleting, setDeleting] = useState<string | null>(null);
  const body = (
    <Tabs value={active ?? null} onChange={(v) => v && setActiveTab(component.id, v)} keepMounted={false} className={classes.tabs}>
      {!(topLevel && hideTopLevelTabs) && (
        <Tabs.List>
          {tabIds.map((tabId) => (
            <Tabs.Tab
              key={tabId}
              value={tabId}
              data-testid="dashboard-tab"
              data-component-id={tabId}
              rightSection={
                editMode && (
                  <CloseButton
                    size="xs"
                    component="span"
                    role="button"
                    aria-label={`Delete tab ${String(layout[tabId].meta.text ?? '')}`}
                    onClick={(e: MouseEvent) => {
                      e.stopPropagation();
                      setDeleting(tabId);
                    }}
                  />
                )
              }
            >
              {editMode && tabId === active ? (
                <input
                  className={classes.tabTitleInput}
                  aria-label="Tab title"
                  value={String(layout[tabId].meta.text ?? '')}
                  onChange={(e) => dispatch({ type: 'UPDATE_COMPONENT_META', id: tabId, meta: { text: e.currentTarget.value } }, `text-${tabId}`)}
                  onClick={(e) => e.stopPropagation()}
                  onKeyDown={(e) => e.stopPropagation()}
                />
              ) : (
                String(layout[tabId].meta.text ?? layout[tabId].meta.defaultText ?? 'Tab')
              )}
            </Tabs.Tab>
          ))}
          {editMode && (
            <ActionIcon variant="subtle" aria-label="Add tab" onClick={addTab} ml={4} mt={6}>
              <IconPlus size={16} />
            </ActionIcon>
          )}
        </Tabs.List>
      )}
      {tabIds.map((tabId) => (
        <Tabs.Panel key={tabId} value={tabId} pt="sm">
          <div className={classes.gridColumn}>
            <Children id={tabId} vertical={false} />
          </div>
        </Tabs.Panel>
      ))}
    </Tabs>
  );
  // Top-level tabs give their content back to the grid (Superset's 'Collapse tab content').
  const collapse = topLevel && (
    <Tooltip label="Collapse tab content">
      <ActionIcon size="sm" variant="subtle" aria-label="Collapse tab content" onClick={() => dispatch({ type: 'DELETE_TOP_LEVEL_TABS' })}>
        <IconFold size={14} />
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Editable component={component} className={classes.tabsBlock} actions={collapse}>
      {body}
      <ConfirmModal
        opened={deleting !== null}
        title="Delete dashboard tab?"
        confirmLabel="DELETE"
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          // The active tab gone, the one before it shows (the first one's successor when it was first).
          const at = tabIds.indexOf(deleting);
          const neighbour = tabIds[at > 0 ? at - 1 : 1];
          if (deleting === active && neighbour) setActiveTab(component.id, neighbour);
          dispatch({ type: 'DELETE_COMPONENT', id: deleting });
        }}
      >
        Deleting a tab will remove all content within it. You may still reverse this action with the undo button (cmd + z) until you save your changes.
      </ConfirmModal>
    </Editable>
  );
}

/**
 * A markdown component in edit mode, in Superset's two modes: its preview, which a click (or Enter) turns into the
 * editor, and the editor, which goes back to the preview when the focus leaves the component or 'Preview' is chosen.
 * An empty one opens in the editor, to be written.
 */
function MarkdownEditor({ id, code }: { id: string; code: string }) {
  const { dispatch } = useGrid();
  const [mode, setMode] = useState<'preview' | 'edit'>(code.trim() ? 'preview' : 'edit');
  // The editor takes the focus when opened from the preview, not when the dashboard opens with an empty one.
  const [opened, setOpened] = useState(false);
  const edit = () => {
    setMode('edit');
    setOpened(true);
  };
  if (mode === 'preview')
    return (
      <div className={classes.markdownPreview} role="button" tabIndex={0} aria-label="Edit markdown" data-markdown-mode="preview" onClick={edit} onKeyDown={(e) => e.key === 'Enter' && edit()}>
        {code.trim() ? <MarkdownText source={code} /> : <p className={classes.markdownEmpty}>Click here to write markdown.</p>}
      </div>
    );
  return (
    <div className={classes.markdownEditor} data-markdown-mode="edit" onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setMode('preview')}>
      <SegmentedControl size="xs" className={classes.markdownMode} data={['Edit', 'Preview']} value="Edit" onChange={(v) => v === 'Preview' && setMode('preview')} aria-label="Markdown mode" />
      <Textarea
        aria-label="Markdown"
        value={code}
        placeholder="# Write markdown here"
        autosize={false}
        autoFocus={opened}
        styles={{ root: { height: '100%' }, wrapper: { height: '100%' }, input: { height: '100%', fontFamily: 'var(--mantine-font-family-monospace)' } }}
        onChange={(e) => dispatch({ type: 'UPDATE_COMPONENT_META', id, meta: { code: e.currentTarget.value } }, `text-${id}`)}
      />
    </div>
  );
}

/**
 * The dashboard's component tree (spec 02 §3 Layout) drawn from ROOT_ID: a grid or top-level tabs, rows of
 * sized charts and markdown, columns, headers and dividers. In edit mode every container takes drops.
 */
export function DashboardGrid(props: Omit<GridContext, 'columnWidth' | 'theme'>) {
  const { ref, width } = useElementSize();
  const theme = useComputedColorScheme('light');
  const columnWidth = (width + GUTTER) / GRID_COLUMN_COUNT;
  const root = props.layout[ROOT_ID];
  const top = root?.children[0];
  return (
    <Ctx.Provider value={{ ...props, columnWidth, theme }}>
      <div ref={ref} className={classes.grid} data-testid="dashboard-grid" data-edit-mode={props.editMode || undefined}>
        {width > 0 && top && props.layout[top]?.type === 'TABS' ? (
          <ComponentView id={top} />
        ) : width > 0 ? (
          <div className={classes.gridColumn}>
            {/* A drop above the grid puts the dashboard in top-level tabs (spec 02 §4). */}
            <DropZone parentId={ROOT_ID} index={0} root />
            <Children id={top ?? GRID_ID} vertical={false} />
            {/* An empty dashboard's whole box takes the first drop (only thin strips above it did). */}
            {!(props.layout[top ?? GRID_ID]?.children.length) && <DropZone parentId={top ?? GRID_ID} index={0} placeholder="Drag charts and components here from the panel on the right." />}
          </div>
        ) : null}
      </div>
    </Ctx.Provider>
  );
}
