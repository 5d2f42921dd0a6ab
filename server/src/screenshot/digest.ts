import { createHash } from 'node:crypto';

const digestOf = (...parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);

/** The digest a chart's pictures are stored under: it changes when what the chart shows does. */
export const chartDigest = (c: { id: number; uuid: string; viz_type: string | null; params: string | null; query_context: string | null }) =>
  digestOf('chart', c.id, c.uuid, c.viz_type, c.params, c.query_context);

/** The digest a dashboard's pictures are stored under (its change time, layout and metadata, `changed_on` as ISO text). */
export const dashboardDigest = (d: { id: number; changed_on: string | null; position_json: string | null; json_metadata: string | null }) =>
  digestOf('dashboard', d.id, d.changed_on, d.position_json, d.json_metadata);
