import { api } from '../api';

/** Cache key of one chart's favourite status for the signed-in user. */
export const favoriteKey = (id: number) => ['chart-favorite', id] as const;

let waiting = new Map<number, Array<{ resolve: (v: boolean) => void; reject: (e: unknown) => void }>>();
let scheduled = false;

/**
 * Whether the user starred a chart. Calls made in the same tick (one per list row) go to the server as one
 * `GET /api/v1/chart/favorite_status/?q=!(ids)`.
 */
export function fetchFavorite(id: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    waiting.set(id, [...(waiting.get(id) ?? []), { resolve, reject }]);
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      const batch = waiting;
      waiting = new Map();
      scheduled = false;
      api<{ result: { id: number; value: boolean }[] }>('/api/v1/chart/favorite_status/', { query: { q: [...batch.keys()] } })
        .then(({ result }) => {
          const byId = new Map(result.map((r) => [r.id, r.value]));
          for (const [chartId, callers] of batch) callers.forEach((c) => c.resolve(byId.get(chartId) ?? false));
        })
        .catch((error: unknown) => {
          for (const callers of batch.values()) callers.forEach((c) => c.reject(error));
        });
    }, 0);
  });
}

/** Stars or unstars a chart (`POST`/`DELETE /api/v1/chart/{id}/favorites/`). */
export async function setFavorite(id: number, on: boolean): Promise<void> {
  await api(`/api/v1/chart/${id}/favorites/`, { method: on ? 'POST' : 'DELETE' });
}
