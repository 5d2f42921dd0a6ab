import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EstimatePayloadSchema, ExecutePayloadSchema, FormatSqlPayloadSchema, ResultsQuerySchema } from '@meridian/contracts';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { route, serverTiming } from '../rest/rest';
import type { JsonStream } from '../results/raw-json';
import type { Services } from '../services';

const tags = ['SQL Lab'];

/** Writes `chunk` to the response; resolves once its bytes have left (the buffer may then be reused), rejects if the response closes first. */
function writeChunk(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (res.destroyed) return reject(new Error('response closed'));
    // 'close' comes once the socket is closed: no write of ours is pending any more.
    const onClose = () => reject(new Error('response closed'));
    res.once('close', onClose);
    res.write(chunk, (error) => {
      res.off('close', onClose);
      if (error) reject(error);
      else resolve();
    });
  });
}

/**
 * Sends JSON text, or a JSON stream written straight to the socket, chunk by chunk (chunked
 * encoding): a page's buffer is read into again only after its bytes were written, so a
 * 100k-row answer holds two pages, not the whole answer. The reply is hijacked for that, so the
 * headers Fastify would add on send (Server-Timing) are set here.
 */
async function sendJson(reply: FastifyReply, json: string | JsonStream) {
  reply.type('application/json; charset=utf-8');
  if (typeof json === 'string') return reply.send(json);
  reply.header('server-timing', serverTiming(reply));
  reply.hijack();
  const res = reply.raw;
  const headers = Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined);
  res.writeHead(reply.statusCode, Object.fromEntries(headers) as OutgoingHttpHeaders);
  try {
    await json.pipe((chunk) => writeChunk(res, chunk));
    res.end();
  } catch (error) {
    // Headers are gone: the only honest signal left is an incomplete response.
    if (!res.destroyed) reply.log.error({ err: error }, 'sending stored rows failed');
    res.destroy();
  }
  return reply;
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
