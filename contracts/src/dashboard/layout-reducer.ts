/**
 * The dashboard layout's edit actions (spec 02 §4 "Layout actions", §5 drop rules), as pure reducers
 * over Superset's stored component map. The builder screen dispatches these; undo/redo wraps them.
 */
import { CANNOT_MOVE_TOP_LEVEL_TAB, CHART_MOVED_FILTER_SCOPE, NOT_ENOUGH_SPACE } from '../messages';

/** Refusal of a drop at the root when top-level tabs are there already. */
export const ONE_TOP_LEVEL_TABS = 'The dashboard already has tabs at its top';
import { GRID_COLUMN_COUNT, GRID_MAX_COMPONENT_SIZE } from '../rules/constants';
import type { LayoutComponent } from './layout';

export const ROOT_ID = 'ROOT_ID';
export const GRID_ID = 'GRID_ID';
export const HEADER_ID = 'HEADER_ID';
export const NEW_COMPONENTS_SOURCE_ID = 'NEW_COMPONENTS_SOURCE_ID';
export const DASHBOARD_VERSION_KEY = 'DASHBOARD_VERSION_KEY';

/** Superset's grid bounds beside spec 02 §9's (GRID_BASE_UNIT, GRID_COLUMN_COUNT, GRID_MAX_COMPONENT_SIZE in rules/constants). */
export const GRID_MIN_COLUMN_COUNT = 1;
export const GRID_MIN_ROW_UNITS = 5;
export const GRID_MAX_ROW_UNITS = 100;
export const GRID_DEFAULT_CHART_WIDTH = 4;

export type ComponentType = 'ROOT' | 'GRID' | 'HEADER' | 'ROW' | 'COLUMN' | 'CHART' | 'MARKDOWN' | 'DIVIDER' | 'TABS' | 'TAB' | 'DYNAMIC';

export interface Component extends LayoutComponent {
  type: ComponentType;
  children: string[];
  parents: string[];
  meta: LayoutComponent['meta'] & { width?: number; height?: number; text?: string; code?: string; headerSize?: string; background?: string };
}

/** The component map (position_json without its version key). */
export type LayoutMap = Record<string, Component>;


/** A new layout starts with a root and a grid (spec 02 §3). */
export function emptyLayout(title = ''): LayoutMap {
  return {
    [ROOT_ID]: { id: ROOT_ID, type: 'ROOT', children: [GRID_ID], parents: [], meta: {} },
    [GRID_ID]: { id: GRID_ID, type: 'GRID', children: [], parents: [ROOT_ID], meta: {} },
    [HEADER_ID]: { id: HEADER_ID, type: 'HEADER', children: [], parents: [], meta: { text: title } },
  };
}

/** Reads position_json's component map (the version key and non-components dropped), or an empty layout. */
export function layoutFromPosition(position: Record<string, unknown> | null | undefined, title = ''): LayoutMap {
  const out: LayoutMap = {};
  for (const [id, value] of Object.entries(position ?? {})) {
    const c = value as Component;
    if (c && typeof c === 'object' && typeof c.type === 'string') out[id] = { ...c, children: [...(c.children ?? [])], parents: [...(c.parents ?? [])], meta: { ...(c.meta ?? {}) } };
  }
  return out[ROOT_ID] ? out : emptyLayout(title);
}

/** position_json to store: the map with `DASHBOARD_VERSION_KEY: 'v2'`. */
export function positionFromLayout(layout: LayoutMap): Record<string, unknown> {
  return { [DASHBOARD_VERSION_KEY]: 'v2', ...layout };
}

let counter = 0;
/** An id in Superset's form, `CHART-<random>`. */
export function newComponentId(type: ComponentType): string {
  counter = (counter + 1) % 1_000_000;
  return `${type}-${Math.random().toString(36).slice(2, 8)}${counter.toString(36)}`;
}

/** Default meta of a new component (sizes in grid columns and GRID_BASE_UNIT rows, as Superset's factory). */
export function newComponent(type: ComponentType, meta: Component['meta'] = {}): Component {
  const defaults: Partial<Record<ComponentType, Component['meta']>> = {
    CHART: { width: GRID_DEFAULT_CHART_WIDTH, height: 50 },
    MARKDOWN: { width: GRID_DEFAULT_CHART_WIDTH, height: 50, code: '' },
    COLUMN: { width: GRID_DEFAULT_CHART_WIDTH, background: 'BACKGROUND_TRANSPARENT' },
    ROW: { background: 'BACKGROUND_TRANSPARENT' },
    HEADER: { text: 'New header', headerSize: 'MEDIUM_HEADER', background: 'BACKGROUND_TRANSPARENT' },
    TAB: { text: 'New tab', defaultText: 'Tab title' },
  };
  return { id: newComponentId(type), type, children: [], parents: [], meta: { ...(defaults[type] ?? {}), ...meta } };
}

