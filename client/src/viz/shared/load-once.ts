/**
 * Code loaded once per key and remembered, so a second caller gets the same promise (or, once loaded, the
 * value at once); a failed load (the network) is forgotten and may be tried again. The chart registry,
 * chart components and time-series parts all load this way.
 */
export function loadOnce<K, T>(load: (key: K) => Promise<T>): { load: (key: K) => Promise<T>; get: (key: K) => T | undefined } {
  const ready = new Map<K, T>();
  const pending = new Map<K, Promise<T>>();
  return {
    get: (key) => ready.get(key),
    load(key) {
      if (ready.has(key)) return Promise.resolve(ready.get(key)!);
      let promise = pending.get(key);
      if (!promise) {
        promise = load(key).then(
          (value) => {
            ready.set(key, value);
            pending.delete(key);
            return value;
          },
          (error: unknown) => {
            pending.delete(key);
            throw error;
          },
        );
        pending.set(key, promise);
      }
      return promise;
    },
  };
}
