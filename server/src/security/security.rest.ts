import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { LoginSchema, type MeView } from '@meridian/contracts';
import { menuFor } from '@meridian/contracts/rules/menu';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import { NotFound, Unauthorized } from '../errors/domain-errors';
import { route } from '../rest/rest';
import type { Services } from '../services';
import type { Actor } from './actor';

export const SESSION_COOKIE = 'session';

const meView = (actor: Actor): MeView => ({
  id: actor.userId,
  username: actor.username,
  first_name: actor.firstName,
  last_name: actor.lastName,
  email: actor.email,
  is_active: true,
  is_anonymous: false,
});

/** Sets the signed, httpOnly, SameSite=Lax session cookie. */
export async function startSession(services: Services, reply: FastifyReply, actor: Actor): Promise<string> {
  const token = await services.security.tokens.sign('session', actor.userId);
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: services.config.env === 'production',
    maxAge: 7 * 24 * 3600,
  });
  return token;
}

/** /api/v1/security/* and /api/v1/me/*, plus the browser's /login/ and /logout/. */
export function registerSecurityRest(app: FastifyInstance, services: Services): void {
  route(app, { method: 'POST', url: '/api/v1/security/login', summary: 'Authenticate and get a JWT access and refresh token', tags: ['Security'], public: true, body: LoginSchema }, async ({ body, req }) => {
    // Flask-AppBuilder's SecurityApi.login answers a wrong login with its plain response_401: 'Not authorized'
    // (the sign-in page keeps 'Invalid login', as Superset's page says it).
    const actor = await services.security.login(body.username, body.password, req.ip).catch((error: unknown) => {
      throw error instanceof Unauthorized ? new Unauthorized() : error;
    });
    const access_token = await services.security.tokens.sign('access', actor.userId, { fresh: true });
    return body.refresh ? { access_token, refresh_token: await services.security.tokens.sign('refresh', actor.userId) } : { access_token };
  });

  route(app, { method: 'POST', url: '/api/v1/security/refresh', summary: 'Use the refresh token to get a new JWT access token', tags: ['Security'], public: true }, async ({ req }) => {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const claims = token ? await services.security.tokens.verify(token, 'refresh') : null;
    if (!claims || !(await services.security.actorFor(claims.userId))) throw new Unauthorized('Token is not a valid refresh token');
    return { access_token: await services.security.tokens.sign('access', claims.userId, { fresh: false }) };
  });

  route(app, { method: 'GET', url: '/api/v1/security/csrf_token/', summary: 'Get the CSRF token', tags: ['Security'] }, async ({ req }) => ({
    result: services.security.csrfToken(req.auth),
  }));

  route(app, { method: 'GET', url: '/api/v1/menu/', summary: 'The menu the user has access to, as a forest', tags: ['Menu'] }, ({ actor }) => ({
    result: menuFor((permission, view) => hasPermission(actor, permission, view), services.config.featureFlags),
  }));

  route(app, { method: 'GET', url: '/api/v1/available_domains/', summary: 'The domains the web app is served from (domain sharding)', tags: ['Available Domains'] }, () => ({
    result: { domains: services.config.webserverDomains },
  }));

  // Meridian keeps no avatars: every user answers 404, as Superset does for a user without one.
  route(app, { method: 'GET', url: '/api/v1/user/:user_id/avatar.png', summary: "The user's avatar (none are kept: 404)", tags: ['User'], params: z.object({ user_id: z.string() }) }, () => {
    throw new NotFound();
  });

  route(app, { method: 'GET', url: '/api/v1/me/', summary: 'Get the user object of the current user', tags: ['Current User'] }, ({ actor }) => ({ result: meView(actor!) }));

  route(app, { method: 'GET', url: '/api/v1/me/roles/', summary: 'Get the roles of the current user', tags: ['Current User'] }, async ({ actor }) => ({
    result: await services.security.bootstrapUserData(actor!),
  }));

  // The browser's form login: sets the session cookie and answers the user.
  route(app, { method: 'POST', url: '/login/', summary: 'Log in with a session cookie', tags: ['Security'], public: true, body: z.object({ username: z.string().min(1), password: z.string().min(1) }), unknown: 'exclude' }, async ({ body, req, reply }) => {
    const actor = await services.security.login(body.username, body.password, req.ip);
    await startSession(services, reply, actor);
    return { result: meView(actor) };
  });

  app.get('/logout/', async (_req, reply) => {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.redirect('/login/');
  });
  route(app, { method: 'POST', url: '/logout/', summary: 'Log out', tags: ['Security'], public: true }, ({ reply }) => {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { result: 'OK' };
  });
}