/**
 * Which child types a parent takes, and the deepest nesting at which it still does (Superset's
 * isValidChild table: tabs and tab do not add depth, so nesting cannot grow without end).
 */
const PARENT_MAX_DEPTH: Partial<Record<ComponentType, Partial<Record<ComponentType, number>>>> = {
  ROOT: { TABS: 0, GRID: 0 },
  GRID: { CHART: 1, DYNAMIC: 1, MARKDOWN: 1, COLUMN: 1, DIVIDER: 1, HEADER: 1, ROW: 1, TABS: 1 },
  ROW: { CHART: 4, DYNAMIC: 4, MARKDOWN: 4, COLUMN: 4 },
  TABS: { TAB: 3 },
  TAB: { CHART: 5, DYNAMIC: 5, MARKDOWN: 5, COLUMN: 3, DIVIDER: 5, HEADER: 5, ROW: 3, TABS: 3 },
  COLUMN: { CHART: 5, HEADER: 5, MARKDOWN: 5, ROW: 3, DIVIDER: 3, TABS: 3 },
};

export function isValidChild(parentType: ComponentType, childType: ComponentType, parentDepth: number): boolean {
  const max = PARENT_MAX_DEPTH[parentType]?.[childType];
  return max !== undefined && parentDepth <= max;
}

/** A chart, column or markdown dropped straight into a grid or tab (or a chart/markdown into a column) is wrapped in a row. */
export function shouldWrapInRow(parentType: ComponentType, childType: ComponentType): boolean {
  if (parentType === 'GRID' || parentType === 'TAB') return childType === 'CHART' || childType === 'COLUMN' || childType === 'MARKDOWN' || childType === 'DYNAMIC';
  if (parentType === 'COLUMN') return childType === 'CHART' || childType === 'MARKDOWN' || childType === 'DYNAMIC';
  return false;
}

/**
 * Depth of a component for isValidChild, walked from the root: each container adds one, except that a
 * tab sits at its tabs' depth and a nested tab's children at the tab's (so tabs never deepen nesting):
 * root (0) > grid (1) > tabs (2) > tab (2) > row (2) > column (3) > row (4) > chart (5);
 * root (0) > top-level tabs (1) > tab (1) > row (2).
 */
export function depthOf(layout: LayoutMap, id: string): number {
  const chain = [...(layout[id]?.parents ?? []), id];
  let depth = 0;
  for (let i = 1; i < chain.length; i++) {
    const parent = layout[chain[i - 1]];
    if (!parent) continue;
    if (parent.type === 'ROOT') depth = 1;
    else if (parent.type === 'TABS') continue;
    else if (parent.type === 'TAB') depth += layout[parent.parents?.at(-1) ?? '']?.parents?.at(-1) === ROOT_ID ? 1 : 0;
    else depth += 1;
  }
  return depth;
}

/** Columns a component takes in a row. */
const widthOf = (c: Component | undefined): number => (c?.type === 'CHART' || c?.type === 'MARKDOWN' || c?.type === 'COLUMN' || c?.type === 'DYNAMIC' ? Number(c.meta?.width ?? GRID_DEFAULT_CHART_WIDTH) : 0);

/** Columns left in a row (a row holds at most GRID_COLUMN_COUNT). */
export function availableWidth(layout: LayoutMap, rowId: string, excludingId?: string): number {
  const row = layout[rowId];
  if (!row || row.type !== 'ROW') return GRID_COLUMN_COUNT;
  const used = row.children.filter((id) => id !== excludingId).reduce((sum, id) => sum + widthOf(layout[id]), 0);
  return GRID_COLUMN_COUNT - used;
}

/** Recomputes every component's `parents` from the root down. */
export function withParents(layout: LayoutMap): LayoutMap {
  const next: LayoutMap = { ...layout };
  const walk = (id: string, parents: string[]) => {
    const c = next[id];
    if (!c) return;
    next[id] = { ...c, parents };
    for (const child of c.children) walk(child, [...parents, id]);
  };
  walk(ROOT_ID, []);
  return next;
}

