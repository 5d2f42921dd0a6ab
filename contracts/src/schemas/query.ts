import { z } from 'zod';

/** `POST /api/v1/query/stop`. */
export const StopQuerySchema = z.object({ client_id: z.string().min(1) });

/** Rison `q` of `GET /api/v1/query/updated_since`. */
export const UpdatedSinceQuerySchema = z.object({ last_updated_ms: z.coerce.number() });

/** Superset's `Query.to_dict()`: the query as SQL Lab's client state reads it (spec 01 §3 Query). */
export interface QueryDict {
  changed_on: string;
  dbId: number;
  db: string | null;
  endDttm: number | null;
  errorMessage: string | null;
  executedSql: string | null;
  id: string;
  queryId: number;
  limit: number | null;
  limitingFactor: string;
  progress: number;
  rows: number | null;
  catalog: string | null;
  schema: string | null;
  ctas: boolean;
  ctas_method: string | null;
  serverId: number;
  sql: string | null;
  sqlEditorId: string | null;
  startDttm: number | null;
  state: string;
  tab: string | null;
  tempSchema: string | null;
  tempTable: string | null;
  userId: number | null;
  user: string | null;
  resultsKey: string | null;
  trackingUrl: string | null;
  extra: Record<string, unknown>;
  errors?: unknown[];
}
