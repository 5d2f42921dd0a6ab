import { isAdmin, hasPermission } from '@meridian/contracts/rules/permissions';
import { Forbidden, TooManyRequests, Unauthorized } from '../errors/domain-errors';
import type { Actor } from './actor';
import { createLoginThrottles, type LoginThrottle } from './login-throttle';
import { verifyPassword } from './password';
import { SecurityRepository } from './security.repository';
import type { TokenSigner } from './tokens';
import { ExpiringMap } from '../common/expiring-map';
import { pythonIsoformat } from '@meridian/contracts/rules/dates';

/** How long a resolved actor is reused (milliseconds). */
const ACTOR_TTL_MS = 5_000;
/** Bound of the actor cache (cleared when reached). */
const MAX_CACHED_ACTORS = 10_000;

/**
 * Failed logins are counted per (client address, username), so one user's mistyped passwords, or an
 * attacker guessing one account, never lock out the other people behind the same address (an
 * office NAT, a proxy). A looser count per address alone slows one address guessing many accounts.
 */
const PER_USER_THROTTLE = { freeFailures: 3, firstDelayMs: 5_000, maxDelayMs: 5 * 60_000, forgetAfterMs: 15 * 60_000 };
const PER_ADDRESS_THROTTLE = { freeFailures: 30, firstDelayMs: 5_000, maxDelayMs: 5 * 60_000, forgetAfterMs: 15 * 60_000 };

/** Authentication (password login, tokens, sessions) and the server-side permission checks. */
export class SecurityService {
  private readonly perUser: LoginThrottle;
  private readonly perAddress: LoginThrottle;
  private readonly actorTtlMs: number;
  private readonly closeThrottles: () => Promise<void>;
  /**
   * Actors (user + roles + permissions) resolved in the last few seconds, by user id: every
   * request resolves its actor, and these are metadata reads a request need not repeat. Changes
   * through UserService invalidate at once; other changes (grants edited in the database, another
   * process) count within `actorTtlMs`.
   */
  private readonly actors = new ExpiringMap<number, { actor: Actor | null }>(MAX_CACHED_ACTORS);
  private generation = 0;

  constructor(
    private readonly repo: SecurityRepository,
    readonly tokens: TokenSigner,
    opts: { actorTtlMs?: number; redisUrl?: string | null } = {},
  ) {
    this.actorTtlMs = opts.actorTtlMs ?? ACTOR_TTL_MS;
    // With REDIS_URL the failure counts are shared by every web process behind the load balancer.
    const { throttles, close } = createLoginThrottles({ user: PER_USER_THROTTLE, address: PER_ADDRESS_THROTTLE }, opts.redisUrl);
    this.perUser = throttles.user;
    this.perAddress = throttles.address;
    this.closeThrottles = close;
  }

  /** Releases the login throttle's Redis connection, if any. */
  async close(): Promise<void> {
    await this.closeThrottles();
  }

  /**
   * Checks a username and password; slows down repeated failures per (client address, username)
   * and, more loosely, per address (429 while the caller must wait); returns the actor.
   */
  async login(username: string, password: string, clientAddress = ''): Promise<Actor> {
    const userKey = `${clientAddress}\n${username}`;
    const wait = Math.max(await this.perUser.waitFor(userKey), await this.perAddress.waitFor(clientAddress));
    if (wait > 0) throw new TooManyRequests(`Too many failed login attempts. Try again in ${Math.ceil(wait / 1000)} s.`);
    const user = await this.repo.findUserByUsername(username);
    // The KDF runs for unknown and inactive users too (against a dummy hash when there is none), so
    // the response time does not reveal which usernames exist.
    const verified = await verifyPassword(password, user?.password);
    const ok = !!user && user.active && verified;
    if (!ok) {
      await Promise.all([this.perUser.fail(userKey), this.perAddress.fail(clientAddress)]);
      if (user) await this.repo.recordLogin(user.id, false);
      throw new Unauthorized('Invalid login');
    }
    // A success clears this user's count from this address; the address's count is left to its
    // own schedule, so one valid account cannot reset an address that guesses many others.
    await this.perUser.succeed(userKey);
    await this.repo.recordLogin(user.id, true);
    return this.actorFor(user.id) as Promise<Actor>;
  }

