import type { FastifyReply, FastifyRequest } from 'fastify';
import { ExploreBootstrapQuerySchema } from '@meridian/contracts';
import { bootstrapData } from '../security/bootstrap';
import type { Services } from '../services';

/** The element of the page that holds its data (client/src/page-data.ts reads it). */
export const PAGE_DATA_ID = 'meridian-page-data';

/** JSON inside a `<script>` element: no `</script>` or `<!--` can end or bend it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * What a page would fetch before drawing anything, written into it, as Superset writes its bootstrap data into each
 * page: the bootstrap (user, flags, limits), the CSRF token and, for Explore opening a chart or dataset, its
 * bootstrap answer (and a saved chart's query is started). The client then starts from its first script instead of a round of calls after it. An answer
 * that would be an error is left out: the client asks for it and shows the error as it always does.
 */
export async function pageData(services: Services, req: FastifyRequest): Promise<Record<string, unknown>> {
  const auth = req.auth?.via === 'guest' ? null : req.auth;
  const actor = auth?.actor ?? null;
  const data: Record<string, unknown> = {
    bootstrap: bootstrapData(services.config, actor),
    csrfToken: services.security.csrfToken(auth),
  };
  const url = new URL(req.url, 'http://page');
  // Not with a form_data_key: a reload sends the last edits to it as the page is left, which may land after this.
  if (actor && /^\/(superset\/)?explore\/?$/.test(url.pathname) && !url.searchParams.has('form_data') && !url.searchParams.has('form_data_key')) {
    const params = ExploreBootstrapQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (params.success) {
      // A saved chart's query starts with the page (ChartDataService.prefetch), unless the page is to force a new one.
      const sliceId = params.data.slice_id;
      if (sliceId && !url.searchParams.has('force')) void services.charts.record(actor, sliceId).then((chart) => services.chartData.prefetch(actor, chart), () => undefined);
      try {
        data.explore = { params: params.data, result: (await services.explore.bootstrap(actor, params.data)).result };
      } catch {
        // The client's own call shows the error.
      }
    }
  }
  return data;
}

/**
 * Sends the client's page (the built index.html, read once at start) with its data: revalidated on every visit and
 * kept out of shared caches (the user's data).
 */
export async function sendIndexPage(services: Services, req: FastifyRequest, reply: FastifyReply, indexHtml: string): Promise<FastifyReply> {
  const data = await pageData(services, req);
  const html = indexHtml.replace('</head>', `<script type="application/json" id="${PAGE_DATA_ID}">${scriptJson(data)}</script></head>`);
  return reply.header('cache-control', 'private, no-cache').type('text/html; charset=utf-8').send(html);
}
