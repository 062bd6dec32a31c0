import { defineConfig } from 'vite';

// Served by the gateway under /dashboard (services/gateway/src/dashboard/serve.ts).
export default defineConfig({
  base: '/dashboard/',
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets' },
});
