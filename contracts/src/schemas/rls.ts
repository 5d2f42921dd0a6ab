import { z } from 'zod';

/** Regular filters apply to the users of their roles; Base filters to everyone except them. */
export const RLS_FILTER_TYPES = ['Regular', 'Base'] as const;
export type RlsFilterType = (typeof RLS_FILTER_TYPES)[number];

const ids = z.array(z.number().int().positive());

/** `POST /api/v1/rowlevelsecurity/` (Superset's RLSPostSchema). */
export const RlsCreateSchema = z.object({
  name: z.string().trim().min(1).max(255),
  description: z.string().nullish(),
  filter_type: z.enum(RLS_FILTER_TYPES),
  tables: ids.min(1),
  roles: ids,
  group_key: z.string().trim().max(255).nullish(),
  clause: z.string().trim().min(1),
});
export type RlsCreate = z.infer<typeof RlsCreateSchema>;

/** `PUT /api/v1/rowlevelsecurity/{pk}` (RLSPutSchema): any of the create fields. */
export const RlsUpdateSchema = RlsCreateSchema.partial();
export type RlsUpdate = z.infer<typeof RlsUpdateSchema>;
