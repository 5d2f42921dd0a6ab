import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server serves client/dist under /static/ and answers index.html for every other page path.
const server = process.env.MERIDIAN_URL ?? 'http://localhost:8088';

export default defineConfig({
  base: '/static/',
  plugins: [react()],
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
