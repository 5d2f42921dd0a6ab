import { describe, expect, it } from 'vitest';
import { MemoryCacheStore } from '../cache/cache-store';
import type { Actor } from '../security/actor';
import { ScreenshotService } from './screenshot.service';

const person = (userId: number, roles: string[]): Actor => ({ userId, username: `u${userId}`, firstName: '', lastName: '', email: '', roles: Object.fromEntries(roles.map((r) => [r, []])) });

describe('screenshot cache', () => {
  it('shares a picture between users of the same roles, never with users of other roles (their rows may differ)', async () => {
    const drawnFor: number[] = [];
    const service = new ScreenshotService({
      security: { tokens: { sign: async (_type: string, userId: number) => `token-${userId}` } },
      charts: { get: async () => ({ id: 7, uuid: 'u', viz_type: 'table', params: '{}', query_context: null }) },
      dashboards: {},
      cache: new MemoryCacheStore(),
      // The picture says whom it was drawn for.
      renderer: { available: () => true, executablePath: '/usr/bin/chromium', render: async (r: { user: number }) => (drawnFor.push(r.user), Buffer.from(`rows for ${r.user}`)) },
      logger: { warn: () => undefined, error: () => undefined },
    } as never);
    const analyst = person(2, ['Gamma', 'Sales']);
    const sameRoles = person(3, ['Sales', 'Gamma']);
    const admin = person(1, ['Admin']);
    const digest = await service.request(analyst, 'chart', 7, 'http://x');
    await service.settled('chart', 7, digest);
    const opts = { redirectStale: false, baseUrl: 'http://x' };
    expect(await service.picture(sameRoles, 'chart', 7, digest, opts)).toEqual({ state: 'ready', png: Buffer.from('rows for 2') });
    expect(await service.picture(admin, 'chart', 7, digest, opts)).toBeNull();
    await service.request(admin, 'chart', 7, 'http://x');
    await service.settled('chart', 7, digest);
    expect(await service.picture(admin, 'chart', 7, digest, opts)).toEqual({ state: 'ready', png: Buffer.from('rows for 1') });
    expect(drawnFor).toEqual([2, 1]);
  });
});
