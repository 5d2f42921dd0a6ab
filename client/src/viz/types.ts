/**
 * The contract every chart type (one folder under `client/src/viz/<viz_type>/`) fulfils, so Explore,
 * dashboards and thumbnails draw any type the same way. A type is data (key, controls, pure
 * buildQuery/transformProps) plus one lazily loaded component.
 */
import type { ComponentType } from 'react';
import type { ChartDataQueryResult } from '@meridian/contracts/schemas/chart-data';
import type { ColumnConfigFormLayout } from './shared/column-config';

/** Form data as stored in a slice's `params` (Superset's keys: `viz_type`, `datasource`, `metrics`, ...). */
export type FormData = Record<string, any> & { viz_type: string; datasource?: string };

/** What a chart data request posts (`POST /api/v1/chart/data`). */
export interface QueryContext {
  datasource: { id: number; type: string };
  queries: Array<Record<string, unknown>>;
  form_data: FormData;
  result_format: 'json' | 'csv' | 'xlsx';
  result_type: string;
  force: boolean;
}

/** The kinds of control the control panel knows how to render (Superset's control type names). */
export type ControlType =
  | 'MetricsControl' // adhoc/saved metrics; `multi` false for a single `metric`
  | 'GroupByControl' // dataset columns (or adhoc SQL columns); `multi`
  | 'AdhocFilterControl'
  | 'TimeRangeControl'
  | 'SelectControl' // `choices`, `multi`, `freeForm`
  | 'TextControl' // `isInt` / `isFloat` for numbers
  | 'TextAreaControl' // `language` 'markdown' | 'sql' | 'json' | 'html'
  | 'CheckboxControl'
  | 'SliderControl' // `min`, `max`, `step`
  | 'ColorSchemeControl' // `schemeType` 'categorical' | 'sequential'
  | 'ColorPickerControl'
  | 'NumberFormatControl' // d3-format strings, SMART_NUMBER
  | 'BoundsControl' // [min, max], either null
  | 'CurrencyControl' // { symbol: ISO 4217 code, symbolPosition: 'prefix' | 'suffix' }
  | 'TimeFormatControl' // d3-time-format strings, smart_date
  | 'TimeOffsetControl' // a date, 'YYYY-MM-DD' (Superset's start_date_offset)
  | 'ComparisonRangeLabel' // no value: the time range a time comparison compares with
  | 'ConditionalFormattingControl'
  | 'AnnotationLayerControl'
  | 'ColumnConfigControl' // `column_config`: settings per column; `configColumns`, `configFormLayout`
  | 'HiddenControl';

/**
 * A chart's own state that shapes its query (Superset's dataMask `ownState`), set by the chart as the reader uses it
 * and sent to its buildQuery: a server-paginated table's `currentPage`, `pageSize` and `sortBy`.
 */
export type OwnState = Record<string, unknown>;

/** What buildQuery reads besides the form data. */
export interface BuildQueryOptions {
  ownState?: OwnState;
}

/** What a control's functions see: the whole form data and the dataset in use. */
export interface ControlContext {
  formData: FormData;
  datasource: DatasourceMeta | null;
  /** Explore opened from a dashboard with a colour scheme of its own: that scheme, which the chart is drawn in. */
  dashboardColorScheme?: string | null;
}

/** One control, declared as data (spec 01 §5 validators come from `@meridian/contracts`). */
export interface ControlConfig {
  name: string;
  type: ControlType;
  label: string;
  description?: string;
  default?: unknown;
  /** The value a new chart starts with when it depends on the dataset (Superset's initialValue); `default` wins. */
  initialValue?: (ctx: ControlContext) => unknown;
  multi?: boolean;
  freeForm?: boolean;
  clearable?: boolean;
  choices?: ReadonlyArray<readonly [unknown, string]> | ((ctx: ControlContext) => ReadonlyArray<readonly [unknown, string]>);
  /** Returns error messages (empty when valid); `validateNonEmpty` etc. from contracts return string | false. */
  validators?: ReadonlyArray<(value: unknown, ctx: ControlContext) => string | false>;
  /** Shown only when true; a hidden control's value is stashed and restored when shown again. */
  visibility?: (ctx: ControlContext) => boolean;
  /** Reads a value an earlier version stored (as Superset's form data migrations): applied when Explore opens. */
  fromStored?: (value: unknown) => unknown;
  /** A change re-renders from the last result instead of querying again (formatting, colours, legends). */
  renderTrigger?: boolean;
  isInt?: boolean;
  isFloat?: boolean;
  min?: number;
  max?: number;
  step?: number;
  language?: 'markdown' | 'sql' | 'json' | 'html';
  schemeType?: 'categorical' | 'sequential';
  /** ColumnConfigControl: which columns it lists (all of the query's, or only its metrics). Default 'all'. */
  configColumns?: 'all' | 'metrics';
  /** ColumnConfigControl: the settings offered per kind of column (Superset's configFormLayout). */
  configFormLayout?: ColumnConfigFormLayout;
}

/**
 * A row of controls: each entry is a shared control's name (see `viz/shared/controls.ts`, e.g. 'metrics',
 * 'groupby', 'adhoc_filters', 'row_limit', 'time_range', 'color_scheme', 'x_axis', 'time_grain_sqla'),
 * a full ControlConfig, or a shared name with overrides.
 */
