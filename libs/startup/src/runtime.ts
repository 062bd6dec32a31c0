/**
 * How a launcher written in TypeScript (make up, the test harness and chaos, the compile cache's
 * warm-up) starts a process as every service runs: through `libs/startup/bin/node-service.sh`, the
 * one place that holds the runtime flags and says why each is there. The image's ENTRYPOINT runs it too.
 */
import { fileURLToPath } from 'node:url';

const LAUNCHER = fileURLToPath(new URL('../bin/node-service.sh', import.meta.url));

/**
 * A checkout's compile cache (the image keeps its own, filled when it is built): a source unchanged
 * since the last start is not type-stripped again (docs/decisions/2026-11-23-compile-cache.md).
 */
const COMPILE_CACHE = fileURLToPath(
  new URL('../../../node_modules/.cache/node-compile-cache', import.meta.url),
);

export interface ServiceCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * `node <args>` as a service runs: this process's node binary with the launcher's flags and
 * settings, and the checkout's compile cache unless `env` names another one.
 */
export function asService(args: readonly string[], env: NodeJS.ProcessEnv = process.env): ServiceCommand {
  return {
    command: '/bin/sh',
    args: [LAUNCHER, ...args],
    env: { NODE_COMPILE_CACHE: COMPILE_CACHE, ...env, NODE_BINARY: process.execPath },
  };
}
