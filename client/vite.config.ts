import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { countryShapes } from './src/viz/country_map/country-shapes.build.ts';

/**
 * Writes a brotli and a gzip copy beside each built script, style sheet and SVG of more than 1 KB, which the
 * server sends to browsers that accept them (@fastify/static preCompressed): Explore's scripts cross the network
 * as ~0.4 of their size, compressed once at build, not on every request.
 */
function precompress(): Plugin {
  return {
    name: 'meridian-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const path = join(options.dir!, name);
        const bytes = readFileSync(path);
        if (bytes.length < 1024) continue;
        writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 10, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

// The server serves client/dist under /static/ and answers index.html for every other page path.
const server = process.env.MERIDIAN_URL ?? 'http://localhost:8088';

export default defineConfig({
  base: '/static/',
  plugins: [react(), precompress(), countryShapes()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': server,
      '/trpc': server,
      '/login/': { target: server, bypass: (req) => (req.method === 'GET' ? req.url : undefined) },
      '/logout/': server,
      '/superset/log/': server,
      '/superset/explore_json/': server,
    },
  },
});
