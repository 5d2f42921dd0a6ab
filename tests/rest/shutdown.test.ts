import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app';

/** A login POST on its own connection; resolves with status and body. */
function login(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/security/login`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ username: 'admin', password: 'admin', provider: 'db' }));
  });
}

describe('graceful shutdown', () => {
  it('finishes a request already in flight when the server closes, then stops listening', async () => {
    const t = await startTestApp({ listen: true });
    let received!: () => void;
    const arrived = new Promise<void>((r) => (received = r));
    t.app.server.once('request', () => received());
    // A login runs a slow password KDF, so it is still in flight when close() is called.
    const inFlight = login(t.url);
    await arrived;
    const closing = t.app.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).access_token).toEqual(expect.any(String));
    await closing;
    expect(t.app.server.listening).toBe(false);
    await t.close().catch(() => undefined);
  });
});
