import { maskPassword, parseUri } from '@meridian/query-worker';

/** What Superset puts in place of a password in `sqlalchemy_uri`. */
export const PASSWORD_MASK = 'XXXXXXXXXX';

const USERINFO = /^([A-Za-z0-9+._-]+:\/\/)([^:/@?#]*)(?::([^@/?#]*))?@/;

/** The password written in a URI (decoded), or null. */
export function passwordOf(uri: string): string | null {
  const match = USERINFO.exec(uri);
  if (!match || match[3] === undefined) return null;
  return decodeURIComponent(match[3]);
}

/** The URI with its password masked (`postgresql://user:XXXXXXXXXX@host/db`). */
export function maskedUri(uri: string): string {
  return maskPassword(uri);
}

/** The URI with `password` put back in place of the mask (or of any password). */
export function withPassword(uri: string, password: string | null): string {
  if (password === null) return uri;
  return uri.replace(USERINFO, (_all, scheme: string, user: string) => `${scheme}${user}:${encodeURIComponent(password)}@`);
}

/** Validates a URI; returns an error text when it cannot be parsed or has no engine. */
export function uriProblem(uri: string): string | null {
  try {
    parseUri(uri);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