function parentOf(layout: LayoutMap, id: string): string | null {
  for (const c of Object.values(layout)) if (c.children.includes(id)) return c.id;
  return null;
}

function deleteDeep(layout: LayoutMap, id: string): void {
  const c = layout[id];
  if (!c) return;
  for (const child of c.children) deleteDeep(layout, child);
  delete layout[id];
}

/**
 * spec 02 §4 'Empty tabs or rows are removed after a move': the row or tabs container that `fromId`
 * names goes when it has no children left, and so does each ancestor row or tabs container it leaves
 * empty. Empty rows elsewhere (one just dropped in, waiting for charts) stay.
 */
export function pruneEmpty(layout: LayoutMap, fromId: string): LayoutMap {
  const next: LayoutMap = { ...layout };
  let id: string | null = fromId;
  while (id && id !== ROOT_ID) {
    const c: Component | undefined = next[id];
    if (!c || (c.type !== 'ROW' && c.type !== 'TABS') || c.children.length > 0) break;
    const parent = parentOf(next, id);
    if (parent) next[parent] = { ...next[parent], children: next[parent].children.filter((x) => x !== id) };
    delete next[id];
    id = parent;
  }
  // A root left without children gets its grid back.
  if (next[ROOT_ID] && next[ROOT_ID].children.length === 0) {
    next[GRID_ID] ??= { id: GRID_ID, type: 'GRID', children: [], parents: [ROOT_ID], meta: {} };
    next[ROOT_ID] = { ...next[ROOT_ID], children: [GRID_ID] };
  }
  return next;
}

export interface DropTarget {
  /** The component dropped into. */
  parentId: string;
  /** Index among its children. */
  index: number;
}

export type LayoutAction =
  | { type: 'CREATE_COMPONENT'; component: Component; extra?: Component[]; destination: DropTarget }
  | { type: 'MOVE_COMPONENT'; id: string; destination: DropTarget }
  | { type: 'DELETE_COMPONENT'; id: string }
  | { type: 'RESIZE_COMPONENT'; id: string; width?: number; height?: number }
  | { type: 'UPDATE_COMPONENT_META'; id: string; meta: Partial<Component['meta']> }
  | { type: 'CREATE_TOP_LEVEL_TABS' }
  | { type: 'DELETE_TOP_LEVEL_TABS' }
  | { type: 'SET_LAYOUT'; layout: LayoutMap };

/** The answer of a drop: the next layout, or the catalogue's refusal (the layout unchanged). */
export type LayoutResult = { ok: true; layout: LayoutMap; warning?: string } | { ok: false; error: string; layout: LayoutMap };

function isTopLevelTabs(layout: LayoutMap, id: string): boolean {
  const c = layout[id];
  return !!c && c.type === 'TABS' && parentOf(layout, id) === ROOT_ID;
}

/** Checks a drop of a component (existing or new) and places it; wraps in a row where Superset does. */
function place(layout: LayoutMap, component: Component, destination: DropTarget, movingFrom: string | null): LayoutResult {
  const parent = layout[destination.parentId];
  if (!parent) return { ok: false, error: 'Unknown drop target', layout };
  if (movingFrom && isTopLevelTabs(layout, component.id) && destination.parentId !== ROOT_ID) return { ok: false, error: CANNOT_MOVE_TOP_LEVEL_TAB, layout };
  if (parent.type === 'ROOT') return dropAtRoot(layout, component, movingFrom);
  const wrap = shouldWrapInRow(parent.type, component.type);
  const childType: ComponentType = wrap ? 'ROW' : component.type;
  if (!isValidChild(parent.type, childType, depthOf(layout, parent.id))) return { ok: false, error: `A ${component.type.toLowerCase()} cannot be placed there`, layout };
  if (parent.type === 'ROW') {
    const width = widthOf(component);
    if (width > availableWidth(layout, parent.id, movingFrom ? component.id : undefined)) return { ok: false, error: NOT_ENOUGH_SPACE, layout };
  }
  const next: LayoutMap = { ...layout, [component.id]: component };
  if (movingFrom && next[movingFrom]) next[movingFrom] = { ...next[movingFrom], children: next[movingFrom].children.filter((x) => x !== component.id) };
  const target = next[destination.parentId];
  const children = [...target.children];
  let index = Math.max(0, Math.min(destination.index, children.length));
  let placedId = component.id;
  if (wrap) {
    const row = newComponent('ROW');
    row.children = [component.id];
    next[row.id] = row;
    placedId = row.id;
  }
  if (movingFrom === destination.parentId) index = Math.min(index, children.length);
  children.splice(index, 0, placedId);
  next[destination.parentId] = { ...target, children };
  // Only a move empties a container; a new component (an empty row included) is kept as dropped.
  return { ok: true, layout: withParents(movingFrom ? pruneEmpty(next, movingFrom) : next) };
}

