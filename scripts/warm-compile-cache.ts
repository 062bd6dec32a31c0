/**
 * `make install`'s last step: fills the compile cache that every service process starts with
 * (NODE_COMPILE_CACHE, under the services' own V8 flags, which key it: `asService`). Without it the first
 * `make up` or `make bench` after a clone or a change type-strips every module, and the compiler
 * that strips them stays in each process's memory (docs/decisions/2026-11-23-compile-cache.md).
 * Modules loaded only when first used (`@coin/db`, `@coin/startup`'s) are loaded here too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { asService } from '@coin/startup/runtime';

const services = readdirSync('services').filter((s) => existsSync(`services/${s}/src/index.ts`));
const modules = [
  ...services.map((s) => `./services/${s}/src/index.ts`),
  '@coin/startup',
  '@coin/startup/process',
  '@coin/db',
  // The module a process starts from is stripped like any other: left out, every process loaded the
  // compiler for it alone. Importing it would start the service, so `runMain` is resolved below to a
  // function that does nothing.
  ...services
    .filter((s) => existsSync(`services/${s}/src/main.ts`))
    .map((s) => `./services/${s}/src/main.ts`),
];
const startsNothing = 'data:text/javascript,export function runMain() {}';
const script = `
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    return context.parentURL?.endsWith('/src/main.ts') && specifier.startsWith('@coin/startup')
      ? { url: ${JSON.stringify(startsNothing)}, shortCircuit: true }
      : next(specifier, context);
  },
});
${modules.map((m) => `await import(${JSON.stringify(m)});`).join('\n')}`;
const run = asService(['--input-type=module', '-e', script]);
const result = spawnSync(run.command, run.args, { env: run.env, stdio: 'inherit' });
// A cold cache costs memory and a second at start, never correctness: make install goes on.
if (result.status !== 0) console.warn('warm-compile-cache: the compile cache was not filled');
