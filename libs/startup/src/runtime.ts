/**
 * How every service process is run, measured with `make bench` (README, "Memory of a service"):
 * `make up` and the test harness's child processes use these; the Dockerfile's ENTRYPOINT and ENV
 * and docker-compose.yml's entrypoint carry the same values (`npm run deploy:check` compares them).
 */
import { fileURLToPath } from 'node:url';

/**
 * V8's heap sizing. The young generation grows to 64 MB under load by default (32 MB semi-spaces),
 * and reaches its maximum already while a service loads its modules: 8 MB semi-spaces kept 16 MB
 * resident in every process from its start, 4 MB ones keep 8 MB. 2 MB ones kept 4 MB, but cost the
 * gateway and the wallet about 10 % more CPU per transfer and echo in `make bench stack`. After a
 * full collection the old generation may grow up to 4x its live size before the next one (a service
 * that keeps 45 MB grew to 90 MB committed under the bench's load): 30 % bounds it at 1.3x.
 *
 * Allocation-site pretenuring is off: with it, about one gateway start in seven ran its whole life with
 * four times the full collections and 0.070-0.075 ms of CPU per echo, not 0.042-0.044 (10 of 65
 * starts under the echo load; none of 34 without it), and transfers cost the same either way.
 * (`--heap-growing-percent` and `--no-allocation-site-pretenuring` are V8 flags, not Node's: checked
 * on Node 24, whose V8 the image and the project's Node share.)
 *
 * The collector keeps its helper threads: with `--single-threaded-gc` every process together used
 * about 15 % more CPU per transfer (README, "Measuring the deployed stack").
 */
const RUNTIME_FLAGS = [
  '--max-semi-space-size=4',
  '--heap-growing-percent=30',
  '--no-allocation-site-pretenuring',
];

/**
 * Node's arguments before a service's entry module: the runtime flags, then the OpenTelemetry hook,
 * which loads before the service and does nothing unless OTLP export is configured.
 */
export const SERVICE_NODE_ARGS = [...RUNTIME_FLAGS, '--import', '@coin/telemetry/register'];

export const RUNTIME_ENV = {
  // Type stripping loads a WebAssembly compiler into every process (about 15 MB, and a second of
  // CPU at start); with the cache, a source unchanged since the last start is not stripped again.
  NODE_COMPILE_CACHE: fileURLToPath(
    new URL('../../../node_modules/.cache/node-compile-cache', import.meta.url),
  ),
  // glibc raises its mmap threshold to the largest block freed, up to 32 MB: after one argon2 hash
  // (19 MiB) every later hash is carved from the heap and kept, 19 MiB per thread that ran one
  // (identity grew by 60-190 MB on a few logins). A fixed threshold returns such blocks to the system.
  MALLOC_MMAP_THRESHOLD_: String(1024 * 1024),
  // glibc gives each thread that allocates (V8's compiler and collector helpers, libuv's pool) an
  // arena of its own, up to 8 per core, each keeping what it freed: two bound that (5-10 MB less per
  // service in make bench stack).
  MALLOC_ARENA_MAX: '2',
};
