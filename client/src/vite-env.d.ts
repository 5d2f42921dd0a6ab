/// <reference types="vite/client" />

/** Every Superset `select_country` key with shapes, sorted (client/src/viz/country_map/country-shapes.build.ts). */
declare module 'virtual:country-map-keys' {
  const keys: readonly string[];
  export default keys;
}

/** The Country Map's shapes, one loader per Superset `select_country` key (client/src/viz/country_map/country-shapes.build.ts). */
declare module 'virtual:country-map-shapes' {
  const loaders: Record<string, () => Promise<{ default: import('./viz/country_map/country-shapes.build').CompactCountry }>>;
  export default loaders;
}
