import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { ROOT_DIR } from './config';
import { toRestError } from './errors/to-rest';
import { registerOpenApi } from './rest/openapi';
import { serverTiming } from './rest/rest';
import type { Actor } from './security/actor';
import { registerSecurityRest, SESSION_COOKIE } from './security/security.rest';
import { closeServices, type Services } from './services';
import { appRouter, type AppRouter } from './trpc/app-router';
import { registerUserRest } from './users/user.rest';
import { registerRoleRest } from './roles/role.rest';
import { registerUploadRest } from './upload/upload.rest';
import { registerTagRest } from './tag/tag.rest';
import { registerScreenshotRest } from './screenshot/screenshot.rest';
import { registerHomeRest } from './home/home.rest';
import { registerDatabaseRest } from './database/database.rest';
import { registerSqlLabRest } from './sqllab/sqllab.rest';
import { registerQueryRest } from './query/query.rest';
import { registerSavedQueryRest } from './saved-query/saved-query.rest';
import { registerKeyValueRest } from './key-value/key-value.rest';
import { registerTabStateRest } from './tab-state/tab-state.rest';
import { registerDatasetRest } from './dataset/dataset.rest';
import { registerAssetsRest } from './assets/assets.rest';
import { registerCssTemplateRest } from './css-template/css-template.rest';
import { registerReportRest } from './report/report.rest';
import { registerRlsRest } from './rls/rls.rest';
import { COMMON_SECURITY_HEADERS, contentSecurityPolicy, inlineScriptHashes } from './security/headers';
import { sendIndexPage } from './page/index-page';
import { actionLogEntry } from './log/action-log';
import { registerLogRest } from './log/log.rest';
import { registerEmbeddedRest } from './embedded/embedded.rest';
import { GUEST_TOKEN_HEADER } from './embedded/embedded.service';
import fastifyMultipart from '@fastify/multipart';
import { registerChartRest } from './chart/chart.rest';
import { registerDashboardRest } from './dashboard/dashboard.rest';
import { registerChartDataRest } from './chart-data/chart-data.rest';
import { registerAdvancedDataTypeRest } from './advanced-data-type/advanced-data-type.rest';
import { registerExploreRest } from './explore/explore.rest';
import { registerAnnotationLayerRest } from './annotation-layer/annotation-layer.rest';
import { registerAsyncEventSocket } from './async-event/async-event.ws';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: { actor: Actor; via: 'bearer' | 'session' | 'guest'; sid?: string } | null;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Routes a browser reaches before it has a session (and so before it has a CSRF token).
// The event log takes beacons, which cannot carry the CSRF header (Superset exempts its log view too).
const CSRF_EXEMPT = new Set(['/login/', '/api/v1/security/login', '/api/v1/security/refresh', '/superset/log/']);

const noFastifySchemas = (): never => {
  throw new Error('Meridian validates with zod: give the route a zod schema through rest/route.ts, not a fastify schema');
};

