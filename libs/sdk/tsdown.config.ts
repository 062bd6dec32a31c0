import { defineConfig } from 'tsdown';

// The published package: one ESM file and one bundled `.d.ts`. The workspace's own packages it
// uses (the contracts, the backoff) are inlined, so its only dependency is zod, from the registry.
export default defineConfig({
  entry: ['src/index.ts'],
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
  clean: true,
  deps: { alwaysBundle: [/^@coin\//] },
  tsconfig: 'tsconfig.build.json',
  dts: { resolve: [/^@coin\//] },
});
