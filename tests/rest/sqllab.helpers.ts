import { randomBytes } from 'node:crypto';
import type { TestApp } from '../helpers/app';

/** Bearer auth header for supertest. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Registers a database through REST and returns its id. */
export async function registerDatabase(t: TestApp, token: string, body: Record<string, unknown>): Promise<number> {
  const res = await t.http.post('/api/v1/database/').set(bearer(token)).send(body);
  if (res.status !== 201) throw new Error(`register ${String(body.database_name)} failed: ${res.status} ${res.text}`);
  return res.body.id as number;
}

export const clientId = () => randomBytes(8).toString('base64url').slice(0, 11);

/** Polls `until` every 50 ms until it returns a value (not a timing assertion: gives up after `limitMs`). */
export async function waitFor<T>(what: string, until: () => Promise<T | null | undefined | false>, limitMs = 30_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await until();
    if (value) return value;
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The query row of a client id as `updated_since` reports it. */
export async function queryState(t: TestApp, token: string, id: string): Promise<Record<string, any> | undefined> {
  const res = await t.http.get('/api/v1/query/updated_since').query({ q: '(last_updated_ms:0)' }).set(bearer(token));
  return (res.body.result as Record<string, any>[]).find((q) => q.id === id);
}