/**
 * A drop at the root (spec 02 §4 'A chart dropped at the root gets a tab container'): the root holds one
 * child, so the drop makes top-level tabs whose first tab takes the grid's content. New tabs are that
 * container; anything else lands at the top of its first tab. Top-level tabs already there are not
 * displaced (as Superset, which offers no drop at the root then).
 */
function dropAtRoot(layout: LayoutMap, component: Component, movingFrom: string | null): LayoutResult {
  const gridId = layout[ROOT_ID]?.children[0] ?? '';
  if (layout[gridId]?.type !== 'GRID') return { ok: false, error: ONE_TOP_LEVEL_TABS, layout };
  if (component.type === 'TABS') {
    const firstTab = layout[component.children[0] ?? ''];
    if (movingFrom || !firstTab) return { ok: false, error: 'Only new tabs can be dropped at the top of a dashboard', layout };
    const next: LayoutMap = { ...layout, [component.id]: component, [firstTab.id]: { ...firstTab, children: [...firstTab.children, ...layout[gridId].children] }, [ROOT_ID]: { ...layout[ROOT_ID], children: [component.id] } };
    delete next[gridId];
    return { ok: true, layout: withParents(next) };
  }
  const tabbed = layoutReducer(layout, { type: 'CREATE_TOP_LEVEL_TABS' }).layout;
  const firstTab = tabbed[tabbed[tabbed[ROOT_ID].children[0]].children[0]].id;
  const placed = place(tabbed, component, { parentId: firstTab, index: 0 }, movingFrom === gridId ? firstTab : movingFrom);
  return placed.ok ? placed : { ...placed, layout };
}

/**
 * The layout reducer: each action answers the next layout or a refusal. Pure; the caller keeps the
 * refusal's message for a toast.
 */
export function layoutReducer(layout: LayoutMap, action: LayoutAction): LayoutResult {
  switch (action.type) {
    case 'SET_LAYOUT':
      return { ok: true, layout: withParents(action.layout) };
    case 'CREATE_COMPONENT': {
      let base = layout;
      for (const extra of action.extra ?? []) base = { ...base, [extra.id]: extra };
      const placed = place(base, action.component, action.destination, null);
      // A refusal leaves the layout as it was, without the extras.
      return placed.ok ? placed : { ...placed, layout };
    }
    case 'MOVE_COMPONENT': {
      const component = layout[action.id];
      const from = parentOf(layout, action.id);
      if (!component || !from) return { ok: false, error: 'Unknown component', layout };
      if (action.destination.parentId === action.id || (layout[action.destination.parentId]?.parents ?? []).includes(action.id)) return { ok: false, error: 'A component cannot be dropped into itself', layout };
      const fromScope = tabOf(layout, action.id);
      const result = place(layout, component, action.destination, from);
      if (result.ok && component.type === 'CHART' && fromScope !== tabOf(result.layout, action.id)) return { ...result, warning: CHART_MOVED_FILTER_SCOPE };
      return result;
    }
    case 'DELETE_COMPONENT': {
      const parent = parentOf(layout, action.id);
      if (!parent || action.id === ROOT_ID || action.id === GRID_ID) return { ok: true, layout };
      const next: LayoutMap = { ...layout };
      deleteDeep(next, action.id);
      next[parent] = { ...next[parent], children: next[parent].children.filter((x) => x !== action.id) };
      return { ok: true, layout: withParents(pruneEmpty(next, parent)) };
    }
    case 'RESIZE_COMPONENT': {
      const c = layout[action.id];
      if (!c) return { ok: false, error: 'Unknown component', layout };
      const parent = parentOf(layout, action.id);
      const meta = { ...c.meta };
      if (action.width !== undefined) {
        const max = parent && layout[parent].type === 'ROW' ? availableWidth(layout, parent, action.id) : GRID_COLUMN_COUNT;
        meta.width = Math.max(GRID_MIN_COLUMN_COUNT, Math.min(Math.round(action.width), max));
      }
      if (action.height !== undefined) meta.height = Math.max(GRID_MIN_ROW_UNITS, Math.min(Math.round(action.height), GRID_MAX_COMPONENT_SIZE));
      return { ok: true, layout: { ...layout, [action.id]: { ...c, meta } } };
    }
    case 'UPDATE_COMPONENT_META': {
      const c = layout[action.id];
      if (!c) return { ok: false, error: 'Unknown component', layout };
      return { ok: true, layout: { ...layout, [action.id]: { ...c, meta: { ...c.meta, ...action.meta } } } };
    }
    case 'CREATE_TOP_LEVEL_TABS': {
      const root = layout[ROOT_ID];
      const top = layout[root?.children[0] ?? ''];
      if (!root || !top || top.type === 'TABS') return { ok: true, layout };
      const tabs = newComponent('TABS');
      const tab = newComponent('TAB');
      tab.children = [...top.children];
      tabs.children = [tab.id];
      const next: LayoutMap = { ...layout, [tabs.id]: tabs, [tab.id]: tab, [top.id]: { ...top, children: [] }, [ROOT_ID]: { ...root, children: [tabs.id] } };
      delete next[top.id];
      return { ok: true, layout: withParents(next) };
    }
    case 'DELETE_TOP_LEVEL_TABS': {
      const root = layout[ROOT_ID];
      const top = layout[root?.children[0] ?? ''];
      if (!root || !top || top.type !== 'TABS') return { ok: true, layout };
      const next: LayoutMap = { ...layout };
      const moved = top.children.flatMap((tabId) => layout[tabId]?.children ?? []);
      for (const tabId of top.children) delete next[tabId];
      delete next[top.id];
      next[GRID_ID] = { id: GRID_ID, type: 'GRID', children: moved, parents: [ROOT_ID], meta: {} };
      next[ROOT_ID] = { ...root, children: [GRID_ID] };
      return { ok: true, layout: withParents(next) };
    }
  }
}