/** Builds the HTTP app: auth, CSRF, both doors (tRPC at /trpc, REST at /api/v1), docs, health and the client. */
export async function buildApp(services: Services, opts: { serveClient?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: services.logger,
    genReqId: (req) => (req.headers['x-request-id'] as string) || randomUUID(),
    forceCloseConnections: 'idle',
    // Behind a load balancer, req.ip is the client's address only when the proxy is trusted.
    // Fastify accepts a hop count at run time (lib/request.js), though its types omit number.
    trustProxy: services.config.trustProxy as boolean | string,
    bodyLimit: 20 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // Every door validates with zod (rest/route.ts, tRPC): no route has a fastify schema, so Ajv and
    // fast-json-stringify, which fastify otherwise loads at creation (a tenth of a second of a start), are never needed.
    schemaController: { compilersFactory: { buildValidator: () => noFastifySchemas, buildSerializer: () => noFastifySchemas } },
  }) as unknown as FastifyInstance;
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart);
  // Answers over 1 KB are compressed for clients that accept it, as Superset does (Flask-Compress, COMPRESS_REGISTER):
  // a chart's rows as JSON shrink six times over (a 5,000-row table: 410 KB, 54 KB as brotli). Brotli at a quality
  // that costs about what gzip does; the built assets come already compressed (their Content-Encoding set, so they
  // are left alone).
  if (services.config.compressResponses) await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip', 'deflate'], brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } } });
  // Scripts often set `Content-Type: application/json` on every call: a DELETE or GET with an empty body has no
  // body (as Flask reads it), not a 400. Everything else parses as Fastify's own JSON parser would.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' && (req.method === 'DELETE' || req.method === 'GET')) return done(null, undefined);
    parseJson(req, body as string, done);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    req.auth = await services.security.resolve({ bearer, session: bearer ? undefined : req.cookies[SESSION_COOKIE] });
    // An embedded dashboard's calls carry a guest token instead (a header, so no CSRF applies).
    const guestToken = req.headers[GUEST_TOKEN_HEADER];
    if (!req.auth && typeof guestToken === 'string' && guestToken) {
      const guest = await services.embedded.guestActor(guestToken);
      if (guest) req.auth = { actor: guest, via: 'guest' };
    }
    const path = req.url.split('?')[0];
    if (req.auth?.via === 'session' && MUTATING.has(req.method) && !CSRF_EXEMPT.has(path)) {
      const sent = req.headers['x-csrftoken'] ?? req.headers['x-csrf-token'];
      if (sent !== services.security.tokens.csrfFor(req.auth.sid!)) {
        return reply.code(400).send({ message: 'The CSRF token is missing or invalid.', errors: [{ message: 'The CSRF token is missing or invalid.', error_type: 'GENERIC_BACKEND_ERROR', level: 'error', extra: {} }] });
      }
    }
  });

  // Server-Timing: the time the server spent on the request (browsers show it beside the network
  // time; scripts/bench reads it as "server time").
  // Security headers on every answer; pages (text/html) also get the Content-Security-Policy unless their route set
  // its own (the embedded page's framing rule).
  // The client's page, built before the server starts (null when only the API is served).
  const indexPath = join(ROOT_DIR, 'client/dist/index.html');
  const indexHtml = opts.serveClient !== false && existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
  const scriptHashes = indexHtml ? inlineScriptHashes(indexHtml) : [];
  const { talisman } = services.config;
  const pagePolicy = (frameAncestors: string[]) => contentSecurityPolicy({ scriptHashes, connect: services.config.webserverDomains, frameAncestors });
  const defaultPolicy = pagePolicy(["'self'", ...talisman.frameAncestors]);
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('server-timing', serverTiming(reply));
    reply.headers(COMMON_SECURITY_HEADERS);
    if (talisman.enabled && !reply.hasHeader('content-security-policy') && String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', defaultPolicy);
    }
    return payload;
  });

  // The action log: every call that changes something, once answered (who, what, on which object, how long).
  app.addHook('onResponse', async (req, reply) => {
    const entry = actionLogEntry({
      method: req.method,
      path: req.url.split('?')[0]!,
      route: req.routeOptions.url ?? null,
      params: (req.params ?? {}) as Record<string, unknown>,
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
      userId: req.auth?.actor.guest ? null : (req.auth?.actor.userId ?? null),
      referrer: (req.headers.referer as string | undefined) ?? null,
    });
    if (entry) services.logs.record([entry]);
  });

  app.setErrorHandler(async (error, req, reply) => {
    const { status, body, internal } = toRestError(error);
    if (internal) req.log.error({ err: error }, 'unhandled error');
    // A refused upload's body was never read: Node would close the connection under the client still sending
    // it. Up to 64 MB it is read away first, so the client gets this answer.
    if (req.isMultipart() && !req.raw.readableEnded && Number(req.headers['content-length'] ?? Infinity) <= 64 * 1024 * 1024) {
      req.raw.resume();
      await new Promise((resolve) => (req.raw.readableEnded ? resolve(null) : req.raw.once('end', resolve).once('error', resolve)));
    }
    return reply.code(status).send(internal ? { message: `Internal server error (request ${req.id})` } : body);
  });

  app.get('/health', async () => 'OK');
  app.get('/healthcheck', async () => 'OK');

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req }) => ({ actor: req.auth?.actor ?? null, services }),
      onError: ({ error, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error }, 'tRPC error');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  registerSecurityRest(app, services);
  registerUserRest(app, services);
  registerRoleRest(app, services);
  registerUploadRest(app, services);
  if (services.config.featureFlags.TAGGING_SYSTEM) registerTagRest(app, services);
  registerScreenshotRest(app, services);
  registerHomeRest(app, services);
  registerDatabaseRest(app, services);
  registerSqlLabRest(app, services);
  registerQueryRest(app, services);
  registerSavedQueryRest(app, services);
  registerKeyValueRest(app, services);
  registerTabStateRest(app, services);
  registerDatasetRest(app, services);
  registerChartRest(app, services);
  registerChartDataRest(app, services);
  registerExploreRest(app, services);
  registerAnnotationLayerRest(app, services);
  registerDashboardRest(app, services);
  registerAssetsRest(app, services);
  registerCssTemplateRest(app, services);
  if (services.config.featureFlags.ALERT_REPORTS) registerReportRest(app, services);
  registerRlsRest(app, services);
  registerLogRest(app, services);
  registerEmbeddedRest(app, services);
  registerAdvancedDataTypeRest(app);
  registerAsyncEventSocket(app, services);
  // Closing waits for in-flight requests and background queries, but only SHUTDOWN_GRACE_SECONDS:
  // then the queries still running are stopped (recorded as stopped, cancelled on the database),
  // which ends their requests and jobs, so a 6-hour async query cannot hold a deploy.
  let graceTimer: NodeJS.Timeout | undefined;
  let stoppingQueries: Promise<void> | undefined;
  const stopQueries = () =>
    (stoppingQueries ??= services.queryRuntime.close().catch((err) => services.logger.error({ err }, 'stopping queries at shutdown failed')));
  app.addHook('preClose', async () => {
    graceTimer = setTimeout(() => {
      services.logger.warn({ graceSeconds: services.config.shutdownGraceSeconds }, 'shutdown grace period over: stopping running queries');
      void stopQueries();
    }, services.config.shutdownGraceSeconds * 1000);
    graceTimer.unref();
  });
  // Reports run in every web process that has the scheduler on; a run is claimed in the metadata store, so each runs once.
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (!services.config.reports.webdriverBaseUrl && typeof address === 'object' && address) services.reportExecutor.baseUrl = `http://127.0.0.1:${address.port}`;
    if (services.config.reports.scheduler && services.config.featureFlags.ALERT_REPORTS) services.reportScheduler.start();
  });
  // With the job queue on Redis, a web process takes jobs too unless WEB_RUNS_JOBS=false leaves them to workers.
  app.addHook('onReady', async () => {
    if (services.config.jobs.webRunsJobs) services.jobs.consume(services.config.workerPoolSize);
  });
  app.addHook('onClose', async () => {
    await closeServices(services, async () => {
      clearTimeout(graceTimer);
      await stopQueries();
    });
  });
  await registerOpenApi(app);

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const isApi = /^\/(api|trpc|swagger)\//.test(path);
    if (!isApi && req.method === 'GET' && indexHtml) return sendIndexPage(services, req, reply, indexHtml);
    return reply.code(404).send({ message: 'Not found' });
  });
  if (indexHtml) {
    const { default: fastifyStatic } = await import('@fastify/static');
    await app.register(fastifyStatic, {
      root: join(ROOT_DIR, 'client/dist'),
      prefix: '/static/',
      wildcard: true,
      index: false,
      // The build's brotli and gzip copies (client/vite.config.ts), to browsers that accept them.
      preCompressed: true,
      // Built assets carry a content hash in their names: cache them for good; index.html never. The
      // plugin's own cache-control (max-age=0) is off, else it replaces this one.
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
        // One address, several encodings: a shared cache keeps each apart.
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
    app.get('/', (req, reply) => sendIndexPage(services, req, reply, indexHtml));
    // The embedded page may be framed only by its allowed domains (none listed: any), as Superset checks.
    const embeddedPage = async (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
      const domains = await services.embedded.allowedDomains((req.params as { uuid: string }).uuid);
      if (domains === null) return reply.code(404).type('text/plain').send('This dashboard is not embedded.');
      if (domains.length) {
        const referrer = req.headers.referer ? new URL(req.headers.referer).origin : null;
        if (referrer && !domains.some((d) => new URL(d.includes('://') ? d : `https://${d}`).origin === referrer || d === referrer)) {
          return reply.code(403).type('text/plain').send('This dashboard may not be embedded on this site.');
        }
      }
      const frameAncestors = domains.length ? ["'self'", ...domains] : ['*'];
      reply.header('content-security-policy', talisman.enabled ? pagePolicy(frameAncestors) : `frame-ancestors ${frameAncestors.join(' ')}`);
      return reply.sendFile('index.html');
    };
    app.get('/embedded/:uuid', embeddedPage);
    app.get('/embedded/:uuid/', embeddedPage);
  }
  return app;
}