export type ControlEntry = string | ControlConfig | { name: string; override: Partial<ControlConfig> };

export interface ControlPanelSection {
  label: string;
  expanded?: boolean;
  description?: string;
  /** 'data' sections go on Explore's Data tab, 'customize' ones on its Customize tab. */
  tab?: 'data' | 'customize';
  controlSetRows: ReadonlyArray<ReadonlyArray<ControlEntry>>;
}

export interface ControlPanelConfig {
  sections: ReadonlyArray<ControlPanelSection>;
}

/** A dataset as Explore knows it (from `GET /api/v1/explore/` / the dataset API). */
export interface DatasourceMeta {
  id: number;
  type: string;
  name: string;
  columns: Array<{ column_name: string; type?: string | null; is_dttm?: boolean; groupby?: boolean; filterable?: boolean; verbose_name?: string | null; expression?: string | null }>;
  metrics: Array<{ metric_name: string; expression: string; verbose_name?: string | null; d3format?: string | null }>;
  main_dttm_col?: string | null;
  verbose_map?: Record<string, string>;
  /** The time grains its database computes, as [duration, name]. */
  time_grain_sqla?: Array<[string, string]>;
}

/** A click on a data point: the filters that select it, for drill to detail, drill by and cross-filters. */
export interface DataPointClick {
  /** `[{col, op: '==', val}]` over the chart's group-by / x-axis columns. */
  filters: Array<{ col: string; op: '==' | 'IN' | 'TEMPORAL_RANGE'; val: unknown }>;
  /** Page position of the pointer, for the context menu. */
  clientX: number;
  clientY: number;
  /** True for a right-click (context menu) rather than a plain click. */
  isContextMenu: boolean;
}

/** What a chart component receives. */
export interface ChartProps<P = unknown> {
  formData: FormData;
  /** Output of the type's transformProps. */
  transformed: P;
  width: number;
  height: number;
  theme: 'light' | 'dark';
  /** Call after the first successful draw (chart state 'rendered'). */
  onRendered?: () => void;
  /** Call with a render failure (chart state failed, 'An error occurred while rendering the visualization: %s'). */
  onRenderError?: (error: Error) => void;
  onDataPointClick?: (click: DataPointClick) => void;
  /** The chart's new own state (a page, a page size, an order picked): its query runs again with it. */
  setOwnState?: (ownState: OwnState) => void;
}

/** A chart's own cross-filter on a dashboard (Superset's `filterState`): the values of the item it selected. */
export interface FilterState {
  /** One value per clicked column (`DataPointClick.filters`), or none while no cross-filter is active. */
  selectedValues?: unknown;
}

/** What transformProps receives: the form data, the chart data answer's queries, and the colours/theme. */
export interface TransformInput {
  formData: FormData;
  queriesData: ChartDataQueryResult[];
  datasource: DatasourceMeta | null;
  theme: 'light' | 'dark';
  width: number;
  height: number;
  /** The chart's own cross-filter, which it shows by fading the items it did not select. */
  filterState?: FilterState;
  /** The own state the answer was queried with. */
  ownState?: OwnState;
}

export type VizCategory =
  | 'Evolution'
  | 'Part of a Whole'
  | 'Ranking'
  | 'Correlation'
  | 'Distribution'
  | 'KPI'
  | 'Table'
  | 'Map'
  | 'Flow'
  | 'Text';

export type VizBehavior = 'INTERACTIVE_CHART' | 'DRILL_TO_DETAIL' | 'DRILL_BY' | 'CROSS_FILTER';

/**
 * What is known of a chart type before its code loads (its folder's `meta.ts`): enough for the gallery,
 * lists and menus. `key` is Superset's viz_type, so charts exported from Superset open here.
 */
export interface ChartMeta {
  key: string;
  name: string;
  category: VizCategory;
  description: string;
  tags: readonly string[];
  /** Small inline SVG markup (a drawing of the chart), shown in the viz type gallery. */
  thumbnail: string;
  behaviors: readonly VizBehavior[];
  /** False for types that draw without data (markdown). Default true. */
  needsQuery?: boolean;
  /** How many of the answer's queries hold the chart's rows (Superset's queryObjectCount): all of them empty reads 'No results'. Default 1. */
  queryObjectCount?: number;
}

/** One chart type: its meta, control panel, pure query and transform, and its lazily loaded component. */
export interface ChartPlugin<P = any> extends ChartMeta {
  controlPanel: ControlPanelConfig;
  /** Form data keys this type sets when first chosen (merged under the user's values). */
  defaultFormData?: Partial<FormData>;
  /** Controls named as other types' controls but meaning something else here: their values stay with this type on a type switch. */
  ownControls?: readonly string[];
  /** Form data (and the chart's own state) → chart data request. Pure. */
  buildQuery: (formData: FormData, options?: BuildQueryOptions) => QueryContext;
  /** (form data, answer) → what the component draws. Pure. */
  transformProps: (input: TransformInput) => P;
  /** The component, loaded when this type is first drawn (keeps ECharts parts out of other pages). */
  loadChart: () => Promise<{ default: ComponentType<ChartProps<P>> }>;
}
