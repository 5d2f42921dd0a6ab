import { createHmac, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { ExpiringMap } from '../common/expiring-map';

export type TokenType = 'access' | 'refresh' | 'session';

const LIFETIME: Record<TokenType, string> = { access: '15m', refresh: '30d', session: '7d' };

/** How long a verified token's claims are reused (milliseconds); never past the token's own expiry. */
const CLAIMS_TTL_MS = 5_000;
/** Bound of the claims memo (cleared when reached). */
const MAX_MEMOISED_CLAIMS = 10_000;

export interface TokenClaims {
  userId: number;
  sid?: string;
  fresh?: boolean;
}

/** Signs and checks the three kinds of token; all are HS256 JWTs keyed by SECRET_KEY, so any web node can check them. */
export class TokenSigner {
  private readonly key: Uint8Array;
  /**
   * Claims of tokens verified in the last few seconds, by token string: every request checks its
   * token, and a signature already checked need not be checked again. An entry never outlives the
   * token's `exp`; tokens are stateless (nothing revokes them), so reuse changes no answer.
   */
  private readonly verified = new ExpiringMap<string, { type: TokenType; claims: TokenClaims }>(MAX_MEMOISED_CLAIMS);

  constructor(
    private readonly secret: string,
    private readonly claimsTtlMs = CLAIMS_TTL_MS,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** A token for a user; sessions carry a random id that the CSRF token is derived from. */
  async sign(type: TokenType, userId: number, extra: Record<string, unknown> = {}): Promise<string> {
    return new SignJWT({ type, ...(type === 'session' ? { sid: randomBytes(12).toString('base64url') } : {}), ...extra })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuedAt()
      .setJti(randomBytes(8).toString('base64url'))
      .setExpirationTime(LIFETIME[type])
      .sign(this.key);
  }

  /** The claims of a valid token of the given type, or null (expired, forged, other type). */
  async verify(token: string, type: TokenType): Promise<TokenClaims | null> {
    const now = Date.now();
    const hit = this.verified.get(token, now);
    if (hit && hit.type === type) return { ...hit.claims };
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (payload.type !== type || !payload.sub) return null;
      const claims: TokenClaims = { userId: Number(payload.sub), sid: payload.sid as string | undefined, fresh: payload.fresh as boolean | undefined };
      // Only valid tokens are remembered, and never past their expiry (jose checks `exp` in whole seconds).
      const until = Math.min(now + this.claimsTtlMs, typeof payload.exp === 'number' ? payload.exp * 1000 : now);
      if (until > now) {
        this.verified.set(token, { type, claims }, until);
      }
      return { ...claims };
    } catch {
      return null;
    }
  }

  /** The CSRF token bound to a session id: an HMAC, so it needs no storage. */
  csrfFor(sid: string): string {
    return createHmac('sha256', this.secret).update(`csrf:${sid}`).digest('base64url');
  }
}
