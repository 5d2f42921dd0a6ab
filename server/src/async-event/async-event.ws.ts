import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { WebSocket, WebSocketServer } from 'ws';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import { ASYNC_POLLING_INTERVAL_MS } from '@meridian/contracts/rules/constants';
import { SESSION_COOKIE } from '../security/security.rest';
import type { Services } from '../services';

/** Path of the async events WebSocket (`ws://host/ws?last_id=...`). */
export const ASYNC_EVENTS_WS_PATH = '/ws';

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * The async events WebSocket of spec 01 §7: the browser connects with `last_id`, receives every
 * event of its channel after it, then new ones as they arrive (each message one event as JSON).
 * Events are read from the same stream as polling, so any web node can serve any client.
 */
export function registerAsyncEventSocket(app: FastifyInstance, services: Services): void {
  // Made on the first connection: a process nobody opens a socket to never loads ws.
  let wss: WebSocketServer | null = null;
  const sockets = new Set<WebSocket>();

  app.server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== ASYNC_EVENTS_WS_PATH) return;
    void (async () => {
      const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('token') ?? undefined;
      const auth = await services.security.resolve({ bearer, session: bearer ? undefined : cookie(req, SESSION_COOKIE) }).catch(() => null);
      if (!auth || !hasPermission(auth.actor, 'can_read', 'AsyncEventsRestApi')) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
        return;
      }
      wss ??= new (await import('ws')).WebSocketServer({ noServer: true });
      wss.handleUpgrade(req, socket, head, (ws) => {
        sockets.add(ws);
        const channel = services.asyncEvents.channelFor(auth.actor);
        let lastId = url.searchParams.get('last_id') || null;
        let busy = false;
        const pump = async () => {
          if (busy || ws.readyState !== ws.OPEN) return;
          busy = true;
          try {
            const events = await services.asyncEvents.events(auth.actor, lastId);
            for (const event of events) {
              ws.send(JSON.stringify(event));
              lastId = event.id;
            }
          } catch (error) {
            app.log.warn({ err: error }, 'async event socket read failed');
          } finally {
            busy = false;
          }
        };
        const timer = setInterval(() => void pump(), ASYNC_POLLING_INTERVAL_MS);
        const unsubscribe = services.asyncEvents.subscribe(channel, () => void pump());
        void pump();
        ws.on('close', () => {
          clearInterval(timer);
          unsubscribe();
          sockets.delete(ws);
        });
      });
    })();
  });

  app.addHook('onClose', async () => {
    for (const ws of sockets) ws.terminate();
    wss?.close();
  });
}
