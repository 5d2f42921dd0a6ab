import { isAdmin, hasPermission } from '@meridian/contracts/rules/permissions';
import { Forbidden, TooManyRequests, Unauthorized } from '../errors/domain-errors';
import type { Actor } from './actor';
import { LoginThrottle } from './login-throttle';
import { verifyPassword } from './password';
import { SecurityRepository } from './security.repository';
import type { TokenSigner } from './tokens';

/** How long a resolved actor is reused (milliseconds). */
const ACTOR_TTL_MS = 5_000;
/** Bound of the actor cache (cleared when reached). */
const MAX_CACHED_ACTORS = 10_000;

/** Authentication (password login, tokens, sessions) and the server-side permission checks. */
export class SecurityService {
  private readonly throttle = new LoginThrottle();
  /**
   * Actors (user + roles + permissions) resolved in the last few seconds, by user id: every
   * request resolves its actor, and these are metadata reads a request need not repeat. Changes
   * through UserService invalidate at once; other changes (grants edited in the database, another
   * process) count within `actorTtlMs`.
   */
  private readonly actors = new Map<number, { actor: Actor | null; until: number }>();
  private generation = 0;

  constructor(
    private readonly repo: SecurityRepository,
    readonly tokens: TokenSigner,
    private readonly actorTtlMs = ACTOR_TTL_MS,
  ) {}

  /** Checks a username and password; slows down repeated failures; returns the actor. */
  async login(username: string, password: string, clientKey = ''): Promise<Actor> {
    for (const key of [`u:${username}`, `ip:${clientKey}`]) {
      const wait = this.throttle.waitFor(key);
      if (wait > 0) throw new TooManyRequests(`Too many failed login attempts. Try again in ${Math.ceil(wait / 1000)} s.`);
    }
    const user = await this.repo.findUserByUsername(username);
    const ok = !!user && user.active && (await verifyPassword(password, user.password));
    if (!ok) {
      this.throttle.fail(`u:${username}`);
      this.throttle.fail(`ip:${clientKey}`);
      if (user) await this.repo.recordLogin(user.id, false);
      throw new Unauthorized('Invalid login');
    }
    this.throttle.succeed(`u:${username}`);
    this.throttle.succeed(`ip:${clientKey}`);
    await this.repo.recordLogin(user.id, true);
    return this.actorFor(user.id) as Promise<Actor>;
  }

  /** The actor for a user id, with current roles; null when the user is gone or inactive. */
  async actorFor(userId: number): Promise<Actor | null> {
    const now = Date.now();
    const hit = this.actors.get(userId);
    if (hit && hit.until > now) return hit.actor;
    const generation = this.generation;
    const actor = await this.loadActor(userId);
    // A change made while loading (see invalidateActors) must not be hidden by this older read.
    if (this.actorTtlMs > 0 && generation === this.generation) {
      if (this.actors.size >= MAX_CACHED_ACTORS) this.actors.clear();
      this.actors.set(userId, { actor, until: now + this.actorTtlMs });
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
}