/** The tab a component sits in ('' when none), for the filter-scope warning. */
function tabOf(layout: LayoutMap, id: string): string {
  const parents = layout[id]?.parents ?? [];
  for (let i = parents.length - 1; i >= 0; i--) if (layout[parents[i]]?.type === 'TAB') return parents[i];
  return '';
}

/** Chart components of a layout by chart id (for the builder's "already on the dashboard" marks). */
export function chartComponentIds(layout: LayoutMap): Map<number, string> {
  const out = new Map<number, string>();
  for (const c of Object.values(layout)) if (c.type === 'CHART' && Number.isInteger(Number(c.meta?.chartId))) out.set(Number(c.meta.chartId), c.id);
  return out;
}

/** A cell of `layoutOfRows`: a chart, or markdown text. */
export type RowCell = { chartId: number; sliceName?: string; width?: number; height?: number } | { markdown: string; width?: number; height?: number };

/**
 * A layout of rows of charts and markdown, optionally in tabs (each tab its own rows), with parents
 * filled in: the layout the examples' dashboards and scripted dashboards start from.
 */
export function layoutOfRows(title: string, content: RowCell[][] | Array<{ tab: string; rows: RowCell[][] }>): LayoutMap {
  const layout = emptyLayout(title);
  const addRows = (parentId: string, rows: RowCell[][]) => {
    for (const cells of rows) {
      const row = newComponent('ROW');
      layout[row.id] = row;
      layout[parentId]!.children.push(row.id);
      for (const cell of cells) {
        const size = { ...(cell.width ? { width: cell.width } : {}), ...(cell.height ? { height: cell.height } : {}) };
        const c = 'chartId' in cell ? newComponent('CHART', { chartId: cell.chartId, sliceName: cell.sliceName, ...size }) : newComponent('MARKDOWN', { code: cell.markdown, ...size });
        layout[c.id] = c;
        row.children.push(c.id);
      }
    }
  };
  const tabbed = content.length > 0 && 'tab' in (content[0] as object);
  if (tabbed) {
    const tabs = newComponent('TABS');
    layout[tabs.id] = tabs;
    layout[GRID_ID]!.children.push(tabs.id);
    for (const { tab, rows } of content as Array<{ tab: string; rows: RowCell[][] }>) {
      const t = newComponent('TAB', { text: tab });
      layout[t.id] = t;
      tabs.children.push(t.id);
      addRows(t.id, rows);
    }
  } else addRows(GRID_ID, content as RowCell[][]);
  return withParents(layout);
}
