/**
 * Annotation layers of a chart's form data (`annotation_layers`: name, annotationType, sourceType, value,
 * overrides and style), as Superset's explore stores them. A FORMULA layer is drawn from its expression
 * alone; the others are queried, each on its own (spec 01 §4 annotation query), through the chart data path.
 */

export const ANNOTATION_TYPES = {
  EVENT: 'EVENT',
  FORMULA: 'FORMULA',
  INTERVAL: 'INTERVAL',
  TIME_SERIES: 'TIME_SERIES',
} as const;
export type AnnotationType = (typeof ANNOTATION_TYPES)[keyof typeof ANNOTATION_TYPES];

export const ANNOTATION_TYPE_LABELS: Record<AnnotationType, string> = { EVENT: 'Event', FORMULA: 'Formula', INTERVAL: 'Interval', TIME_SERIES: 'Time series' };

/** Where a layer's annotations come from: Superset's own annotation layers, or a saved chart (table or line). */
export const ANNOTATION_SOURCE_TYPES = { NATIVE: 'NATIVE', TABLE: 'table', LINE: 'line' } as const;
export type AnnotationSourceType = (typeof ANNOTATION_SOURCE_TYPES)[keyof typeof ANNOTATION_SOURCE_TYPES];

export const ANNOTATION_SOURCE_LABELS: Record<AnnotationSourceType, string> = { NATIVE: 'Superset annotation', table: 'Table', line: 'Line Chart' };

export type AnnotationStyle = 'solid' | 'dashed' | 'longDashed' | 'dotted';

export interface AnnotationLayer {
  name: string;
  annotationType: AnnotationType;
  sourceType?: AnnotationSourceType | '';
  /** The formula, the annotation layer id (NATIVE) or the chart id (table, line). */
  value: string | number | null;
  overrides?: Record<string, unknown>;
  show: boolean;
  showLabel?: boolean;
  color?: string | null;
  opacity?: '' | 'opacityLow' | 'opacityMedium' | 'opacityHigh';
  style?: AnnotationStyle;
  width?: number;
  showMarkers?: boolean;
  hideLine?: boolean;
  /** A chart source's columns: the event time, the interval end, the title and the description columns. */
  timeColumn?: string;
  intervalEndColumn?: string;
  titleColumn?: string;
  descriptionColumns?: string[];
}

/** A new layer as Superset's popover opens it: a shown formula layer, solid, 1px. */
export const NEW_ANNOTATION_LAYER: AnnotationLayer = {
  name: '',
  annotationType: 'FORMULA',
  sourceType: '',
  value: null,
  overrides: {},
  show: true,
  showLabel: false,
  color: null,
  opacity: '',
  style: 'solid',
  width: 1,
  showMarkers: false,
  hideLine: false,
  timeColumn: '',
  intervalEndColumn: '',
  titleColumn: '',
  descriptionColumns: [],
};

/** The sources a layer of this type may read: none for a formula, a line chart for a time series, else annotations or a table. */
export function sourceTypesFor(type: AnnotationType): AnnotationSourceType[] {
  if (type === 'FORMULA') return [];
  if (type === 'TIME_SERIES') return ['line'];
  return ['NATIVE', 'table'];
}

/** Whether the layer is fetched from the server (everything but a formula), and only when shown. */
export function requiresQuery(layer: Pick<AnnotationLayer, 'annotationType' | 'sourceType' | 'show'>): boolean {
  return layer.show !== false && layer.annotationType !== 'FORMULA' && !!layer.sourceType;
}

export const ANNOTATION_NAME_REQUIRED = 'Name is required';
export const ANNOTATION_VALUE_REQUIRED = 'Value is required';
export const ANNOTATION_NAME_TAKEN = 'A layer with this name already exists';
export const ANNOTATION_TIME_COLUMN_REQUIRED = 'Time column is required';
export const ANNOTATION_END_COLUMN_REQUIRED = 'Interval end column is required';
export const ANNOTATION_BAD_FORMULA = 'Invalid formula expression';

/**
 * The popover's checks (Superset's isValidForm): a name unique among the other layers, a value, a chart
 * source's time (and, for intervals, end) column, and a formula that parses (`formulaParses` is the client's parser).
 * Returns field → message; empty when the layer may be applied.
 */
export function validateAnnotationLayer(layer: AnnotationLayer, others: ReadonlyArray<Pick<AnnotationLayer, 'name'>>, formulaParses: (expression: string) => boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!layer.name.trim()) errors.name = ANNOTATION_NAME_REQUIRED;
  else if (others.some((o) => o.name === layer.name)) errors.name = ANNOTATION_NAME_TAKEN;
  if (layer.value === null || layer.value === undefined || String(layer.value).trim() === '') errors.value = ANNOTATION_VALUE_REQUIRED;
  else if (layer.annotationType === 'FORMULA' && !formulaParses(String(layer.value))) errors.value = ANNOTATION_BAD_FORMULA;
  if (layer.sourceType === 'table') {
    if (!layer.timeColumn) errors.timeColumn = ANNOTATION_TIME_COLUMN_REQUIRED;
    if (layer.annotationType === 'INTERVAL' && !layer.intervalEndColumn) errors.intervalEndColumn = ANNOTATION_END_COLUMN_REQUIRED;
  }
  return errors;
}

/** A formula's expression without Superset's optional `y =` prefix. */
export const formulaExpression = (value: unknown): string => String(value ?? '').replace(/^\s*y\s*=\s*/i, '');

/** What changes a layer's answer (not its colour or width): a layer whose key is unchanged is not queried again. */
export const annotationQueryKey = (layer: AnnotationLayer): string => JSON.stringify([layer.annotationType, layer.sourceType, layer.value, layer.overrides ?? {}, layer.show !== false]);

/**
 * The request of one layer's annotation query: the chart's own query (its time range, grain and filters
 * are what the overrides read) carrying only that layer, limited to one row since only its
 * `annotation_data` is read.
 */
export function annotationLayerRequest<C extends { queries: Array<Record<string, unknown>> }>(context: C, layer: AnnotationLayer): C {
  const [first, ...rest] = context.queries;
  return { ...context, queries: [{ ...first, annotation_layers: [layer], row_limit: 1 }, ...rest.map((q) => ({ ...q, annotation_layers: [] }))] };
}

/** The chart's own request without the layers queried on their own (formula layers stay: they cost nothing). */
export function withoutQueriedLayers<C extends { queries: Array<Record<string, unknown>> }>(context: C): C {
  return {
    ...context,
    queries: context.queries.map((q) => ({ ...q, annotation_layers: ((q.annotation_layers as AnnotationLayer[] | undefined) ?? []).filter((l) => !requiresQuery(l)) })),
  };
}
