import { z } from 'zod';
import { JSON_NOT_VALID, jsonText } from './json-text';

/** `POST /api/v1/annotation_layer/` (Superset `AnnotationLayerRestApi.post`). */
export const AnnotationLayerCreateSchema = z.object({
  name: z.string().trim().min(1).max(250),
  descr: z.string().nullable().optional(),
});
export type AnnotationLayerCreate = z.infer<typeof AnnotationLayerCreateSchema>;

/** `PUT /api/v1/annotation_layer/{pk}`: any subset of the create fields. */
export const AnnotationLayerUpdateSchema = AnnotationLayerCreateSchema.partial();
export type AnnotationLayerUpdate = z.infer<typeof AnnotationLayerUpdateSchema>;

/**
 * An annotation's datetime as Superset's REST takes it: ISO 8601, a value without an offset being
 * UTC (Superset stores naive UTC datetimes). Null when the text is not a datetime.
 *
 * @example parseAnnotationDttm('2024-01-01T10:00:00') // 2024-01-01T10:00:00.000Z
 */
export function parseAnnotationDttm(text: string): Date | null {
  const trimmed = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(trimmed)) return null;
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) && trimmed.length > 10;
  const withTime = trimmed.length === 10 ? `${trimmed}T00:00:00` : trimmed.replace(' ', 'T');
  const ms = Date.parse(hasOffset ? withTime : `${withTime}Z`);
  return Number.isNaN(ms) ? null : new Date(ms);
}

const Dttm = z.string().refine((v) => parseAnnotationDttm(v) !== null, { message: 'Not a valid datetime.' });

export const ANNOTATION_JSON_MESSAGE = JSON_NOT_VALID;


/** `POST /api/v1/annotation_layer/{pk}/annotation/` (Superset `AnnotationRestApi.post`). */
export const AnnotationCreateSchema = z.object({
  short_descr: z.string().trim().min(1).max(500),
  long_descr: z.string().nullable().optional(),
  start_dttm: Dttm,
  end_dttm: Dttm,
  json_metadata: jsonText(ANNOTATION_JSON_MESSAGE).nullable().optional(),
});
export type AnnotationCreate = z.infer<typeof AnnotationCreateSchema>;

/** `PUT /api/v1/annotation_layer/{pk}/annotation/{annotation_id}`. */
export const AnnotationUpdateSchema = AnnotationCreateSchema.partial();
export type AnnotationUpdate = z.infer<typeof AnnotationUpdateSchema>;

export const ANNOTATION_DATES_MESSAGE = 'End date must be after start date';

/**
 * Field errors of an annotation's dates (after merging an update onto the stored ones): the end may
 * not precede the start. Superset reports it on start_dttm; an event (end == start) is allowed.
 *
 * @example annotationDateErrors({ start_dttm: '2024-02-01', end_dttm: '2024-01-01' }) // { start_dttm: ['End date must be after start date'] }
 */
export function annotationDateErrors(values: { start_dttm?: string | null; end_dttm?: string | null }): Record<string, string[]> {
  const start = values.start_dttm ? parseAnnotationDttm(values.start_dttm) : null;
  const end = values.end_dttm ? parseAnnotationDttm(values.end_dttm) : null;
  return start && end && end.getTime() < start.getTime() ? { start_dttm: [ANNOTATION_DATES_MESSAGE] } : {};
}

interface Person {
  id: number;
  first_name: string;
  last_name: string;
}

/** An annotation layer as the list answers it (get answers id, name, descr). */
export interface AnnotationLayerView {
  id: number;
  name: string;
  descr: string | null;
  created_on: string;
  changed_on: string;
  changed_on_delta_humanized: string;
  created_by: Person | null;
  changed_by: Person | null;
}

/** An annotation as list and get answer it; datetimes are ISO 8601 UTC. */
export interface AnnotationView {
  id: number;
  layer: { id: number; name: string };
  short_descr: string | null;
  long_descr: string | null;
  start_dttm: string | null;
  end_dttm: string | null;
  json_metadata: string | null;
  changed_on_delta_humanized: string;
  created_by: Person | null;
  changed_by: Person | null;
}

/**
 * One entry of a query's `annotation_layers` as the explore client sends it. Only the keys the
 * server reads are named; the rest (colour, style, ...) pass through for the client.
 */
export const ChartAnnotationLayerSchema = z
  .object({
    name: z.string(),
    annotationType: z.string().optional(),
    sourceType: z.string().nullish(),
    value: z.unknown(),
    overrides: z.record(z.string(), z.unknown()).nullish(),
    show: z.boolean().optional(),
  })
  .passthrough();
export type ChartAnnotationLayer = z.infer<typeof ChartAnnotationLayerSchema>;

/** The keys of a layer's `overrides` that take the annotated chart's value (Superset's explore client). */
export const ANNOTATION_OVERRIDE_KEYS = ['time_range', 'granularity', 'time_grain_sqla'] as const;
