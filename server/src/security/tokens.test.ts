import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from './tokens';

describe('TokenSigner', () => {
  it('verifies a token of its type and reuses the claims, never for another type', async () => {
    const signer = new TokenSigner('secret');
    const token = await signer.sign('access', 7);
    expect(await signer.verify(token, 'access')).toEqual({ userId: 7, sid: undefined, fresh: undefined });
    expect(await signer.verify(token, 'access')).toEqual({ userId: 7, sid: undefined, fresh: undefined });
    expect(await signer.verify(token, 'session')).toBeNull();
    expect(await signer.verify(token, 'refresh')).toBeNull();
    const session = await signer.sign('session', 3);
    const claims = await signer.verify(session, 'session');
    expect(claims).toMatchObject({ userId: 3, sid: expect.any(String) });
    // Callers get copies: changing one changes no later answer.
    claims!.userId = 99;
    expect((await signer.verify(session, 'session'))!.userId).toBe(3);
  });

  it('rejects forged tokens and tokens of another key', async () => {
    const signer = new TokenSigner('secret');
    const token = await signer.sign('access', 7);
    expect(await signer.verify(`${token.slice(0, -2)}xx`, 'access')).toBeNull();
    expect(await new TokenSigner('other').verify(token, 'access')).toBeNull();
    expect(await signer.verify(token, 'access')).not.toBeNull();
  });

  it('does not serve remembered claims past the token expiry', async () => {
    const signer = new TokenSigner('secret', 60_000);
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = await new SignJWT({ type: 'access' }).setProtectedHeader({ alg: 'HS256' }).setSubject('5').setExpirationTime(exp).sign(new TextEncoder().encode('secret'));
    expect(await signer.verify(token, 'access')).toMatchObject({ userId: 5 });
    await new Promise((r) => setTimeout(r, exp * 1000 - Date.now() + 50));
    expect(await signer.verify(token, 'access')).toBeNull();
  });
});
