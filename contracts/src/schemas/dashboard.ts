import { z } from 'zod';
import { jsonText } from './json-text';

/**
 * The dashboard payloads of spec 02 §3/§7 (`/api/v1/dashboard/`). `position_json` and `json_metadata`
 * are JSON text in Superset's stored format; json_metadata is further validated key by key by the service.
 */
export const DashboardCreateSchema = z.object({
  dashboard_title: z.string().max(500).nullish(),
  slug: z.string().max(255).nullish(),
  owners: z.array(z.number().int()).optional(),
  roles: z.array(z.number().int()).optional(),
  position_json: jsonText().nullish(),
  css: z.string().nullish(),
  json_metadata: jsonText().nullish(),
  /** Superset's fields.Boolean() without allow_none: null is 'Field may not be null.' */
  published: z.boolean().optional(),
  certified_by: z.string().nullish(),
  certification_details: z.string().nullish(),
  is_managed_externally: z.boolean().nullish(),
  external_url: z.string().nullish(),
});
export type DashboardCreate = z.infer<typeof DashboardCreateSchema>;

/** `PUT /api/v1/dashboard/{pk}`: any field; `last_modified_time` (epoch seconds) is the copy the screen edited. */
export const DashboardUpdateSchema = DashboardCreateSchema.partial().extend({
  tags: z.array(z.number().int()).optional(),
  last_modified_time: z.number().nullish(),
});
export type DashboardUpdate = z.infer<typeof DashboardUpdateSchema>;

/** `POST /api/v1/dashboard/{pk}/copy/`. */
export const DashboardCopySchema = z.object({
  dashboard_title: z.string().max(500).nullish(),
  css: z.string().nullish(),
  json_metadata: jsonText(),
  duplicate_slices: z.boolean().optional(),
});
export type DashboardCopy = z.infer<typeof DashboardCopySchema>;

/** `POST /api/v1/dashboard/{pk}/permalink`: the state a permalink restores. */
export const DashboardPermalinkSchema = z.object({
  dataMask: z.record(z.string(), z.any()).nullish(),
  activeTabs: z.array(z.string()).nullish(),
  anchor: z.string().nullish(),
  urlParams: z.array(z.tuple([z.string(), z.string()])).nullish(),
});
export type DashboardPermalinkState = z.infer<typeof DashboardPermalinkSchema>;
