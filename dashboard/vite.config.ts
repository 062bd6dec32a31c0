import { defaultClientConditions, defineConfig } from 'vite';

// Served by the gateway under /dashboard (services/gateway/src/dashboard/serve.ts). `@coin/sdk` is
// bundled from its TypeScript source (its package's `@coin/source` export condition), not its dist.
export default defineConfig({
  base: '/dashboard/',
  resolve: { conditions: ['@coin/source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets' },
});