  /** The actor for a user id, with current roles; null when the user is gone or inactive. */
  async actorFor(userId: number): Promise<Actor | null> {
    const now = Date.now();
    const hit = this.actors.get(userId, now);
    if (hit) return hit.actor;
    const generation = this.generation;
    const actor = await this.loadActor(userId);
    // A change made while loading (see invalidateActors) must not be hidden by this older read.
    if (this.actorTtlMs > 0 && generation === this.generation) {
      this.actors.set(userId, { actor }, now + this.actorTtlMs);
    }
    return actor;
  }

  /**
   * Forgets cached actors (one user, or all): called when users or their roles change, so a
   * deactivated user or a removed role stops counting at once, not after the cache's few seconds.
   */
  invalidateActors(userId?: number): void {
    this.generation++;
    if (userId === undefined) this.actors.clear();
    else this.actors.delete(userId);
  }

  private async loadActor(userId: number): Promise<Actor | null> {
    const user = await this.repo.findUserById(userId);
    if (!user || !user.active) return null;
    return {
      userId: user.id,
      username: user.username,
      firstName: user.first_name,
      lastName: user.last_name,
      email: user.email,
      roles: await this.repo.rolesOf(user.id),
    };
  }

  /**
   * The signed-in user as Superset's `bootstrap_user_data(user, include_perms=True)` (`GET /api/v1/me/roles/`):
   * camelCase user fields, `roles` as role name to `[permission, view]` pairs, and `permissions` gathering the
   * `datasource_access` and `database_access` views. A guest has no id, email or creation date.
   */
  async bootstrapUserData(actor: Actor): Promise<Record<string, unknown>> {
    const user = { username: actor.username, firstName: actor.firstName, lastName: actor.lastName };
    let payload: Record<string, unknown>;
    if (actor.guest) {
      payload = { ...user, isActive: true, isAnonymous: false };
    } else {
      const row = await this.repo.findUserById(actor.userId);
      const createdOn = row ? pythonIsoformat(row.created_on) : null;
      payload = { ...user, userId: actor.userId, isActive: true, isAnonymous: false, createdOn, email: actor.email };
    }
    const permissions: Record<string, Set<string>> = {};
    for (const pairs of Object.values(actor.roles)) {
      for (const [permission, view] of pairs) {
        if (permission === 'datasource_access' || permission === 'database_access') (permissions[permission] ??= new Set()).add(view);
      }
    }
    const roles = Object.fromEntries(Object.entries(actor.roles).map(([name, pairs]) => [name, pairs.map(([p, v]) => [p, v])]));
    return { ...payload, roles, permissions: Object.fromEntries(Object.entries(permissions).map(([k, v]) => [k, [...v]])) };
  }

  /** Resolves the actor from a bearer token or a session cookie; the same function serves REST and tRPC. */
  async resolve(auth: { bearer?: string; session?: string }): Promise<{ actor: Actor; via: 'bearer' | 'session'; sid?: string } | null> {
    if (auth.bearer) {
      const claims = await this.tokens.verify(auth.bearer, 'access');
      const actor = claims && (await this.actorFor(claims.userId));
      return actor ? { actor, via: 'bearer' } : null;
    }
    if (auth.session) {
      const claims = await this.tokens.verify(auth.session, 'session');
      const actor = claims && (await this.actorFor(claims.userId));
      return actor ? { actor, via: 'session', sid: claims!.sid } : null;
    }
    return null;
  }

  /** Throws 401 without an actor and 403 `Forbidden` without the permission-view pair. */
  require(actor: Actor | null | undefined, permission: string, view: string): asserts actor is Actor {
    if (!actor) throw new Unauthorized();
    if (!hasPermission(actor, permission, view)) throw new Forbidden();
  }

  isAdmin(actor: Actor): boolean {
    return isAdmin(actor);
  }

  /**
   * The CSRF token a caller sends back on writes: a session's own, and one for a bearer-token caller too (Superset's
   * scripts fetch it and send it back, though bearer calls need none). None without a caller.
   */
  csrfToken(auth: { actor: Actor; via: string; sid?: string } | null | undefined): string | null {
    if (!auth) return null;
    return this.tokens.csrfFor(auth.sid ?? `${auth.via}:${auth.actor.userId}`);
  }
}
