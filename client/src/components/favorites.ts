import { api } from '../api';

/** The REST resources with favourites (`/api/v1/<resource>/favorite_status/`, `/{id}/favorites/`). */
export type FavoriteResource = 'chart' | 'dashboard';

/** Cache key of one object's favourite status for the signed-in user. */
export const favoriteStatusKey = (resource: FavoriteResource, id: number) => [`${resource}-favorite`, id] as const;

type Waiter = { resolve: (v: boolean) => void; reject: (e: unknown) => void };
const waiting: Record<FavoriteResource, Map<number, Waiter[]>> = { chart: new Map(), dashboard: new Map() };
const scheduled: Record<FavoriteResource, boolean> = { chart: false, dashboard: false };

/**
 * Whether the user starred an object. Calls made in the same tick (one per list row) go to the server
 * as one `GET /api/v1/<resource>/favorite_status/?q=!(ids)`.
 */
export function fetchFavoriteStatus(resource: FavoriteResource, id: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const queue = waiting[resource];
    queue.set(id, [...(queue.get(id) ?? []), { resolve, reject }]);
    if (scheduled[resource]) return;
    scheduled[resource] = true;
    setTimeout(() => {
      const batch = new Map(queue);
      queue.clear();
      scheduled[resource] = false;
      api<{ result: { id: number; value: boolean }[] }>(`/api/v1/${resource}/favorite_status/`, { query: { q: [...batch.keys()] } })
        .then(({ result }) => {
          const byId = new Map(result.map((r) => [r.id, r.value]));
          for (const [objectId, callers] of batch) callers.forEach((c) => c.resolve(byId.get(objectId) ?? false));
        })
        .catch((error: unknown) => {
          for (const callers of batch.values()) callers.forEach((c) => c.reject(error));
        });
    }, 0);
  });
}

/** Stars or unstars an object (`POST`/`DELETE /api/v1/<resource>/{id}/favorites/`). */
export async function setFavoriteStatus(resource: FavoriteResource, id: number, on: boolean): Promise<void> {
  await api(`/api/v1/${resource}/${id}/favorites/`, { method: on ? 'POST' : 'DELETE' });
}
