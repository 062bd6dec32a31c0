import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Inside the repository `@coin/sdk` resolves to its TypeScript source (its package's `@coin/source`
// export condition); partners get the built `dist/` it is published with.
const SOURCE = '@coin/source';

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions] } },
  test: {
    include: [
      'libs/*/test/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'e2e/**/*.test.ts',
      'dashboard/test/**/*.test.ts',
      'deploy/test/**/*.test.ts',
      'backup/test/**/*.test.ts',
      'scripts/*/test/**/*.test.ts',
      'docs/site/test/**/*.test.ts',
      'chaos/test/**/*.test.ts',
    ],
    environment: 'node',
    // Every process refuses to start without APP_MODE: tests, and the commands they start, run in
    // development mode unless a test says otherwise.
    env: { APP_MODE: 'development' },
    pool: 'forks',
    // Two cores: two test files at a time; each file starts its own services and databases.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    teardownTimeout: 30_000,
    // expect.poll waits on real servers and a real browser; on a loaded 2-core CI machine a page or
    // a consumer can take several seconds, far past vitest's 1 s default.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
  },
});
