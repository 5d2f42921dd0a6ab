import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EstimatePayloadSchema, ExecutePayloadSchema, FormatSqlPayloadSchema, ResultsQuerySchema } from '@meridian/contracts';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { route } from '../rest/rest';
import type { JsonChunks } from '../results/raw-json';
import type { Services } from '../services';

const tags = ['SQL Lab'];

/** Sends JSON text, or byte chunks one by one (a large result is never joined into one buffer). */
function sendJson(reply: FastifyReply, json: string | JsonChunks) {
  reply.type('application/json; charset=utf-8');
  if (typeof json === 'string') return reply.send(json);
  reply.header('content-length', json.bytes);
  // 'close' comes once the response was flushed to the socket, or abandoned: either way the lent buffers are free.
  if (json.release) reply.raw.once('close', json.release);
  return reply.send(Readable.from(json.chunks));
}

/** /api/v1/sqllab/ as Superset's SqlLabRestApi; result rows go out as the stored JSON bytes. */
export function registerSqlLabRest(app: FastifyInstance, services: Services): void {
  const { sqllab, sqllabExport, tabStates } = services;
  route(app, { method: 'GET', url: '/api/v1/sqllab/', permission: ['can_sqllab', 'Superset'], summary: 'SQL Lab bootstrap: tabs, active tab, databases, queries', tags }, ({ actor }) => tabStates.bootstrap(actor));
  route(app, { method: 'POST', url: '/api/v1/sqllab/execute/', permission: ['can_execute_sql_query', 'SQLLab'], summary: 'Execute SQL (sync 200, async 202)', tags, body: ExecutePayloadSchema }, async ({ actor, body, reply }) => {
    const outcome = await sqllab.execute(actor, body);
    reply.code(outcome.status);
    return sendJson(reply, outcome.json);
  });
  route(
    app,
    { method: 'GET', url: '/api/v1/sqllab/results/', permission: ['can_get_results', 'SQLLab'], summary: 'Stored results of a query (key, rows, offset); 410 once expired', tags, rison: true, query: z.object({ q: ResultsQuerySchema }) },
    async ({ actor, query, reply }) => {
      return sendJson(reply, await sqllab.results(actor, query.q));
    },
  );
  route(app, { method: 'POST', url: '/api/v1/sqllab/estimate/', permission: ['can_estimate_query_cost', 'SQLLab'], summary: 'Estimate the cost of SQL', tags, body: EstimatePayloadSchema }, async ({ actor, body }) => ({
    result: await sqllab.estimate(actor, body),
  }));
  route(app, { method: 'POST', url: '/api/v1/sqllab/format_sql/', permission: ['can_format_sql', 'SQLLab'], summary: 'Format SQL in the database dialect', tags, body: FormatSqlPayloadSchema }, async ({ actor, body }) => ({
    result: await sqllab.formatSql(actor, body),
  }));
  route(
    app,
    { method: 'GET', url: '/api/v1/sqllab/export/:client_id/', permission: ['can_export_csv', 'SQLLab'], summary: 'Export the results of a query as CSV (streamed)', tags, params: z.object({ client_id: z.string() }) },
    async ({ actor, params, reply }) => {
      const { filename, stream } = await sqllabExport.exportCsv(actor, params.client_id);
      const quoted = encodeURIComponent(filename);
      reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="${quoted}"; filename*=UTF-8''${quoted}`);
      return reply.send(stream);
    },
  );
}
